// `cartograph features [area | path | name]`: the functional view (RPG-Encoder's feature hierarchy,
// model-free) of the indexed repository. Without an argument, every area with its folders, size and key
// terms; with an area id, what is under it; with a file or a definition, the chain of areas it is under.
import * as path from 'node:path';
import type { Engine } from '../core/engine';
import { currentHierarchy } from '../core/features/featureStore';
import type { FeatureHierarchy } from '../core/features/hierarchy';
import { areaLine, areaOutline, fileChain, summarizeArea } from '../core/features/render';
import { findNodes } from '../core/graph/describe';
import type { Flags } from './flags';

export async function features(target: string, flags: Flags, engine: Engine): Promise<number> {
  const { hierarchy: h, source, update, ms, saveError } = await currentHierarchy(engine.graph, engine.storeInfo().dir ?? null);
  if (saveError) console.error(`cartograph features: the areas could not be saved with the index (${saveError}); they are worked out again next time`);
  const graph = engine.graph.graph;
  const qnameOf = (id: string) => (graph.hasNode(id) ? graph.getNodeAttribute(id, 'qname') : id);
  const provenance = { source, ms, ...(update ? { update } : {}) };
  if (!target) {
    const areas = [...h.areas.values()].filter((a) => a.id !== '').map((a) => summarizeArea(h, a));
    if (flags.json) return print({ root: h.rootName, files: h.filePaths().length, entities: h.entityCount(''), areas, ...provenance });
    console.log(`${h.rootName}: ${h.filePaths().length} files, ${h.entityCount('')} functions, methods and classes in ${h.root.children.length} areas (model-free features; ${source} in ${ms} ms)`);
    for (const line of areaOutline(h, '', Infinity)) console.log(line);
    return 0;
  }
  const area = h.areas.get(target);
  if (area && target !== '') {
    const files = area.children.length === 0 ? area.files : [];
    if (flags.json) return print({ area: summarizeArea(h, area), subareas: area.children.map((c) => summarizeArea(h, h.areas.get(c)!)), files, chain: chainOf(h, area.id), ...provenance });
    console.log(areaLine(h, area));
    for (const line of areaOutline(h, area.id, Infinity)) console.log(`  ${line}`);
    for (const file of files) console.log(`  ${file}  (${h.entitiesOf(file).length} entities)`);
    return 0;
  }
  const file = fileOf(h, engine.root, target);
  const entity = file ? undefined : findNodes(graph, target).find((id) => h.features(id).length > 0 || h.leafOf(graph.getNodeAttribute(id, 'path')) !== undefined);
  const at = file ?? (entity ? graph.getNodeAttribute(entity, 'path') : undefined);
  if (!at) {
    console.error(`cartograph features: no area, indexed file or definition '${target}'`);
    return 1;
  }
  const chain = h.chain(at);
  if (flags.json) {
    const entities = (entity ? [entity] : h.entitiesOf(at)).map((id) => ({ id, qname: qnameOf(id), features: h.features(id) }));
    return print({ path: at, chain: chain.map((a) => summarizeArea(h, a)), entities, ...provenance });
  }
  const lines = fileChain(h, at, qnameOf);
  // A definition asked for by name: its own line only, under its file.
  for (const line of entity ? lines.filter((l, i) => i <= chain.length || l.trimStart().startsWith(`${qnameOf(entity)} —`)) : lines) console.log(line);
  return 0;
}

function chainOf(h: FeatureHierarchy, id: string): string[] {
  const ids: string[] = [];
  for (let at = h.areas.get(id)?.parent; at; at = h.areas.get(at)?.parent) ids.unshift(at);
  return ids;
}

/** A file of the hierarchy named relative to the current folder, to the repository root, or absolute. */
function fileOf(h: FeatureHierarchy, root: string, target: string): string | undefined {
  const candidates = [path.relative(root, path.resolve(target)), target.replace(/^\.\/+/, '')].map((p) => p.split(path.sep).join('/'));
  return candidates.find((p) => h.leafOf(p) !== undefined);
}

function print(value: unknown): number {
  console.log(JSON.stringify(value, null, 2));
  return 0;
}
