// How Cargo and rustc name Rust modules, for stage 2 (resolution) of Rust files. Pure: manifest
// text and path lists in, answers out; the caller reads the files and watches them.
//
// - A package (`Cargo.toml` with `[package]`) has crate targets: at most one library (`[lib] path`,
//   else `src/lib.rs`), binaries (`[[bin]]`, `src/main.rs`, `src/bin/*.rs`, `src/bin/*/main.rs`),
//   examples, tests, benches (same auto-discovery under `examples/`, `tests/`, `benches/`) and a
//   build script (`build.rs`). Every target is its own crate; non-library targets see the library
//   as an extern crate under its name. Crate names are package or target names with `-` → `_`.
// - A file's module path inside its crate is where the `mod` tree puts it, as rustc builds it from
//   each crate root: `mod x;` in a crate root or `mod.rs` loads `x.rs` or `x/mod.rs` beside it, in
//   `a.rs` it loads `a/x.rs` or `a/x/mod.rs`, `#[path = "…"]` names the file, and a declaration
//   inside `mod inner { … }` looks in `inner/` (childModuleFiles, modTree). A file no declaration
//   reaches (one loaded by a macro we cannot expand) keeps the default layout: `src/a.rs` and
//   `src/a/mod.rs` are `crate::a`, `src/a/b.rs` is `crate::a::b`.
// - Paths in `use` and expressions start at `crate`, `self`, `super`, `::name` (an extern crate) or
//   a name in scope; resolvePath turns the first three into a module path of the same crate and
//   lists the candidates for the last (a local name first, then an extern crate).
import * as posix from 'node:path/posix';
import { parse as parseToml } from 'smol-toml';
import type { FileGraph, ImportBinding } from '../parse/fileGraph';

export type CrateKind = 'lib' | 'bin' | 'example' | 'test' | 'bench' | 'build';

export interface CrateTarget {
  kind: CrateKind;
  /** The name code uses (`serde_json`, `cargo_example`): `-` made `_`. */
  name: string;
  /** Repository-relative path of the crate root file. */
  root: string;
}

export interface CargoManifest {
  /** Folder of the Cargo.toml ('' for the repository root). */
  dir: string;
  /** `[package] name` as written; null for a virtual workspace manifest. */
  packageName: string | null;
  targets: CrateTarget[];
  /** `[workspace] members` / `exclude` patterns, relative to `dir`. */
  workspaceMembers: string[];
  workspaceExclude: string[];
  /** Extern crate name in code (`-` → `_`, renamed keys kept) → package name, over every dependency table. */
  dependencies: Map<string, string>;
  /** Why the manifest could not be read; the targets then follow the default layout alone. */
  error?: string;
}

/** Crates every Rust file may name without a dependency. */
export const SYSROOT_CRATES: ReadonlySet<string> = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

export function crateName(name: string): string {
  return name.replace(/-/g, '_');
}

type Table = Record<string, unknown>;

function table(value: unknown): Table | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : undefined;
}
function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Reads a Cargo.toml. `files` holds the repository's paths (at least the `.rs` files), for the
 * targets Cargo discovers by layout. A manifest that does not parse gives the default layout and
 * `error`, so a broken Cargo.toml costs the custom paths, not the crate.
 */
export function parseCargoManifest(text: string, manifestPath: string, files: ReadonlySet<string>): CargoManifest {
  const dir = posix.dirname(manifestPath) === '.' ? '' : posix.dirname(manifestPath);
  let doc: Table = {};
  let error: string | undefined;
  try {
    doc = parseToml(text) as Table;
  } catch (e) {
    error = `${manifestPath}: ${(e as Error).message.split('\n')[0]}`;
  }
  const pkg = table(doc.package);
  const workspace = table(doc.workspace);
  // A broken manifest still names its package after its folder, as a guess the targets can use.
  const packageName = str(pkg?.name) ?? (error ? posix.basename(dir || '.') : null);
  const manifest: CargoManifest = {
    dir,
    packageName,
    targets: packageName === null ? [] : targetsOf(doc, pkg ?? {}, packageName, dir, files),
    workspaceMembers: strings(workspace?.members),
    workspaceExclude: strings(workspace?.exclude),
    dependencies: dependenciesOf(doc),
  };
  if (error) manifest.error = error;
  return manifest;
}

function join(dir: string, rel: string): string {
  const joined = posix.normalize(dir ? `${dir}/${rel}` : rel);
  return joined.startsWith('./') ? joined.slice(2) : joined;
}

