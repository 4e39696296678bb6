// RPG-Encoder's functional abstraction, LLM-guided: the chat model that describes the code groups the
// model-free areas (areas.ts: graph communities and similar files) into the repository's top-level
// functional areas and names them. What it groups are the second-level areas (and the top-level ones
// without sub-areas), each shown with its folders, what its code does and its key terms; every file
// keeps its leaf below them. One request per hierarchy: once grouped, the view evolves per change by
// routing as before, and is not grouped again. The model's grouping is kept with the descriptions under
// the areas it grouped (the files under each), so a view rebuilt from the same code gets it back
// without a request.
import { createHash } from 'node:crypto';
import { ModelRequests, type AreaGroupingReport, type Describer } from '../lifting/lifter';
import { areaSignature, cleanName } from './areaNames';
import type { Area, FeatureHierarchy } from './hierarchy';
import type { Said } from './profiles';

export const AREA_GROUPING_SYSTEM_PROMPT =
  'You organise a code repository into its functional areas for an architect reading it for the first time. Answer only with lines of the form "Area name: P1, P4, P7": 3 to 9 areas, each named in 2 to 5 words by what it does ("Template rendering"), every part in exactly one area. No preamble, no markdown.';

const MIN_GROUPS = 2;
const MAX_GROUPS = 12;
const PROMPT_FEATURES = 5;
const PROMPT_TERMS = 5;

/** What a model groups: the second-level areas, and the top-level ones without sub-areas, in order. */
export function groupingUnits(h: FeatureHierarchy): Area[] {
  return h.root.children.flatMap((id) => {
    const area = h.areas.get(id)!;
    return area.children.length === 0 ? [area] : area.children.map((c) => h.areas.get(c)!);
  });
}

/** The key of a grouping among the descriptions: the parts it groups (the files under each). */
function groupingKey(h: FeatureHierarchy, units: readonly Area[]): string {
  return `groups:${createHash('sha1').update(units.map((u) => areaSignature(h, u.id)).sort().join('\n')).digest('hex')}`;
}

/** Puts back a grouping the model made of the same parts before (a view just built from the same code); true if it did. */
export function applyAreaGroups(h: FeatureHierarchy, said: Said): boolean {
  if (h.grouped) return false;
  const units = groupingUnits(h);
  const kept = said(groupingKey(h, units));
  if (!kept) return false;
  const bySignature = new Map(units.map((u) => [areaSignature(h, u.id), u.id]));
  try {
    const groups = (JSON.parse(kept) as Array<{ name: string; parts: string[] }>).map((g) => ({ name: g.name, units: g.parts.map((s) => bySignature.get(s)!) }));
    if (groups.some((g) => g.units.some((u) => u === undefined))) return false;
    h.regroup(groups);
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks the model to group the view's parts into functional areas, once per hierarchy; `names` reads
 * and keeps the grouping (and gives each new area its name, so that naming does not ask again).
 */
export async function groupAreas(
  h: FeatureHierarchy,
  describer: Describer,
  names: { get: Said; set(key: string, text: string): void },
  options: { signal?: AbortSignal; maxCalls?: number } = {},
): Promise<AreaGroupingReport> {
  const report: AreaGroupingReport = { grouped: 0, cached: false, failed: 0 };
  if (h.grouped) return report;
  if (applyAreaGroups(h, names.get)) return { ...report, grouped: h.root.children.length, cached: true };
  const units = groupingUnits(h);
  // a repository of one or two parts has nothing to group
  if (units.length <= MIN_GROUPS) return report;
  const requests = new ModelRequests(options);
  const stopped = requests.cancelled() ?? requests.take();
  if (stopped) return { ...report, stopped };
  try {
    const groups = parseGrouping(await describer.describe(AREA_GROUPING_SYSTEM_PROMPT, groupingPrompt(h, units), options.signal), units);
    if (!groups) return { ...report, failed: 1 };
    const key = groupingKey(h, units);
    names.set(key, JSON.stringify(groups.map((g) => ({ name: g.name, parts: g.units.map((u) => areaSignature(h, u)) }))));
    h.regroup(groups);
    for (const area of h.root.children) names.set(areaSignature(h, area), h.areas.get(area)!.name);
    return { ...report, grouped: groups.length };
  } catch (err) {
    const why = requests.failed(err);
    return { ...report, failed: 1, ...(why ? { stopped: why } : {}) };
  }
}

/** Each part on a line: its number, where it is, what its code does, its key terms. */
export function groupingPrompt(h: FeatureHierarchy, units: readonly Area[]): string {
  const lines = [`Repository ${h.rootName}, in ${units.length} parts found from its code's dependencies and vocabulary. Group the parts into the repository's functional areas.`];
  units.forEach((unit, i) => {
    const files = h.filesUnder(unit.id);
    const counts = new Map<string, number>();
    for (const file of files) for (const id of h.entitiesOf(file)) for (const f of h.features(id)) counts.set(f, (counts.get(f) ?? 0) + 1);
    const does = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, PROMPT_FEATURES).map(([f]) => f);
    const scopes = unit.scopes.map((s) => (s === '' ? './' : `${s}/`)).join(', ');
    lines.push(`P${i + 1}: ${files.length} files in ${scopes}; does: ${does.join('; ') || '-'}; terms: ${unit.terms.slice(0, PROMPT_TERMS).join(', ')}`);
  });
  return lines.join('\n');
}

/**
 * The groups in a model's answer, as area ids; undefined when it is not a grouping (fewer than two
 * groups, or more than twelve). A part named twice stays in its first group; a part not named joins
 * the group that holds most of its former siblings, or one of its own under its former area's name.
 */
export function parseGrouping(text: string, units: readonly Area[]): Array<{ name: string; units: string[] }> | undefined {
  const groups: Array<{ name: string; units: string[] }> = [];
  const placed = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^[\s\-*•\d.)]*(.+?)\s*:\s*((?:P\d+[\s,;.]*)+)$/i.exec(line.replace(/[*`#"“”]/g, '').trim());
    if (!m) continue;
    const name = cleanName(m[1]);
    const ids = [...m[2].matchAll(/P(\d+)/gi)].map((p) => units[Number(p[1]) - 1]?.id).filter((id): id is string => id !== undefined && !placed.has(id));
    if (!name || ids.length === 0) continue;
    for (const id of ids) placed.set(id, groups.length);
    groups.push({ name, units: [...new Set(ids)] });
  }
  if (groups.length < MIN_GROUPS || groups.length > MAX_GROUPS) return undefined;
  for (const unit of units) {
    if (placed.has(unit.id)) continue;
    const votes = new Map<number, number>();
    for (const [id, g] of placed) if (id.split('.')[0] === unit.id.split('.')[0]) votes.set(g, (votes.get(g) ?? 0) + 1);
    const best = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
    if (best !== undefined) groups[best].units.push(unit.id);
    else groups.push({ name: unit.name, units: [unit.id] });
    placed.set(unit.id, best ?? groups.length - 1);
  }
  return groups;
}
