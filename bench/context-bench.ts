// `npm run bench:context [-- --json FILE] [--cases FILE.jsonl] [--samples N] [--corpora a,b] [--go DIR] [--no-latency]`: cross-file
// definition recall of the context completion would send, RepoBench-R / CrossCodeEval style, on real
// code, and context assembly latency on Django. No LLM is involved: what is measured is whether the
// definitions the next line needs reach the prompt.
//
// Which definitions a line needs is decided twice, side by side:
// - by an independent oracle (Jedi's goto(follow_imports=True) for Python, the TypeScript language
//   service's getDefinitionAtPosition for TS, javac's attribution for Java, go/types for a Go tree given
//   by `--go DIR`, rustc's save-analysis for tokio's library; bench/context/oracle.ts), on lines sampled where the
//   ORACLE finds a definition in another file of the repository;
// - by Cartograph's own resolver (self-graded, the figure of earlier sessions), on lines it resolves.
// Each sampled line is completed twice: left context only (the buffer cut at the start of the line's
// code) and fill-in-the-middle (the code after the line is in the buffer too, as completion runs).
// Recall = share of the (line, definition) pairs whose definition header is in the context, at 1,024
// and 2,048 tokens, for no retrieval, RepoCoder's vanilla sliding-window BM25 (20-line windows, stride
// 10, query = the last 20 lines, plus the next 10 in FIM, windows taken in rank order while they fit),
// ranked by MiniSearch's BM25+ (the product's own window index) and by a standard Okapi BM25 (every
// occurrence of a query term counted), and Cartograph's graph-fused context.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encode } from 'gpt-tokenizer';
import ts from 'typescript';
import { ContextAssembler, DEFAULT_ASSEMBLE_OPTIONS, type FusedContext } from '../src/core/completion/assemble';
import { codeTerms, WINDOW_LINES, WINDOW_STRIDE, type CodeWindow } from '../src/core/completion/codeWindows';
import { snippetBlock } from '../src/core/completion/fuse';
import { answerTokens, buildPrompt, completionShape } from '../src/core/completion/prompt';
import { buildQueryGraph, extractInProcess, type CursorQuery, type QueryGraph } from '../src/core/completion/queryGraph';
import { renderWindow } from '../src/core/completion/snippets';
import { structuralCandidates } from '../src/core/completion/structural';
import { blockTokens } from '../src/core/completion/tokens';
import { DEFAULT_CONTEXT_WINDOW, planWindow } from '../src/core/completion/window';
import { Engine } from '../src/core/engine';
import type { Language } from '../src/core/model/schema';
import { goOracle, goToolchain, javaOracle, jediOracle, jediPython, nodeForDefinition, rustOracle, rustToolchain, symbolIndex, typescriptOracle, type OracleAnswers, type OracleDefinition } from './context/oracle';
import { CORPORA, corpusVersions, ensureTsPackage, MOBX_PACKAGE, TS_PACKAGE, ZOD_PACKAGE } from './search/corpus';
import { OkapiBm25 } from './search/okapi';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const jsonOut = option('--json');
/** One JSON line per (sampled line, mode): what the oracle needs and where each definition got lost. */
const casesOut = option('--cases');
const SAMPLES = Number(option('--samples') ?? 200);
const ONLY = option('--corpora')?.split(',');
const BUDGETS = [1024, 2048];
const LAMBDA = 0.7;
const MODES = ['prefix', 'fim'] as const;
type Mode = (typeof MODES)[number];
const SUFFIX_QUERY_LINES = 10;

/** What one line of the repository uses from other files, by each oracle. */
interface LineTruth {
  path: string;
  line: number;
  language: Language;
  /** Node ids (overload suffix removed) by Cartograph's resolver. */
  ours: string[];
  /** Node ids by the independent oracle, and its definitions the graph has no node for. */
  oracle: string[];
  unmapped: OracleDefinition[];
}

const keyOf = (id: string) => id.replace(/@\d+$/, '');

