// Name lookup, the node under a cursor and one-node descriptions: `cartograph show` and the editor's Show Symbol Graph.
import type { RepositoryGraph } from './repositoryGraph';
import type { GraphEdge, GraphNode } from '../model/schema';

/**
 * What naming and describing nodes read of a graph: graphology's, or the query snapshot's compact view
 * of it (`CompactGraph`), from which `cartograph show` answers without building graphology.
 */
export interface GraphReader {
  hasNode(id: string): boolean;
  getNodeAttributes(id: string): GraphNode;
  forEachNode(callback: (id: string, attributes: GraphNode) => void): void;
  forEachOutEdge(id: string, callback: (edge: string, attributes: GraphEdge, source: string, target: string) => void): void;
  forEachInEdge(id: string, callback: (edge: string, attributes: GraphEdge, source: string, target: string) => void): void;
}

/**
 * What search reads of a graph (entity lookups, structural walks, MCTS, the indexes): graphology's, or
 * the query snapshot's `CompactGraph`, so that a one-shot query never builds graphology (seconds at a
 * million lines, most of such a query's time).
 */
export interface ReadonlyGraph extends GraphReader {
  readonly order: number;
  readonly size: number;
  nodes(): string[];
  getNodeAttribute<K extends keyof GraphNode>(id: string, name: K): GraphNode[K];
  filterNodes(callback: (id: string, attributes: GraphNode) => boolean): string[];
  inDegree(id: string): number;
  forEachEdge(callback: (edge: string, attributes: GraphEdge, source: string, target: string, sourceAttributes: GraphNode, targetAttributes: GraphNode) => void): void;
  /** graphology's change events, for caches kept beside a graph; a frozen graph has none to emit. */
  on(event: 'nodeAdded' | 'nodeDropped', listener: (payload: { attributes: GraphNode }) => void): unknown;
  on(event: 'edgeAdded' | 'edgeDropped', listener: (payload: { attributes: GraphEdge }) => void): unknown;
  on(event: 'cleared', listener: () => void): unknown;
}

export interface EdgeView {
  kind: string;
  id: string;
  qname: string;
  location: string;
}

export interface NodeDescription {
  node: GraphNode;
  outgoing: EdgeView[];
  incoming: EdgeView[];
}

/** Node id, then exact qualified name, then a qualified-name suffix (`Calculator.add`, Rust `Calculator::add`), then the plain name; case-insensitive as a last resort. */
export function findNodes(graph: GraphReader, query: string): string[] {
  if (graph.hasNode(query)) return [query];
  const q = query.trim();
  const lower = q.toLowerCase();
  const tiers: string[][] = [[], [], [], []];
  graph.forEachNode((id, a) => {
    if (a.kind === 'Folder') return;
    if (a.qname === q) tiers[0].push(id);
    else if (a.qname.endsWith(`.${q}`) || a.qname.endsWith(`/${q}`) || a.qname.endsWith(`::${q}`)) tiers[1].push(id);
    else if (a.name === q) tiers[2].push(id);
    else if (a.name.toLowerCase() === lower || a.qname.toLowerCase() === lower) tiers[3].push(id);
  });
  return (tiers.find((t) => t.length > 0) ?? []).sort();
}

export function describeNode(graph: GraphReader, id: string): NodeDescription {
  // Incoming: where the other node refers to this one (the site). Outgoing: where the target is defined.
  const view = (other: string, edge: GraphEdge, incoming: boolean): EdgeView => {
    const n = graph.getNodeAttributes(other);
    const line = incoming && edge.line >= 0 ? edge.line + 1 : n.range ? n.range.startLine + 1 : undefined;
    const location = n.path ? `${n.path}${line !== undefined ? `:${line}` : ''}` : '(external)';
    return { kind: edge.kind, id: other, qname: n.qname, location };
  };
  const outgoing: EdgeView[] = [];
  const incoming: EdgeView[] = [];
  graph.forEachOutEdge(id, (_, a, _s, target) => outgoing.push(view(target, a, false)));
  graph.forEachInEdge(id, (_, a, source) => incoming.push(view(source, a, true)));
  // Ties broken by the other node's id (unique per kind and direction), so that the order does not depend
  // on how a graph iterates its edges: graphology's and the snapshot's compact view give the same answer.
  const order = (a: EdgeView, b: EdgeView) => a.kind.localeCompare(b.kind) || a.qname.localeCompare(b.qname) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { node: graph.getNodeAttributes(id), outgoing: outgoing.sort(order), incoming: incoming.sort(order) };
}

/** The innermost node of `relPath` whose range contains (line, col), else the module node. */
export function nodeAt(repo: RepositoryGraph, relPath: string, line: number, col: number): string | undefined {
  let best: { id: string; size: number } | undefined;
  for (const a of repo.nodesInFile(relPath)) {
    if (!a.range || a.kind === 'Module') continue;
    const r = a.range;
    const after = line > r.startLine || (line === r.startLine && col >= r.startCol);
    const before = line < r.endLine || (line === r.endLine && col <= r.endCol);
    if (!after || !before) continue;
    const size = (r.endLine - r.startLine) * 100000 + (r.endCol - r.startCol);
    if (!best || size < best.size) best = { id: a.id, size };
  }
  if (best) return best.id;
  return repo.graph.hasNode(relPath) ? relPath : undefined;
}
