// The repository graph's nodes and edges as two compact blobs, for the query snapshot: strings in
// packed columns (read one at a time where they lie, packedStrings.ts), everything numeric in one
// Int32Array (read in place). Edges are endpoints by node position, so the 54k edges of Django cost 1 MB
// instead of the 11 MB of their ids and endpoint ids as text. Read back, it is searched in place, or a warm
// start adds its nodes and edges to graphology in their saved order without stitching anything.
import type { MultiDirectedGraph } from 'graphology';
import { EDGE_KINDS, NODE_KINDS, edgeId, type GraphEdge, type GraphNode, type Language } from '../model/schema';
import type { ReadonlyGraph } from './describe';
import { PackedColumn, packColumns } from './packedStrings';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

/** The string columns, in their order in the blob (paths and languages: distinct values, referred to by position); `id` is indexed. */
const COLUMNS = ['id', 'name', 'qname', 'signature', 'doc', 'hash', 'paths', 'languages'] as const;
type Column = (typeof COLUMNS)[number];

/** Per node: kind, path, language, exported, range (4; startLine -1 for none). Per edge: kind, source, target, line, owner (-1 for ''). */
const NODE_INTS = 8;
const EDGE_INTS = 5;

export interface EncodedGraph {
  /** {@link packColumns} of the {@link COLUMNS}. */
  strings: Buffer;
  ints: Int32Array;
}

/** Undefined when an edge's id is not the one its kind and endpoints give (it could not be rebuilt as it is). */
export function encodeGraph(graph: Graph): EncodedGraph | undefined {
  const strings: Record<Column, string[]> = { id: [], name: [], qname: [], signature: [], doc: [], hash: [], paths: [], languages: [] };
  const pathIndex = new Map<string, number>();
  const languageIndex = new Map<string, number>();
  const intern = (table: string[], index: Map<string, number>, value: string) => {
    let at = index.get(value);
    if (at === undefined) index.set(value, (at = table.push(value) - 1));
    return at;
  };
  const position = new Map<string, number>();
  const ints = new Int32Array(2 + graph.order * NODE_INTS + graph.size * EDGE_INTS);
  ints[0] = graph.order;
  ints[1] = graph.size;
  let at = 2;
  graph.forEachNode((id, n) => {
    position.set(id, strings.id.length);
    strings.id.push(id);
    strings.name.push(n.name);
    strings.qname.push(n.qname);
    strings.signature.push(n.signature);
    strings.doc.push(n.doc);
    strings.hash.push(n.hash);
    ints[at++] = NODE_KINDS.indexOf(n.kind);
    ints[at++] = intern(strings.paths, pathIndex, n.path);
    ints[at++] = intern(strings.languages, languageIndex, n.language);
    ints[at++] = n.exported ? 1 : 0;
    const r = n.range;
    ints[at++] = r ? r.startLine : -1;
    ints[at++] = r ? r.startCol : 0;
    ints[at++] = r ? r.endLine : 0;
    ints[at++] = r ? r.endCol : 0;
  });
  let faithful = true;
  graph.forEachEdge((key, e) => {
    if (key !== e.id || e.id !== edgeId(e.kind, e.source, e.target)) faithful = false;
    ints[at++] = EDGE_KINDS.indexOf(e.kind);
    ints[at++] = position.get(e.source)!;
    ints[at++] = position.get(e.target)!;
    ints[at++] = e.line;
    ints[at++] = e.owner === '' ? -1 : intern(strings.paths, pathIndex, e.owner);
  });
  return faithful ? { strings: packColumns(COLUMNS.map((c) => ({ values: strings[c], indexed: c === 'id' }))), ints } : undefined;
}

/**
 * The encoded graph read in place, for lookups that need a few nodes and their edges (`cartograph show`,
 * a one-shot query): adding Django's 54k edges to graphology takes ~250 ms, a million lines' 5 s, longer
 * than such a query may take in all. Nodes and edges become objects only when asked for; the adjacency is
 * two index arrays built on first use. Its methods are the part of graphology's API that search and
 * `describe.ts` read ({@link ReadonlyGraph}); it never changes, so it emits no events.
 */