function targetsOf(doc: Table, pkg: Table, packageName: string, dir: string, files: ReadonlySet<string>): CrateTarget[] {
  const targets: CrateTarget[] = [];
  const has = (rel: string) => files.has(join(dir, rel));
  const lib = table(doc.lib);
  const libPath = str(lib?.path) ?? (has('src/lib.rs') ? 'src/lib.rs' : lib ? 'src/lib.rs' : undefined);
  if (libPath) targets.push({ kind: 'lib', name: crateName(str(lib?.name) ?? packageName), root: join(dir, libPath) });

  const auto = (key: string) => pkg[key] !== false;
  const discovered = (folder: string): Array<{ name: string; path: string }> => {
    // `folder/x.rs` and `folder/x/main.rs`, directly under the folder.
    const prefix = join(dir, folder) + '/';
    const found: Array<{ name: string; path: string }> = [];
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length).split('/');
      if (rest.length === 1 && rest[0].endsWith('.rs')) found.push({ name: rest[0].slice(0, -3), path: `${folder}/${rest[0]}` });
      else if (rest.length === 2 && rest[1] === 'main.rs') found.push({ name: rest[0], path: `${folder}/${rest[0]}/main.rs` });
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  const section = (kind: Exclude<CrateKind, 'lib' | 'build'>, key: string, folder: string, autoKey: string, extra: Array<{ name: string; path: string }> = []) => {
    const declared = Array.isArray(doc[key]) ? (doc[key] as unknown[]).map(table).filter((t): t is Table => t !== undefined) : [];
    const byName = new Map<string, string>();
    for (const t of declared) {
      const name = str(t.name);
      if (!name) continue;
      const path = str(t.path) ?? (has(`${folder}/${name}.rs`) || !has(`${folder}/${name}/main.rs`) ? `${folder}/${name}.rs` : `${folder}/${name}/main.rs`);
      byName.set(name, path);
    }
    if (auto(autoKey)) {
      for (const found of [...extra, ...discovered(folder)]) {
        // A declared target that names a discovered file replaces it, as in Cargo.
        if (!byName.has(found.name) && ![...byName.values()].includes(found.path)) byName.set(found.name, found.path);
      }
    }
    for (const [name, path] of byName) targets.push({ kind, name: crateName(name), root: join(dir, path) });
  };
  section('bin', 'bin', 'src/bin', 'autobins', has('src/main.rs') ? [{ name: packageName, path: 'src/main.rs' }] : []);
  section('example', 'example', 'examples', 'autoexamples');
  section('test', 'test', 'tests', 'autotests');
  section('bench', 'bench', 'benches', 'autobenches');
  const build = pkg.build;
  const buildPath = typeof build === 'string' ? build : build === false ? undefined : has('build.rs') ? 'build.rs' : undefined;
  if (buildPath) targets.push({ kind: 'build', name: 'build_script_build', root: join(dir, buildPath) });
  return targets;
}

function dependenciesOf(doc: Table): Map<string, string> {
  const deps = new Map<string, string>();
  const read = (t: Table | undefined) => {
    for (const [key, spec] of Object.entries(t ?? {})) deps.set(crateName(key), str(table(spec)?.package) ?? key);
  };
  const all = (owner: Table | undefined) => {
    read(table(owner?.dependencies));
    read(table(owner?.['dev-dependencies']));
    read(table(owner?.['build-dependencies']));
  };
  all(doc);
  for (const platform of Object.values(table(doc.target) ?? {})) all(table(platform));
  return deps;
}

/**
 * Member folders of a workspace: `members` patterns (`*` matches within one path segment) matched
 * against the folders that hold a Cargo.toml, minus `exclude`.
 */
