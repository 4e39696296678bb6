// RPG-Encoder's functional abstraction with a model: the upper areas (the top two levels, what the
// explorer and `cartograph features` show first) named by the chat model that describes the code, from
// their files, their features and their siblings, instead of by key terms. A name is kept by the area's
// signature (the files under it, in the descriptions' cache), so an area that holds the same files after
// a rebuild gets its name back without a request, and only a new or reshaped area is sent.
import { createHash } from 'node:crypto';
import { ModelRequests, type AreaNamingReport, type Describer } from '../lifting/lifter';
import type { Area, FeatureHierarchy } from './hierarchy';
import type { Said } from './profiles';

export const AREA_NAMING_SYSTEM_PROMPT =
  'You name the parts of a code repository for an architect reading it for the first time. Answer with ONE name of 2 to 5 words saying what this part of the code does ("Template rendering", "Database schema migrations"). No preamble, no quotes, no markdown.';

/** Levels named: the explorer's first view and the features outline's top. */
const NAMED_LEVELS = 2;
const PROMPT_FILES = 15;
const PROMPT_FEATURES = 25;
const MAX_NAME_CHARS = 60;

/** What grouping and naming came to, in one line (describe's report, the log, describe_code's answer). */
export function areasNamed(areas: AreaNamingReport): string {
  const g = areas.grouping;
  const grouped = !g ? '' : g.grouped > 0 ? `areas grouped by the model into ${g.grouped}${g.cached ? ' (as before)' : ''}; ` : g.failed > 0 ? `areas not grouped (the model's answer failed or was not a grouping${g.stopped ? `: ${g.stopped}` : ''}); ` : '';
  return `${grouped}areas named: ${areas.named} (${areas.cached} named before, ${areas.failed} failed)${areas.stopped ? `; stopped: ${areas.stopped}` : ''}`;
}

/** The key of an area's name among the descriptions: the files under it. */
export function areaSignature(h: FeatureHierarchy, id: string): string {
  return `area:${createHash('sha1').update(h.filesUnder(id).join('\n')).digest('hex')}`;
}

/** The areas a model names, top level first. */
function namedAreas(h: FeatureHierarchy): Area[] {
  return [...h.areas.values()].filter((a) => a.id !== '' && a.id.split('.').length <= NAMED_LEVELS).sort((a, b) => a.id.split('.').length - b.id.split('.').length || a.id.localeCompare(b.id, undefined, { numeric: true }));
}

/** Gives areas the names a model gave them before (a hierarchy just built holds key terms); returns how many changed. */
export function applyAreaNames(h: FeatureHierarchy, said: Said): number {
  let changed = 0;
  for (const area of namedAreas(h)) {
    const name = said(areaSignature(h, area.id));
    if (name && name !== area.name) changed += h.rename(area.id, name) ? 1 : 0;
  }
  return changed;
}

/** Names every upper area not named for its files yet, one request each; `names` reads and keeps them. */
export async function nameAreas(
  h: FeatureHierarchy,
  describer: Describer,
  names: { get: Said; set(key: string, name: string): void },
  options: { signal?: AbortSignal; maxCalls?: number; maxFailures?: number } = {},
): Promise<AreaNamingReport> {
  const report: AreaNamingReport = { named: 0, cached: 0, failed: 0 };
  const requests = new ModelRequests(options);
  let stopped: string | undefined;
  const nameOne = async (area: Area, key: string) => {
    try {
      const name = cleanName(await describer.describe(AREA_NAMING_SYSTEM_PROMPT, namingPrompt(h, area), options.signal));
      requests.answered();
      if (!name) {
        report.failed++;
        return;
      }
      names.set(key, name);
      h.rename(area.id, name);
      report.named++;
    } catch (err) {
      report.failed++;
      stopped ??= requests.failed(err);
    }
  };
  // as many requests at once as the model takes (a client's round of sampling requests)
  const concurrency = Math.max(1, describer.concurrency ?? 1);
  let wave: Array<Promise<void>> = [];
  for (const area of namedAreas(h)) {
    stopped ??= requests.cancelled();
    if (stopped) break;
    const key = areaSignature(h, area.id);
    const known = names.get(key);
    if (known) {
      report.cached++;
      h.rename(area.id, known);
      continue;
    }
    stopped = requests.take();
    if (stopped) break;
    wave.push(nameOne(area, key));
    if (wave.length >= concurrency) {
      await Promise.all(wave);
      wave = [];
    }
  }
  await Promise.all(wave);
  return stopped ? { ...report, stopped } : report;
}

/** What the model reads of an area: where it is, its files, what their code does, and what its siblings are. */
export function namingPrompt(h: FeatureHierarchy, area: Area): string {
  const files = h.filesUnder(area.id);
  const counts = new Map<string, number>();
  for (const file of files) for (const id of h.entitiesOf(file)) for (const f of h.features(id)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const features = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, PROMPT_FEATURES).map(([f]) => f);
  const siblings = (h.areas.get(area.parent ?? '')?.children ?? []).filter((id) => id !== area.id).map((id) => h.areas.get(id)!.name);
  const lines = [
    `Repository ${h.rootName}: one part of it, ${files.length} files in ${area.scopes.map((s) => (s === '' ? './' : `${s}/`)).join(', ')}.`,
    'Files:',
    ...files.slice(0, PROMPT_FILES).map((f) => `- ${f}`),
    ...(files.length > PROMPT_FILES ? [`- … and ${files.length - PROMPT_FILES} more`] : []),
    'What its functions and classes do, most common first:',
    ...features.map((f) => `- ${f}`),
    `Key terms: ${area.terms.join(', ')}`,
  ];
  if (siblings.length > 0) lines.push(`The other parts beside it: ${siblings.join('; ')}`);
  return lines.join('\n');
}

/** One short line: models add quotes, a trailing period or a "Name:" label. */
export function cleanName(text: string): string {
  return text
    .split('\n')[0]
    .replace(/^(?:name|area)\s*:\s*/i, '')
    .replace(/[*`#"“”]/g, '')
    .replace(/\.$/, '')
    .trim()
    .slice(0, MAX_NAME_CHARS);
}