/** Every line of the repository where either oracle finds a definition in another file. */
function truths(engine: Engine, answers: Map<string, Map<number, OracleDefinition[]>>): LineTruth[] {
  const index = symbolIndex(engine.graph);
  const out: LineTruth[] = [];
  for (const rel of engine.graph.filePaths().sort()) {
    const file = engine.graph.fileGraph(rel)!;
    const byLine = new Map<number, LineTruth>();
    const at = (line: number) => {
      let t = byLine.get(line);
      if (!t) byLine.set(line, (t = { path: rel, line, language: file.language, ours: [], oracle: [], unmapped: [] }));
      return t;
    };
    for (const line of new Set(file.refs.map((r) => r.line))) {
      // Only this line's references, resolved the way the indexer resolves the whole file.
      const res = engine.graph.resolveDetached({ ...file, refs: file.refs.filter((r) => r.line === line) });
      const ours = [...new Set(res.edges.filter((e) => (e.kind === 'CALLS' || e.kind === 'USES' || e.kind === 'INHERITS') && e.target.includes('#') && !e.target.startsWith(`${rel}#`) && !e.target.startsWith('ext:')).map((e) => keyOf(e.target)))];
      if (ours.length > 0) at(line).ours = ours;
    }
    for (const [line, defs] of answers.get(rel) ?? []) {
      const t = at(line);
      for (const d of defs) {
        const id = nodeForDefinition(index, d);
        if (id === undefined) t.unmapped.push(d);
        else if (!t.oracle.includes(id)) t.oracle.push(id);
      }
    }
    out.push(...[...byLine.values()].sort((a, b) => a.line - b.line));
  }
  return out;
}

/** Evenly spaced over the repository, deterministic. */
function spread<T>(all: T[], limit: number): T[] {
  if (all.length <= limit) return all;
  return Array.from({ length: limit }, (_, i) => all[Math.floor((i * all.length) / limit)]);
}

function cursorAt(root: string, t: LineTruth, mode: Mode): CursorQuery {
  const text = fs.readFileSync(path.join(root, t.path), 'utf8');
  let start = 0;
  for (let l = 0; l < t.line; l++) start = text.indexOf('\n', start) + 1;
  const indent = /^[ \t]*/.exec(text.slice(start))![0];
  const end = text.indexOf('\n', start);
  return { path: t.path, language: t.language, prefix: text.slice(0, start + indent.length), suffix: mode === 'fim' && end >= 0 ? text.slice(end) : '' };
}

/** RepoCoder's retrieval query: the last 20 lines before the cursor (and in FIM the next 10). */
function windowQuery(q: CursorQuery): string {
  const after = q.suffix.split('\n').slice(1, 1 + SUFFIX_QUERY_LINES);
  return [...q.prefix.split('\n').slice(-WINDOW_LINES), ...after].join('\n');
}

/** RepoCoder's windows for the cursor in rank order, by MiniSearch's BM25+; the same ranking serves every budget. */
function bm25Windows(assembler: ContextAssembler, q: CursorQuery): Window[] {
  return assembler.windows.search(windowQuery(q), 60, q.path);
}

type Window = Pick<CodeWindow, 'path' | 'startLine' | 'endLine'>;

/**
 * The same 20-line windows (stride 10) ranked by a standard Okapi BM25 (bench/search/okapi.ts: every
 * occurrence of a query term counted, Lucene's k1 and b), the stronger of the two baselines.
 */
class OkapiWindows {
  private readonly index: OkapiBm25<Window>;

  constructor(engine: Engine, assembler: ContextAssembler) {
    const docs: [Window, string[]][] = [];
    for (const file of engine.graph.filePaths()) {
      const lines = assembler.sources.lines(file) ?? [];
      for (let start = 0; start < lines.length; start += WINDOW_STRIDE) {
        const end = Math.min(start + WINDOW_LINES, lines.length);
        docs.push([{ path: file, startLine: start, endLine: end - 1 }, codeTerms(lines.slice(start, end).join('\n'))]);
        if (end >= lines.length) break;
      }
    }
    this.index = new OkapiBm25(docs);
  }

  search(q: CursorQuery): Window[] {
    return this.index.search(codeTerms(windowQuery(q)), 200).filter((w) => w.path !== q.path).slice(0, 60);
  }
}

function bm25Covers(assembler: ContextAssembler, engine: Engine, q: CursorQuery, windows: Window[], budget: number): Set<string> {
  const covered = new Set<string>();
  let used = 0;
  for (const w of windows) {
    const r = renderWindow(engine.graph.graph, assembler.sources, w.path, w.startLine, w.endLine);
    const tokens = blockTokens(`${snippetBlock(`${w.path} lines ${w.startLine + 1}-${w.endLine + 1}`, r.code, q.language)}\n`);
    if (used + tokens > budget) continue;
    used += tokens;
    for (const id of r.covers) covered.add(keyOf(id));
  }
  return covered;
}

