// Context assembly for one cursor, as the provider runs it and the benchmark measures it: query graph
// → structural and lexical-semantic candidates → merge and rerank → MMR under the token budget →
// fused, serialized context. Each stage is timed for the transparency command.
import type { RepositoryGraph } from '../graph/repositoryGraph';
import { symbolId } from '../model/schema';
import { RootBoundary } from '../workspace/readSource';
import { CodeWindows, codeTerms } from './codeWindows';
import { commentPrefix, nodeLabel, serializeContext, snippetBlock, tripleText } from './fuse';
import { packContext, type Candidate, type Chosen } from './pack';
import { buildQueryGraph, extractInProcess, type CursorQuery, type ExtractBuffer, type QueryGraph } from './queryGraph';
import { renderNode, renderWindow } from './snippets';
import { SourceFiles } from './sourceFiles';
import { DefinitionNames } from './definitionNames';
import { structuralCandidates, type Triple } from './structural';
import { blockTokens, countTokens } from './tokens';
import { planWindow } from './window';

export interface AssembleOptions {
  /** Tokens of retrieved context (the buffer's own code is not counted). */
  budgetTokens: number;
  /** MMR trade-off: 1 = relevance only, 0 = diversity only. */
  mmrLambda: number;
  /**
   * The model's window: when given, the buffer is cut to what fits it with the context (window.ts)
   * and the budget shrinks if the window is small. Planned here, where the context is assembled (the
   * engine worker by default), so the tokenizer is loaded there, not in the extension host.
   */
  window?: { contextWindow: number; answerTokens: number };
}

export const DEFAULT_ASSEMBLE_OPTIONS: AssembleOptions = { budgetTokens: 2048, mmrLambda: 0.7 };

/** Similar code ranks below graph evidence of the same strength: a window is a guess, an edge is a fact. */
const SEMANTIC_WEIGHT = 0.4;
const MAX_GRAPH_CANDIDATES = 60;
const MAX_WINDOW_CANDIDATES = 10;
const SEMANTIC_QUERY_TERMS = 12;

export interface FusedSnippet {
  title: string;
  origin: 'graph' | 'similar';
  path: string;
  relevance: number;
  tokens: number;
  /** Node ids whose definition header the snippet shows. */
  covers: string[];
  code: string;
  /** The source line (in `path`) each line of `code` stands for; null for lines that stand for none. */
  lines?: Array<number | null>;
}

export interface FusedContext {
  path: string;
  /** Where the query graph put the cursor: its line, the definitions around it, the statement being typed. */
  cursor: { line: number; enclosing: string[]; partialStatement: string };
  /** The serialized block that precedes the buffer's code in the prompt. */
  text: string;
  triples: string[];
  snippets: FusedSnippet[];
  tokens: number;
  budgetTokens: number;
  /** Candidates with something new to show that the budget left out (edit_context says so). */
  leftOut: number;
  /** The buffer around the cursor as it fits the window (`options.window`); absent when no window was given. */
  prompt?: { prefix: string; suffix: string };
  timingsMs: Record<string, number>;
}

/**
 * A triple from elsewhere in the buffer (`app.py: Flask.other CALLS ...`, a module-level import)
 * restates code the model sees in the buffer; in the earlier contexts triples were 16-33% of the
 * tokens for under 1% of needed definitions added. Kept: facts about the definitions the cursor is
 * in (what the code being written calls, uses, inherits, overrides) and links between retrieved
 * nodes (a callee's callee, a base's base), which the buffer cannot show.
 */
function informative(t: Triple, bufferPath: string, enclosing: ReadonlySet<string>): boolean {
  const fromBuffer = t.source === bufferPath || t.source.startsWith(`${bufferPath}#`);
  return !fromBuffer || enclosing.has(t.source) || t.kind === 'OVERRIDES';
}

export class ContextAssembler {
  readonly sources: SourceFiles;
  readonly windows: CodeWindows;
  /** Repository names for structural retrieval (public for the benchmark's per-case ranks). */
  readonly definitionNames: DefinitionNames;

  constructor(
    private readonly graph: RepositoryGraph,
    /** A folder (symlinks out of it are not read) or the engine's boundary. */
    root: string | RootBoundary,
    private readonly extract: ExtractBuffer = extractInProcess(),
  ) {
    this.sources = new SourceFiles(typeof root === 'string' ? new RootBoundary(root) : root, graph);
    this.windows = new CodeWindows(graph, this.sources);
    this.definitionNames = new DefinitionNames(graph);
  }

  async assemble(query: CursorQuery, options: AssembleOptions = DEFAULT_ASSEMBLE_OPTIONS): Promise<FusedContext> {
    const timingsMs: Record<string, number> = {};
    let t = performance.now();
    // The first build of the window index runs in the background: until it is done, completions
    // carry graph context only instead of waiting for it. A build that ends while this request parses
    // its buffer is used from the next request on, so what one request gets does not depend on timing.
    const windowsReady = this.windows.built;
    if (windowsReady) await this.windows.refresh();
    else this.windows.refresh().catch(() => undefined); // retried by the next request
    timingsMs.windowIndex = performance.now() - t;
    t = performance.now();
    const q = await buildQueryGraph(this.extract, this.graph, query);
    timingsMs.queryGraph = performance.now() - t;
    if (!options.window) return this.fuse(q, options, timingsMs, windowsReady);
    // The query graph sees the whole buffer; the prompt gets what fits the window.
    t = performance.now();
    const plan = planWindow({ prefix: query.prefix, suffix: query.suffix, contextBudget: options.budgetTokens, ...options.window });
    timingsMs.window = performance.now() - t;
    const context = this.fuse(q, { ...options, budgetTokens: plan.contextTokens }, timingsMs, windowsReady);
    return { ...context, prompt: { prefix: plan.prefix, suffix: plan.suffix } };
  }

