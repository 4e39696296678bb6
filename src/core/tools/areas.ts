// The functional view in the agent tools (RPG-Encoder's functional edges): explore_graph walks
// area → sub-areas → files → entities (and back up to the parents), repo_overview answers by area, and
// every definition or file can say which area it is under. Ids of areas are `area:<id>` ("area:2.3").
import { lineTokens } from '../completion/tokens';
import { AREA_PREFIX, type FeatureHierarchy } from '../features/hierarchy';
import { areaLine, summarizeArea } from '../features/render';
import { pageWithin, type TokenBudget } from './budget';
import { ToolError, location, type ToolAnswer, type ToolContext } from './context';
import type { ToolInput } from './schemas';

export { AREA_PREFIX };

export const isAreaId = (id: string | undefined): id is string => id?.startsWith(AREA_PREFIX) === true;

/** The hierarchy, or a ToolError saying why there is none (the caller serves no functional view). */
export async function requireFeatures(ctx: ToolContext): Promise<FeatureHierarchy> {
  const h = await ctx.features?.();
  if (!h) throw new ToolError('the functional view (areas) is not available here; use a node id, or repo_overview without byArea');
  return h;
}

/** `in area 1.2 widget, inline, hidden (area:1.2) › …`: where a file sits in the functional view, or undefined. */
export function areaChainLine(h: FeatureHierarchy, path: string): string | undefined {
  const chain = h.chain(path);
  return chain.length ? `in area ${chain.map((a) => `${a.id} ${a.name}`).join(' › ')}  (${AREA_PREFIX}${chain[chain.length - 1].id})` : undefined;
}

/** explore_graph from an area: its parents, then its sub-areas, or for a leaf its files and their entities with features. */
/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function exploreArea(ctx: ToolContext, input: ToolInput<'explore_graph'>, budget: TokenBudget): Promise<ToolAnswer> {
  const h = await requireFeatures(ctx);
  const id = input.id!.slice(AREA_PREFIX.length);
  const area = h.areas.get(id);
  if (!area) throw new ToolError(`no area "${id}" (areas are renumbered when the hierarchy is rebuilt; repo_overview with byArea lists them)`);
  const graph = ctx.graph.graph;
  const rows: Array<{ depth: number; direction: 'in' | 'out'; kind: string; id: string; label: string }> = [];
  if (input.direction !== 'out') {
    for (let up = area.parent; up !== null && up !== ''; up = h.areas.get(up)!.parent) {
      rows.push({ depth: 1, direction: 'in', kind: 'AREA', id: `${AREA_PREFIX}${up}`, label: areaLine(h, h.areas.get(up)!) });
    }
  }
  if (input.direction !== 'in') {
    const walk = (areaId: string, depth: number) => {
      const at = h.areas.get(areaId)!;
      for (const child of at.children) {
        rows.push({ depth, direction: 'out', kind: 'AREA', id: `${AREA_PREFIX}${child}`, label: areaLine(h, h.areas.get(child)!) });
        if (depth < input.depth) walk(child, depth + 1);
      }
      for (const file of at.files) {
        rows.push({ depth, direction: 'out', kind: 'FILE', id: file, label: `${file}  (${h.entitiesOf(file).length} entities)` });
        if (depth >= input.depth) continue;
        for (const entity of h.entitiesOf(file)) {
          const node = graph.hasNode(entity) ? graph.getNodeAttributes(entity) : undefined;
          if (node) rows.push({ depth: depth + 1, direction: 'out', kind: node.kind.toUpperCase(), id: entity, label: `${node.qname}  ${location(node)} — ${h.features(entity).join('; ')}` });
        }
      }
    };
    walk(id, 1);
  }
  const lines = [`AREA ${areaLine(h, area)}  id=${AREA_PREFIX}${area.id}`, `key terms: ${area.terms.join(', ')}`];
  const row = (r: (typeof rows)[number]) => [`${'  '.repeat(r.depth)}${r.direction === 'out' ? '→' : '←'} ${r.kind.padEnd(8)} ${r.label}${r.kind === 'AREA' ? `  id=${r.id}` : ''}`];
  const { rows: page, lines: pageLines, nextOffset: next } = pageWithin(rows, input, budget, row, lines, []);
  lines.push(...pageLines);
  return {
    text: lines.join('\n'),
    structured: { area: summarizeArea(h, area), rows: page, total: rows.length, ...(next !== undefined ? { nextOffset: next } : {}) },
  };
}

/** repo_overview by area: the areas as an outline, shallowest first, within the token budget. */
export async function areaOverview(ctx: ToolContext, input: ToolInput<'repo_overview'>, budget: TokenBudget): Promise<ToolAnswer> {
  const h = await requireFeatures(ctx);
  const prefix = input.path?.replace(/^\.\/+/, '').replace(/\/+$/, '') ?? '';
  // With a path: the areas holding files under it (a folder's functional make-up).
  const relevant = (id: string) => !prefix || h.filesUnder(id).some((f) => f === prefix || f.startsWith(`${prefix}/`));
  const title = `Functional areas of ${prefix || h.rootName} (model-free: communities of files by dependencies, similar features and folders; explore_graph with an area id walks one)`;
  const room = budget.exact() - lineTokens(title) - lineTokens('(… 999 more areas, with what is under them, left out for the token budget; explore_graph an area id to open one)');
  let spent = 0;
  const shown: Array<{ id: string; depth: number; line: string }> = [];
  let cut = 0;
  // Breadth-first: every top-level area before any sub-area, so a small budget still covers the repository.
  let level = h.root.children.filter(relevant).map((id) => ({ id, depth: 0 }));
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { id, depth } of level) {
      const area = h.areas.get(id)!;
      const line = `${'  '.repeat(depth)}${areaLine(h, area)}  [${area.terms.join(', ')}]`;
      if (spent + lineTokens(line) > room) {
        cut++;
        continue;
      }
      spent += lineTokens(line);
      shown.push({ id, depth, line });
      next.push(...area.children.filter(relevant).map((c) => ({ id: c, depth: depth + 1 })));
    }
    level = next;
  }
  if (shown.length === 0 && !relevant('')) throw new ToolError(`no indexed file under "${input.path}"`);
  // Each area under its parent, in the tree's order (ids sort as the outline reads).
  const byId = (a: string, b: string) => {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return pa.length - pb.length;
  };
  shown.sort((a, b) => byId(a.id, b.id));
  const lines = [title, ...shown.map((s) => s.line)];
  if (cut > 0) lines.push(`(… ${cut} more areas, with what is under them, left out for the token budget; explore_graph an area id to open one)`);
  return {
    text: lines.join('\n'),
    structured: { byArea: true, path: prefix, areas: shown.map((s) => summarizeArea(h, h.areas.get(s.id)!)), leftOut: cut },
  };
}