/** Definitions each method's context covers for one cursor, per budget (`cartograph@2048` → ids). */
type Covered = Map<string, Set<string>>;

/**
 * Completes every line of `lines` once in `mode` and records what each method's context covers;
 * `onContext` sees Cartograph's contexts. Lines in both samples are completed once.
 */
async function complete(engine: Engine, assembler: ContextAssembler, okapi: OkapiWindows, lines: LineTruth[], mode: Mode, onContext?: (ctx: FusedContext, budget: number, t: LineTruth, query: CursorQuery, q: QueryGraph) => void): Promise<Map<LineTruth, Covered>> {
  const out = new Map<LineTruth, Covered>();
  const extract = extractInProcess();
  for (const t of lines) {
    const query = cursorAt(engine.root, t, mode);
    const q = await buildQueryGraph(extract, engine.graph, query);
    const covered: Covered = new Map();
    const windows = bm25Windows(assembler, query);
    const okapiWindows = okapi.search(query);
    for (const budget of BUDGETS) {
      const fused = assembler.fuse(q, { budgetTokens: budget, mmrLambda: LAMBDA });
      onContext?.(fused, budget, t, query, q);
      covered.set(`cartograph@${budget}`, new Set(fused.snippets.flatMap((sn) => sn.covers.map(keyOf))));
      covered.set(`bm25@${budget}`, bm25Covers(assembler, engine, query, windows, budget));
      covered.set(`okapi@${budget}`, bm25Covers(assembler, engine, query, okapiWindows, budget));
    }
    out.set(t, covered);
  }
  return out;
}

interface Tally {
  lines: number;
  definitions: number;
  hits: Record<string, number>;
}

/** Recall of every method on `sample`, graded by `needed` (ids; definitions with no graph node are misses for all). */
function grade(sample: LineTruth[], covered: Map<LineTruth, Covered>, needed: (t: LineTruth) => { ids: string[]; misses: number }): Tally {
  const tally: Tally = { lines: sample.length, definitions: 0, hits: {} };
  for (const t of sample) {
    const { ids, misses } = needed(t);
    tally.definitions += ids.length + misses;
    for (const [method, set] of covered.get(t)!) for (const id of ids) if (set.has(id)) tally.hits[method] = (tally.hits[method] ?? 0) + 1;
  }
  return tally;
}

interface Disagreement {
  /** Lines where either finds a cross-file definition. */
  lines: number;
  /** Lines whose two sets differ. */
  linesDiffering: number;
  oursPairs: number;
  oraclePairs: number;
  /** Pairs both find. */
  common: number;
  /** Oracle definitions with no graph node. */
  unmapped: number;
  examples: { oursOnly: string[]; oracleOnly: string[] };
}

