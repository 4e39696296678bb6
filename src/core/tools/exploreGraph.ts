// explore_graph (RPG-Encoder's ExploreRPG): callers, callees, subclasses, importers and members as an
// indented tree, paged, with what was cut and what may be missing counted.
import { functionOf } from '../search/implementations';
import { location, type ToolAnswer, type ToolContext } from './context';
import { STRUCTURE, edgeRows, type EdgeRow, type UnresolvedIndex } from './relations';
import type { ToolInput } from './schemas';
import { candidatesAnswer, resolveTarget } from './targets';

/** Bounds the walk itself, whatever the page size: depth 3 around a hub can reach thousands of nodes. */
const MAX_WALK = 5_000;

interface TreeRow extends EdgeRow {
  depth: number;
}

export async function exploreGraph(ctx: ToolContext, unresolved: UnresolvedIndex, input: ToolInput<'explore_graph'>): Promise<ToolAnswer> {
  const target = await resolveTarget(ctx, input);
  if ('candidates' in target) return candidatesAnswer(input.name!, target.candidates);
  const root = target.node;
  const graph = ctx.graph.graph;
  const directions: Array<'in' | 'out'> = input.direction === 'both' ? ['out', 'in'] : [input.direction];
  const rows: TreeRow[] = [];
  const seen = new Set(target.members);
  let walkCut = false;
  const expand = (ids: readonly string[], depth: number) => {
    for (const direction of directions) {
      for (const row of edgeRows(graph, ids, direction, input.edgeKinds)) {
        // A node's containers matter for the start only; deeper they repeat the folder tree.
        if (direction === 'in' && depth > 1 && STRUCTURE.has(row.kind) && !input.edgeKinds) continue;
        if (rows.length >= MAX_WALK) {
          walkCut = true;
          return;
        }
        const again = seen.has(row.id);
        rows.push({ ...row, depth });
        if (again) continue;
        // A row that is one signature of an overloaded function is walked on as the whole function.
        const { members } = functionOf(graph, row.id);
        for (const m of members) seen.add(m);
        if (depth < input.depth) expand(members, depth + 1);
      }
    }
  };
  expand(target.members, 1);

  const page = rows.slice(input.offset, input.offset + input.limit);
  const next = input.offset + input.limit < rows.length ? input.offset + input.limit : undefined;
  const counts = new Map<string, number>();
  for (const r of rows) if (r.depth === 1) counts.set(`${r.direction} ${r.kind}`, (counts.get(`${r.direction} ${r.kind}`) ?? 0) + 1);
  const wantsIn = directions.includes('in') && (!input.edgeKinds || input.edgeKinds.some((k) => k === 'CALLS' || k === 'USES'));
  const possible = wantsIn ? unresolved.possible(root, input.edgeKinds?.includes('USES') || !input.edgeKinds ? ['CALLS', 'USES'] : ['CALLS'], target.members).sources : [];

  const lines = [`${root.kind} ${root.qname}  ${location(root)}  id=${root.id}`];
  lines.push(`direct: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ') || 'no edges of the asked kinds'}`);
  for (const r of page) lines.push(`${'  '.repeat(r.depth)}${r.direction === 'out' ? '→' : '←'} ${r.kind.padEnd(10)} ${r.qname}  ${r.location}`);
  if (next !== undefined) lines.push(`… ${rows.length - next} more rows: call again with offset=${next}`);
  if (walkCut) lines.push(`(walk stopped after ${MAX_WALK} rows: lower depth or filter edgeKinds)`);
  if (wantsIn && (root.kind === 'Method' || root.kind === 'Function')) {
    lines.push('(callers are a lower bound: calls through values of unknown type, such as a parameter obj.method(), are not in the graph)');
  }
  if (possible.length > 0) {
    lines.push(`+${possible.length} possible, unresolved: references named "${root.name}" the graph could not tie to a definition:`);
    for (const p of possible.slice(0, 10)) lines.push(`  ? ${graph.getNodeAttribute(p.id, 'qname')}  ${p.location}`);
    if (possible.length > 10) lines.push(`  … ${possible.length - 10} more`);
  }
  return {
    text: lines.join('\n'),
    structured: {
      id: root.id,
      qname: root.qname,
      location: location(root),
      direct: Object.fromEntries(counts),
      rows: page.map(({ depth, direction, kind, id, qname, location: at }) => ({ depth, direction, kind, id, qname, location: at })),
      total: rows.length,
      ...(next !== undefined ? { nextOffset: next } : {}),
      walkCut,
      possibleUnresolved: possible.slice(0, 50),
    },
  };
}
