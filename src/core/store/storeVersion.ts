// The store folder's files that LanceDB does not write, and which state of the store something derived
// from it (the query snapshot) was made from, readable without loading LanceDB: the generation token
// of the committed generation record (generationRecord.ts), which every write that changes rows replaces.
import * as fsSync from 'node:fs';
import * as path from 'node:path';
import { readRecord } from './generationRecord';

/** A repository's store folder, at its root: where the CLI, every agent's MCP server and the editor share one graph. */
export const STORE_FOLDER = '.cartograph';

/** Written beside the tables by the engine (the repository the store belongs to). */
export const ROOT_FILE = 'root.json';

/** Written beside the tables by the engine after each index: how it read the folder (indexOptions.ts). */
export const INDEX_OPTIONS_FILE = 'index-options.json';

/** Generated descriptions by content hash (semantic lifting): not tied to the store's format, and costly to regenerate. */
export const DESCRIPTIONS_FILE = 'descriptions.json';

/** The functional view (src/core/features/): areas, their files' summaries and entities' features, caught up per change. */
export const FEATURES_FILE = 'features.json';

/** Each file's row and the graph's counts for the committed generation (indexRecord.ts): what a re-index compares the folder with. */
export const INDEX_RECORD_FILE = 'index-record.json';

/** The query snapshot (src/core/search/querySnapshot.ts), kept in the store folder and keyed by its version. */
export const QUERY_SNAPSHOT_FILE = 'query-snapshot.bin';

export interface StoreVersion {
  generation: string;
}

/** The committed generation as it is on disk now; undefined when none is (never indexed, interrupted, damaged record). */
export async function readStoreVersion(dir: string): Promise<StoreVersion | undefined> {
  const read = await readRecord(dir);
  return read.ok && read.record.complete ? { generation: read.record.generation } : undefined;
}

export function sameVersion(a: StoreVersion, b: StoreVersion): boolean {
  return a.generation === b.generation;
}

/** The repository root recorded in a store folder, if any. */
export function recordedRoot(storeDir: string): string | undefined {
  try {
    const root = (JSON.parse(fsSync.readFileSync(path.join(storeDir, ROOT_FILE), 'utf8')) as { root?: unknown }).root;
    return typeof root === 'string' ? root : undefined;
  } catch {
    return undefined;
  }
}