export function workspaceMemberDirs(workspace: CargoManifest, manifestDirs: readonly string[]): string[] {
  const toRegExp = (pattern: string) =>
    new RegExp(`^${join(workspace.dir, pattern).replace(/\/+$/, '').split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  const members = workspace.workspaceMembers.map(toRegExp);
  const excluded = workspace.workspaceExclude.map(toRegExp);
  return manifestDirs.filter((dir) => members.some((m) => m.test(dir)) && !excluded.some((x) => x.test(dir))).sort();
}

/**
 * The crate a file belongs to: the target whose root folder holds it most deeply, a target's own
 * root before anything else and the library before other targets; null outside every target.
 */
export function owningCrate(file: string, targets: readonly CrateTarget[]): CrateTarget | null {
  let best: CrateTarget | null = null;
  let bestDepth = -1;
  for (const target of targets) {
    if (target.root === file) return target;
    const dir = posix.dirname(target.root);
    if (dir !== '.' && !file.startsWith(`${dir}/`)) continue;
    const depth = dir === '.' ? 0 : dir.split('/').length;
    if (depth > bestDepth || (depth === bestDepth && target.kind === 'lib' && best?.kind !== 'lib')) {
      best = target;
      bestDepth = depth;
    }
  }
  return best;
}

/**
 * Module path of a file inside the crate whose root is `crateRoot`, by the default layout:
 * `src/a.rs`, `src/a/mod.rs` → ['a']; the root itself → []; null when the file is not under the
 * root's folder.
 */
export function modulePathOf(file: string, crateRoot: string): string[] | null {
  if (file === crateRoot) return [];
  const dir = posix.dirname(crateRoot);
  const rel = dir === '.' ? file : file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : null;
  if (rel === null || !rel.endsWith('.rs')) return null;
  const parts = rel.slice(0, -3).split('/');
  if (parts[parts.length - 1] === 'mod') parts.pop();
  return parts.length > 0 ? parts : null;
}

/** A crate root or `mod.rs` keeps its child modules beside it; `a.rs` keeps them in `a/`. */
export function isModRs(file: string, isCrateRoot: boolean): boolean {
  return isCrateRoot || posix.basename(file) === 'mod.rs';
}

/**
 * Files a `mod name;` declared in `file` may load, in rustc's order. `inline` is the inline module
 * path the declaration sits in (`mod a { mod b; }` → ['a']); `pathAttr` is its `#[path = "…"]`.
 */
export function childModuleFiles(file: string, name: string, opts: { isCrateRoot: boolean; inline?: readonly string[]; pathAttr?: string }): string[] {
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  const own = isModRs(file, opts.isCrateRoot) ? dir : join(dir, posix.basename(file, '.rs'));
  const inline = opts.inline ?? [];
  if (opts.pathAttr !== undefined) {
    // Outside inline modules `#[path]` is relative to the declaring file's folder; inside, to the
    // folder the inline modules stand for.
    return [join(inline.length === 0 ? dir : join(own, inline.join('/')), opts.pathAttr)];
  }
  const base = join(own, [...inline, name].join('/'));
  return [`${base}.rs`, `${base}/mod.rs`];
}

/** Where a path starts and what is left of it to walk from there. */
export type PathStart =
  /** A module of the same crate. */
  | { t: 'module'; module: string[]; rest: string[] }
  /** An extern crate (a dependency, a sysroot crate, or the package's library seen from its other targets). */
  | { t: 'crate'; crate: string; rest: string[] };

/**
 * Where a path leads, seen from module `from` of a crate: `crate` → the root, `self` → `from`,
 * each `super` → one module up (null above the root), a leading `::` (`global`) → the crate its
 * first segment names. A plain first segment may name something in scope in `from` (an item, an
 * import, a child module) or an extern crate: both are returned, in that order of precedence, for
 * the caller, who knows the scope.
 */
export function resolvePath(path: readonly string[], from: readonly string[], externCrates: ReadonlySet<string>, global = false): PathStart[] | null {
  if (path.length === 0) return null;
  const [head, ...tail] = path;
  if (global) return [{ t: 'crate', crate: head, rest: tail }];
  if (head === 'crate') return [{ t: 'module', module: [], rest: tail }];
  if (head === 'self') return [{ t: 'module', module: [...from], rest: tail }];
  if (head === 'super') {
    const module = [...from];
    let i = 0;
    for (; i < path.length && path[i] === 'super'; i++) {
      if (module.length === 0) return null;
      module.pop();
    }
    return [{ t: 'module', module, rest: path.slice(i) }];
  }
  const starts: PathStart[] = [{ t: 'module', module: [...from], rest: [...path] }];
  if (externCrates.has(head) || SYSROOT_CRATES.has(head)) starts.push({ t: 'crate', crate: head, rest: tail });
  return starts;
}

/** The crates of a repository, from every Cargo.toml and the files present (see crateLayout). */
export interface CrateLayout {
  /** Every crate target of every package manifest, by manifest path. */
  targets: readonly CrateTarget[];
  /** Library crates of the repository by the name code uses for them: an extern crate that is internal. */
  libraries: ReadonlyMap<string, CrateTarget>;
  /** Extern crate names of every manifest's dependency tables. */
  dependencies: ReadonlySet<string>;
  /** The crate a file belongs to (owningCrate over every target), null outside every crate. */
  crateOf(path: string): CrateTarget | null;
  /** The targets as a string: files change crates or modules only when it changes. */
  key: string;
}

/** How a crate is named in package keys and qualified names: a library by its name, other targets by kind too. */
export function crateId(target: CrateTarget): string {
  return target.kind === 'lib' ? target.name : `${target.name}(${target.kind})`;
}

interface ManifestText {
  path: string;
  text: string;
}

const layouts = new WeakMap<readonly ManifestText[], WeakMap<ReadonlySet<string>, CrateLayout>>();

/**
 * The crate layout for these manifests and paths, computed once per pair of objects (the graph
 * makes a new manifests array or path set only when one changes). A repository without a Cargo.toml
 * is read as one package at its root, so loose `src/lib.rs` trees still form a crate.
 */
export function crateLayout(manifests: readonly ManifestText[], paths: ReadonlySet<string>): CrateLayout {
  let byPaths = layouts.get(manifests);
  if (!byPaths) layouts.set(manifests, (byPaths = new WeakMap()));
  let layout = byPaths.get(paths);
  if (!layout) byPaths.set(paths, (layout = buildLayout(manifests, paths)));
  return layout;
}

function buildLayout(manifests: readonly ManifestText[], paths: ReadonlySet<string>): CrateLayout {
  const cargo = manifests.filter((m) => m.path === 'Cargo.toml' || m.path.endsWith('/Cargo.toml'));
  const parsed = cargo.length > 0 ? cargo.map((m) => parseCargoManifest(m.text, m.path, paths)) : [parseCargoManifest('[package]\nname = "crate"\n', 'Cargo.toml', paths)];
  const targets = parsed.flatMap((m) => m.targets);
  const libraries = new Map<string, CrateTarget>();
  for (const t of targets) if (t.kind === 'lib' && !libraries.has(t.name)) libraries.set(t.name, t);
  const owners = new Map<string, CrateTarget | null>();
  return {
    targets,
    libraries,
    dependencies: new Set(parsed.flatMap((m) => [...m.dependencies.keys()])),
    crateOf(path) {
      let owner = owners.get(path);
      if (owner === undefined) owners.set(path, (owner = owningCrate(path, targets)));
      return owner;
    },
    key: JSON.stringify(targets),
  };
}

/** A `mod name;` of a file: the inline modules it sits in (`mod a { mod b; }` → ['a']) and its `#[path]`. */
export interface ModDeclaration {
  name: string;
  inline: readonly string[];
  path?: string;
}

/** What the module tree is built from: the crates (manifests and files) and every Rust file's `mod` declarations. */
export interface ModTreeInput {
  manifests: readonly ManifestText[];
  paths: ReadonlySet<string>;
  /** Rust files' `mod x;` declarations by path (files with none absent): a new map whenever one changes. */
  modDeclarations: ReadonlyMap<string, readonly ModDeclaration[]>;
}

/** Where a file sits: its crate and its module path inside it (`[]` for the crate root). */
export interface ModulePlace {
  crate: CrateTarget;
  module: string[];
}

interface ModTree {
  /** Files some crate root reaches through `mod` declarations. */
  reached: Map<string, ModulePlace>;
  /** `<crate id>::<module>` of every reached file: a file no `mod` reaches may not take one of them. */
  taken: Set<string>;
}

const trees = new WeakMap<CrateLayout, WeakMap<ReadonlyMap<string, readonly ModDeclaration[]>, ModTree>>();

/**
 * The module tree of every crate, computed once per crate layout and declaration map: from each
 * crate root (in target order: the library first), each `mod x;` loads the first of its candidate
 * files that exists, as rustc does. A file reached twice (tests' shared `mod support;`) keeps its
 * first place: rustc compiles it once per crate, the graph has one node per file.
 */
function modTree(input: ModTreeInput): ModTree {
  const crates = crateLayout(input.manifests, input.paths);
  let byDecls = trees.get(crates);
  if (!byDecls) trees.set(crates, (byDecls = new WeakMap()));
  let tree = byDecls.get(input.modDeclarations);
  if (tree) return tree;
  tree = { reached: new Map(), taken: new Set() };
  for (const crate of crates.targets) {
    if (!input.paths.has(crate.root) || tree.reached.has(crate.root)) continue;
    const queue: Array<[string, string[]]> = [[crate.root, []]];
    tree.reached.set(crate.root, { crate, module: [] });
    while (queue.length > 0) {
      const [file, module] = queue.shift()!;
      tree.taken.add([crateId(crate), ...module].join('::'));
      for (const decl of input.modDeclarations.get(file) ?? []) {
        const candidates = childModuleFiles(file, decl.name, { isCrateRoot: file === crate.root, inline: decl.inline, pathAttr: decl.path });
        const child = candidates.find((candidate) => input.paths.has(candidate));
        if (child === undefined || tree.reached.has(child)) continue;
        const place = { crate, module: [...module, ...decl.inline, decl.name] };
        tree.reached.set(child, place);
        queue.push([child, place.module]);
      }
    }
  }
  byDecls.set(input.modDeclarations, tree);
  return tree;
}

/**
 * A file's crate and module path: its place in the `mod` tree, else the default layout under the
 * crate owning its folder, unless a file the tree reaches already is that module (`#[path =
 * "imp.rs"] mod a;` beside an unused `a.rs`); null outside every crate.
 */
export function rustModuleOf(path: string, input: ModTreeInput): ModulePlace | null {
  const tree = modTree(input);
  const reached = tree.reached.get(path);
  if (reached) return reached;
  const crate = crateLayout(input.manifests, input.paths).crateOf(path);
  const module = crate ? modulePathOf(path, crate.root) : null;
  if (!crate || !module || tree.taken.has([crateId(crate), ...module].join('::'))) return null;
  return { crate, module };
}

/** A file's module path with its crate first (`['tokio', 'runtime']` for tokio/src/runtime/mod.rs); null outside every crate. */
export function rustModulePath(path: string, input: ModTreeInput): string[] | null {
  const place = rustModuleOf(path, input);
  return place ? [crateId(place.crate), ...place.module] : null;
}

/** Rust files whose crate or module path differs between two inputs (`mod` declarations or files changed). */
export function movedModules(before: ModTreeInput, after: ModTreeInput): string[] {
  const rust = new Set([...before.paths, ...after.paths].filter((p) => p.endsWith('.rs')));
  const key = (place: ModulePlace | null) => (place ? [crateId(place.crate), ...place.module].join('::') : '');
  return [...rust].filter((path) => key(rustModuleOf(path, before)) !== key(rustModuleOf(path, after)));
}

/**
 * Whether an import binding is a `mod x;` declaration: parse/rust/items.ts records one as a binding of
 * `self::x` (with its `#[path]`); a `use self::x::{self}` reads the same, and is followed as well.
 */
export function declaresModule(binding: ImportBinding): boolean {
  return binding.imported === null && binding.module === `self::${binding.local}`;
}

/** A Rust file's `mod x;` declarations at module level or in inline modules (`mod` in a function body is not followed). */
export function modDeclarationsOf(file: FileGraph): ModDeclaration[] {
  if (file.language !== 'rust') return [];
  const out: ModDeclaration[] = [];
  for (const binding of file.imports) {
    if (!declaresModule(binding)) continue;
    if (binding.scope !== null && !file.inlineModules?.includes(binding.scope)) continue;
    const decl: ModDeclaration = { name: binding.local, inline: binding.scope ? binding.scope.split('.') : [] };
    if (binding.path !== undefined) decl.path = binding.path;
    out.push(decl);
  }
  return out;
}

/**
 * The declaration map after some files changed or went away: the same map when no file's
 * declarations changed (module paths memoise on its identity), else a new one.
 */
export function withModDeclarations(
  current: ReadonlyMap<string, readonly ModDeclaration[]>,
  upserted: readonly FileGraph[],
  removed: Iterable<string>,
): ReadonlyMap<string, readonly ModDeclaration[]> {
  let next: Map<string, readonly ModDeclaration[]> | undefined;
  const edit = () => (next ??= new Map(current));
  for (const path of removed) if (current.has(path)) edit().delete(path);
  for (const file of upserted) {
    const decls = modDeclarationsOf(file);
    const before = (next ?? current).get(file.path);
    if (JSON.stringify(before ?? []) === JSON.stringify(decls)) continue;
    if (decls.length > 0) edit().set(file.path, decls);
    else edit().delete(file.path);
  }
  return next ?? current;
}
