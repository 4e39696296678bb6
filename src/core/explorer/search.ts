// The explorer's search box and its "follow the cursor" toggle, answered from the whole graph (not
// only the visible part): a hit is then made visible by expanding its ancestors.
import type { GraphNode } from '../graph/schema';
import type { Graph } from './containment';
import type { SearchHit } from './protocol';

/** Case-insensitive: exact name, then name prefix, then name substring, then qualified-name substring. */
export function searchNodes(graph: Graph, query: string, limit = 20): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const tiers: GraphNode[][] = [[], [], [], []];
  graph.forEachNode((_, node) => {
    const name = node.name.toLowerCase();
    if (name === q) tiers[0].push(node);
    else if (name.startsWith(q)) tiers[1].push(node);
    else if (name.includes(q)) tiers[2].push(node);
    else if (node.qname.toLowerCase().includes(q)) tiers[3].push(node);
  });
  const hits: SearchHit[] = [];
  for (const tier of tiers) {
    // definitions before externals and folders, then shorter (less nested) names first
    tier.sort((a, b) => rank(a) - rank(b) || a.qname.length - b.qname.length || a.id.localeCompare(b.id));
    for (const n of tier) {
      if (hits.length >= limit) return hits;
      hits.push({ id: n.id, label: n.name, kind: n.kind, qname: n.qname, path: n.path });
    }
  }
  return hits;
}

function rank(n: GraphNode): number {
  return n.kind === 'External' ? 2 : n.kind === 'Folder' ? 1 : 0;
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
