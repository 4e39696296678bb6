// How modules are named and found. Every lookup of a module goes through a *key*; every file
// *provides* the keys it can be found under. Resolution records the keys it consulted, so when
// the set of providers of a key changes (a file added, removed, moved), exactly the files that
// consulted it are re-resolved.
//   py:<dotted>   absolute Python module name (package-aware: parents with __init__.py)
//   pyp:<path>    Python module by path without extension (relative imports, submodules)
//   js:<path>     TS/JS module by path without extension (and index files by their folder)
//   file:<path>#… one name (or list) of one file's interface, see fileIndex.ts
//   tsconfig      the tsconfig/jsconfig files (paths, baseUrl)
//   manifest:<n>  the build manifests named n (go.mod, Cargo.toml): module paths, crates
//   compiled      the compiled Python extension modules (a lookup that found no Python source)
import * as posix from 'node:path/posix';
import type { Language } from '../model/schema';

export const TSCONFIG_KEY = 'tsconfig';
export const COMPILED_KEY = 'compiled';

/** Consumed by a lookup that read the build manifests named `name` (go.mod, Cargo.toml). */
export function manifestKey(name: string): string {
  return `manifest:${name}`;
}

/** Extensions tried, in order, for an extensionless TS/JS specifier (TypeScript's own order, then JS). */
export const JS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mts', '.cts', '.mjs', '.cjs'];
const JS_STRIP = /(\.d\.ts|\.d\.mts|\.d\.cts|\.tsx?|\.mts|\.cts|\.jsx?|\.mjs|\.cjs)$/;
/** Imports of these are assets, not code: no edge, not counted as unresolved. */
export const ASSET_EXTENSION = /\.(json|css|scss|sass|less|svg|png|jpe?g|gif|webp|ico|html|md|txt|wasm|woff2?|ttf|vue|svelte)$/i;

export function pythonPathKey(path: string): string {
  return `pyp:${stripPython(path)}`;
}

/** `pkg/mod.py` → `pkg/mod`, `pkg/__init__.py` → `pkg` (a package is found under its folder). */
export function stripPython(path: string): string {
  const noExt = path.replace(/\.pyi?$/, '');
  if (noExt === '__init__') return '';
  return noExt.endsWith('/__init__') ? noExt.slice(0, -'/__init__'.length) : noExt;
}

export function isPythonPackageInit(path: string): boolean {
  return /(^|\/)__init__\.pyi?$/.test(path);
}

/**
 * The dotted name Python would import a file by: its stem prefixed by every enclosing folder that
 * is a package (has `__init__.py`), up to and including the repository root (named `rootName`).
 */
export function pythonModuleName(path: string, initDirs: ReadonlySet<string>, rootName: string): string {
  const stem = stripPython(path);
  const parts = isPythonPackageInit(path) ? [] : [posix.basename(stem)];
  let dir = isPythonPackageInit(path) ? stem : posix.dirname(path) === '.' ? '' : posix.dirname(path);
  for (;;) {
    if (!initDirs.has(dir)) break;
    parts.unshift(dir === '' ? rootName : posix.basename(dir));
    if (dir === '') break;
    dir = posix.dirname(dir) === '.' ? '' : posix.dirname(dir);
  }
  return parts.filter(Boolean).join('.');
}

/** `js:<path without extension>`: how a TS/JS file is provided and how a resolved specifier (`./a.js` → a.ts) is looked up. */
export function jsPathKey(path: string): string {
  return `js:${path.replace(JS_STRIP, '')}`;
}

/** Keys a file can be found under. */
export function providedKeys(path: string, language: Language, initDirs: ReadonlySet<string>, rootName: string): string[] {
  if (language === 'rust') return []; // found through Cargo crates and `mod` declarations, never by a JS or Python key
  if (language === 'python') {
    const keys = [pythonPathKey(path)];
    const name = pythonModuleName(path, initDirs, rootName);
    if (name) keys.push(`py:${name}`);
    // Folders without __init__.py are namespace packages: a root-relative dotted path imports too,
    // unless the root itself is a package (then its children are only reachable through its name).
    const dotted = stripPython(path).split('/').filter(Boolean).join('.');
    if (dotted && dotted !== name && !initDirs.has('')) keys.push(`py:${dotted}`);
    return keys;
  }
  if (language === 'go') return []; // a Go file is found through its package (stage 2), never by a JS specifier
  const keys = [jsPathKey(path)];
  const stem = path.replace(JS_STRIP, '');
  if (posix.basename(stem) === 'index') {
    const dir = posix.dirname(stem);
    keys.push(`js:${dir === '.' ? '' : dir}`);
  }
  return keys;
}

/** Rank of a provider for a key: lower wins. Makes lookups deterministic when several files provide a key. */
export function providerRank(path: string, key: string): [number, number, string] {
  if (key.startsWith('js:')) {
    const stem = path.replace(JS_STRIP, '');
    const isIndex = `js:${stem}` !== key;
    const ext = path.slice(stem.length);
    const extRank = JS_EXTENSIONS.indexOf(ext);
    return [isIndex ? 1 : 0, extRank < 0 ? 99 : extRank, path];
  }
  // Python: a regular module beats a stub; shallower paths beat deeper ones (package-aware names first).
  return [path.endsWith('.pyi') ? 1 : 0, path.split('/').length, path];
}

export function compareRank(a: [number, number, string], b: [number, number, string]): number {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/** Folder of a path ('' for the root). */
export function dirOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

/** `./x`, `../x` resolved against the importing file's folder; null when it climbs above the root. */
export function joinRelative(fromPath: string, specifier: string): string | null {
  const joined = posix.normalize(posix.join(dirOf(fromPath), specifier));
  if (joined.startsWith('..')) return null;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

