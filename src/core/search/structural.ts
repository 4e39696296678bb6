// Structural questions answered by walking typed edges: callers, callees, the class hierarchy,
// dependencies and dependents, members.
import type { ReadonlyGraph } from '../graph/describe';
import { callerKinds } from '../graph/callerEdges';
import type { EdgeKind, GraphEdge } from '../model/schema';
import type { Relation } from './router';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

const WALKS: Record<Relation, { direction: 'in' | 'out'; kinds: EdgeKind[]; transitive: boolean }> = {
  callers: { direction: 'in', kinds: ['CALLS'], transitive: false },
  callees: { direction: 'out', kinds: ['CALLS'], transitive: false },
  subclasses: { direction: 'in', kinds: ['INHERITS'], transitive: true },
  superclasses: { direction: 'out', kinds: ['INHERITS'], transitive: true },
  dependencies: { direction: 'out', kinds: ['IMPORTS', 'CALLS', 'USES', 'INHERITS'], transitive: false },
  dependents: { direction: 'in', kinds: ['IMPORTS', 'CALLS', 'USES', 'INHERITS'], transitive: false },
  members: { direction: 'out', kinds: ['HAS_METHOD', 'HAS_FIELD', 'CONTAINS'], transitive: false },
};

/**
 * Nodes related to `starts`, the definitions of one subject (an overloaded function's signatures and
 * body); nearer ones score higher, transitive walks stop at depth 6.
 */
export function related(graph: Graph, starts: readonly string[], relation: Relation): SearchHit[] {
  const walk = WALKS[relation];
  const hits = new Map<string, SearchHit>();
  const subject = new Set(starts);
  let frontier: Array<{ id: string; path: string[] }> = starts.map((id) => ({ id, path: [id] }));
  for (let depth = 1; depth <= (walk.transitive ? 6 : 1) && frontier.length > 0; depth++) {
    const next: typeof frontier = [];
    for (const { id, path } of frontier) {
      const kinds = walk.direction === 'in' ? callerKinds(walk.kinds, graph.getNodeAttribute(id, 'kind')) : walk.kinds;
      const visit = (_: string, edge: GraphEdge, source: string, target: string) => {
        if (!kinds.includes(edge.kind)) return;
        const other = walk.direction === 'in' ? source : target;
        if (subject.has(other) || hits.has(other)) return;
        // An incoming edge's line is in `other`'s own file (the call, the base list); an outgoing
        // edge's is in the subject's, which is no place to send someone looking at `other`.
        const siteLine = walk.direction === 'in' && edge.line >= 0 ? edge.line : undefined;
        const hitPath = [...path, other];
        hits.set(other, { id: other, score: 1 / depth, via: 'structural', path: hitPath, edge: edge.kind, ...(siteLine !== undefined ? { siteLine } : {}) });
        next.push({ id: other, path: hitPath });
      };
      if (walk.direction === 'in') graph.forEachInEdge(id, visit);
      else graph.forEachOutEdge(id, visit);
    }
    frontier = next;
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
