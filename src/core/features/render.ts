// The functional view as people and agents read it, shared by `cartograph features` and the agent tools:
// one line per area (id, name, size, folders), a file's chain of areas, an area's contents.
import type { Area, FeatureHierarchy } from './hierarchy';

export interface AreaSummary {
  id: string;
  name: string;
  terms: string[];
  scopes: string[];
  files: number;
  entities: number;
  children: string[];
}

export function summarizeArea(h: FeatureHierarchy, area: Area): AreaSummary {
  return { id: area.id, name: area.name, terms: area.terms, scopes: area.scopes, files: h.filesUnder(area.id).length, entities: h.entityCount(area.id), children: area.children };
}

/** `2.3 template, loader, node  46 files · 535 entities  in template/, templatetags/` */
export function areaLine(h: FeatureHierarchy, area: Area): string {
  const s = summarizeArea(h, area);
  const scopes = s.scopes.length > 4 ? [...s.scopes.slice(0, 4).map(folder), `+${s.scopes.length - 4} folders`] : s.scopes.map(folder);
  return `${area.id} ${area.name}  ${s.files} files · ${s.entities} entities  in ${scopes.join(', ')}`;
}

function folder(dir: string): string {
  return dir === '' ? './' : `${dir}/`;
}

/** The areas under `id` as an indented outline, down to `depth` levels below it. */
export function areaOutline(h: FeatureHierarchy, id: string, depth: number): string[] {
  const lines: string[] = [];
  const visit = (areaId: string, level: number) => {
    const area = h.areas.get(areaId)!;
    for (const child of area.children) {
      lines.push(`${'  '.repeat(level)}${areaLine(h, h.areas.get(child)!)}`);
      if (level + 1 < depth) visit(child, level + 1);
    }
  };
  visit(id, 0);
  return lines;
}

/** A file's areas from the top down, then its entities with their features. */
export function fileChain(h: FeatureHierarchy, path: string, qnameOf: (id: string) => string): string[] {
  const lines = h.chain(path).map((area, i) => `${'  '.repeat(i)}${areaLine(h, area)}`);
  const indent = '  '.repeat(lines.length);
  lines.push(`${indent}${path}`);
  for (const id of h.entitiesOf(path)) lines.push(`${indent}  ${qnameOf(id)} — ${h.features(id).join('; ')}`);
  return lines;
}