function disagreement(root: string, all: LineTruth[]): Disagreement {
  const d: Disagreement = { lines: 0, linesDiffering: 0, oursPairs: 0, oraclePairs: 0, common: 0, unmapped: 0, examples: { oursOnly: [], oracleOnly: [] } };
  const sources = new Map<string, string[]>();
  const lineText = (t: LineTruth) => {
    if (!sources.has(t.path)) sources.set(t.path, fs.readFileSync(path.join(root, t.path), 'utf8').split('\n'));
    return sources.get(t.path)![t.line].trim().slice(0, 90);
  };
  for (const t of all) {
    const ours = new Set(t.ours);
    const oracle = new Set(t.oracle);
    d.lines++;
    d.oursPairs += ours.size;
    d.oraclePairs += oracle.size + t.unmapped.length;
    d.unmapped += t.unmapped.length;
    const common = [...ours].filter((id) => oracle.has(id));
    d.common += common.length;
    if (common.length !== ours.size || common.length !== oracle.size || t.unmapped.length > 0) d.linesDiffering++;
    const oursOnly = [...ours].filter((id) => !oracle.has(id));
    const oracleOnly = [...[...oracle].filter((id) => !ours.has(id)), ...t.unmapped.map((u) => `(no node) ${u.path}:${u.line + 1} ${u.name} [${u.kind}]`)];
    // Spread the examples over the repository: every 7th disagreement, up to 8 each.
    if (oursOnly.length > 0 && d.examples.oursOnly.length < 8 && (d.linesDiffering % 7 === 1)) d.examples.oursOnly.push(`${t.path}:${t.line + 1} \`${lineText(t)}\` ours: ${oursOnly.join(', ')}; oracle: ${[...oracle].join(', ') || '-'}`);
    if (oracleOnly.length > 0 && ours.size > 0 && d.examples.oracleOnly.length < 8 && (d.linesDiffering % 7 === 1)) d.examples.oracleOnly.push(`${t.path}:${t.line + 1} \`${lineText(t)}\` oracle: ${oracleOnly.join(', ')}; ours: ${[...ours].join(', ')}`);
  }
  return d;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** What the packed context spends its budget on (independent sample, each mode, at 2,048 tokens). */
interface ContextStats {
  contexts: number;
  countedTokens: number[];
  realTokens: number[];
  /** Characters per real token of each context: what tokens.ts's estimate should assume. */
  charsPerToken: number[];
  tripleTokens: number;
  /** Whole FIM prompts (qwen template, answer included) in real tokens: the buffer sent whole, as before issue 19, and as planWindow cuts it for the default window. */
  promptWhole: number[];
  promptPlanned: number[];
  snippetLines: number;
  duplicateLines: number;
  /** Lines standing for a source line (path, line) another snippet of the context already shows. */
  sourceLines: number;
  repeatedSourceLines: number;
}

function newStats(): ContextStats {
  return { contexts: 0, countedTokens: [], realTokens: [], charsPerToken: [], tripleTokens: 0, promptWhole: [], promptPlanned: [], snippetLines: 0, duplicateLines: 0, sourceLines: 0, repeatedSourceLines: 0 };
}

/** Real tokens of the prompt completion sends for this cursor, with the buffer whole and as planned for the default window. */
function addPromptSizes(stats: ContextStats, ctx: FusedContext, q: CursorQuery, assembler: ContextAssembler, q2: QueryGraph): void {
  const shape = completionShape(q.prefix, q.suffix);
  const count = (prefix: string, suffix: string) => {
    const built = buildPrompt({ family: 'qwen', language: q.language, prefix, suffix, shape });
    return encode(built.kind === 'completion' ? built.prompt : '', { disallowedSpecial: new Set() }).length + built.maxTokens;
  };
  stats.promptWhole.push(count(ctx.text + q.prefix, q.suffix));
  const plan = planWindow({ prefix: q.prefix, suffix: q.suffix, contextWindow: DEFAULT_CONTEXT_WINDOW, answerTokens: answerTokens(shape), contextBudget: 2048 });
  const planned = assembler.fuse(q2, { budgetTokens: plan.contextTokens, mmrLambda: LAMBDA });
  stats.promptPlanned.push(count(planned.text + plan.prefix, plan.suffix));
}

/** Counts one context: real tokens (o200k_base), the triples' share, snippet lines that repeat one already shown (longer than 3 characters: not `)` or `}`). */
function addStats(stats: ContextStats, ctx: FusedContext): void {
  stats.contexts++;
  stats.countedTokens.push(ctx.tokens);
  const real = encode(ctx.text).length;
  stats.realTokens.push(real);
  if (real > 0) stats.charsPerToken.push(ctx.text.length / real);
  if (ctx.triples.length > 0) stats.tripleTokens += encode(ctx.triples.map((t) => `# ${t}`).join('\n')).length;
  const shown = new Set<string>();
  for (const sn of ctx.snippets) {
    // Across snippets: inside one outline a docstring line stands for its definition's line too.
    const own = (sn.lines ?? []).filter((line): line is number => line !== null).map((line) => `${sn.path}:${line}`);
    stats.sourceLines += own.length;
    stats.repeatedSourceLines += own.filter((key) => shown.has(key)).length;
    for (const key of own) shown.add(key);
  }
  const seen = new Set<string>();
  for (const sn of ctx.snippets) {
    for (const line of sn.code.split('\n')) {
      const key = line.trim();
      if (key.length <= 3) continue;
      stats.snippetLines++;
      if (seen.has(key)) stats.duplicateLines++;
      seen.add(key);
    }
  }
}

interface Corpus {
  name: string;
  dir: string;
  version: string;
  language: 'python' | 'typescript' | 'java' | 'go' | 'rust';
  /** Cargo features the Rust oracle compiles the crate with. */
  features?: string[];
}

/** Each corpus language's source files and its independent oracle. */
const ORACLES: Record<Corpus['language'], { source: RegExp; answers: (root: string, files: string[], corpus: Corpus) => OracleAnswers }> = {
  python: { source: /\.py$/, answers: jediOracle },
  typescript: { source: /\.tsx?$/, answers: typescriptOracle },
  java: { source: /\.java$/, answers: javaOracle },
  go: { source: /\.go$/, answers: goOracle },
  rust: { source: /\.rs$/, answers: (root, files, corpus) => rustOracle(root, files, corpus.features) },
};

function corpora(): Corpus[] {
  // httpx, marshmallow, attr and mobx: corpora nobody tuned the context on, measured only when named (--corpora).
  const unseen = ['httpx', 'marshmallow', 'attr'].filter((name) => ONLY?.includes(name));
  if (unseen.some((name) => !fs.existsSync(path.join(CORPORA, name)))) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit', env: { ...process.env, UNSEEN: '1' } });
  const versions = corpusVersions();
  const list: Corpus[] = ['flask', 'werkzeug', 'click', 'requests', ...unseen].map((name) => ({ name, dir: path.join(CORPORA, name), version: versions[`python3-${name}`] ?? '', language: 'python' }));
  for (const pkg of [TS_PACKAGE, ZOD_PACKAGE, MOBX_PACKAGE]) {
    if (ONLY ? !ONLY.includes(pkg.name) : pkg === MOBX_PACKAGE) continue;
    list.push({ name: pkg.name, dir: path.join(ensureTsPackage(pkg), 'src'), version: pkg.version, language: 'typescript' });
  }
  if (!ONLY || ONLY.includes('gson')) {
    if (!fs.existsSync(path.join(CORPORA, 'gson'))) execFileSync('bash', [path.join(__dirname, 'fetch-java-corpora.sh')], { stdio: 'inherit' });
    // The library itself: its tests need JUnit, which javac (the oracle) would not find here.
    list.push({ name: 'gson', dir: path.join(CORPORA, 'gson', 'gson', 'src', 'main', 'java'), version: versions.gson ?? '9835b6f90', language: 'java' });
  }
  if (!ONLY || ONLY.includes('tokio')) {
    if (!fs.existsSync(path.join(CORPORA, 'tokio'))) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
    // `full`: what tokio's README tells users to enable; the default feature set compiles almost nothing.
    list.push({ name: 'tokio', dir: path.join(CORPORA, 'tokio'), version: versions['librust-tokio-dev'] ?? '', language: 'rust', features: ['full'] });
  }
  // A Go tree unpacked elsewhere (Debian's .debs; see docs/benchmarks.md).
  const go = option('--go');
  if (go) list.push({ name: path.basename(go), dir: path.resolve(go), version: '', language: 'go' });
  return list.filter((c) => !ONLY || ONLY.includes(c.name));
}

async function main(): Promise<void> {
  const rows: Array<Record<string, unknown>> = [];
  const agreement: Array<Record<string, unknown>> = [];
  const contextStats: Array<Record<string, unknown>> = [];
  for (const corpus of corpora()) {
    const engine = await Engine.open(corpus.dir, { storeDir: null, workers: 0 });
    await engine.index();
    const assembler = new ContextAssembler(engine.graph, engine.root);
    await assembler.windows.refresh();
    const okapi = new OkapiWindows(engine, assembler);
    const oracle = ORACLES[corpus.language];
    const files = engine.graph.filePaths().filter((f) => oracle.source.test(f));
    let t0 = performance.now();
    const answers = oracle.answers(engine.root, files, corpus);
    console.error(`${corpus.name}: oracle ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const all = truths(engine, answers);
    const d = disagreement(engine.root, all);
    agreement.push({ corpus: corpus.name, ...d });
    const independent = spread(all.filter((t) => t.oracle.length + t.unmapped.length > 0), SAMPLES);
    const self = spread(all.filter((t) => t.ours.length > 0), SAMPLES);
    for (const mode of MODES) {
      const stats = newStats();
      t0 = performance.now();
      const inIndependent = new Set(independent);
      const candidateRanks = new Map<LineTruth, Map<string, number>>();
      const covered = await complete(engine, assembler, okapi, [...new Set([...independent, ...self])], mode, (ctx, budget, t, query, q) => {
        if (budget !== 2048 || !inIndependent.has(t)) return;
        if (casesOut) candidateRanks.set(t, new Map(structuralCandidates(engine.graph.graph, q, assembler.definitionNames).map((c, i) => [keyOf(c.id), i])));
        addStats(stats, ctx);
        if (mode === 'fim') addPromptSizes(stats, ctx, query, assembler, q);
      });
      if (casesOut) writeCases(engine, corpus.name, mode, independent, covered, candidateRanks);
      const byOracle = grade(independent, covered, (t) => ({ ids: t.oracle, misses: t.unmapped.length }));
      const byOurs = grade(self, covered, (t) => ({ ids: t.ours, misses: 0 }));
      for (const [grader, tally] of [['independent', byOracle], ['ours', byOurs]] as const) {
        const recall = (k: string) => (tally.definitions === 0 ? 0 : (tally.hits[k] ?? 0) / tally.definitions);
        const row = { corpus: corpus.name, version: corpus.version, files: files.length, grader, mode, lines: tally.lines, definitions: tally.definitions, 'none@1024': 0, 'none@2048': 0, 'bm25@1024': recall('bm25@1024'), 'bm25@2048': recall('bm25@2048'), 'okapi@1024': recall('okapi@1024'), 'okapi@2048': recall('okapi@2048'), 'cartograph@1024': recall('cartograph@1024'), 'cartograph@2048': recall('cartograph@2048') };
        rows.push(row);
        console.error(`${corpus.name} ${mode} ${grader}: ${JSON.stringify(row)}`);
      }
      const real = [...stats.realTokens].sort((a, b) => a - b);
      const ratio = [...stats.charsPerToken].sort((a, b) => a - b);
      contextStats.push({
        corpus: corpus.name,
        mode,
        contexts: stats.contexts,
        countedTokensMean: mean(stats.countedTokens),
        realTokensMean: mean(real),
        realTokensP95: percentile(real, 95),
        realTokensMax: real[real.length - 1] ?? 0,
        overBudgetShare: real.filter((n) => n > 2048).length / Math.max(1, real.length),
        charsPerTokenMedian: percentile(ratio, 50) ?? 0,
        charsPerTokenP5: percentile(ratio, 5) ?? 0,
        promptWhole: summary(stats.promptWhole),
        promptPlanned: summary(stats.promptPlanned),
        tripleShare: stats.tripleTokens / Math.max(1, real.reduce((a, b) => a + b, 0)),
        duplicateLineShare: stats.duplicateLines / Math.max(1, stats.snippetLines),
        repeatedSourceLineShare: stats.repeatedSourceLines / Math.max(1, stats.sourceLines),
      });
      console.error(`${corpus.name} ${mode}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await engine.close();
  }
  const latency = args.includes('--no-latency') ? undefined : await djangoLatency();
  report(rows, agreement, contextStats, latency);
}

/**
 * Per-case diagnosis for `--cases`: for each definition the oracle needs, whether the 2,048-token
 * context covers it, whether Cartograph's resolver finds it on the full line, and its rank among the
 * structural candidates (absent: the graph never proposed it, so ranking cannot be the cause).
 */
function writeCases(engine: Engine, corpus: string, mode: Mode, sample: LineTruth[], covered: Map<LineTruth, Covered>, ranks: Map<LineTruth, Map<string, number>>): void {
  const lines: string[] = [];
  for (const t of sample) {
    const text = fs.readFileSync(path.join(engine.root, t.path), 'utf8').split('\n')[t.line].trim();
    const at = covered.get(t)!;
    const needed = t.oracle.map((id) => ({ id, at1024: at.get('cartograph@1024')!.has(id), at2048: at.get('cartograph@2048')!.has(id), ours: t.ours.includes(id), rank: ranks.get(t)?.get(id) ?? null, kind: engine.graph.graph.hasNode(id) ? engine.graph.graph.getNodeAttributes(id).kind : null }));
    lines.push(JSON.stringify({ corpus, mode, path: t.path, line: t.line + 1, text, needed, unmapped: t.unmapped }));
  }
  fs.mkdirSync(path.dirname(casesOut!), { recursive: true });
  fs.appendFileSync(casesOut!, `${lines.join('\n')}\n`);
}

/** Median, p95 and max of whole-prompt sizes; the share over the default window. */
function summary(xs: number[]): { median: number; p95: number; max: number; overWindow: number } | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return { median: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1], overWindow: s.filter((n) => n > DEFAULT_CONTEXT_WINDOW).length / s.length };
}

