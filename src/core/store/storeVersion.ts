// The store folder's files that LanceDB does not write, and which state of the store something derived
// from it (the query snapshot) was made from, readable
// without loading LanceDB: a token every writer replaces before and after each write, and the names
// of each table's version manifests (which change with every commit LanceDB makes, whoever makes it).
// Two reads that agree mean no write happened or ran in between.
import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Written beside the tables by the engine (the repository the store belongs to). */
export const ROOT_FILE = 'root.json';

/** Generated descriptions by content hash (semantic lifting): not tied to the store's format, and costly to regenerate. */
export const DESCRIPTIONS_FILE = 'descriptions.json';

/** The query snapshot (src/core/search/querySnapshot.ts), kept in the store folder and keyed by its version. */
export const QUERY_SNAPSHOT_FILE = 'query-snapshot.bin';

/** Replaced (random token) before and after every write to the store's tables. */
export const GENERATION_FILE = 'generation';

/** The table folders whose manifests are part of the version (the names of storeTables' TABLE_NAMES). */
const TABLE_FOLDERS = ['nodes.lance', 'edges.lance', 'files.lance'];

export interface StoreVersion {
  generation: string;
  /** Manifest file names per table, sorted. */
  manifests: string[];
}

export async function readGeneration(dir: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(path.join(dir, GENERATION_FILE), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Writes a new token and returns it. */
export async function bumpGeneration(dir: string): Promise<string> {
  const token = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
  await fs.writeFile(path.join(dir, GENERATION_FILE), token);
  return token;
}

/** The store's version as it is on disk now; undefined when it has no token (never written by this version). */
export async function readStoreVersion(dir: string): Promise<StoreVersion | undefined> {
  const generation = await readGeneration(dir);
  if (!generation) return undefined;
  const manifests: string[] = [];
  for (const table of TABLE_FOLDERS) {
    let names: string[];
    try {
      names = await fs.readdir(path.join(dir, table, '_versions'));
    } catch {
      return undefined;
    }
    for (const name of names.filter((n) => n.endsWith('.manifest')).sort()) manifests.push(`${table}/${name}`);
  }
  return { generation, manifests };
}

export function sameVersion(a: StoreVersion, b: StoreVersion): boolean {
  return a.generation === b.generation && a.manifests.length === b.manifests.length && a.manifests.every((m, i) => m === b.manifests[i]);
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
