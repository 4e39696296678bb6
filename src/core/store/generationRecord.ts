// The store's commit record: which version of each LanceDB table makes up the last complete write
// (a "generation"), with the format it was written in. LanceDB commits each table atomically, but
// not the three together; the record is what makes a write of all three atomic. A writer commits
// its tables, then replaces this file by an atomic rename; readers check out the versions it names,
// so a write interrupted at any point (a first index, an update, a compaction) is invisible to them,
// and the next writer rolls the tables back to it. Readable without LanceDB, so the query snapshot
// can tell whether it still describes the store.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TableName } from './storeTables';

export const GENERATION_RECORD = 'generation.json';
const FORMAT = 'cartograph-store 2';

export interface GenerationRecord {
  format: string;
  schemaVersion: number;
  parserVersion: number;
  vectorDim: number;
  /** Random per committed content; a compaction, which changes no row, keeps it. */
  generation: string;
  /** Commits so far (1 for the first). */
  sequence: number;
  tables: Record<TableName, number>;
  /**
   * False until an index of the repository has finished into this store: a store just created, or
   * whose tables were adopted without a record, holds a graph nobody has checked yet.
   */
  complete: boolean;
  committed: string;
}

export type RecordRead = { ok: true; record: GenerationRecord } | { ok: false; missing: boolean; reason: string };

export async function readRecord(dir: string): Promise<RecordRead> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, GENERATION_RECORD), 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { ok: false, missing, reason: missing ? 'it has no committed generation' : `its generation record is unreadable (${(err as Error).message})` };
  }
  let parsed: Partial<GenerationRecord>;
  try {
    parsed = JSON.parse(text) as Partial<GenerationRecord>;
  } catch {
    return { ok: false, missing: false, reason: 'its generation record is not valid JSON' };
  }
  const tables = parsed?.tables as Partial<Record<TableName, unknown>> | undefined;
  if (
    !parsed ||
    parsed.format !== FORMAT ||
    typeof parsed.generation !== 'string' ||
    typeof parsed.schemaVersion !== 'number' ||
    typeof parsed.vectorDim !== 'number' ||
    typeof parsed.complete !== 'boolean' ||
    !tables ||
    // The names, not storeTables' TABLE_NAMES: importing that module loads Apache Arrow, and the
    // query snapshot reads this record in the CLI's light bundle, which must not.
    !(['nodes', 'edges', 'files'] as const).every((t) => Number.isInteger(tables[t]))
  ) {
    return { ok: false, missing: false, reason: 'its generation record is not one this version of Cartograph writes' };
  }
  return { ok: true, record: parsed as GenerationRecord };
}

/** A new record for `tables`: a new generation token unless `sameContent` (a compaction, a completion mark). */
export function nextRecord(
  base: Pick<GenerationRecord, 'schemaVersion' | 'parserVersion' | 'vectorDim'> & { generation?: string; sequence?: number },
  tables: Record<TableName, number>,
  complete: boolean,
  sameContent = false,
): GenerationRecord {
  return {
    format: FORMAT,
    schemaVersion: base.schemaVersion,
    parserVersion: base.parserVersion,
    vectorDim: base.vectorDim,
    generation: sameContent && base.generation ? base.generation : `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`,
    sequence: (base.sequence ?? 0) + (sameContent ? 0 : 1),
    tables,
    complete,
    committed: new Date().toISOString(),
  };
}

/** Writes the record beside the tables: a temporary file, flushed to disk, renamed over the old one. */
export async function writeRecord(dir: string, record: GenerationRecord): Promise<void> {
  const file = path.join(dir, GENERATION_RECORD);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