function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Latency on Django: the whole assembly a completion request runs (parse and resolve the buffer,
 * retrieve, rank, pack, serialize, and plan the prompt window), with the window index already built (its build time is separate).
 */
async function djangoLatency(): Promise<Record<string, unknown>> {
  const django = await Engine.open(path.join(CORPORA, 'django'), { storeDir: null });
  await django.index();
  const assembler = new ContextAssembler(django.graph, django.root);
  let t = performance.now();
  await assembler.windows.refresh();
  const windowBuildMs = performance.now() - t;
  // Cursors as in earlier sessions: lines the graph resolves, left context only.
  const latencySamples = spread(truths(django, new Map()), SAMPLES).map((t) => cursorAt(django.root, t, 'prefix'));
  // As completion asks: the window planned with the context (real-token counts of the buffer's lines included).
  const asCompletion = (q: CursorQuery) => ({ ...DEFAULT_ASSEMBLE_OPTIONS, window: { contextWindow: DEFAULT_CONTEXT_WINDOW, answerTokens: answerTokens(completionShape(q.prefix, q.suffix)) } });
  for (const q of latencySamples.slice(0, 10)) await assembler.assemble(q, asCompletion(q)); // warm-up: grammar load, JIT, tokenizer
  const times: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const q of latencySamples) {
    t = performance.now();
    const ctx = await assembler.assemble(q, asCompletion(q));
    times.push(performance.now() - t);
    for (const [k, v] of Object.entries(ctx.timingsMs)) (stages[k] ??= []).push(v);
  }
  times.sort((a, b) => a - b);
  const latency = {
    corpus: 'django',
    files: django.graph.filePaths().length,
    windows: assembler.windows.windows,
    windowIndexBuildMs: windowBuildMs,
    samples: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1],
    stagesP95: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, percentile(v.sort((a, b) => a - b), 95)])),
  };
  await django.close();

  return latency;
}

