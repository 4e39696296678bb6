// Reads one source file for the indexer, exactly once, and says plainly why when it will not do:
// too large, binary, not UTF-8, unreadable, gone, or a symlink loop. Never throws for a file's sake.
import { constants as fsConstants, promises as fsp } from 'node:fs';

export type SkipReason =
  | 'too-large'
  | 'binary'
  | 'not-utf8'
  | 'unreadable'
  | 'vanished'
  | 'symlink-loop'
  | 'ignored-by-setting'
  | 'parse-error'
  /** JavaScript that is not the project's own code (bundled.ts). */
  | 'minified'
  | 'vendored';

export type ReadResult =
  | { ok: true; text: string; size: number; mtimeMs: number }
  | { ok: false; reason: SkipReason; detail: string };

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/**
 * The largest file parsed whatever the size limit says. Parsing and extraction grow with the file in
 * time and in tree-sitter's WASM memory: 10 MB of Python took 22 s and 1.8 GB, and a 50 MB file ended
 * as a parse error after 153 s and 2.3 GB. Refused from its size, before it is read.
 */
export const MAX_PARSED_FILE_SIZE = 8 * 1024 * 1024;

/** How far into a file we look for a NUL byte, as git and ripgrep do. */
const BINARY_SNIFF_BYTES = 8 * 1024;

/** The one file-system call reading makes; tests swap it to produce errors root cannot get (EACCES). */
export interface ReadSourceIo {
  open(absPath: string, flags: number): Promise<fsp.FileHandle>;
}

const nodeIo: ReadSourceIo = { open: (p, flags) => fsp.open(p, flags) };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever (and hold a
// libuv worker thread while it waits). It changes nothing for regular files.
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

export async function readSourceFile(
  absPath: string,
  maxFileSize: number = DEFAULT_MAX_FILE_SIZE,
  io: ReadSourceIo = nodeIo,
): Promise<ReadResult> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await io.open(absPath, OPEN_FLAGS);
    const stat = await handle.stat();
    if (!stat.isFile()) return fail('unreadable', `not a regular file (${fileKind(stat)})`);
    const tooBig = sizeRefusal(stat.size, maxFileSize);
    if (tooBig) return tooBig;
    const bytes = await handle.readFile();
    // The file may have grown between stat and read.
    const grown = sizeRefusal(bytes.length, maxFileSize);
    if (grown) return grown;
    const nul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0);
    if (nul >= 0) return fail('binary', `NUL byte at offset ${nul}`);
    let text: string;
    try {
      // fatal: reject invalid sequences instead of inventing U+FFFD; the default ignoreBOM=false
      // consumes a leading UTF-8 BOM, so offsets in the graph match what editors show.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return fail('not-utf8', 'invalid UTF-8 byte sequence (another encoding, e.g. Latin-1?)');
    }
    return { ok: true, text, size: bytes.length, mtimeMs: stat.mtimeMs };
  } catch (error) {
    return fromError(error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export function fromError(error: unknown): { ok: false; reason: SkipReason; detail: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return fail('vanished', 'no longer exists (deleted, or a dangling symlink)');
    case 'ELOOP':
      return fail('symlink-loop', 'too many levels of symbolic links');
    case 'EISDIR':
      return fail('unreadable', 'is a directory');
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return fail('unreadable', code ? `${code}: ${message}` : message);
    }
  }
}

export function fileKind(stat: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stat.isDirectory()) return 'directory';
  if (stat.isFIFO()) return 'fifo';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'device';
  return 'special file';
}

/** 'too-large' for text over the size limit or over MAX_PARSED_FILE_SIZE, whichever is lower. */
export function sizeRefusal(size: number, maxFileSize: number): { ok: false; reason: SkipReason; detail: string } | undefined {
  if (size > maxFileSize && maxFileSize <= MAX_PARSED_FILE_SIZE) return fail('too-large', `${size} bytes > limit ${maxFileSize} bytes`);
  if (size > MAX_PARSED_FILE_SIZE) return fail('too-large', `${size} bytes > ${MAX_PARSED_FILE_SIZE} bytes, the most Cartograph parses in one file whatever the size limit`);
  return undefined;
}

function fail(reason: SkipReason, detail: string): { ok: false; reason: SkipReason; detail: string } {
  return { ok: false, reason, detail };
}
