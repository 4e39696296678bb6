// What the resolver needs besides the source files, read from disk: the tsconfig/jsconfig files
// (path aliases), each package.json's own name, the build manifests of the package-scoped
// languages (go.mod: module paths; Cargo.toml: crates), and the Python modules that are compiled
// extensions (no Python source, yet importable). The engine passes them to the graph when it
// indexes and whenever one of them changes; the query snapshot reads them again to tell whether its
// graph still matches.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dirOf } from '../graph/moduleKeys';
import { packageSelfPaths, withPackageSelfPaths } from '../graph/packageSelf';
import { loadTsConfig, type TsConfig } from '../graph/tsconfig';
import type { Language } from '../model/schema';
import { languageOf } from '../parse/languages';

export const TSCONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** Build manifests, by the language whose files they describe. */
export const MANIFEST_LANGUAGES: Readonly<Record<string, Language>> = { 'go.mod': 'go', 'Cargo.toml': 'rust' };

/** A build manifest as found on disk (repository-relative path); the resolver parses it. */
export interface ManifestFile {
  path: string;
  text: string;
}

export interface ProjectConfig {
  tsconfigs: TsConfig[];
  /** Every go.mod and Cargo.toml in a folder that holds, or is above, a file of their language; sorted by path. */
  manifests: ManifestFile[];
  /**
   * Compiled Python extension modules beside Python files, by path without extension (`pkg/_speedups`
   * for `pkg/_speedups.cpython-311-x86_64-linux-gnu.so`); sorted. Imports of them are of code the
   * graph cannot read: scipy, scikit-learn and pandas import hundreds (3 % of their internal imports).
   */
  compiledModules: string[];
}

/** The folders looked at for each kind of config file. */
export interface ConfigDirs {
  tsconfig: string[];
  manifest: string[];
  /** The folders that hold a Python file, where compiled modules are looked for. */
  python: string[];
}

/**
 * A compiled extension module's file (`_x.cpython-311-x86_64-linux-gnu.so`, `_x.abi3.so`, `_x.so`,
 * `_x.pyd`) or the Cython source and declarations it is built from (`_x.pyx`, `_x.pxd`: a distribution
 * may ship those without the binary), by extension (file watchers) and by name (group 1: the module).
 */
export const COMPILED_MODULE_EXTENSIONS: readonly string[] = ['so', 'pyd', 'pyx', 'pxd'];
const COMPILED_MODULE = new RegExp(String.raw`^([A-Za-z_]\w*)(?:\.[\w-]+)?\.(?:${COMPILED_MODULE_EXTENSIONS.join('|')})$`);

/** The config files whose change can change how the repository's files resolve. */
export const PROJECT_FILE_NAMES: readonly string[] = [...TSCONFIG_NAMES, 'package.json', ...Object.keys(MANIFEST_LANGUAGES)];

/** Whether a change to this file can change how the repository's files resolve. */
export function isProjectFile(p: string): boolean {
  const name = path.basename(p);
  return PROJECT_FILE_NAMES.includes(name) || COMPILED_MODULE.test(name);
}

/** Whether the graph reads this file: a source file of a language it parses, or a project file. */
export function isGraphInput(p: string): boolean {
  return languageOf(p) !== undefined || isProjectFile(p);
}

/** The languages a tsconfig/jsconfig applies to. */
const TS_CONFIGURED = new Set<Language | undefined>(['typescript', 'tsx', 'javascript']);
const MANIFESTED = new Set<Language | undefined>(Object.values(MANIFEST_LANGUAGES));

export function projectConfigDirs(paths: Iterable<string>): ConfigDirs {
  const list = [...paths];
  const python = new Set(list.filter((p) => languageOf(p) === 'python').map(dirOf));
  return { tsconfig: ancestorDirs(list, TS_CONFIGURED), manifest: ancestorDirs(list, MANIFESTED), python: [...python].sort() };
}

export function readProjectConfig(root: string, dirs: ConfigDirs): ProjectConfig {
  return projectConfigFrom(dirs, (rel) => readText(root, rel), (rel) => listFolder(root, rel));
}

/**
 * The project config as read through `read` (repository-relative path → text, undefined when
 * absent) and `list` (a folder's entry names): the disk for the engine, an in-memory tree for tests,
 * so both see the same config.
 */
export function projectConfigFrom(dirs: ConfigDirs, read: (rel: string) => string | undefined, list: (dir: string) => string[]): ProjectConfig {
  return { tsconfigs: readTsConfigs(dirs.tsconfig, read), manifests: readManifests(dirs.manifest, read), compiledModules: compiledModules(dirs.python, list) };
}

function compiledModules(dirs: readonly string[], list: (dir: string) => string[]): string[] {
  const found = new Set<string>();
  for (const dir of dirs) {
    for (const name of list(dir)) {
      const module = COMPILED_MODULE.exec(name)?.[1];
      if (module) found.add(dir ? `${dir}/${module}` : module);
    }
  }
  return [...found].sort();
}

/** `list` for projectConfigFrom over a tree held in memory (its repository-relative paths). */
export function listingOf(paths: Iterable<string>): (dir: string) => string[] {
  const names = new Map<string, string[]>();
  for (const p of paths) {
    const dir = dirOf(p);
    (names.get(dir) ?? names.set(dir, []).get(dir)!).push(path.posix.basename(p));
  }
  return (dir) => names.get(dir) ?? [];
}

function listFolder(root: string, rel: string): string[] {
  try {
    return fs.readdirSync(path.join(root, rel));
  } catch {
    return [];
  }
}

/** Every folder that holds, or is above, a file of `paths` in one of `languages` ('' for the root), sorted. */
function ancestorDirs(paths: readonly string[], languages: ReadonlySet<Language | undefined>): string[] {
  const dirs = new Set<string>();
  for (const p of paths) {
    if (!languages.has(languageOf(p))) continue;
    for (let dir = path.posix.dirname(p); ; dir = path.posix.dirname(dir)) {
      const key = dir === '.' ? '' : dir;
      if (dirs.has(key)) break;
      dirs.add(key);
      if (key === '') break;
    }
  }
  return [...dirs].sort();
}

function readManifests(dirs: readonly string[], read: (rel: string) => string | undefined): ManifestFile[] {
  const found: ManifestFile[] = [];
  for (const dir of dirs) {
    for (const name of Object.keys(MANIFEST_LANGUAGES)) {
      const rel = dir ? `${dir}/${name}` : name;
      const text = read(rel);
      if (text !== undefined) found.push({ path: rel, text });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function readText(root: string, rel: string): string | undefined {
  try {
    return fs.readFileSync(path.join(root, rel), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The config of each folder in `dirs` that has one (tsconfig.json before jsconfig.json), with each
 * package.json's own name mapped to its files (a package importing itself by name).
 */
function readTsConfigs(dirs: readonly string[], read: (rel: string) => string | undefined): TsConfig[] {
  const configs: TsConfig[] = [];
  for (const dir of dirs) {
    for (const name of TSCONFIG_NAMES) {
      const config = loadTsConfig(dir ? `${dir}/${name}` : name, read);
      if (config) {
        configs.push(config);
        break;
      }
    }
  }
  const packages = dirs.map((dir) => ({ dir, paths: packageSelfPaths(dir, read(dir ? `${dir}/package.json` : 'package.json')) }));
  return withPackageSelfPaths(configs, packages);
}
