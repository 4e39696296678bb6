// explore_graph (RPG-Encoder's ExploreRPG): callers, callees, subclasses, importers and members as an
// indented tree, paged, with what was cut and what may be missing counted.
import { callerKinds } from '../graph/callerEdges';
import { dispatchCallers } from '../graph/overrides';
import { functionOf } from '../search/implementations';
import { areaChainLine } from './areas';
import { pageWithin, type TokenBudget } from './budget';
import { location, type ToolAnswer, type ToolContext } from './context';
import { STRUCTURE, edgeRows, type EdgeRow, type UnresolvedIndex } from './relations';
import { MAX_EXPLORE_DEPTH, type ToolInput } from './schemas';
import { candidatesAnswer, resolveTarget } from './targets';

/** Bounds the walk itself, whatever the page size: depth 3 around a hub can reach thousands of nodes. */
const MAX_WALK = 5_000;

interface TreeRow extends EdgeRow {
  depth: number;
  /** The node is in the tree already (or is the start): its edges are walked at its other row only. */
  repeat: boolean;
  children: TreeRow[];
}

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function exploreGraph(ctx: ToolContext, unresolved: UnresolvedIndex, input: ToolInput<'explore_graph'>, budget: TokenBudget): Promise<ToolAnswer> {
  const target = await resolveTarget(ctx, input);
  if ('candidates' in target) return candidatesAnswer(input.name!, target.candidates);
  const root = target.node;
  const graph = ctx.graph.graph;
  const directions: Array<'in' | 'out'> = input.direction === 'both' ? ['out', 'in'] : [input.direction];
  // The rows one step from a node (every definition of one function at once), as met at `depth`.
  // Callers asked (CALLS in): a function's USES are callers too (callerEdges.ts).
  const step = (ids: readonly string[], depth: number) =>
    directions.flatMap((direction) => {
      const kinds = input.edgeKinds && direction === 'in' ? callerKinds(input.edgeKinds, graph.getNodeAttribute(ids[0], 'kind')) : input.edgeKinds;
      // A node's containers matter for the start only; deeper they repeat the folder tree.
      return edgeRows(graph, ids, direction, kinds).filter((row) => !(direction === 'in' && depth > 1 && STRUCTURE.has(row.kind) && !input.edgeKinds));
    });

  // Breadth-first, so that every node is walked on from its shallowest row: depth-first, a node first
  // met deep under one caller was not walked again where it is a direct caller, and the callers it
  // has there were missing. Each node is walked once (a repeat is shown, not walked again), and a row
  // that is one signature of an overloaded function is walked on as the whole function.
  const tree: TreeRow[] = [];
  const seen = new Set(target.members);
  let frontier: Array<{ ids: readonly string[]; children: TreeRow[] }> = [{ ids: target.members, children: tree }];
  let walked = 0;
  let walkCut = false;
  for (let depth = 1; depth <= input.depth && frontier.length > 0 && !walkCut; depth++) {
    const next: typeof frontier = [];
    for (const from of frontier) {
      for (const row of step(from.ids, depth)) {
        if (walked >= MAX_WALK) {
          walkCut = true;
          break;
        }
        walked++;
        const node: TreeRow = { ...row, depth, repeat: seen.has(row.id), children: [] };
        from.children.push(node);
        if (node.repeat) continue;
        const { members } = functionOf(graph, row.id);
        for (const m of members) seen.add(m);
        next.push({ ids: members, children: node.children });
      }
      if (walkCut) break;
    }
    frontier = next;
  }
  // What the depth cut off: the nodes of the last level that lead on to nodes not in the tree.
  const beyondDepth = walkCut ? 0 : frontier.filter((f) => step(f.ids, input.depth + 1).some((row) => !seen.has(row.id))).length;

  // Each row under the row it was reached from, in walk order within a parent.
  const rows: TreeRow[] = [];
  const flatten = (level: readonly TreeRow[]) => {
    for (const r of level) {
      rows.push(r);
      flatten(r.children);
    }
  };
  flatten(tree);

  const counts = new Map<string, number>();
  for (const r of tree) counts.set(`${r.direction} ${r.kind}`, (counts.get(`${r.direction} ${r.kind}`) ?? 0) + 1);
  const wantsIn = directions.includes('in') && (!input.edgeKinds || input.edgeKinds.some((k) => k === 'CALLS' || k === 'USES'));
  const possible = wantsIn ? unresolved.possible(root, input.edgeKinds?.includes('USES') || !input.edgeKinds ? ['CALLS', 'USES'] : ['CALLS'], target.members).sources : [];
  const dispatched = wantsIn ? dispatchCallers(graph, root.id, target.members) : [];
  const usesAsCallers = input.edgeKinds && !input.edgeKinds.includes('USES') && rows.some((r) => r.kind === 'USES');

  const lines = [`${root.kind} ${root.qname}  ${location(root)}  id=${root.id}`];
  // Functional edges back up: the area the definition's file is in (explore_graph walks it with that id).
  const features = await ctx.features?.({ build: false });
  const area = features && root.path ? areaChainLine(features, root.path) : undefined;
  if (area) lines.push(area);
  lines.push(`direct: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ') || 'no edges of the asked kinds'}`);
  const after: string[] = [];
  if (walkCut) after.push(`(walk stopped after ${MAX_WALK} rows: lower depth or filter edgeKinds)`);
  if (beyondDepth > 0) {
    const rowsLead = beyondDepth === 1 ? `1 row at depth ${input.depth} leads` : `${beyondDepth} rows at depth ${input.depth} lead`;
    after.push(`(${rowsLead} on to nodes not shown: ${input.depth < MAX_EXPLORE_DEPTH ? `call again with depth=${input.depth + 1}, or ` : ''}explore from them)`);
  }
  if (usesAsCallers) after.push('(USES rows are callers with no call written: a property read, a decorator applied, a function passed as a value)');
  if (dispatched.length > 0) {
    after.push(`+${dispatched.length} possible through overriding: calls resolved to a method this one overrides, which run it when the receiver is of its class:`);
    for (const d of dispatched.slice(0, 10)) after.push(`  ? ${graph.getNodeAttribute(d.id, 'qname')}  ${graph.getNodeAttribute(d.id, 'path')}:${d.line + 1}  (calls ${graph.getNodeAttribute(d.overridden, 'qname')})`);
    if (dispatched.length > 10) after.push(`  … ${dispatched.length - 10} more`);
  }
  if (wantsIn && (root.kind === 'Method' || root.kind === 'Function')) {
    after.push('(callers are a lower bound: calls through values of unknown type, such as a parameter obj.method(), are not in the graph)');
  }
  if (possible.length > 0) {
    after.push(`+${possible.length} possible, unresolved: references named "${root.name}" the graph could not tie to a definition:`);
    for (const p of possible.slice(0, 10)) after.push(`  ? ${graph.getNodeAttribute(p.id, 'qname')}  ${p.location}`);
    if (possible.length > 10) after.push(`  … ${possible.length - 10} more`);
  }
  // What the walk found first stays; the rest is the next page.
  const row = (r: TreeRow) => [`${'  '.repeat(r.depth)}${r.direction === 'out' ? '→' : '←'} ${r.kind.padEnd(10)} ${r.qname}  ${r.location}${r.repeat ? '  (repeat)' : ''}`];
  const { rows: page, lines: pageLines, nextOffset: next } = pageWithin(rows, input, budget, row, lines, after);
  lines.push(...pageLines, ...after);
  return {
    text: lines.join('\n'),
    structured: {
      id: root.id,
      qname: root.qname,
      location: location(root),
      direct: Object.fromEntries(counts),
      rows: page.map(({ depth, direction, kind, id, qname, location: at, repeat }) => ({ depth, direction, kind, id, qname, location: at, repeat })),
      total: rows.length,
      ...(next !== undefined ? { nextOffset: next } : {}),
      walkCut,
      beyondDepth,
      possibleUnresolved: possible.slice(0, 50),
      ...(features && root.path ? { areas: features.chain(root.path).map((a) => a.id) } : {}),
      possibleThroughOverrides: dispatched.slice(0, 50).map((d) => ({ id: d.id, location: `${graph.getNodeAttribute(d.id, 'path')}:${d.line + 1}`, overridden: d.overridden })),
    },
  };
}
