// The CLI's answers as plain data (what `--json` prints), made wherever the graph is: in the CLI's own
// process from the query snapshot, or in the repository's service, which sends them over its socket.
// The terminal's text is printed from the same data (cli/printAnswers.ts), so both paths say the same.
import { describeNode, findNodes, type GraphReader, type NodeDescription } from '../graph/describe';
import type { FileRanking } from '../search';
import type { SearchResult } from '../search/types';

export interface SearchHit {
  id: string;
  score: number;
  via: string;
  kind: string;
  qname: string;
  path?: string;
  line: number | null;
  signature?: string;
  trail?: string[];
  /** The JavaScript files built from the hit's TypeScript file (their copies are folded into it). */
  compiledTo?: string[];
}

export type SearchAnswer = Omit<SearchResult, 'hits'> & { hits: SearchHit[] };

export function searchAnswer(graph: GraphReader, result: SearchResult): SearchAnswer {
  const hits = result.hits.map((h) => {
    const n = graph.getNodeAttributes(h.id);
    return { ...h, kind: n.kind, qname: n.qname, path: n.path, line: n.range ? n.range.startLine + 1 : null, signature: n.signature, trail: h.path };
  });
  return { ...result, hits };
}

export function showAnswer(graph: GraphReader, query: string): NodeDescription[] {
  return findNodes(graph, query).map((id) => describeNode(graph, id));
}

export type FilesAnswer = ReturnType<typeof filesAnswer>;

export function filesAnswer(graph: GraphReader, ranking: FileRanking) {
  const hits = ranking.hits.map((h) => ({
    ...h,
    definitions: h.definitions.map((d) => {
      const n = graph.getNodeAttributes(d.id);
      return { id: d.id, score: d.score, kind: n.kind, qname: n.qname, line: n.range ? n.range.startLine + 1 : null };
    }),
  }));
  return { ...ranking, mode: 'files' as const, hits };
}

/** The repository files an answer names (read-your-writes re-checks them before it is sent). */
export function answeredPaths(value: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 6 || value === null || typeof value !== 'object') return into;
  if (Array.isArray(value)) {
    for (const v of value) answeredPaths(v, into, depth + 1);
    return into;
  }
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'path' || key === 'file') && typeof v === 'string' && v && !v.startsWith('/')) into.add(v);
    else answeredPaths(v, into, depth + 1);
  }
  return into;
}
