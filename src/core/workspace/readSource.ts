// Reads one source file for the indexer, exactly once, and says plainly why when it will not do:
// too large, binary, not UTF-8, unreadable, gone, a dangling symlink, a symlink loop, or a symlink out
// of the repository. Never throws for a file's sake.
import * as fs from 'node:fs';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

export type SkipReason =
  | 'too-large'
  | 'binary'
  | 'not-utf8'
  | 'unreadable'
  | 'vanished'
  | 'dangling-symlink'
  | 'symlink-loop'
  /** A symlink whose target is not under the root's real path (RootBoundary). */
  | 'outside-root'
  | 'ignored-by-setting'
  | 'parse-error'
  /** JavaScript that is not the project's own code (bundled.ts). */
  | 'minified'
  | 'vendored';

/** Why a file is not taken. */
export type Skip = { reason: SkipReason; detail: string };
export type ReadFailure = { ok: false } & Skip;
export type ReadResult = { ok: true; text: string; size: number; mtimeMs: number } | ReadFailure;

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

/**
 * Where reads may lead. A repository can hold a symlink to any file on the machine (`notes.py ->
 * ~/.aws/credentials`), and agents are pointed at repositories fresh from the internet: what is
 * indexed and shown stays under the root's real path, as ripgrep and other indexers do by default,
 * unless the user asked to follow links out of it (`followSymlinks`). Links that stay inside work.
 */
export class RootBoundary {
  private rootReal: string | undefined;

  constructor(
    readonly root: string,
    readonly followSymlinks = false,
  ) {}

  /** The path to open for `absPath`: its real path when that is inside the root, else why not. Throws what realpath throws. */
  async realPath(absPath: string): Promise<string | ReadFailure> {
    if (this.followSymlinks) return absPath;
    this.rootReal ??= await fsp.realpath(this.root);
    return this.verdict(await fsp.realpath(absPath));
  }

  /** `realPath` for callers that cannot wait (completion's code windows). */
  realPathSync(absPath: string): string | ReadFailure {
    if (this.followSymlinks) return absPath;
    this.rootReal ??= fs.realpathSync(this.root);
    return this.verdict(fs.realpathSync(absPath));
  }

  private verdict(real: string): string | ReadFailure {
    return isSameOrInside(real, this.rootReal!) ? real : { ok: false, ...outsideRoot(real, this.rootReal!) };
  }
}

/** The skip for a symlink leading to `target`, out of the root whose real path is `rootReal`. */
export function outsideRoot(target: string, rootReal: string): Skip {
  return { reason: 'outside-root', detail: `a symlink to ${target}, outside ${rootReal}; followed only with --follow-symlinks or the setting cartograph.followSymlinks` };
}

/** `inner` is `outer` or below it (both real, absolute paths). */
export function isSameOrInside(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith(path.sep) ? outer : outer + path.sep;
  return inner.startsWith(prefix);
}

/** Reads `absPath`; with a `boundary`, only when it does not lead out of the root. */
export async function readSourceFile(
  absPath: string,
  maxFileSize: number = DEFAULT_MAX_FILE_SIZE,
  io: ReadSourceIo = nodeIo,
  boundary?: RootBoundary,
): Promise<ReadResult> {
  let handle: fsp.FileHandle | undefined;
  try {
    // The real path is what is opened: a link swapped after the check cannot lead elsewhere.
    const real = boundary ? await boundary.realPath(absPath) : absPath;
    if (typeof real !== 'string') return real;
    handle = await io.open(real, OPEN_FLAGS);
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
    return (await danglingSymlink(absPath, error)) ?? fromError(error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A missing file that is a symlink whose target does not exist, as opposed to a file deleted. */
async function danglingSymlink(absPath: string, error: unknown): Promise<ReadFailure | undefined> {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return undefined;
  const target = await fsp.readlink(absPath).catch(() => undefined);
  return target === undefined ? undefined : { ok: false, ...dangling(target) };
}

export function dangling(target: string): Skip {
  return { reason: 'dangling-symlink', detail: `a symlink to ${target}, which does not exist` };
}

export function fromError(error: unknown): ReadFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return fail('vanished', 'no longer exists');
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

function fail(reason: SkipReason, detail: string): ReadFailure {
  return { ok: false, reason, detail };
}
