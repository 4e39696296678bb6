// The store's folder: what is in it (meta.json, the three `*.lance` tables, the markers of
// interrupted writes), how to tell a healthy store from a damaged one, and how to start over.
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Connection, Table } from '@lancedb/lancedb';
import { nextTurn } from '../eventLoop';
import { SCHEMA_VERSION } from '../model/schema';
import { PARSER_VERSION } from '../parse/fileGraph';
import { DESCRIPTIONS_FILE, GENERATION_FILE, QUERY_SNAPSHOT_FILE, ROOT_FILE } from './storeVersion';
import { inPredicates, KEY_COLUMN, sameSchema, schemaFor, TABLE_NAMES, type TableName } from './storeTables';

interface StoreMeta {
  format: 'cartograph-store';
  schemaVersion: number;
  parserVersion: number;
  vectorDim: number;
  created: string;
}

export const META_FILE = 'meta.json';
const FORMAT = 'cartograph-store';
/** Present while replaceAll runs; a store that still has it was interrupted mid-write. */
export const REPLACING_MARKER = 'replacing.marker';
/** Paths of the files an apply is writing; present only while (or if interrupted during) one runs. */
export const APPLY_JOURNAL = 'apply.journal';

export type LanceModule = typeof import('@lancedb/lancedb');
let lanceModule: LanceModule | undefined;

/**
 * Loads LanceDB a piece per event-loop turn, Apache Arrow's modules first. Evaluating all of it in
 * one `require` held the thread 45-65 ms (bundled, plain Node) and 48-74 ms when an editor host
 * opened a workspace; in these pieces the longest is LanceDB's own, 13-21 ms with the native module.
 * `readAheadNative` also reads that module's binary first (see pageInNativeModule).
 */
export async function loadLanceInStages(readAheadNative: boolean): Promise<LanceModule> {
  if (!lanceModule) {
    const pagedIn = readAheadNative ? pageInNativeModule().catch(() => undefined) : undefined;
    for (const stage of LANCE_STAGES) {
      try {
        stage();
      } catch {
        // loadLance below reports whatever keeps LanceDB from loading.
      }
      await nextTurn();
    }
    await pagedIn;
  }
  return loadLance();
}

/**
 * Reads LanceDB's native module once, asynchronously, so that loading it finds its pages in memory.
 * From a cold page cache (after a reboot) `dlopen` of the 186 MB file held the thread 120 ms on this
 * machine's disk, 8 ms warm. The read costs ~100 ms of a thread-pool thread, overlapping Arrow's stages.
 */
async function pageInNativeModule(): Promise<void> {
  const file = nativeModulePath();
  if (!file) return;
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(16 << 20);
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** The binary of the platform package LanceDB loads (its native.js picks among the same names), if installed. */
export function nativeModulePath(): string | undefined {
  const { platform, arch } = process;
  const suffixes =
    platform === 'linux' ? [`linux-${arch}-gnu`, `linux-${arch}-musl`]
    : platform === 'darwin' ? [`darwin-${arch}`, 'darwin-universal']
    : platform === 'win32' ? [`win32-${arch}-msvc`]
    : [];
  const resolve = createRequire(__filename).resolve;
  for (const suffix of suffixes) {
    try {
      return resolve(`@lancedb/lancedb-${suffix}`);
    } catch {
      // not installed for this platform variant
    }
  }
  return undefined;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const LANCE_STAGES = [
  () => require('apache-arrow/type'),
  () => require('apache-arrow/data'),
  () => require('apache-arrow/table'),
  () => require('apache-arrow'),
  () => require('@lancedb/lancedb/embedding'),
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** Loaded on first use so that importing the store never touches the native module. */
export function loadLance(): LanceModule {
  if (!lanceModule) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      lanceModule = require('@lancedb/lancedb') as LanceModule;
    } catch (err) {
      throw new Error(`LanceDB could not be loaded on this machine: ${errorMessage(err)}`);
    }
  }
  return lanceModule;
}

/** One readable line: LanceDB messages carry Rust source locations and repeated "Caused by" chains. */
export function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text
    .split('\n')[0]
    .split(/\s+Caused by:/)[0]
    .replace(/,\s*\/[^,]*?\.rs:\d+:\d+/g, '')
    .trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

export type Tables = Record<TableName, Table>;


export function isStoreEntry(name: string): boolean {
  return (
    name === META_FILE || name === ROOT_FILE || name === REPLACING_MARKER || name === APPLY_JOURNAL || name === GENERATION_FILE ||
    name.startsWith(QUERY_SNAPSHOT_FILE) || name.startsWith(`${META_FILE}.`) || name.endsWith('.lance')
  );
}

type OpenAttempt = { ok: true; db: Connection; tables: Tables; vectorCount: number; versions: number } | { ok: false; reason: string };

export async function tryOpen(lance: LanceModule, dir: string, vectorDim: number): Promise<OpenAttempt> {
  const meta = await readMeta(dir);
  if (typeof meta === 'string') return { ok: false, reason: meta };
  if (meta.schemaVersion !== SCHEMA_VERSION) return { ok: false, reason: `schema version ${meta.schemaVersion} → ${SCHEMA_VERSION}` };
  if (meta.vectorDim !== vectorDim) return { ok: false, reason: `vector dimension ${meta.vectorDim} → ${vectorDim}` };
  if (await exists(path.join(dir, REPLACING_MARKER))) return { ok: false, reason: 'the last full write was interrupted' };

  let db: Connection | undefined;
  const tables: Partial<Tables> = {};
  let versions = 0;
  try {
    db = await lance.connect(dir);
    const names = new Set(await db.tableNames());
    for (const name of TABLE_NAMES) {
      if (!names.has(name)) throw new Error(`table ${name} is missing`);
      try {
        const table = await db.openTable(name);
        tables[name] = table;
        if (!sameSchema(await table.schema(), schemaFor(name, vectorDim))) throw new Error('unexpected schema');
        // Scanning the key column touches every data file: missing or truncated ones fail here, not
        // later. The filter matches no row (and no index can answer it), so nothing is decoded in JS.
        const key = KEY_COLUMN[name];
        await table.query().where(`length(${key}) < 0`).select([key]).toArrow();
        if (!(await table.listIndices()).some((index) => index.columns.length === 1 && index.columns[0] === KEY_COLUMN[name])) {
          await createKeyIndex(lance, table, name);
        }
        versions = Math.max(versions, (await table.listVersions()).length);
      } catch (err) {
        throw new Error(`table ${name}: ${errorMessage(err)}`);
      }
    }
    await recoverInterruptedApply(dir, tables.files!);
    const vectorCount = await tables.nodes!.countRows('vector IS NOT NULL');
    return { ok: true, db, tables: tables as Tables, vectorCount, versions };
  } catch (err) {
    for (const table of Object.values(tables)) table?.close();
    db?.close();
    return { ok: false, reason: `store unreadable: ${errorMessage(err)}` };
  }
}

/** The metadata, or why it cannot be used. */
export async function readMeta(dir: string): Promise<StoreMeta | string> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, META_FILE), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'store metadata missing' : `store metadata unreadable: ${errorMessage(err)}`;
  }
  let meta: Partial<StoreMeta>;
  try {
    meta = JSON.parse(text) as Partial<StoreMeta>;
  } catch {
    return 'store metadata unreadable: not valid JSON';
  }
  if (!meta || typeof meta !== 'object' || meta.format !== FORMAT || typeof meta.schemaVersion !== 'number' || typeof meta.vectorDim !== 'number') {
    return 'store metadata unreadable: not a Cartograph store';
  }
  return meta as StoreMeta;
}