function report(rows: Array<Record<string, unknown>>, agreement: Array<Record<string, unknown>>, contextStats: Array<Record<string, unknown>>, latency: Record<string, unknown> | undefined): void {
  const f = (x: unknown) => (typeof x === 'number' ? x.toFixed(3) : String(x));
  const overall: Array<Record<string, unknown>> = [];
  console.log('| corpus | version | definitions needed by | mode | lines | definitions | none @1024 / @2048 | BM25+ windows @1024 | BM25+ windows @2048 | Okapi BM25 windows @1024 | Okapi BM25 windows @2048 | Cartograph @1024 | Cartograph @2048 |');
  console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const grader of ['independent', 'ours']) {
    for (const mode of MODES) {
      const group = rows.filter((r) => r.grader === grader && r.mode === mode);
      for (const r of group) console.log(`| ${r.corpus} | ${r.version} | ${grader === 'ours' ? 'Cartograph (self)' : 'independent oracle'} | ${mode} | ${r.lines} | ${r.definitions} | 0 / 0 | ${f(r['bm25@1024'])} | ${f(r['bm25@2048'])} | ${f(r['okapi@1024'])} | ${f(r['okapi@2048'])} | ${f(r['cartograph@1024'])} | ${f(r['cartograph@2048'])} |`);
      const n = group.reduce((a, r) => a + (r.definitions as number), 0) || 1;
      const w = (k: string) => group.reduce((a, r) => a + (r[k] as number) * (r.definitions as number), 0) / n;
      const all = { grader, mode, lines: group.reduce((a, r) => a + (r.lines as number), 0), definitions: n, 'bm25@1024': w('bm25@1024'), 'bm25@2048': w('bm25@2048'), 'okapi@1024': w('okapi@1024'), 'okapi@2048': w('okapi@2048'), 'cartograph@1024': w('cartograph@1024'), 'cartograph@2048': w('cartograph@2048') };
      overall.push(all);
      console.log(`| **all** | | ${grader === 'ours' ? 'Cartograph (self)' : 'independent oracle'} | ${mode} | ${all.lines} | ${all.definitions} | 0 / 0 | ${f(all['bm25@1024'])} | ${f(all['bm25@2048'])} | ${f(all['okapi@1024'])} | ${f(all['okapi@2048'])} | ${f(all['cartograph@1024'])} | **${f(all['cartograph@2048'])}** |`);
    }
  }
  console.log('');
  console.log('| corpus | lines with a cross-file definition (either) | lines where the two differ | (line, definition) pairs: ours / oracle / both | ours confirmed by the oracle | oracle\'s found by ours | oracle definitions with no graph node |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const a of agreement) {
    const ours = a.oursPairs as number;
    const oracle = a.oraclePairs as number;
    const common = a.common as number;
    console.log(`| ${a.corpus} | ${a.lines} | ${f((a.linesDiffering as number) / Math.max(1, a.lines as number))} | ${ours} / ${oracle} / ${common} | ${f(common / Math.max(1, ours))} | ${f(common / Math.max(1, oracle))} | ${a.unmapped} |`);
  }
  for (const a of agreement) {
    const ex = a.examples as { oursOnly: string[]; oracleOnly: string[] };
    console.log(`\n${a.corpus}, ours only:\n${ex.oursOnly.map((e) => `  ${e}`).join('\n')}\n${a.corpus}, oracle only (where ours resolves something):\n${ex.oracleOnly.map((e) => `  ${e}`).join('\n')}`);
  }
  console.log('');
  console.log('| corpus | mode | contexts @2048 | tokens counted at run time, mean | real tokens (o200k), mean / p95 / max | over 2,048 real tokens | chars per real token, median / p5 | triples\' share of real tokens | snippet lines repeating another\'s text | lines repeating a source line already shown |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of contextStats) console.log(`| ${c.corpus} | ${c.mode} | ${c.contexts} | ${(c.countedTokensMean as number).toFixed(0)} | ${(c.realTokensMean as number).toFixed(0)} / ${c.realTokensP95} / ${c.realTokensMax} | ${f(c.overBudgetShare)} | ${(c.charsPerTokenMedian as number).toFixed(2)} / ${(c.charsPerTokenP5 as number).toFixed(2)} | ${f(c.tripleShare)} | ${f(c.duplicateLineShare)} | ${f(c.repeatedSourceLineShare)} |`);
  console.log('');
  console.log(`| corpus | whole FIM prompt, buffer sent whole: median / p95 / max (over ${DEFAULT_CONTEXT_WINDOW}) | planned for a ${DEFAULT_CONTEXT_WINDOW}-token window: median / p95 / max (over) |`);
  console.log('|---|---:|---:|');
  for (const c of contextStats.filter((x) => x.promptWhole)) {
    const w = c.promptWhole as { median: number; p95: number; max: number; overWindow: number };
    const p = c.promptPlanned as typeof w;
    console.log(`| ${c.corpus} | ${w.median} / ${w.p95} / ${w.max} (${f(w.overWindow)}) | ${p.median} / ${p.p95} / ${p.max} (${f(p.overWindow)}) |`);
  }
  if (latency) {
    const stages = latency.stagesP95 as Record<string, number>;
    console.log('');
    console.log(`Assembly latency, Django (${latency.files} files, ${latency.samples} cursors, window index of ${latency.windows} windows built once in ${(latency.windowIndexBuildMs as number).toFixed(0)} ms): p50 ${(latency.p50 as number).toFixed(1)} ms, p95 ${(latency.p95 as number).toFixed(1)} ms, max ${(latency.max as number).toFixed(1)} ms`);
    console.log(`Stage p95 (ms): ${Object.entries(stages).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  }
  if (jsonOut) {
    fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
    fs.writeFileSync(jsonOut, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, oracles: { python: `jedi ${jediPython().version}`, typescript: `typescript ${ts.version}`, go: option('--go') ? goToolchain().version : undefined, rust: !ONLY || ONLY.includes('tokio') ? `${rustToolchain().version}, save-analysis` : undefined }, budgets: BUDGETS, mmrLambda: LAMBDA, recall: rows, overall, agreement, contextStats, latency }, null, 2)}\n`);
    console.log(`wrote ${jsonOut}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
