// Which node a tool call means: an id from an earlier answer, or a name ranked the way search ranks
// it (an ambiguous name is answered with the candidates, never an arbitrary pick).
import { findNodes } from '../graph/describe';
import type { GraphNode } from '../graph/schema';
import { ToolError, location, type ToolAnswer, type ToolContext } from './context';

export type Target = { node: GraphNode } | { candidates: GraphNode[] };

export async function resolveTarget(ctx: ToolContext, input: { id?: string; name?: string }): Promise<Target> {
  const graph = ctx.graph.graph;
  if (input.id !== undefined) {
    if (!graph.hasNode(input.id)) throw new ToolError(`no node with id "${input.id}" (ids change when a definition is renamed or moved; search_code finds it again)`);
    return { node: graph.getNodeAttributes(input.id) };
  }
  const name = input.name!;
  const ids = findNodes(graph, name);
  if (ids.length === 0) throw new ToolError(`no definition named "${name}"; search_code accepts partial names and descriptions`);
  if (ids.length === 1) return { node: graph.getNodeAttributes(ids[0]) };
  // The search router's entity ranking: nearest, base before override, code before stubs, public first.
  const ranked = (await ctx.search(name, Math.min(ids.length, 50))).hits.map((h) => h.id).filter((id) => ids.includes(id));
  const order = [...ranked, ...ids.filter((id) => !ranked.includes(id))];
  return { candidates: order.map((id) => graph.getNodeAttributes(id)) };
}

/** The answer to an ambiguous name: the ranked candidates, and how to pick one. */
export function candidatesAnswer(name: string, candidates: GraphNode[], limit = 20): ToolAnswer {
  const shown = candidates.slice(0, limit);
  const rows = shown.map((n, i) => `${i + 1}. ${n.kind} ${n.qname}  ${location(n)}  id=${n.id}`);
  const more = candidates.length > limit ? `\n… ${candidates.length - limit} more` : '';
  return {
    text: `"${name}" names ${candidates.length} definitions; call again with one id:\n${rows.join('\n')}${more}`,
    structured: { ambiguous: true, candidates: shown.map((n) => ({ id: n.id, kind: n.kind, qname: n.qname, location: location(n) })) },
  };
}
