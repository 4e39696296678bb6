// The explorer's search box and its "follow the cursor" toggle, answered from the whole graph (not
// only the visible part): a hit is then made visible by expanding its ancestors.
import type { GraphNode } from '../model/schema';
import type { Graph } from './containment';
import type { SearchHit } from './protocol';
import { KIND_PRIOR } from '../search/entityIndex';

/**
 * Ranked like the CLI's entity lookup: by how the name matches (the whole name ignoring case, then
 * a prefix, a substring, a qualified-name substring), then by kind (a class or function before a
 * module, a field or a variable, externals and folders last), with a nudge smaller than a kind's for
 * the exact case, declarations (`.d.ts`, `.pyi`) after code, the more referenced first, then the
 * shorter qualified name. `environment` finds the class `Environment` before a field of that name.
 */
export function searchNodes(graph: Graph, query: string, limit = 20): SearchHit[] {
  const exact = query.trim();
  const q = exact.toLowerCase();
  if (!q) return [];
  const tiers: Array<Array<[string, GraphNode]>> = [[], [], [], []];
  graph.forEachNode((id, node) => {
    const name = node.name.toLowerCase();
    if (name === q) tiers[0].push([id, node]);
    else if (name.startsWith(q)) tiers[1].push([id, node]);
    else if (name.includes(q)) tiers[2].push([id, node]);
    else if (node.qname.toLowerCase().includes(q)) tiers[3].push([id, node]);
  });
  const hits: SearchHit[] = [];
  for (const tier of tiers) {
    const weight = new Map(tier.map(([id, n]) => [id, prior(graph, id, n) + (n.name.startsWith(exact) ? EXACT_CASE : 0)]));
    tier.sort(([a, x], [b, y]) => weight.get(b)! - weight.get(a)! || x.qname.length - y.qname.length || a.localeCompare(b));
    for (const [id, n] of tier) {
      if (hits.length >= limit) return hits;
      hits.push({ id, label: n.name, kind: n.kind, qname: n.qname, path: n.path });
    }
  }
  return hits;
}

/** Less than the gap between two kinds: a field typed in its exact case still ranks after the class. */
const EXACT_CASE = 0.005;
const DECLARATION_FILE = /\.(pyi|d\.c?ts)$/;

function prior(graph: Graph, id: string, n: GraphNode): number {
  return (KIND_PRIOR[n.kind] ?? 0) - (DECLARATION_FILE.test(n.path) ? 0.005 : 0) + 0.002 * Math.log1p(graph.inDegree(id));
}

/** The innermost definition of a file that spans the (zero-based) line, else the file's module. */
export function nodeAtLine(nodesInFile: readonly GraphNode[], line: number): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const n of nodesInFile) {
    if (n.kind === 'Module') {
      best ??= n;
      continue;
    }
    const r = n.range;
    if (!r || line < r.startLine || line > r.endLine) continue;
    const span = r.endLine - r.startLine;
    const bestSpan = best?.range && best.kind !== 'Module' ? best.range.endLine - best.range.startLine : Infinity;
    if (span < bestSpan) best = n;
  }
  return best;
}