export class CompactGraph implements ReadonlyGraph {
  readonly order: number;
  readonly size: number;
  private readonly columns: Record<Column, PackedColumn>;
  /** Few and read for every node: decoded once. */
  private readonly paths: string[];
  private readonly languages: string[];
  private readonly ints: Int32Array;
  private readonly made: (GraphNode | undefined)[];
  private adjacency: { out: Adjacency; in: Adjacency } | undefined;

  /** Throws on blobs that do not fit together (a damaged snapshot), so that nothing read later can. */
  constructor(encoded: EncodedGraph) {
    const columns = PackedColumn.read(encoded.strings);
    if (columns.length !== COLUMNS.length) throw new Error('graph blobs do not match');
    this.columns = Object.fromEntries(COLUMNS.map((c, i) => [c, columns[i]])) as Record<Column, PackedColumn>;
    this.paths = this.columns.paths.all();
    this.languages = this.columns.languages.all();
    this.ints = encoded.ints;
    this.order = this.ints[0];
    this.size = this.ints[1];
    const perNode = COLUMNS.filter((c) => c !== 'paths' && c !== 'languages');
    if (this.ints.length !== 2 + this.order * NODE_INTS + this.size * EDGE_INTS || perNode.some((c) => this.columns[c].length !== this.order)) throw new Error('graph blobs do not match');
    this.made = new Array<GraphNode | undefined>(this.order);
    this.checkReferences();
  }

  /** Every table position the integers hold points into its table: nodes and edges read later cannot fail. */
  private checkReferences(): void {
    const { ints, paths, languages } = this;
    const within = (value: number, length: number) => value >= 0 && value < length;
    for (let i = 0, at = 2; i < this.order; i++, at += NODE_INTS) {
      if (!within(ints[at], NODE_KINDS.length) || !within(ints[at + 1], paths.length) || !within(ints[at + 2], languages.length)) throw new Error(`node ${i} is damaged`);
    }
    for (let i = 0, at = 2 + this.order * NODE_INTS; i < this.size; i++, at += EDGE_INTS) {
      const owner = ints[at + 4];
      if (!within(ints[at], EDGE_KINDS.length) || !within(ints[at + 1], this.order) || !within(ints[at + 2], this.order) || (owner !== -1 && !within(owner, paths.length))) {
        throw new Error(`edge ${i} is damaged`);
      }
    }
  }

  hasNode(id: string): boolean {
    return this.position(id) !== undefined;
  }

  getNodeAttributes(id: string): GraphNode {
    const at = this.position(id);
    if (at === undefined) throw new Error(`no node ${id}`);
    return this.nodeAt(at);
  }

  getNodeAttribute<K extends keyof GraphNode>(id: string, name: K): GraphNode[K] {
    return this.getNodeAttributes(id)[name];
  }

  /** Node ids in encoding order (graphology's insertion order). */
  nodes(): string[] {
    return this.columns.id.all();
  }

  /** The id of the i-th node encoded (0 ≤ i < order). */
  idAt(i: number): string {
    return this.made[i]?.id ?? this.columns.id.at(i);
  }

  forEachNode(callback: (id: string, attributes: GraphNode) => void): void {
    for (let i = 0; i < this.order; i++) callback(this.idAt(i), this.nodeAt(i));
  }

  filterNodes(keep: (id: string, attributes: GraphNode) => boolean): string[] {
    const kept: string[] = [];
    this.forEachNode((id, node) => {
      if (keep(id, node)) kept.push(id);
    });
    return kept;
  }

  inDegree(id: string): number {
    const at = this.position(id);
    if (at === undefined) throw new Error(`no node ${id}`);
    const { start } = this.adjacencies().in;
    return start[at + 1] - start[at];
  }

