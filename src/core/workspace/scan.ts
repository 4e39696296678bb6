// Finds the source files of a workspace the way a developer expects: what git (or a `.ignore` file)
// ignores and what the settings exclude is not ours and is not mentioned; every other file with a
// known language is, and when one cannot be indexed the scan says why instead of failing.
//
// Ignore semantics follow git and ripgrep: every `.gitignore` applies to its own subtree with
// patterns anchored at its folder, a deeper file overrides a shallower one, `.ignore` files
// override `.gitignore` files, `.git/info/exclude` is the weakest. A folder that is ignored is not
// entered, so nothing below it can be re-included. Pattern matching itself is the `ignore` package.
import * as fs from 'node:fs';
import { type Dirent, type Stats, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ignore from 'ignore';
import type { Language } from '../model/schema';
import { languageOf } from '../parse/languages';
import { bundledByPath } from './bundled';
import { DEFAULT_MAX_FILE_SIZE, type SkipReason, dangling, fileKind, fromError, isSameOrInside, outsideRoot } from './readSource';

export { DEFAULT_MAX_FILE_SIZE, readSourceFile, type ReadResult, type SkipReason } from './readSource';

export interface SourceFileEntry {
  /** Repository-relative, '/' separators. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
  language: Language;
}

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
}

export type FsCallback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/**
 * The file-system calls the scan makes, in node:fs callback style (see `walkTree` for why);
 * tests replace some to produce errors that root never gets.
 */
export interface ScanFs {
  readdir(absDir: string, callback: FsCallback<Dirent[]>): void;
  stat(absPath: string, callback: FsCallback<Stats>): void;
  realpath(absPath: string, callback: FsCallback<string>): void;
  readlink(absPath: string, callback: FsCallback<string>): void;
  /** Text of an ignore file. */
  readText(absPath: string, callback: FsCallback<string>): void;
}

export interface ScanOptions {
  /** Bytes; larger files are reported as 'too-large'. Default 1 MiB. */
  maxFileSize?: number;
  /** Extra gitignore-style patterns relative to the root (e.g. from settings); never reported. */
  exclude?: string[];
  /** Index minified and vendored JavaScript too (bundled.ts); by default it is reported as skipped. */
  includeMinified?: boolean;
  /**
   * Follow symlinks whose target is outside the root too (each folder once). Default false: they are
   * reported as 'outside-root' (readSource.ts's RootBoundary says why). Links inside are followed.
   */
  followSymlinks?: boolean;
  /** @internal Test seam: replaces some file-system calls. */
  fs?: Partial<ScanFs>;
}

export interface ScanResult {
  files: SourceFileEntry[];
  skipped: SkippedFile[];
}

/** Never indexed, whatever the ignore files say: VCS internals, dependencies, our own store. */
export const ALWAYS_EXCLUDED = ['.git/', 'node_modules/', '.cartograph/'];
const ALWAYS_EXCLUDED_DIRS = new Set(ALWAYS_EXCLUDED.map((pattern) => pattern.slice(0, -1)));

const nodeFs: ScanFs = {
  readdir: (dir, callback) => fs.readdir(dir, { withFileTypes: true }, callback),
  stat: (p, callback) => fs.stat(p, callback),
  realpath: (p, callback) => fs.realpath(p, callback),
  readlink: (p, callback) => fs.readlink(p, callback),
  readText: (p, callback) => fs.readFile(p, 'utf8', callback),
};

/**
 * Calls in flight at once. Unbounded, a tree of thousands of folders (Django's locales) completes
 * hundreds of calls while the event loop is busy, and libuv then runs all their callbacks in one
 * turn: a 15-70 ms block in an editor's extension host. Bounded (64: as fast on Django, blocks of
 * 1-4 ms instead of 5-19 in plain Node), a turn runs at most this many.
 */
const MAX_FS_CALLS_IN_FLIGHT = 64;

/** `io` with at most `limit` calls in flight; the others wait in order. */
function throttled(io: ScanFs, limit: number): ScanFs {
  let running = 0;
  const waiting: (() => void)[] = [];
  const wrap =
    <T>(fn: (arg: string, callback: FsCallback<T>) => void) =>
    (arg: string, callback: FsCallback<T>): void => {
      const start = () => {
        running++;
        fn(arg, (error, value) => {
          running--;
          waiting.shift()?.();
          callback(error, value);
        });
      };
      if (running < limit) start();
      else waiting.push(start);
    };
  return { readdir: wrap(io.readdir), stat: wrap(io.stat), realpath: wrap(io.realpath), readlink: wrap(io.readlink), readText: wrap(io.readText) };
}

function call<T>(fn: (arg: string, callback: FsCallback<T>) => void, arg: string): Promise<T> {
  return new Promise((resolve, reject) => fn(arg, (error, value) => (error ? reject(error) : resolve(value))));
}

export async function scanWorkspace(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const rootAbs = path.resolve(root);
  const io = throttled({ ...nodeFs, ...options.fs }, MAX_FS_CALLS_IN_FLIGHT);
  const rootReal = await call(io.realpath, rootAbs);
  const ctx: ScanContext = {
    io,
    maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    includeMinified: options.includeMinified ?? false,
    followSymlinks: options.followSymlinks ?? false,
    rootReal,
    extraExcluded: options.exclude?.length ? makeLayer('', options.exclude) : undefined,
    files: [],
    skipped: [],
    visitedReal: new Set(),
    linkedDirs: [],
  };
  const gitExclude = await call(io.readText, path.join(rootAbs, '.git', 'info', 'exclude')).catch(() => undefined);
  const rootRules: Rules = { git: gitExclude ? [makeLayer('', [gitExclude])] : [], dot: [] };

  await walkTree(ctx, { path: '', absPath: rootAbs, realPath: rootReal, rules: rootRules }, true);

  // Symlinked folders are entered after the real tree, in path order, so that "already scanned"
  // does not depend on which readdir finished first.
  while (ctx.linkedDirs.length > 0) {
    const batch = ctx.linkedDirs.sort(byPath);
    ctx.linkedDirs = [];
    for (const link of batch) {
      let target: string;
      try {
        target = await call(io.realpath, link.absPath);
      } catch (error) {
        ctx.skipped.push(skip(link.path, error));
        continue;
      }
      if (isSameOrInside(link.parentReal, target) || isSameOrInside(rootReal, target)) {
        ctx.skipped.push({ path: link.path, reason: 'symlink-loop', detail: `links to its own ancestor ${target}` });
      } else if (!ctx.followSymlinks && !isSameOrInside(target, rootReal)) {
        ctx.skipped.push({ path: link.path, ...outsideRoot(target, rootReal) });
      } else if (ctx.visitedReal.has(target)) {
        ctx.skipped.push({ path: link.path, reason: 'symlink-loop', detail: `links to ${target}, already scanned` });
      } else {
        await walkTree(ctx, { path: link.path, absPath: link.absPath, realPath: target, rules: link.rules }, false);
      }
    }
  }

  ctx.files.sort(byPath);
  ctx.skipped.sort(byPath);
  return { files: ctx.files, skipped: ctx.skipped };
}

/**
 * A matcher with the scan's rules for single paths (e.g. file-watcher events): true when `relPath`
 * (root-relative, '/' or '\' separators) or one of its folders is ignored or excluded, or when it
 * lies outside the root. Ignore files are read lazily and cached: make a new matcher when one of
 * them changes.
 */
export async function createIgnoreMatcher(
  root: string,
  extra: string[] = [],
): Promise<(relPath: string, isDir: boolean) => boolean> {
  const rootAbs = path.resolve(root);
  const forced = makeLayer('', [...ALWAYS_EXCLUDED, ...extra]);
  const gitExclude = await call(nodeFs.readText, path.join(rootAbs, '.git', 'info', 'exclude')).catch(() => undefined);
  const rulesInside = new Map<string, Rules>();
  const readSync = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  // Rules in force inside `relDir`, which the caller has established is not ignored.
  const rulesFor = (relDir: string): Rules => {
    let rules = rulesInside.get(relDir);
    if (!rules) {
      const outer =
        relDir === ''
          ? { git: gitExclude ? [makeLayer('', [gitExclude])] : [], dot: [] }
          : enterDir(rulesFor(parentDir(relDir)), relDir);
      const absDir = path.join(rootAbs, relDir);
      rules = withIgnoreFiles(outer, relDir, readSync(path.join(absDir, '.gitignore')), readSync(path.join(absDir, '.ignore')));
      rulesInside.set(relDir, rules);
    }
    return rules;
  };
  return (relPath: string, isDir: boolean): boolean => {
    const rel = relPath.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (rel === '' || rel === '.') return false;
    // Outside the root: not ours.
    if (rel === '..' || rel.startsWith('../') || path.isAbsolute(rel)) return true;
    if (forced.matcher.ignores(isDir ? `${rel}/` : rel)) return true;
    const segments = rel.split('/');
    let dir = '';
    for (let i = 0; i < segments.length - 1; i++) {
      const next = dir ? `${dir}/${segments[i]}` : segments[i];
      if (isIgnored(rulesFor(dir), next, true)) return true;
      dir = next;
    }
    return isIgnored(rulesFor(dir), rel, isDir);
  };
}

// ---------------------------------------------------------------------------------------------
// Ignore rules

type IgnoreMatcher = ReturnType<typeof ignore>;

/** The patterns of one ignore file (or of a settings list), anchored at `base`. */
interface Layer {
  readonly base: string;
  readonly patterns: readonly string[];
  readonly matcher: IgnoreMatcher;
}

/** The layers in force inside one folder, weakest first: `.gitignore`-like, then `.ignore`. */
interface Rules {
  readonly git: readonly Layer[];
  readonly dot: readonly Layer[];
}

// Git matches case-sensitively unless core.ignorecase, which it sets on case-insensitive file systems.
const IGNORE_CASE = process.platform === 'win32' || process.platform === 'darwin';

/** `patterns`: whole ignore-file texts or single patterns. */
function makeLayer(base: string, patterns: readonly string[]): Layer {
  const matcher = ignore({ ignorecase: IGNORE_CASE });
  // One string at a time: `add` splits a string into lines (and drops a BOM) but takes each
  // element of an array as one pattern.
  for (const text of patterns) matcher.add(text);
  return { base, patterns, matcher };
}

function withIgnoreFiles(rules: Rules, relDir: string, gitignore?: string, dotIgnore?: string): Rules {
  if (gitignore === undefined && dotIgnore === undefined) return rules;
  return {
    git: gitignore === undefined ? rules.git : [...rules.git, makeLayer(relDir, [gitignore])],
    dot: dotIgnore === undefined ? rules.dot : [...rules.dot, makeLayer(relDir, [dotIgnore])],
  };
}

function isIgnored(rules: Rules, rel: string, isDir: boolean): boolean {
  return verdict(rules.dot, rel, isDir, verdict(rules.git, rel, isDir, false));
}

/** The last layer with an opinion on `rel` decides. */
function verdict(layers: readonly Layer[], rel: string, isDir: boolean, ignored: boolean): boolean {
  for (const layer of layers) {
    const sub = layer.base ? rel.slice(layer.base.length + 1) : rel;
    const result = layer.matcher.test(isDir ? `${sub}/` : sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Rules for the inside of `relDir`, a folder just found not ignored. A layer can still ignore the
 * folder itself when a deeper layer re-included it (`build/` at the root, `!build/` in `a/`).
 * The `ignore` package would then call everything below ignored "because a parent is"; git only
 * asks whether a pattern matches the path itself. A copy of that layer that re-includes the
 * folder restores git's answer, and this is rare enough to cost nothing.
 */
function enterDir(rules: Rules, relDir: string): Rules {
  if (rules.git.length === 0 && rules.dot.length === 0) return rules;
  const reinclude = (layers: readonly Layer[]): readonly Layer[] => {
    let changed = false;
    const next = layers.map((layer) => {
      const sub = layer.base ? relDir.slice(layer.base.length + 1) : relDir;
      if (!layer.matcher.test(`${sub}/`).ignored) return layer;
      changed = true;
      return makeLayer(layer.base, [...layer.patterns, `!/${escapePattern(sub)}/`]);
    });
    return changed ? next : layers;
  };
  const git = reinclude(rules.git);
  const dot = reinclude(rules.dot);
  return git === rules.git && dot === rules.dot ? rules : { git, dot };
}

function escapePattern(literal: string): string {
  return literal.replace(/[\\*?[\]]/g, '\\$&').replace(/ $/, '\\ ');
}

// ---------------------------------------------------------------------------------------------
// Walk

interface LinkedDir {
  path: string;
  absPath: string;
  /** Real path of the folder holding the link. */
  parentReal: string;
  rules: Rules;
}

interface ScanContext {
  io: ScanFs;
  maxFileSize: number;
  includeMinified: boolean;
  followSymlinks: boolean;
  /** Real path of the root: what symlinks are checked against. */
  rootReal: string;
  /** The `exclude` option's patterns. */
  extraExcluded: Layer | undefined;
  files: SourceFileEntry[];
  skipped: SkippedFile[];
  /** Real paths of every folder entered. */
  visitedReal: Set<string>;
  linkedDirs: LinkedDir[];
}

interface DirTask {
  path: string;
  absPath: string;
  realPath: string;
  /** Rules in force for the folder's entries, before its own ignore files. */
  rules: Rules;
}

/**
 * Walks the folder tree under `start`, every folder and file in parallel. Plain callbacks and one
 * counter of calls in flight, not an async function per folder and a promise per file: on Django
 * (2,364 folders, 3,500 files) the promises cost a third more CPU, and a cold scan is CPU-bound.
 * Symlinked folders are queued in `ctx.linkedDirs`, not entered.
 */
function walkTree(ctx: ScanContext, start: DirTask, throwIfUnreadable: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let inFlight = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    };
    const done = () => {
      if (--inFlight === 0 && !settled) {
        settled = true;
        resolve();
      }
    };
    // A bug in a callback rejects the scan instead of becoming an uncaught exception.
    const guarded =
      <A extends unknown[]>(body: (...args: A) => void) =>
      (...args: A) => {
        try {
          body(...args);
        } catch (error) {
          fail(error);
        }
      };

    const visitDir = (dir: DirTask) => {
      inFlight++;
      ctx.visitedReal.add(dir.realPath);
      ctx.io.readdir(
        dir.absPath,
        guarded((error, entries) => {
          if (error) {
            if (dir === start && throwIfUnreadable) return fail(error);
            ctx.skipped.push(skip(dir.path, error));
          } else {
            withOwnIgnoreFiles(dir, entries, guarded((rules) => {
              visitEntries(dir, entries, rules);
              done();
            }));
            return;
          }
          done();
        }),
      );
    };

    const withOwnIgnoreFiles = (dir: DirTask, entries: Dirent[], then: (rules: Rules) => void) => {
      let gitignore: string | undefined;
      let dotIgnore: string | undefined;
      let reads = 0;
      const read = (name: string, store: (text: string) => void) => {
        reads++;
        // An unreadable ignore file counts as absent, as in git.
        ctx.io.readText(path.join(dir.absPath, name), (error, text) => {
          if (!error) store(text);
          if (--reads === 0) then(withIgnoreFiles(dir.rules, dir.path, gitignore, dotIgnore));
        });
      };
      for (const entry of entries) {
        if (entry.isDirectory()) continue;
        if (entry.name === '.gitignore') read('.gitignore', (text) => (gitignore = text));
        else if (entry.name === '.ignore') read('.ignore', (text) => (dotIgnore = text));
      }
      if (reads === 0) then(dir.rules);
    };

    // Runs for every entry of every folder, most of them not sources: names are tested before
    // any path string is built, and paths are concatenated, not joined.
    const visitEntries = (dir: DirTask, entries: Dirent[], rules: Rules) => {
      const relPrefix = dir.path ? `${dir.path}/` : '';
      const absPrefix = withSep(dir.absPath);
      const realPrefix = withSep(dir.realPath);
      for (const entry of entries) {
        const name = entry.name;
        if (entry.isDirectory()) {
          if (ALWAYS_EXCLUDED_DIRS.has(name)) continue;
          const rel = relPrefix + name;
          if (excluded(ctx, rules, rel, true)) continue;
          visitDir({ path: rel, absPath: absPrefix + name, realPath: realPrefix + name, rules: enterDir(rules, rel) });
        } else if (entry.isSymbolicLink()) {
          visitSymlink(relPrefix + name, absPrefix + name, dir.realPath, rules);
        } else {
          const language = languageOf(name);
          if (!language) continue;
          const rel = relPrefix + name;
          if (excluded(ctx, rules, rel, false)) continue;
          if (entry.isFile()) statFile(rel, absPrefix + name, language);
          else ctx.skipped.push({ path: rel, reason: 'unreadable', detail: `not a regular file (${fileKind(entry)})` });
        }
      }
    };

    const statFile = (rel: string, abs: string, language: Language) => {
      inFlight++;
      ctx.io.stat(
        abs,
        guarded((error, stat) => {
          if (error) ctx.skipped.push(skip(rel, error));
          else addFile(ctx, rel, abs, language, stat);
          done();
        }),
      );
    };

    const visitSymlink = (rel: string, abs: string, parentReal: string, rules: Rules) => {
      inFlight++;
      ctx.io.stat(
        abs,
        guarded((error, stat) => {
          if (error) {
            // Where the link leads is unknown: only a name that looks like a source is reported.
            if (!languageOf(rel) || excluded(ctx, rules, rel, false)) return done();
            const skipped = skip(rel, error);
            if (skipped.reason !== 'vanished') {
              ctx.skipped.push(skipped);
              return done();
            }
            // Missing: the target, or the link itself when it went after the folder was listed.
            return ctx.io.readlink(
              abs,
              guarded((linkError, target) => {
                ctx.skipped.push(linkError ? skipped : { path: rel, ...dangling(target) });
                done();
              }),
            );
          }
          if (stat.isDirectory()) {
            if (!excluded(ctx, rules, rel, true)) {
              ctx.linkedDirs.push({ path: rel, absPath: abs, parentReal, rules: enterDir(rules, rel) });
            }
          } else {
            const language = languageOf(rel);
            if (language && !excluded(ctx, rules, rel, false)) return linkedFile(rel, abs, language, stat);
          }
          done();
        }),
      );
    };

    // A symlinked source file: taken when it stays inside the root, or when asked to follow links out.
    const linkedFile = (rel: string, abs: string, language: Language, stat: Stats) => {
      if (ctx.followSymlinks) {
        addFile(ctx, rel, abs, language, stat);
        return done();
      }
      ctx.io.realpath(
        abs,
        guarded((error, target) => {
          if (error) ctx.skipped.push(skip(rel, error));
          else if (isSameOrInside(target, ctx.rootReal)) addFile(ctx, rel, abs, language, stat);
          else ctx.skipped.push({ path: rel, ...outsideRoot(target, ctx.rootReal) });
          done();
        }),
      );
    };

    visitDir(start);
  });
}

function addFile(ctx: ScanContext, rel: string, abs: string, language: Language, stat: Stats): void {
  const bundled = ctx.includeMinified ? undefined : bundledByPath(rel);
  if (bundled) {
    ctx.skipped.push({ path: rel, ...bundled });
  } else if (!stat.isFile()) {
    ctx.skipped.push({ path: rel, reason: 'unreadable', detail: `not a regular file (${fileKind(stat)})` });
  } else if (stat.size > ctx.maxFileSize) {
    ctx.skipped.push({ path: rel, reason: 'too-large', detail: `${stat.size} bytes > limit ${ctx.maxFileSize} bytes` });
  } else {
    ctx.files.push({ path: rel, absPath: abs, size: stat.size, mtimeMs: stat.mtimeMs, language });
  }
}

function excluded(ctx: ScanContext, rules: Rules, rel: string, isDir: boolean): boolean {
  if (isDir && ALWAYS_EXCLUDED_DIRS.has(baseName(rel))) return true; // reached through a symlink
  if (ctx.extraExcluded?.matcher.ignores(isDir ? `${rel}/` : rel)) return true;
  return isIgnored(rules, rel, isDir);
}

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

function skip(rel: string, error: unknown): SkippedFile {
  const { reason, detail } = fromError(error);
  return { path: rel, reason, detail };
}

function withSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

function parentDir(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
