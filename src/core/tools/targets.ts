// Which node a tool call means: an id from an earlier answer, or a name ranked the way search ranks
// it (an ambiguous name is answered with the candidates, never an arbitrary pick).
import { findNodes } from '../graph/describe';
import { moduleId, type GraphNode } from '../model/schema';
import { byImplementation, functionOf } from '../search/implementations';
import { containerOf } from '../search/modelFreeScorers';
import { ToolError, location, type ToolAnswer, type ToolContext } from './context';

/**
 * One definition, or the candidates of an ambiguous name. An overloaded TypeScript function (or a
 * `.pyi` stub's declaration) is one target: `node` is the definition with the body, `members` every
 * definition standing for it, whose edges are its edges (calls land on the first signature, the
 * body's own calls start from the body).
 */
export type Target = { node: GraphNode; members: string[] } | { candidates: GraphNode[] };

export async function resolveTarget(ctx: ToolContext, input: { id?: string; name?: string }): Promise<Target> {
  const graph = ctx.graph.graph;
  if (input.id !== undefined) {
    if (!graph.hasNode(input.id)) throw new ToolError(`no node with id "${input.id}" (ids change when a definition is renamed or moved; search_code finds it again)`);
    const { body, members } = functionOf(graph, input.id);
    return { node: graph.getNodeAttributes(body), members };
  }
  const name = input.name!;
  const functions = byImplementation(graph, findNodes(graph, name));
  if (functions.size === 0) throw new ToolError(`no definition named "${name}"; search_code accepts partial names and descriptions`);
  // A class and the module named after it (`Subject.ts`), and its constructor where that shares the
  // name (Java): the class, the one the others belong to.
  const outer = [...functions].find(([id]) => [...functions.keys()].every((other) => other === id || other === moduleId(graph.getNodeAttribute(id, 'path')) || containerOf(graph, other) === id));
  if (outer) return { node: graph.getNodeAttributes(outer[0]), members: outer[1] };
  const ids = [...functions.keys()];
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
