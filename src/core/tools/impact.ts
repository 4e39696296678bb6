// impact: what a change touches. The changed definitions (named, or located from a diff) and
// everything that depends on them through CALLS, INHERITS, USES and IMPORTS, nearest first, each
// with the chain of edges that reaches it; callers of a method an override overrides are possible
// dependents of the override (graph/overrides.ts), marked so, as is everything reached through them.
import { dispatchCallers } from '../graph/overrides';
import type { GraphNode } from '../model/schema';
import { functionOf } from '../search/implementations';
import { pageWithin, type TokenBudget } from './budget';
import { ToolError, location, type ToolAnswer, type ToolContext } from './context';
import { changedNodes, parseUnifiedDiff } from './diff';
import type { UnresolvedIndex } from './relations';
import type { ToolInput } from './schemas';
import { resolveTarget } from './targets';

const DEPENDS = new Set(['CALLS', 'INHERITS', 'USES', 'IMPORTS']);
const MAX_REACHED = 5_000;

interface Reached {
  node: GraphNode;
  distance: number;
  /** `KIND qname` steps from a changed definition to this one. */
  chain: string[];
  /** Reached through a call that may dispatch to an override, not through resolved edges only. */
  possible: boolean;
}

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function impact(ctx: ToolContext, unresolved: UnresolvedIndex, input: ToolInput<'impact'>, budget: TokenBudget): Promise<ToolAnswer> {
  const graph = ctx.graph.graph;
  const changed = new Map<string, GraphNode>();
  const notes: string[] = [];
  for (const id of input.ids ?? []) {
    const t = await resolveTarget(ctx, { id });
    if ('node' in t) changed.set(t.node.id, t.node);
  }
  for (const name of input.names ?? []) {
    const t = await resolveTarget(ctx, { name });
    // An ambiguous name: every definition of it may be the one changed.
    for (const n of 'node' in t ? [t.node] : t.candidates) changed.set(n.id, n);
  }
  if (input.diff) {
    const text = input.diff.trim() === 'git' ? await ctx.gitDiff() : input.diff;
    const files = parseUnifiedDiff(text);
    if (files.length === 0 && input.diff.trim() !== 'git') throw new ToolError('the diff has no file headers (--- a/… +++ b/…) or hunks (@@ … @@)');
    const indexed = new Set(ctx.graph.filePaths());
    for (const file of files) {
      const path = indexed.has(file.path) ? file.path : [...indexed].find((p) => file.path.endsWith(`/${p}`) || p.endsWith(`/${file.path}`));
      if (file.deleted) notes.push(`${file.path}: deleted (its definitions left the graph; what depended on them is no longer linked)`);
      else if (!path) notes.push(`${file.path}: not indexed (not a supported language, excluded, or not re-indexed yet)`);
      // A hunk in an overload signature and one in the body change one function: listed once, at its body.
      else for (const n of changedNodes(ctx.graph, path, file.ranges)) {
        const { body } = functionOf(graph, n.id);
        changed.set(body, graph.getNodeAttributes(body));
      }
    }
    if (files.length === 0) notes.push('git diff HEAD shows no uncommitted changes');
  }

  // Breadth-first over incoming dependency edges: distance 1 = direct dependents. A function is reached
  // once, as its body, and walked on from all its definitions: calls to an overloaded function land
  // on its first signature, not on the body a diff changes.
  // Resolved edges first at every distance: a definition both depends on a change and may reach it
  // through an override is listed as depending on it.
  const start = [...changed.values()].map((node) => ({ ids: functionOf(graph, node.id).members, chain: [node.qname], possible: false }));
  let frontier = start;
  const done = new Set(frontier.flatMap((f) => f.ids));
  const reached = new Map<string, Reached>();
  let cut = false;
  for (let distance = 1; distance <= input.depth && frontier.length > 0 && !cut; distance++) {
    const next: typeof frontier = [];
    const reach = (from: (typeof frontier)[number], source: string, step: string, possible: boolean) => {
      if (done.has(source)) return;
      if (reached.size >= MAX_REACHED) {
        cut = true;
        return;
      }
      const { body, members } = functionOf(graph, source);
      for (const m of members) done.add(m);
      const node = graph.getNodeAttributes(body);
      const chain = [...from.chain, `← ${step} ${node.qname}`];
      reached.set(body, { node, distance, chain, possible });
      next.push({ ids: members, chain, possible });
    };
    for (const from of frontier) {
      for (const id of from.ids) {
        graph.forEachInEdge(id, (_, edge, source) => {
          if (DEPENDS.has(edge.kind)) reach(from, source, edge.kind, from.possible);
        });
      }
    }
    for (const from of frontier) {
      for (const id of from.ids) {
        for (const d of dispatchCallers(graph, id, from.ids)) reach(from, d.id, `CALLS? (may dispatch from ${graph.getNodeAttribute(d.overridden, 'qname')})`, true);
      }
    }
    frontier = next;
  }
  // References of a changed definition's name the graph could not resolve (`obj.save()` on a value of
  // unknown type): each may be a use of it, so each not reached otherwise is listed at distance 1,
  // marked possible, and not walked on (its dependents would be guesses of guesses).
  for (const from of start) {
    const node = graph.getNodeAttributes(from.ids[0]);
    if (node.kind === 'Module') continue;
    for (const p of unresolved.possible(node, ['CALLS', 'USES'], from.ids).sources) {
      if (done.has(p.id) || reached.size >= MAX_REACHED) continue;
      const { body, members } = functionOf(graph, p.id);
      for (const m of members) done.add(m);
      const caller = graph.getNodeAttributes(body);
      reached.set(body, { node: caller, distance: 1, chain: [...from.chain, `← CALLS? (unresolved "${node.name}") ${caller.qname}`], possible: true });
    }
  }
  // Nearest first; at each distance what is resolved before what is possible.
  const rows = [...reached.values()].sort((a, b) => a.distance - b.distance || Number(a.possible) - Number(b.possible) || a.node.path.localeCompare(b.node.path) || a.node.qname.localeCompare(b.node.qname));
  const files = new Set(rows.map((r) => r.node.path).filter(Boolean));
  const possible = rows.filter((r) => r.possible).length;

  const lines = [`Changed: ${changed.size} definitions${changed.size ? '' : ' (nothing in the graph matched)'}`];
  for (const c of changed.values()) lines.push(`  * ${c.kind} ${c.qname}  ${location(c)}`);
  lines.push(...notes.map((n) => `  ! ${n}`));
  lines.push(`Affected: ${rows.length} definitions in ${files.size} files within ${input.depth} steps${possible ? ` (${possible} possible, marked ?: through an unresolved reference of the same name or a call of an overridden method)` : ''}${cut ? ` (stopped at ${MAX_REACHED})` : ''}`);
  // The nearest affected first: what does not fit the budget is the next page.
  const row = (r: (typeof rows)[number]) => [`  ${r.distance}${r.possible ? '?' : ' '} ${r.node.kind} ${r.node.qname}  ${location(r.node)}   via ${r.chain.slice(1).join(' ')}`];
  const { rows: page, lines: pageLines, nextOffset: next } = pageWithin(rows, input, budget, row, lines, []);
  lines.push(...pageLines);
  return {
    text: lines.join('\n'),
    structured: {
      changed: [...changed.values()].map((c) => ({ id: c.id, kind: c.kind, qname: c.qname, location: location(c) })),
      notes,
      affected: page.map((r) => ({ id: r.node.id, kind: r.node.kind, qname: r.node.qname, location: location(r.node), distance: r.distance, chain: r.chain, ...(r.possible ? { possible: true } : {}) })),
      total: rows.length,
      possible,
      files: files.size,
      ...(next !== undefined ? { nextOffset: next } : {}),
    },
  };
}
