// How the folder was read for the graph in a store (`--exclude`, `--max-file-size`,
// `--include-minified`, or the editor's settings), kept in the store folder by the engine after each
// index. A process that opens the store without options of its own (the repository's service, a
// later `cartograph index`) reads the folder the same way: a folder the user excluded does not come
// back with the next query's service.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INDEX_OPTIONS_FILE } from './storeVersion';

export interface IndexOptions {
  exclude: string[];
  /** Absent: the default limit. */
  maxFileSize?: number;
  includeMinified: boolean;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { exclude: [], includeMinified: false };

export function sameIndexOptions(a: IndexOptions, b: IndexOptions): boolean {
  return a.includeMinified === b.includeMinified && a.maxFileSize === b.maxFileSize && a.exclude.join('\n') === b.exclude.join('\n');
}

/** Whether a caller said how to read the folder (any option given), rather than leaving it to the store. */
export function givesIndexOptions(options: Partial<IndexOptions>): boolean {
  return options.exclude !== undefined || options.maxFileSize !== undefined || options.includeMinified !== undefined;
}

/** The options recorded in `storeDir`; undefined when there are none or the file is not ours. */
export function readIndexOptions(storeDir: string): IndexOptions | undefined {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(path.join(storeDir, INDEX_OPTIONS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const o = value as Partial<IndexOptions> | null;
  if (!o || !Array.isArray(o.exclude) || !o.exclude.every((p) => typeof p === 'string') || typeof o.includeMinified !== 'boolean') return undefined;
  if (o.maxFileSize !== undefined && !(Number.isInteger(o.maxFileSize) && o.maxFileSize > 0)) return undefined;
  return { exclude: o.exclude, includeMinified: o.includeMinified, ...(o.maxFileSize !== undefined ? { maxFileSize: o.maxFileSize } : {}) };
}

/** Records `options` in `storeDir` (rewritten only when they changed; a write that fails is said, not thrown). */
export async function recordIndexOptions(storeDir: string, options: IndexOptions, log?: (m: string) => void): Promise<void> {
  const text = `${JSON.stringify(options)}\n`;
  const file = path.join(storeDir, INDEX_OPTIONS_FILE);
  if ((await fs.promises.readFile(file, 'utf8').catch(() => '')) === text) return;
  try {
    await fs.promises.writeFile(`${file}.tmp`, text);
    await fs.promises.rename(`${file}.tmp`, file);
  } catch (err) {
    log?.(`could not record the index options in the store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** `--exclude 'gen/**' --max-file-size N --include-minified`, as a user would type them; '' for the defaults. */
export function describeIndexOptions(options: IndexOptions): string {
  return [
    ...options.exclude.map((p) => `--exclude '${p}'`),
    ...(options.maxFileSize !== undefined ? [`--max-file-size ${options.maxFileSize}`] : []),
    ...(options.includeMinified ? ['--include-minified'] : []),
  ].join(' ');
}
