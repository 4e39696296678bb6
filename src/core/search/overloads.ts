// TypeScript overloads are one function. The parser keeps each overload signature, the implementation
// and a getter's setter as separate definitions (`f`, `f@2`, … in parse/typescript.ts), which a search
// that lists nodes would show five times for rxjs' `generate`: a page of the same function. An answer
// lists the function once, where its body is. Other languages keep their `@N` twins apart: Java
// overloads and Rust trait impls are separate implementations, each with its own body.
import type { MultiDirectedGraph } from 'graphology';
import type { GraphEdge, GraphNode, Language } from '../graph/schema';
import type { SearchHit } from './types';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

const OVERLOADING: ReadonlySet<Language | ''> = new Set(['typescript', 'tsx', 'javascript']);

/** The id shared by a definition's overloads: `f@3` → `f`. */
const groupOf = (id: string): string => id.replace(/@\d+$/, '');

/**
 * One hit per overloaded TypeScript function, at the best-ranked member's place and score, pointing at
 * the member with the longest source (the implementation; signatures have no body). Order and every
 * other hit are kept.
 */
export function collapseOverloads(graph: Graph, hits: readonly SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  for (const hit of hits) {
    const group = groupOf(hit.id);
    const members = overloadsOf(graph, group);
    if (members.length < 2) {
      out.push(hit);
      continue;
    }
    if (seen.has(group)) continue;
    seen.add(group);
    const body = members.reduce((a, b) => (lines(graph, b) > lines(graph, a) ? b : a));
    out.push(body === hit.id ? hit : { ...hit, id: body });
  }
  return out;
}

/** The TypeScript definitions that share `group`'s name and kind in one scope: `group`, `group@2`, …; [] otherwise. */
function overloadsOf(graph: Graph, group: string): string[] {
  if (!graph.hasNode(group) || !graph.hasNode(`${group}@2`)) return [];
  const first = graph.getNodeAttributes(group);
  if (!OVERLOADING.has(first.language)) return [];
  const members = [group];
  for (let n = 2; graph.hasNode(`${group}@${n}`); n++) {
    // Declaration merging (`class X` and `interface X`) shares a name, not a body: only same-kind twins are overloads.
    if (graph.getNodeAttribute(`${group}@${n}`, 'kind') === first.kind) members.push(`${group}@${n}`);
  }
  return members;
}

const lines = (graph: Graph, id: string): number => {
  const range = graph.getNodeAttribute(id, 'range');
  return range ? range.endLine - range.startLine : 0;
};
