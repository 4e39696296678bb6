// How a Go import path finds its folder in the repository, the way the go command does in module
// mode: the modules declared by the repository's go.mod files (module path + folder), the local
// `replace` directives of the importing module, its `vendor/` folder, and the standard library.
// Pure: the caller reads go.mod files and knows which folders hold Go files; nothing here touches disk.
// Stage 2 (packageScope.ts, resolve.ts) names each folder's package by `goImportPath` and finds an
// import's package through `resolveGoImport`.
import * as posix from 'node:path/posix';
import type { ManifestFile } from '../workspace/projectConfig';

export interface GoReplace {
  /** Module path being replaced. */
  from: string;
  /** Only this version is replaced (`example.com/v v1.12.0 => ./v12`); absent: every version. */
  fromVersion?: string;
  /** Replacement: a module path, or a folder when `local`. */
  to: string;
  toVersion?: string;
  /** `=> ./x`, `=> ../x`, `=> /abs`: a folder on disk rather than another module. */
  local: boolean;
}

export interface GoMod {
  /** The `module` path ('' when the file has none: not a usable module). */
  module: string;
  /** The `go` directive's version, when present. */
  go?: string;
  /** `require` lines: module path → version. */
  requires: Map<string, string>;
  replaces: GoReplace[];
  /** Lines that could not be read, with their 1-based number: reported, never fatal. */
  problems: string[];
}

/** A module of the repository: its go.mod's folder (repository-relative, '' for the root) and contents. */
export interface GoModule {
  dir: string;
  mod: GoMod;
}

export type GoImportTarget =
  /** A folder of the repository: the package's files are its `.go` files. */
  | { t: 'folder'; dir: string; via: 'module' | 'replace' | 'vendor' | 'std' | 'gopath' }
  /** Outside the repository: the standard library, or a third-party module. */
  | { t: 'external'; name: string; stdlib: boolean };

const BLOCK_VERBS = new Set(['require', 'replace', 'exclude', 'retract', 'godebug', 'tool', 'ignore']);

/** Splits a go.mod line into tokens: bare words, `=>`, and quoted strings (quotes removed). */
function tokens(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|`([^`]*)`|(=>)|([^\s"`]+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2] ?? m[3] ?? m[4]);
  }
  return out;
}

function stripComment(line: string): string {
  // `//` starts a comment unless it sits inside a quoted string.
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/') return line.slice(0, i);
  }
  return line;
}

function isLocalPath(path: string): boolean {
  return path.startsWith('./') || path.startsWith('../') || path === '.' || path === '..' || path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

/** Reads go.mod text (https://go.dev/ref/mod#go-mod-file): module, go, require and replace; other directives are skipped. */
export function parseGoMod(text: string): GoMod {
  const mod: GoMod = { module: '', requires: new Map(), replaces: [], problems: [] };
  let block: string | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const words = tokens(stripComment(raw));
    if (words.length === 0) return;
    if (block) {
      if (words[0] === ')' && words.length === 1) block = null;
      else directive(block, words, i + 1);
      return;
    }
    if (words.length === 2 && words[1] === '(' && BLOCK_VERBS.has(words[0])) {
      block = words[0];
      return;
    }
    directive(words[0], words.slice(1), i + 1);
  });
  return mod;

  function directive(verb: string, args: string[], line: number): void {
    switch (verb) {
      case 'module':
        if (args.length === 1) mod.module = args[0];
        else mod.problems.push(`line ${line}: module takes one path`);
        break;
      case 'go':
        if (args.length === 1) mod.go = args[0];
        break;
      case 'require':
        if (args.length === 2) mod.requires.set(args[0], args[1]);
        else mod.problems.push(`line ${line}: require takes a path and a version`);
        break;
      case 'replace': {
        const arrow = args.indexOf('=>');
        const left = args.slice(0, arrow);
        const right = args.slice(arrow + 1);
        if (arrow < 1 || left.length > 2 || right.length < 1 || right.length > 2) {
          mod.problems.push(`line ${line}: replace needs \`path [version] => path [version]\``);
          break;
        }
        const replace: GoReplace = { from: left[0], to: right[0], local: isLocalPath(right[0]) && right.length === 1 };
        if (left[1]) replace.fromVersion = left[1];
        if (right[1]) replace.toVersion = right[1];
        mod.replaces.push(replace);
        break;
      }
      default:
        // toolchain, exclude, retract, godebug, tool…: nothing they say moves a package.
        break;
    }
  }
}

/** The standard library's import paths have no dot in their first element (`fmt`, `net/http`); `C` is cgo's pseudo-package. */
export function isStdlibImport(importPath: string): boolean {
  const first = importPath.split('/')[0];
  return !first.includes('.');
}

/** `path` equals `prefix` or continues it with `/`: the rest of the path after it, or null. */
function under(path: string, prefix: string): string | null {
  if (path === prefix) return '';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : null;
}

