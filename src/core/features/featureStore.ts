// The functional view kept with the graph: one JSON file in the store folder (features.json), written
// atomically (temporary file, then rename) so a reader never sees half of it. It is derived data: a
// missing, damaged or older-format file is rebuilt from the graph, and a file older than the graph is
// caught up by the same per-change evolution that keeps a live one current.
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FEATURES_FILE } from '../store/storeVersion';
import { FeatureHierarchy, type FeatureUpdate, type PersistedHierarchy } from './hierarchy';
import { applyAreaGroups } from './areaGroups';
import { applyAreaNames } from './areaNames';
import type { FeatureGraph, Said } from './profiles';

export interface CurrentHierarchy {
  hierarchy: FeatureHierarchy;
  /** built: from scratch; loaded: the saved one was current; updated: the saved one, caught up. */
  source: 'built' | 'loaded' | 'updated';
  update?: FeatureUpdate;
  ms: number;
  /** Why the hierarchy could not be saved (a read-only or full disk): it is then rebuilt or caught up next time. */
  saveError?: string;
}

export async function loadHierarchy(storeDir: string): Promise<FeatureHierarchy | undefined> {
  try {
    return FeatureHierarchy.fromJSON(JSON.parse(await fs.readFile(path.join(storeDir, FEATURES_FILE), 'utf8')) as PersistedHierarchy);
  } catch {
    return undefined;
  }
}

/** Whether a hierarchy was saved in the store folder (loading it is fast; building one is not). */
export function hasSavedHierarchy(storeDir: string): boolean {
  return fsSync.existsSync(path.join(storeDir, FEATURES_FILE));
}

export async function saveHierarchy(storeDir: string, hierarchy: FeatureHierarchy): Promise<void> {
  const file = path.join(storeDir, FEATURES_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.mkdir(storeDir, { recursive: true });
  await fs.writeFile(tmp, JSON.stringify(hierarchy.toJSON()));
  await fs.rename(tmp, file);
}

/** The hierarchy of `graph` built from scratch, with what a model said of it where `said` has that. */
export function buildHierarchy(graph: FeatureGraph, said?: Said): FeatureHierarchy {
  const hierarchy = FeatureHierarchy.build(graph, said);
  // a model's grouping of the same parts, and the names it gave areas that hold the same files (kept with the descriptions), come back
  if (said) {
    applyAreaGroups(hierarchy, said);
    applyAreaNames(hierarchy, said);
  }
  return hierarchy;
}

/**
 * Settles a view that updates changed: it becomes what a build from scratch of `graph` gives, so the
 * same code has the same view whatever the order of its edits (routing a changed file is fast, but
 * where it lands depends on that order). A view grouped by a model keeps evolving by routing, as
 * RPG-Encoder's does: a build would lose the grouping where the parts moved, and asking again costs a
 * request. Undefined when there was nothing to settle; else whether areas or leaves moved.
 */
export function settleHierarchy(hierarchy: FeatureHierarchy, graph: FeatureGraph, said?: Said): boolean | undefined {
  if (hierarchy.settled || hierarchy.grouped) return undefined;
  return hierarchy.settleTo(buildHierarchy(graph, said));
}

/**
 * The hierarchy of `graph`: the saved one (caught up with the graph and with the descriptions `said`
 * has), else one built now; saved when it changed.
 */
export async function currentHierarchy(graph: FeatureGraph, storeDir: string | null, said?: Said): Promise<CurrentHierarchy> {
  const started = performance.now();
  const saved = storeDir ? await loadHierarchy(storeDir) : undefined;
  let result: Omit<CurrentHierarchy, 'ms'>;
  if (saved && saved.rootName === graph.rootName) {
    const update = saved.sync(graph, said);
    // a one-shot answer gives the view a build would (as a service does once the edits pause)
    const settled = settleHierarchy(saved, graph, said) !== undefined;
    const changed = settled || Object.values(update).some((n) => n > 0);
    result = { hierarchy: saved, source: changed ? 'updated' : 'loaded', update };
  } else {
    result = { hierarchy: buildHierarchy(graph, said), source: 'built' };
  }
  let saveError: string | undefined;
  if (storeDir && result.source !== 'loaded') {
    await saveHierarchy(storeDir, result.hierarchy).catch((err: unknown) => (saveError = err instanceof Error ? err.message : String(err)));
  }
  return { ...result, ms: Math.round(performance.now() - started), ...(saveError ? { saveError } : {}) };
}