  /** Every edge in encoding order, with its ends' attributes (as graphology's forEachEdge). */
  forEachEdge(callback: (edge: string, attributes: GraphEdge, source: string, target: string, sourceAttributes: GraphNode, targetAttributes: GraphNode) => void): void {
    const base = 2 + this.order * NODE_INTS;
    for (let i = 0; i < this.size; i++) {
      const source = this.nodeAt(this.ints[base + i * EDGE_INTS + 1]);
      const target = this.nodeAt(this.ints[base + i * EDGE_INTS + 2]);
      const edge = this.edgeAt(i);
      callback(edge.id, edge, source.id, target.id, source, target);
    }
  }

  /** Frozen: there is no change to listen for. */
  on(): this {
    return this;
  }

  /** A node's outgoing edges, in the order they were encoded. */
  forEachOutEdge(id: string, callback: EdgeCallback): void {
    this.forEachEdgeOf(id, 'out', callback);
  }

  forEachInEdge(id: string, callback: EdgeCallback): void {
    this.forEachEdgeOf(id, 'in', callback);
  }

  private position(id: string): number | undefined {
    const at = this.columns.id.indexOf(id);
    return at < 0 ? undefined : at;
  }

  /** The i-th node encoded (0 ≤ i < order), made once. */
  nodeAt(i: number): GraphNode {
    const made = this.made[i];
    if (made) return made;
    const { ints, columns: c } = this;
    const at = 2 + i * NODE_INTS;
    const startLine = ints[at + 4];
    return (this.made[i] = {
      id: c.id.at(i),
      kind: NODE_KINDS[ints[at]],
      name: c.name.at(i),
      qname: c.qname.at(i),
      path: this.paths[ints[at + 1]],
      language: this.languages[ints[at + 2]] as Language | '',
      range: startLine < 0 ? null : { startLine, startCol: ints[at + 5], endLine: ints[at + 6], endCol: ints[at + 7] },
      signature: c.signature.at(i),
      doc: c.doc.at(i),
      hash: c.hash.at(i),
      exported: ints[at + 3] === 1,
    });
  }

  /** The i-th edge encoded (0 ≤ i < size), made afresh. */
  edgeAt(i: number): GraphEdge {
    const { ints } = this;
    const at = 2 + this.order * NODE_INTS + i * EDGE_INTS;
    const kind = EDGE_KINDS[ints[at]];
    const source = this.idAt(ints[at + 1]);
    const target = this.idAt(ints[at + 2]);
    const owner = ints[at + 4] < 0 ? '' : this.paths[ints[at + 4]];
    return { id: edgeId(kind, source, target), kind, source, target, line: ints[at + 3], owner };
  }

  private forEachEdgeOf(id: string, direction: 'out' | 'in', callback: EdgeCallback): void {
    const at = this.position(id);
    if (at === undefined) throw new Error(`no node ${id}`);
    const { start, edges } = this.adjacencies()[direction];
    for (let k = start[at]; k < start[at + 1]; k++) {
      const edge = this.edgeAt(edges[k]);
      callback(edge.id, edge, edge.source, edge.target);
    }
  }

  private adjacencies(): { out: Adjacency; in: Adjacency } {
    return (this.adjacency ??= { out: this.index(1), in: this.index(2) });
  }

  /** Edges grouped by the node in slot `end` of their ints (1: source, 2: target), in encoding order (a counting sort). */
  private index(end: 1 | 2): Adjacency {
    const base = 2 + this.order * NODE_INTS;
    const start = new Int32Array(this.order + 1);
    for (let i = 0; i < this.size; i++) start[this.ints[base + i * EDGE_INTS + end] + 1]++;
    for (let n = 0; n < this.order; n++) start[n + 1] += start[n];
    const next = start.slice(0, this.order);
    const edges = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) edges[next[this.ints[base + i * EDGE_INTS + end]]++] = i;
    return { start, edges };
  }
}

type EdgeCallback = (edge: string, attributes: GraphEdge, source: string, target: string) => void;

/** CSR: the edges of node n are edges[start[n]] … edges[start[n + 1] - 1]. */
interface Adjacency {
  start: Int32Array;
  edges: Int32Array;
}