function join(dir: string, ...rest: string[]): string | null {
  const joined = posix.normalize(posix.join(dir || '.', ...rest));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return null; // outside the repository
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** The module a folder belongs to: the nearest go.mod at or above it. */
export function enclosingModule(dir: string, modules: readonly GoModule[]): GoModule | undefined {
  let best: GoModule | undefined;
  for (const m of modules) {
    const inside = m.dir === '' || under(dir, m.dir) !== null;
    if (inside && (!best || m.dir.length > best.dir.length)) best = m;
  }
  return best;
}

const modulesOf = new WeakMap<readonly ManifestFile[], GoModule[]>();

/** The repository's modules: its go.mod files among the build manifests, parsed once per manifest list. */
export function goModulesOf(manifests: readonly ManifestFile[]): GoModule[] {
  let modules = modulesOf.get(manifests);
  if (!modules) {
    modules = manifests
      .filter((m) => posix.basename(m.path) === 'go.mod')
      .map((m) => ({ dir: posix.dirname(m.path) === '.' ? '' : posix.dirname(m.path), mod: parseGoMod(m.text) }));
    modulesOf.set(manifests, modules);
  }
  return modules;
}

/**
 * The import path of the package in folder `dir`, as the go command names it: the enclosing module's
 * path + the folder below its go.mod; a package of the module's `vendor/` folder by the path it is
 * imported by; the standard library's packages (`module std`) by their folder alone (`net/http`, and
 * `vendor/golang.org/x/net/...` as GOROOT names its own vendored ones); outside any module, the folder.
 */
export function goImportPath(dir: string, modules: readonly GoModule[]): string {
  const own = enclosingModule(dir, modules);
  if (!own || !own.mod.module) return dir;
  const rest = under(dir, own.dir) ?? dir;
  if (own.mod.module === 'std') return rest;
  const vendored = under(rest, 'vendor');
  if (vendored) return vendored;
  return rest ? `${own.mod.module}/${rest}` : own.mod.module;
}

/**
 * The folder (or External) an import in a file of folder `fromDir` refers to. Order, as the go
 * command resolves: a local `replace` of the importing module (longest module path wins; a
 * versioned replace only when the require names that version), then the modules of the repository
 * (longest module path wins; `std` maps the standard library onto its folder when the repository is
 * GOROOT/src), then the importing module's `vendor/` folder (GOPATH mode: vendor folders above the
 * file, then `<path>` itself), then External.
 * `hasFolder` says whether a repository folder holds Go files.
 */
export function resolveGoImport(
  importPath: string,
  fromDir: string,
  modules: readonly GoModule[],
  hasFolder: (dir: string) => boolean,
): GoImportTarget {
  const own = enclosingModule(fromDir, modules);
  if (own) {
    let replace: { r: GoReplace; rest: string } | undefined;
    for (const r of own.mod.replaces) {
      const rest = under(importPath, r.from);
      if (rest === null) continue;
      if (r.fromVersion && own.mod.requires.get(r.from) !== r.fromVersion) continue;
      // Longer module paths win; for the same path a versioned replace beats the blanket one.
      if (!replace || r.from.length > replace.r.from.length || (r.from === replace.r.from && r.fromVersion && !replace.r.fromVersion)) replace = { r, rest };
    }
    if (replace) {
      if (!replace.r.local) return external(importPath);
      const dir = join(own.dir, replace.r.to, replace.rest);
      return dir === null ? external(importPath) : { t: 'folder', dir, via: 'replace' };
    }
  }
  let best: { m: GoModule; rest: string } | undefined;
  for (const m of modules) {
    if (!m.mod.module) continue;
    const rest = under(importPath, m.mod.module);
    if (rest !== null && (!best || m.mod.module.length > best.m.mod.module.length)) best = { m, rest };
  }
  if (best) {
    const dir = join(best.m.dir, best.rest);
    if (dir !== null) return { t: 'folder', dir, via: 'module' };
  }
  if (isStdlibImport(importPath)) {
    const std = modules.find((m) => m.mod.module === 'std');
    const dir = std ? join(std.dir, importPath) : null;
    if (dir !== null && hasFolder(dir)) return { t: 'folder', dir, via: 'std' };
    return { t: 'external', name: importPath, stdlib: true };
  }
  // Only the importing module's own vendor folder counts (as for `go build -mod=vendor`); without a
  // go.mod (GOPATH mode) the nearest `vendor/` above the file does, then the GOPATH layout `src/<path>`.
  const vendorRoots = own ? [own.dir] : ancestors(fromDir);
  for (const root of vendorRoots) {
    const dir = join(root, 'vendor', importPath);
    if (dir !== null && hasFolder(dir)) return { t: 'folder', dir, via: 'vendor' };
  }
  if (!own && hasFolder(importPath)) return { t: 'folder', dir: importPath, via: 'gopath' };
  return external(importPath);
}

/** `a/b/c` → ['a/b/c', 'a/b', 'a', '']: nearest first. */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = posix.dirname(d) === '.' ? '' : posix.dirname(d)) {
    out.push(d);
    if (d === '') return out;
  }
}

function external(importPath: string): GoImportTarget {
  return { t: 'external', name: importPath, stdlib: isStdlibImport(importPath) };
}