/**
 * Empties the folder, except the descriptions (keyed by content hash, valid across store formats). Only called once the folder is recognizably a store (it holds meta.json or a
 * `*.lance` table), so pointing the store at a folder of someone else's files never deletes them.
 */
export async function wipe(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) if (name !== DESCRIPTIONS_FILE) await fs.rm(path.join(dir, name), { recursive: true, force: true });
}

export async function createFresh(lance: LanceModule, dir: string, vectorDim: number): Promise<{ db: Connection; tables: Tables }> {
  try {
    const db = await lance.connect(dir);
    const tables: Partial<Tables> = {};
    for (const name of TABLE_NAMES) {
      const table = await db.createEmptyTable(name, schemaFor(name, vectorDim));
      await createKeyIndex(lance, table, name);
      tables[name] = table;
    }
    // Written last: a store without meta.json is never trusted, so a crash mid-creation is harmless.
    const meta: StoreMeta = {
      format: FORMAT,
      schemaVersion: SCHEMA_VERSION,
      parserVersion: PARSER_VERSION,
      vectorDim,
      created: new Date().toISOString(),
    };
    const tmp = path.join(dir, `${META_FILE}.${process.pid}.tmp`);
    await fs.writeFile(tmp, JSON.stringify(meta, null, 2) + '\n');
    await fs.rename(tmp, path.join(dir, META_FILE));
    return { db, tables: tables as Tables };
  } catch (err) {
    throw new Error(`cannot write the graph store in ${dir}: ${errorMessage(err)}`);
  }
}

/** Deletes the stored rows of these files, so that they look new to the next warm start. */
export async function forgetFiles(files: Table, paths: string[]): Promise<void> {
  for (const predicate of inPredicates('path', paths)) await files.delete(predicate);
}

async function recoverInterruptedApply(dir: string, files: Table): Promise<void> {
  const journal = path.join(dir, APPLY_JOURNAL);
  let text: string;
  try {
    text = await fs.readFile(journal, 'utf8');
  } catch {
    return;
  }
  let paths: unknown;
  try {
    paths = JSON.parse(text);
  } catch {
    // Cut short while being written: the apply had not touched the tables yet.
    paths = [];
  }
  if (Array.isArray(paths) && paths.length > 0) await forgetFiles(files, paths.filter((p): p is string => typeof p === 'string'));
  await fs.rm(journal, { force: true });
}

/**
 * A B-tree on the key column turns the `key IN (...)` deletes of an incremental update from a scan
 * of every row into a lookup (29 → 11 ms on 150k edges). Rows added later are scanned until the
 * next optimize folds them into the index.
 */
async function createKeyIndex(lance: LanceModule, table: Table, name: TableName): Promise<void> {
  await table.createIndex(KEY_COLUMN[name], { config: lance.Index.btree(), replace: true });
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export async function folderSize(dir: string): Promise<number> {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(full);
    else {
      try {
        total += (await fs.stat(full)).size;
      } catch {
        // Removed while we were counting.
      }
    }
  }
  return total;
}

