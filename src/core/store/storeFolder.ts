// The store's folder: what is in it (the three `*.lance` tables, the generation record that says which
// of their versions are committed, the writer lock), how to open the tables at a committed generation
// and tell a healthy store from a damaged one, and how to start over.
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Connection, Table } from '@lancedb/lancedb';
import { nextTurn } from '../eventLoop';
import { GENERATION_RECORD } from './generationRecord';
import { DESCRIPTIONS_FILE, INDEX_OPTIONS_FILE, INDEX_RECORD_FILE, QUERY_SNAPSHOT_FILE, ROOT_FILE } from './storeVersion';
import { KEY_COLUMN, sameSchema, schemaFor, TABLE_NAMES, type TableName } from './storeTables';
import { LOCK_FILE } from './writerLock';

/**
 * What stores of earlier versions kept beside the tables (metadata, a write token, the markers of
 * interrupted writes): recognized, so that such a folder is taken for a store to upgrade.
 */
const EARLIER_ENTRIES = ['meta.json', 'generation', 'replacing.marker', 'apply.journal'];
/** An earlier version's marker of a full write that never finished: its tables are not adopted. */
export const EARLIER_INTERRUPTED_MARKER = 'replacing.marker';

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
    // A Rust panic inside a read (damaged data) arrives as an error naming the worker task.
    .replace(/task \d+ panicked with message "(.*)"/, 'a data file could not be decoded ($1)')
    .trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

export type Tables = Record<TableName, Table>;

/** Written by keepOutOfGit: ours, though not the store's (a folder holding only it holds no store). */
export const GIT_IGNORE = '.gitignore';

export function isStoreEntry(name: string): boolean {
  return (
    name === GENERATION_RECORD || name === ROOT_FILE || name === INDEX_OPTIONS_FILE || name.startsWith(INDEX_RECORD_FILE) || name === LOCK_FILE || EARLIER_ENTRIES.includes(name) ||
    name.startsWith(QUERY_SNAPSHOT_FILE) || name.startsWith(`${GENERATION_RECORD}.`) || name.startsWith('meta.json.') || name.endsWith('.lance')
  );
}

export type TablesOpen = { ok: true; db: Connection; tables: Tables } | { ok: false; reason: string };

/**
 * Opens the three tables, at the given versions (a committed generation, read-only) or at their
 * latest, and checks that each has our schema and that every data file of that version is there and
 * readable. Writes nothing.
 */
export async function openTables(lance: LanceModule, dir: string, vectorDim: number, versions?: Record<TableName, number>): Promise<TablesOpen> {
  let db: Connection | undefined;
  const tables: Partial<Tables> = {};
  try {
    db = await lance.connect(dir);
    const names = new Set(await db.tableNames());
    for (const name of TABLE_NAMES) {
      if (!names.has(name)) throw new Error(`table ${name} is missing`);
      // LanceDB retries a table that is a plain file for seconds before failing.
      if (!(await fs.stat(path.join(dir, `${name}.lance`)).then((s) => s.isDirectory(), () => false))) throw new Error(`table ${name} is not a folder`);
      try {
        const table = await db.openTable(name);
        tables[name] = table;
        if (versions) await table.checkout(versions[name]);
        if (!sameSchema(await table.schema(), schemaFor(name, vectorDim))) throw new Error('unexpected schema');
        await scanKeys(table, name);
      } catch (err) {
        throw new Error(`table ${name}: ${errorMessage(err)}`);
      }
    }
    return { ok: true, db, tables: tables as Tables };
  } catch (err) {
    for (const table of Object.values(tables)) table?.close();
    db?.close();
    return { ok: false, reason: errorMessage(err) };
  }
}

/**
 * Scanning the key column touches every data file: missing or truncated ones fail here, not later.
 * The filter matches no row (and no index can answer it), so nothing is decoded in JS.
 */
async function scanKeys(table: Table, name: TableName): Promise<void> {
  const key = KEY_COLUMN[name];
  await table.query().where(`length(${key}) < 0`).select([key]).toArrow();
}

/**
 * Empties the folder, except the descriptions (keyed by content hash, valid across store formats) and
 * the writer lock (held by the caller). Only called by the lock's holder, once the folder is
 * recognizably a store, so pointing the store at a folder of someone else's files never deletes them.
 */
/**
 * The store is the machine's cache of the repository, never part of it: a `.gitignore` of `*` inside it
 * keeps it out of `git status` and commits without touching the repository's own ignore files (as
 * pytest's and mypy's caches do). Written once; a user's edit of it is kept.
 */
export async function keepOutOfGit(dir: string): Promise<void> {
  await fs.writeFile(path.join(dir, GIT_IGNORE), '# Cartograph\'s graph store: a cache of this repository, not part of it.\n*\n', { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
}


export async function wipe(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) {
    if (name !== DESCRIPTIONS_FILE && name !== LOCK_FILE && name !== GIT_IGNORE) await fs.rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Creates the three empty tables with their key indexes (the caller commits a generation). */
export async function createTables(lance: LanceModule, dir: string, vectorDim: number): Promise<{ db: Connection; tables: Tables }> {
  try {
    const db = await lance.connect(dir);
    const tables: Partial<Tables> = {};
    for (const name of TABLE_NAMES) {
      const table = await db.createEmptyTable(name, schemaFor(name, vectorDim));
      await createKeyIndex(lance, table, name);
      tables[name] = table;
    }
    return { db, tables: tables as Tables };
  } catch (err) {
    throw new Error(`cannot write the graph store in ${dir}: ${errorMessage(err)}`);
  }
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
