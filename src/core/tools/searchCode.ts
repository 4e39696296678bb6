// search_code (RPG-Encoder's SearchNode): the "Find Where Implemented" router for agents, with the
// functional view beside it: each hit's features, and the areas and definitions whose features match
// the query's words (listed after the ranked hits, which they do not reorder).
import { FeatureSearch } from '../features/featureSearch';
import type { FeatureHierarchy } from '../features/hierarchy';
import { areaLine } from '../features/render';
import { AREA_PREFIX } from './areas';
import { budgetNote, rowsWithin, type TokenBudget } from './budget';
import { firstSentence, location, type ToolAnswer, type ToolContext } from './context';
import type { ToolInput } from './schemas';

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function searchCode(ctx: ToolContext, input: ToolInput<'search_code'>, budget: TokenBudget): Promise<ToolAnswer> {
  const graph = ctx.graph.graph;
  const want = input.offset + input.limit;
  const filtered = Boolean(input.kinds?.length || input.path);
  // Filters drop hits after ranking: ask for more so a filtered page is still full.
  const result = await ctx.search(input.query, Math.min(filtered ? want * 4 : want + 1, 1000));
  const prefix = input.path?.replace(/^\.\/+/, '').replace(/\/+$/, '');
  const hits = result.hits.filter((h) => {
    const n = graph.getNodeAttributes(h.id);
    if (input.kinds?.length && !input.kinds.includes(n.kind)) return false;
    return !prefix || n.path === prefix || n.path.startsWith(`${prefix}/`);
  });
  const page = hits.slice(input.offset, want);
  const rows = page.map((h) => {
    const n = graph.getNodeAttributes(h.id);
    return {
      id: h.id,
      kind: n.kind,
      qname: n.qname,
      location: location(n),
      signature: n.signature,
      doc: firstSentence(n.doc),
      foundBy: h.via,
      ...(h.edge ? { edge: h.edge } : {}),
      score: Number(h.score.toFixed(4)),
      ...(h.path && h.path.length > 1 ? { graphPath: h.path.map((id) => graph.getNodeAttribute(id, 'qname')) } : {}),
      ...(h.compiledTo ? { compiledTo: h.compiledTo } : {}),
    };
  });
  const features = await ctx.features?.({ build: false });
  const byFeature = features && result.route === 'natural-language' && input.offset === 0 ? featureMatches(graph, features, input.query, new Set(hits.map((h) => h.id)), prefix) : undefined;
  const header = [`${result.route}: ${result.reason}`];
  if (rows.length === 0) {
    header.push(input.offset > 0 ? `No hits past offset ${input.offset}.` : `No matches${filtered ? ' with the given kinds/path filter' : ''} among ${ctx.graph.filePaths().length} indexed files.`);
  }
  const rowLines = rows.map((r, i) => {
    const lines = [`${input.offset + i + 1}. ${r.kind} ${r.qname}  ${r.location}  [${r.foundBy}${r.edge ? ` ${r.edge}` : ''} ${r.score}]  id=${r.id}`];
    if (r.signature) lines.push(`   ${r.signature.split('\n')[0]}`);
    if (r.doc) lines.push(`   ${r.doc}`);
    const does = features?.features(r.id) ?? [];
    if (does.length) lines.push(`   does: ${does.join('; ')}`);
    if (r.graphPath) lines.push(`   found along ${r.graphPath.join(' → ')}`);
    if (r.compiledTo) lines.push(`   also compiled to ${r.compiledTo.join(', ')}`);
    return lines;
  });
  const footer: string[] = [];
  if (byFeature && features) {
    if (byFeature.areas.length) footer.push('Areas whose features match:', ...byFeature.areas.map((a) => `   ${areaLine(features, features.areas.get(a.area)!)}  id=${AREA_PREFIX}${a.area}`));
    if (byFeature.entities.length) {
      footer.push('Also matched by their features:');
      for (const e of byFeature.entities) {
        const n = graph.getNodeAttributes(e.id);
        footer.push(`   ${n.kind} ${n.qname}  ${location(n)}  — ${e.feature}  id=${e.id}`);
      }
    }
  }
  // The ranked hits first: what does not fit the budget is the next page.
  const fit = rowsWithin(rowLines, [...header, budgetNote(rows.length, input.maxTokens, want, 'hits'), ...footer], budget);
  const shown = rows.slice(0, fit);
  const nextOffset = fit < rows.length ? input.offset + fit : hits.length > want ? want : undefined;
  const lines = [...header, ...rowLines.slice(0, fit).flat()];
  if (fit < rows.length) lines.push(budgetNote(rows.length - fit, input.maxTokens, nextOffset!, 'hits'));
  else if (nextOffset !== undefined) lines.push(`More hits: call again with offset=${nextOffset}.`);
  lines.push(...footer);
  return {
    text: lines.join('\n'),
    structured: {
      route: result.route,
      reason: result.reason,
      hits: shown.map((r) => ({ ...r, features: features?.features(r.id) ?? [] })),
      ...(nextOffset !== undefined ? { nextOffset } : {}),
      ...(byFeature ? { featureAreas: byFeature.areas, featureHits: byFeature.entities } : {}),
    },
  };
}

/** Shown per answer: the areas, and the definitions not among the hits, whose features match best. */
const FEATURE_AREAS = 3;
const FEATURE_HITS = 5;
const searches = new WeakMap<FeatureHierarchy, FeatureSearch>();

function featureMatches(graph: ToolContext['graph']['graph'], h: FeatureHierarchy, query: string, shown: Set<string>, prefix: string | undefined) {
  let search = searches.get(h);
  if (!search) searches.set(h, (search = new FeatureSearch(h)));
  const under = (path: string | undefined) => !prefix || path === prefix || Boolean(path?.startsWith(`${prefix}/`));
  const entities = search.entities(query, FEATURE_HITS * 4).filter((e) => !shown.has(e.id) && graph.hasNode(e.id) && under(h.entityPath(e.id))).slice(0, FEATURE_HITS);
  return { areas: prefix ? [] : search.areas(query, FEATURE_AREAS), entities };
}
