// What `Engine.index()` would report when it would change nothing, found without the engine: the folder
// as the last index recorded it (store/indexRecord.ts), the store's files untouched since and the query
// snapshot current. No LanceDB and no graph, so `cartograph index` answers it in its own process (a
// million lines: 0.4 s where opening the engine took 5.6 s). Anything else is the index's to do.
import * as path from 'node:path';
import type { IndexReport } from './engine';
import { statsWith, type EngineStats } from './engineStats';
import { snapshotCurrent } from './search/querySnapshot';
import { readIndexRecord } from './store/indexRecord';
import { readIndexOptions, sameIndexOptions, type IndexOptions } from './store/indexOptions';
import { STORE_FOLDER } from './store/storeVersion';
import { unchangedSince } from './workspace/unchangedSince';

export interface UnchangedIndex {
  report: IndexReport;
  stats: EngineStats;
  /** How the folder was read: the options recorded with the store. */
  options: IndexOptions;
}

/**
 * `given`: the options an index was asked to read the folder with (undefined: the recorded ones).
 * Undefined when an index would change anything, or that cannot be told from the record.
 */
export async function unchangedIndex(root: string, storeDir = path.join(root, STORE_FOLDER), given?: IndexOptions, followSymlinks?: boolean): Promise<UnchangedIndex | undefined> {
  const started = performance.now();
  // Options other than the recorded ones (or none recorded yet) are the index's to record: a write.
  const options = readIndexOptions(storeDir);
  if (!options || (given && !sameIndexOptions(given, options))) return undefined;
  const record = await readIndexRecord(storeDir, root);
  if (!record || !(await snapshotCurrent(storeDir, root, record.store))) return undefined;
  const found = await unchangedSince(root, record.files, { ...options, followSymlinks });
  if (!found) return undefined;
  const report: IndexReport = {
    files: found.files,
    parsed: 0,
    reused: found.reused,
    removed: 0,
    skipped: found.skipped,
    timings: { scan: found.scanMs, total: Math.round(performance.now() - started) },
  };
  return { report, stats: statsWith(root, record.counts, found.skipped, { dir: storeDir, status: 'unchanged' }), options };
}
