// What an index leaves beside the store for the next one to compare with: each file's row as the engine
// keeps it (its stats and why it was skipped, without its per-file graph), the graph's counts, and the
// store's own files as they were, for the store's committed generation. With it, `cartograph index`
// finds that nothing changed from one small file, in the CLI's own process: no LanceDB, no graph
// restored (a re-index with nothing changed took 5.6 s at a million lines, the index itself 0.25 s).
//
// The store's files (size and mtime of each under the tables' folders) stand in for opening it: a store
// changed since by anything (a compaction, vectors written, a file damaged, deleted or rewritten) no
// longer matches, and the index proper opens it, which finds damage and rebuilds. A file of its own
// rather than a section of the query snapshot: a file whose text is unchanged but whose stats are new
// (a checkout) is recorded without a new generation (Engine.indexNow's `touched`), and the record must
// follow it where the snapshot need not be rewritten.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GraphCounts } from '../engineStats';
import { PARSER_VERSION } from '../parse/fileGraph';
import type { StoredFile } from './graphStore';
import { INDEX_RECORD_FILE, readStoreVersion, type StoreVersion } from './storeVersion';

/** The parser is part of it: after an upgrade every file is parsed again, so nothing is unchanged. */
const FORMAT = `cartograph-index-record 1; parser ${PARSER_VERSION}`;

/** A file's row without its graph: path, mtime (ms), size (bytes), lines, and why it was skipped (null: indexed). */
export type FileState = [path: string, mtimeMs: number, size: number, lines: number, skipped: string | null];

export interface IndexRecord {
  files: FileState[];
  counts: GraphCounts;
  /** The committed generation it records. */
  store: StoreVersion;
}

interface RecordFile extends IndexRecord {
  format: string;
  root: string;
  /** Every file under the tables' folders: path in the store, size, mtime (ms). */
  storeFiles: Array<[string, number, number]>;
}

export function fileStates(rows: Iterable<StoredFile>): FileState[] {
  const states: FileState[] = [];
  for (const row of rows) states.push([row.path, row.mtimeMs, row.size, row.graph?.lines ?? 0, row.skipped]);
  return states.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/**
 * Records `files` for the store at `version`, unless the record already says so; `counts` is asked for
 * only then (it walks the whole graph). A write that fails is said, not thrown: the next index compares
 * against the store instead.
 */
export async function saveIndexRecord(storeDir: string, root: string, version: StoreVersion, files: FileState[], counts: () => GraphCounts, log?: (m: string) => void): Promise<void> {
  const file = path.join(storeDir, INDEX_RECORD_FILE);
  const storeFiles = tableFiles(storeDir);
  const previous = readRecordFile(file);
  const same = <T>(a: T, b: T) => JSON.stringify(a) === JSON.stringify(b);
  if (previous && previous.root === root && previous.store.generation === version.generation && same(previous.files, files) && same(previous.storeFiles, storeFiles)) return;
  const record: RecordFile = { format: FORMAT, root, store: version, files, counts: counts(), storeFiles };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.promises.writeFile(tmp, JSON.stringify(record));
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    log?.(`could not record the index beside the store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The record of the store's committed generation for `root`, while the store's files are as recorded;
 * undefined when there is none, or it is of another state.
 */
export async function readIndexRecord(storeDir: string, root: string): Promise<IndexRecord | undefined> {
  const record = readRecordFile(path.join(storeDir, INDEX_RECORD_FILE));
  if (!record || record.root !== root) return undefined;
  const version = await readStoreVersion(storeDir);
  if (!version || version.generation !== record.store.generation) return undefined;
  if (JSON.stringify(tableFiles(storeDir)) !== JSON.stringify(record.storeFiles)) return undefined;
  return { files: record.files, counts: record.counts, store: record.store };
}

function readRecordFile(file: string): RecordFile | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as RecordFile;
    return record?.format === FORMAT && Array.isArray(record.files) && Array.isArray(record.storeFiles) && record.counts && record.store ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Each file under the store's table folders (`*.lance`), sorted: path in the store, size, mtime. */
function tableFiles(storeDir: string): Array<[string, number, number]> {
  const found: Array<[string, number, number]> = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(storeDir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else {
        const stat = fs.statSync(path.join(storeDir, child));
        found.push([child, stat.size, stat.mtimeMs]);
      }
    }
  };
  try {
    for (const entry of fs.readdirSync(storeDir, { withFileTypes: true })) if (entry.isDirectory() && entry.name.endsWith('.lance')) walk(entry.name);
  } catch {
    return []; // a store folder that went away: no record holds for it
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
