// repo_overview: what Aider's repo map gives, from our graph and ranked by it. Centrality is the
// number of distinct other modules that call, inherit, use or import a definition (in-degree over
// dependency edges): PageRank over Django's graph took ~0.4 s per change, this ~10 ms, and both put the
// same hubs on top (settings, gettext_lazy, cached_property, Expression, Field…).
import { countTokens, lineTokens } from '../completion/tokens';
import type { GraphNode } from '../model/schema';
import { ToolError, firstSentence, type ToolAnswer, type ToolContext, type ToolGraph } from './context';
import type { ToolInput } from './schemas';
import type { TokenBudget } from './budget';

const DEPENDENCY = new Set(['CALLS', 'INHERITS', 'USES', 'IMPORTS']);
const SHOWN_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method']);

/** Each definition's centrality and each method's class, from one pass over the edges, kept per graph version. */
export class OverviewIndex {
  private built: { version: number; score: Map<string, number>; classOf: Map<string, string> } | undefined;

  constructor(private readonly repo: ToolGraph) {}

  score(id: string): number {
    return this.index().score.get(id) ?? 0;
  }

  classOf(method: string): string | undefined {
    return this.index().classOf.get(method);
  }

  private index(): { score: Map<string, number>; classOf: Map<string, string> } {
    if (this.built?.version === this.repo.version) return this.built;
    // One pass over the edges: walking each node's in-edges costs a lookup by id for each of its
    // sources, which a query snapshot's graph does by hashing the id (repo_overview's first answer).
    const from = new Map<string, Set<string>>();
    const classOf = new Map<string, string>();
    this.repo.graph.forEachEdge((_, edge, sourceId, target, source, node) => {
      if (edge.kind === 'HAS_METHOD') classOf.set(target, sourceId);
      if (!DEPENDENCY.has(edge.kind) || node.kind === 'External' || node.kind === 'Folder' || source.path === node.path) return;
      let paths = from.get(target);
      if (!paths) from.set(target, (paths = new Set()));
      paths.add(source.path);
    });
    const score = new Map([...from].map(([id, paths]) => [id, paths.size]));
    this.built = { version: this.repo.version, score, classOf };
    return this.built;
  }
}

interface Entry {
  node: GraphNode;
  score: number;
  line: string;
  /** The entry that must be shown first (a definition's module or class). */
  parent?: string;
}

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export function repoOverview(ctx: ToolContext, index: OverviewIndex, input: ToolInput<'repo_overview'>, budget: TokenBudget): ToolAnswer {
  const repo = ctx.graph;
  const prefix = input.path?.replace(/^\.\/+/, '').replace(/\/+$/, '') ?? '';
  const files = repo.filePaths().filter((f) => !prefix || f === prefix || f.startsWith(`${prefix}/`)).sort();
  if (files.length === 0) throw new ToolError(`no indexed file under "${input.path}"`);

  const entries = new Map<string, Entry>();
  for (const file of files) {
    let moduleScore = index.score(file);
    for (const node of repo.nodesInFile(file)) {
      if (!SHOWN_KINDS.has(node.kind) || !node.range) continue;
      const score = index.score(node.id);
      moduleScore += score;
      const parent = node.kind === 'Method' ? index.classOf(node.id) : file;
      if (node.kind === 'Method' && (!parent || score === 0)) continue;
      const indent = node.kind === 'Method' ? '    ' : '  ';
      const head = (node.signature || `${node.kind} ${node.name}`).split('\n')[0].slice(0, 160);
      entries.set(node.id, { node, score, parent, line: `${indent}${head}  :${node.range.startLine + 1}` });
    }
    const module = repo.graph.hasNode(file) ? repo.graph.getNodeAttributes(file) : undefined;
    if (!module) continue;
    const doc = firstSentence(module.doc);
    entries.set(file, { node: module, score: moduleScore + 0.001, line: `${file}${doc ? ` — ${doc}` : ''}` });
  }

  // Greedy by centrality: an entry brings its parents along; stop when the budget is spent. Lines are
  // costed one by one in real tokens (o200k, as edit_context); the title and the note on what was left
  // out are kept room for, the note at its longest (everything left out).
  const limit = budget.exact();
  const definitions = [...entries.values()].filter((e) => e.node.kind !== 'Module').length;
  const title = `Map of ${prefix || repo.rootName} (${files.length} files; definitions ranked by how many other modules depend on them)`;
  const leftOut = (modules: number, defs: number) => `(${modules} modules and ${defs} definitions left out for the ${input.maxTokens}-token budget; pass path to zoom in)`;
  const shown = new Set<string>();
  const added: Entry[][] = [];
  let spent = lineTokens(title) + lineTokens(leftOut(files.length, definitions));
  const ranked = [...entries.values()].sort((a, b) => b.score - a.score || a.node.id.localeCompare(b.node.id));
  for (const entry of ranked) {
    const chain: Entry[] = [];
    for (let e: Entry | undefined = entry; e && !shown.has(e.node.id); e = e.parent ? entries.get(e.parent) : undefined) chain.push(e);
    const cost = chain.reduce((n, e) => n + lineTokens(e.line), 0);
    if (spent + cost > limit) continue;
    spent += cost;
    added.push(chain);
    for (const e of chain) shown.add(e.node.id);
  }

  const render = () => {
    const lines = [title];
    const modules = files.filter((f) => shown.has(f));
    for (const file of modules) {
      lines.push(entries.get(file)!.line);
      const inside = [...shown]
        .map((id) => entries.get(id)!)
        .filter((e) => e.node.path === file && e.node.kind !== 'Module')
        .sort((a, b) => a.node.range!.startLine - b.node.range!.startLine);
      for (const e of inside) lines.push(e.line);
    }
    const hiddenModules = files.length - modules.length;
    const hiddenDefinitions = definitions - (shown.size - modules.length);
    if (hiddenModules + hiddenDefinitions > 0) lines.push(leftOut(hiddenModules, hiddenDefinitions));
    const text = lines.join('\n');
    return { text, tokens: countTokens(text), shownModules: modules.length, hiddenModules, hiddenDefinitions };
  };
  // The sum of lines' counts is checked against the whole once; while it runs over, the last picks go
  // (nothing picked before them hangs under them).
  let map = render();
  while (map.tokens > limit && added.length > 0) {
    for (const e of added.pop()!) shown.delete(e.node.id);
    map = render();
  }
  return {
    text: map.text,
    structured: { path: prefix, files: files.length, shownModules: map.shownModules, hiddenModules: map.hiddenModules, hiddenDefinitions: map.hiddenDefinitions, tokens: map.tokens },
  };
}
