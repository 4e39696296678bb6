// Whether an index of the folder now would change nothing: the folder scanned as Engine.indexNow scans it
// and compared with the record of the last index (store/indexRecord.ts). Every decision mirrors the
// index's own, so a folder called unchanged is one the index would reuse whole: same files with the
// same stats, the same skips for the same reasons, nothing that may now be minified.
import type { FileState } from '../store/indexRecord';
import { mayBeMinified } from './bundled';
import { scanWorkspace, type SkippedFile } from './scan';
import { SourceFiles, type SourceFileOptions } from './sourceFiles';

export interface Unchanged {
  /** Files found: indexed (`reused`) or skipped when read. */
  files: number;
  reused: number;
  skipped: SkippedFile[];
  scanMs: number;
}

/** The folder's files as the index would find them, when they are all as `recorded`; undefined at the first difference. */
export async function unchangedSince(root: string, recorded: FileState[], options: SourceFileOptions): Promise<Unchanged | undefined> {
  const started = performance.now();
  const rows = new Map(recorded.map((state) => [state[0], state]));
  const scan = await scanWorkspace(root, options);
  const skips = new Map(scan.skipped.map((s) => [s.path, s]));
  const sources = new SourceFiles(root, options);
  let reused = 0;
  for (const entry of scan.files) {
    const row = rows.get(entry.path);
    if (!row) return undefined;
    const [, mtimeMs, size, lines, skipped] = row;
    if (skipped === null) {
      // As the index decides: a file whose stats changed is read again, and so is one that may have become minified.
      if (mtimeMs !== entry.mtimeMs || size !== entry.size || (!options.includeMinified && mayBeMinified(entry.path, entry.size, lines))) return undefined;
      reused++;
      continue;
    }
    // Skipped when read (vendored, minified, binary, not UTF-8): the index reads these every time, and so does this.
    const read = await sources.read(entry.path, entry.absPath);
    if (read.ok || read.reason !== skipped) return undefined;
    skips.set(entry.path, { path: entry.path, reason: read.reason, detail: read.detail });
  }
  const indexed = recorded.filter((state) => state[4] === null).length;
  // Every indexed row still on disk, and the skips exactly the recorded ones.
  if (reused !== indexed || skips.size !== recorded.length - indexed) return undefined;
  for (const skip of skips.values()) if (rows.get(skip.path)?.[4] !== skip.reason) return undefined;
  return { files: scan.files.length, reused, skipped: [...skips.values()], scanMs: Math.round(performance.now() - started) };
}