  /** Everything after the query graph; synchronous, so its latency is the CPU work alone. */
  fuse(q: QueryGraph, options: AssembleOptions, timingsMs: Record<string, number> = {}, withWindows = true): FusedContext {
    const g = this.graph.graph;
    const language = q.query.language;
    const nearby = new Set(q.nearby);
    const focus = new Set(q.nearby.slice(0, 20).map((w) => w.toLowerCase()));
    const enclosing = new Set(q.enclosing.map((sym) => symbolId(q.query.path, sym.localId)));
    const imported = new Set(q.file.imports.map((b) => b.imported ?? '').filter((name) => name !== '' && name !== '*'));

    let t = performance.now();
    const graphCandidates: Candidate[] = structuralCandidates(g, q, this.definitionNames)
      .slice(0, MAX_GRAPH_CANDIDATES)
      .map((s) => ({
        key: s.id,
        path: g.getNodeAttributes(s.id).path,
        title: nodeLabel(g, s.id),
        origin: 'graph' as const,
        relevance: s.score,
        renderings: renderNode(g, this.sources, s.id, nearby, imported),
        triples: s.triples.filter((t) => informative(t, q.query.path, enclosing)),
      }));
    timingsMs.structural = performance.now() - t;

    t = performance.now();
    // The specific identifiers nearest the cursor, not the whole 20 lines: BM25 over many common
    // terms scores most of the repository's windows and costs ten times more for the same top.
    const windowQuery = this.windows.specificTerms(q.nearby.slice(0, SEMANTIC_QUERY_TERMS)).join(' ');
    const windows = withWindows ? this.windows.search(windowQuery, MAX_WINDOW_CANDIDATES, q.query.path) : [];
    const top = windows[0]?.score ?? 1;
    const windowCandidates: Candidate[] = windows.map((w) => ({
      key: `${w.path}:${w.startLine}`,
      path: w.path,
      title: `${w.path} lines ${w.startLine + 1}-${w.endLine + 1}`,
      origin: 'similar' as const,
      relevance: SEMANTIC_WEIGHT * (w.score / top),
      renderings: [renderWindow(g, this.sources, w.path, w.startLine, w.endLine)],
      triples: [],
    }));
    timingsMs.semantic = performance.now() - t;

    t = performance.now();
    // Rerank: candidates sharing identifiers with the lines just typed move up.
    const merged = [...graphCandidates, ...windowCandidates].filter((c) => c.renderings.length > 0 && c.renderings[0].code.trim() !== '');
    for (const c of merged) {
      const terms = new Set(codeTerms(c.renderings[0].code));
      let shared = 0;
      for (const w of focus) if (terms.has(w)) shared++;
      c.relevance *= 0.8 + 0.2 * (focus.size === 0 ? 0 : shared / focus.size);
    }
    const header = countTokens(`${commentPrefix(language)}Repository context for ${q.query.path} (Cartograph)\n${commentPrefix(language)}Graph:\n${commentPrefix(language).trimEnd()}\n${commentPrefix(language)}${q.query.path}\n`);
    const tripleLines = new Map(merged.map((c) => [c.key, c.triples.map((tr) => tripleText(g, tr))]));
    const seenTriples = (chosen: readonly Chosen[]) => new Set(chosen.flatMap((ch) => tripleLines.get(ch.candidate.key)!));
    let leftOut = 0;
    const pack = (budgetTokens: number) => {
      leftOut = 0;
      return packContext(merged, {
        budgetTokens,
        lambda: options.mmrLambda,
        overBudget: () => leftOut++,
        cost: (candidate, rendering, already) => {
          const seen = seenTriples(already);
          const newTriples = tripleLines.get(candidate.key)!.filter((s) => !seen.has(s));
          return blockTokens(`${snippetBlock(candidate.title, rendering.code, language)}\n${commentPrefix(language)}\n${newTriples.map((s) => commentPrefix(language) + s).join('\n')}`);
        },
      });
    };
    // Snippets are costed line by line; the serialized whole is then counted exactly and packed again
    // under a smaller budget in the rare case it runs over, so no context exceeds its budget.
    let budget = options.budgetTokens - header;
    let chosen = pack(budget);
    let serialized = serializeContext(g, chosen, q.query.path, language);
    let tokens = countTokens(serialized.text);
    while (tokens > options.budgetTokens) {
      budget -= 2 * (tokens - options.budgetTokens);
      chosen = pack(budget);
      serialized = serializeContext(g, chosen, q.query.path, language);
      tokens = countTokens(serialized.text);
    }
    timingsMs.rank = performance.now() - t;

    return {
      path: q.query.path,
      cursor: { line: q.cursorLine, enclosing: q.enclosing.map((sym) => sym.localId), partialStatement: q.partialStatement },
      text: serialized.text,
      triples: serialized.triples,
      snippets: chosen.map((ch) => ({
        title: ch.candidate.title,
        origin: ch.candidate.origin,
        path: ch.candidate.path,
        relevance: ch.candidate.relevance,
        tokens: ch.tokens,
        covers: ch.rendering.covers,
        code: ch.rendering.code,
        lines: ch.rendering.lines,
      })),
      tokens,
      budgetTokens: options.budgetTokens,
      leftOut,
      timingsMs,
    };
  }
}
