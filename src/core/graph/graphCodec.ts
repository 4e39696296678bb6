// The repository graph's nodes and edges as two compact blobs, for the query snapshot: strings in
// one JSON document (columns, parsed in one go), everything numeric in one Int32Array (read in place).
// Edges are endpoints by node position, so the 54k edges of Django cost 1 MB instead of the 11 MB of
// their ids and endpoint ids as text. Decoding rebuilds the same graphology graph (same attributes,
// same insertion order) without stitching anything.
import { MultiDirectedGraph } from 'graphology';
import { EDGE_KINDS, NODE_KINDS, edgeId, type EdgeKind, type GraphEdge, type GraphNode, type Language, type NodeKind } from './schema';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

interface NodeStrings {
  id: string[];
  name: string[];
  qname: string[];
  signature: string[];
  doc: string[];
  hash: string[];
  /** Distinct paths and languages, referred to by position. */
  paths: string[];
  languages: string[];
}

/** Per node: kind, path, language, exported, range (4; startLine -1 for none). Per edge: kind, source, target, line, owner (-1 for ''). */
const NODE_INTS = 8;
const EDGE_INTS = 5;

export interface EncodedGraph {
  strings: string;
  ints: Int32Array;
}

/** Undefined when an edge's id is not the one its kind and endpoints give (it could not be rebuilt as it is). */
export function encodeGraph(graph: Graph): EncodedGraph | undefined {
  const strings: NodeStrings = { id: [], name: [], qname: [], signature: [], doc: [], hash: [], paths: [], languages: [] };
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
  return faithful ? { strings: JSON.stringify(strings), ints } : undefined;
}

/** The graph back; throws on blobs that do not fit together (a damaged snapshot). */
export function decodeGraph(encoded: EncodedGraph): Graph {
  const s = JSON.parse(encoded.strings) as NodeStrings;
  const { ints } = encoded;
  const order = ints[0];
  const size = ints[1];
  if (ints.length !== 2 + order * NODE_INTS + size * EDGE_INTS || s.id?.length !== order) throw new Error('graph blobs do not match');
  const graph: Graph = new MultiDirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
  let at = 2;
  for (let i = 0; i < order; i++, at += NODE_INTS) {
    const kind = NODE_KINDS[ints[at]];
    const path = s.paths[ints[at + 1]];
    const language = s.languages[ints[at + 2]];
    if (kind === undefined || path === undefined || language === undefined) throw new Error(`node ${i} is damaged`);
    const startLine = ints[at + 4];
    graph.addNode(s.id[i], {
      id: s.id[i],
      kind: kind as NodeKind,
      name: s.name[i],
      qname: s.qname[i],
      path,
      language: language as Language | '',
      range: startLine < 0 ? null : { startLine, startCol: ints[at + 5], endLine: ints[at + 6], endCol: ints[at + 7] },
      signature: s.signature[i],
      doc: s.doc[i],
      hash: s.hash[i],
      exported: ints[at + 3] === 1,
    });
  }
  for (let i = 0; i < size; i++, at += EDGE_INTS) {
    const kind = EDGE_KINDS[ints[at]] as EdgeKind | undefined;
    const source = s.id[ints[at + 1]];
    const target = s.id[ints[at + 2]];
    const owner = ints[at + 4] < 0 ? '' : s.paths[ints[at + 4]];
    if (kind === undefined || source === undefined || target === undefined || owner === undefined) throw new Error(`edge ${i} is damaged`);
    const id = edgeId(kind, source, target);
    graph.addDirectedEdgeWithKey(id, source, target, { id, kind, source, target, line: ints[at + 3], owner });
  }
  return graph;
}
