// What an index leaves beside the store for the next one to compare with: each file's row as the engine
// keeps it (its stats and why it was skipped, without its per-file graph) and the graph's counts, for
// the store's committed generation. With it, `cartograph index` finds that nothing changed, and `stats`
// answers, from one small file: no LanceDB, no graph restored (a re-index with nothing changed took
// 5.8 s at a million lines, of which 0.25 s was the index itself).
//
// A file of its own rather than a section of the query snapshot: a file whose text is unchanged but whose
// stats are new (a checkout) is recorded without a new generation (Engine.indexNow's `touched`), and the
// record must follow it where the snapshot need not be rewritten.
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
  const previous = readRecordFile(file);
  if (previous && previous.root === root && previous.store.generation === version.generation && JSON.stringify(previous.files) === JSON.stringify(files)) return;
  const record: RecordFile = { format: FORMAT, root, store: version, files, counts: counts() };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.promises.writeFile(tmp, JSON.stringify(record));
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    log?.(`could not record the index beside the store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The record of the store's committed generation for `root`; undefined when there is none, or it is of another state. */
export async function readIndexRecord(storeDir: string, root: string): Promise<IndexRecord | undefined> {
  const record = readRecordFile(path.join(storeDir, INDEX_RECORD_FILE));
  if (!record || record.root !== root) return undefined;
  const version = await readStoreVersion(storeDir);
  return version && version.generation === record.store.generation ? { files: record.files, counts: record.counts, store: record.store } : undefined;
}

function readRecordFile(file: string): RecordFile | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as RecordFile;
    return record?.format === FORMAT && Array.isArray(record.files) && record.counts && record.store ? record : undefined;
  } catch {
    return undefined;
  }
}
