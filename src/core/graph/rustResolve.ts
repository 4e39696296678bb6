// Stage 2 for Rust: how rustc finds what a path names, on the package keys of packageScope.ts.
// A module is a package (`tokio::runtime`, its crate's name first) provided by the one file that is
// that module; its names are its items (`pkg:rust:<module>#<Name>`), its child modules (nested
// packages), and what it imports (`use`, `pub use` re-exports, globs), read from that file.
//
// - `use` paths and expression paths start at `crate` (the crate root), `self` (this module),
//   `super` (the parent), or a name in scope here: an item, a `use` binding, a `mod x;` child, a
//   glob-imported name, and last an extern crate. An extern crate that is a library of the
//   repository (a workspace member, or the package's own library seen from its binaries and tests)
//   is its package; std/core/alloc and dependencies are External (`ext:rs:std::sync::Arc`).
// - `self.m()` and `Self::m()` reach the impl's type, also when the impl sits in another file than
//   the type (SymbolDef.receiver). Methods of `impl T` blocks in other files are found by the
//   crate-wide receiver keys (`pkg:rust:<crate>#T.m`, see Resolver.receiverMember).
// - Macros have a namespace of their own: a reference `name!` (parse/rust/references.ts) finds a `macro_rules!`
//   of the file, a `use`d macro, or any macro of the crate by name (`pkg:rust:<crate>#name!`), since
//   `#[macro_use]` and `#[macro_export]` make them visible crate-wide.
import type { FileGraph, ImportBinding, SymbolDef } from '../parse/fileGraph';
import { STAR, indexOf, scopeName } from './fileIndex';
import { manifestKey } from './moduleKeys';
import { inlineModuleOf, isMacro, packageKey } from './packageScope';
import type { ProjectLayout } from './packageScope';
import type { Target } from './target';
import { SYSROOT_CRATES, childModuleFiles, crateId, crateLayout, declaresModule, rustModuleOf, rustModulePath } from './rustModules';

/** The std prelude (Rust 2021) and std's macros: every module sees them without a `use`. */
const PRELUDE: Record<string, string> = Object.fromEntries([
  ...'Option:option Result:result Vec:vec String:string ToString:string Box:boxed ToOwned:borrow Clone:clone Default:default Drop:ops Fn:ops FnMut:ops FnOnce:ops Copy:marker Send:marker Sized:marker Sync:marker Unpin:marker Iterator:iter IntoIterator:iter Extend:iter DoubleEndedIterator:iter ExactSizeIterator:iter FromIterator:iter From:convert Into:convert TryFrom:convert TryInto:convert AsRef:convert AsMut:convert PartialEq:cmp Eq:cmp PartialOrd:cmp Ord:cmp'
    .split(' ')
    .map((entry) => entry.split(':'))
    .map(([name, module]) => [name, `std::${module}::${name}`]),
  ...'assert assert_eq assert_ne cfg column compile_error concat dbg debug_assert debug_assert_eq debug_assert_ne env eprint eprintln file format format_args include include_bytes include_str line matches module_path panic print println stringify todo unimplemented unreachable vec write writeln'
    .split(' ')
    .map((name) => [`${name}!`, `std::${name}!`]),
]);

function prelude(name: string): Target | null {
  const std = Object.hasOwn(PRELUDE, name) ? PRELUDE[name] : undefined;
  return std === undefined ? null : { t: 'external', family: 'rs', name: std };
}

/** What a path may go on through: a type's associated items (modules and crates are packages). */
const TYPE_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias']);

/** What RustPaths uses of the Resolver that owns it (lookups that record what they consumed). */
export interface ResolverAccess {
  provider(key: string): string | undefined;
  consume(key: string): void;
  read(path: string, suffix: string): void;
  memoized(key: string, compute: () => Target | null): Target | null;
  member(target: Target, name: string): Target | null;
  bindingTarget(file: FileGraph, binding: ImportBinding): Target | null;
  receiverType(file: FileGraph, chain: string[]): { path: string; sym: SymbolDef } | null;
}

const CARGO = manifestKey('Cargo.toml');

export class RustPaths {
  constructor(
    private readonly world: ProjectLayout & { file(path: string): FileGraph | undefined },
    private readonly r: ResolverAccess,
  ) {}

  /**
   * The module an import binding names: its `use` path seen from the (inline) module it sits in, or
   * the file a `mod x;` loads (`#[path]` included).
   */
  bindingModule(file: FileGraph, binding: ImportBinding): Target | { t: 'missing' } {
    const declared = this.declaredModule(file, binding);
    if (declared) return { t: 'package', language: 'rust', name: declared.module };
    if (binding.path !== undefined) return { t: 'missing' };
    return this.module(file, binding.module.split('::'), binding.scope);
  }

  /**
   * The file a `mod x;` loads and the module it is. In an inline module or with `#[path]` that file
   * may be a module its folder does not name (tests' shared `mod support { mod panic; }`). Two
   * `#[path]` files may be one module under exclusive cfgs (tokio's two `mod imp;` in atomic_u64.rs):
   * each declaration keeps its file, the module's provider answers for its names.
   */
  private declaredModule(file: FileGraph, binding: ImportBinding): { path: string; module: string } | null {
    if (!declaresModule(binding)) return null;
    const crate = rustModuleOf(file.path, this.world)?.crate;
    const inline = this.inlineScope(file, binding.scope);
    for (const loaded of childModuleFiles(file.path, binding.local, { isCrateRoot: crate?.root === file.path, inline, pathAttr: binding.path })) {
      if (!this.world.paths.has(loaded)) continue;
      const module = rustModulePath(loaded, this.world)?.join('::');
      if (module !== undefined && this.r.provider(packageKey('rust', module)) !== undefined) return { path: loaded, module };
    }
    return null;
  }

  /** The module a `use` path names from `scope` (an inline module or a function): a package, an External, or missing. */
  module(file: FileGraph, parts: string[], scope: string | null = null): Target | { t: 'missing' } {
    const start = this.pathStart(file, scope, parts, true);
    if (!start) return { t: 'missing' };
    let current = start.target;
    for (const name of start.rest) {
      const next = this.r.member(current, name);
      if (!next) return { t: 'missing' };
      current = next;
    }
    return current;
  }

  /** Where a reference chain starts: `self` (the impl's type), `crate` / `super`, or a name in scope. */
  chainStart(file: FileGraph, fromId: string | null, chain: string[]): { target: Target; rest: string[] } | null {
    if (chain[0] === 'self') {
      const type = this.selfType(file, fromId);
      return type ? { target: type, rest: chain.slice(1) } : null;
    }
    return this.pathStart(file, fromId, chain, false);
  }

  /**
   * A bare name seen from `fromId`: items and `use` of the enclosing function bodies, then the
   * module's items, imports and glob imports, then extern crates.
   */
  lookup(file: FileGraph, fromId: string | null, name: string): Target | null {
    // Memoised (also for cycles: `use a::b` whose head `a` is bound by a `use` that needs `b`).
    if (fromId === null) return this.moduleLookup(file, name);
    return this.r.memoized(`rsf\u0000${file.path}\u0000${fromId}\u0000${name}`, () => this.scopedLookup(file, fromId, name));
  }

  private scopedLookup(file: FileGraph, fromId: string, name: string): Target | null {
    const index = indexOf(file);
    for (let scope = index.byLocalId.get(fromId); scope; scope = scope.parent === null ? undefined : index.byLocalId.get(scope.parent)) {
      if (scope.kind !== 'Function' && scope.kind !== 'Method') continue; // an impl body puts no names in scope
      this.r.read(file.path, scopeName(scope.localId, name));
      const local = index.children.get(scope.localId)?.get(name);
      if (local) return { t: 'symbol', path: file.path, sym: local };
      const binding = index.importsByScope.get(scope.localId)?.get(name);
      if (binding) return this.r.bindingTarget(file, binding);
    }
    // An inline module's own items and imports, then (as its `use super::*` mostly says) the file's.
    const inline = this.inlineScope(file, fromId).join('.');
    if (inline) {
      this.r.read(file.path, scopeName(inline, name));
      const own = index.byLocalId.get(`${inline}.${name}`);
      if (own && own.parent === null && !own.receiver) return { t: 'symbol', path: file.path, sym: own };
      const binding = index.importsByScope.get(inline)?.get(name);
      if (binding) return this.r.bindingTarget(file, binding);
      const globbed = this.fromGlobs(file, name, inline);
      if (globbed) return globbed;
    }
    return this.moduleLookup(file, name);
  }

  private moduleLookup(file: FileGraph, name: string): Target | null {
    return this.r.memoized(`rs\u0000${file.path}\u0000${name}`, () => this.moduleScope(file, name) ?? this.externCrate(name, false) ?? prelude(name) ?? this.fromGlobs(file, name, '', true));
  }

  /** A name of a module besides its own items: what its file imports there (`pub use`, `use`, globs). */
  imported(pkg: string, name: string): Target | null {
    const path = this.r.provider(packageKey('rust', pkg));
    const file = path === undefined ? undefined : this.world.file(path);
    if (path === undefined || !file) return null;
    const inline = this.inlinePath(file, pkg);
    if (inline === null) return null;
    const macro = name.endsWith('!');
    const bare = macro ? name.slice(0, -1) : name;
    this.r.read(path, scopeName(inline, bare));
    const binding = indexOf(file).importsByScope.get(inline)?.get(bare);
    if (binding) return this.r.bindingTarget(file, binding);
    const globbed = this.fromGlobs(file, name, inline) ?? this.fromGlobs(file, name, inline, true);
    // `use tokio::select;` names the macro `select!` exported at the crate root.
    return globbed ?? (!macro && !pkg.includes('::') ? this.r.member({ t: 'package', language: 'rust', name: pkg }, `${name}!`) : null);
  }

  /**
   * What the module path `a::b::x` names in the value namespace of `a::b`: modules and values are
   * looked up apart, so `mod block_on; pub(crate) use block_on::block_on;` makes `future::block_on`
   * both the module and the function it re-exports, and a call `future::block_on(f)` is the function.
   */
  valueNamedAs(module: string): Target | null {
    const cut = module.lastIndexOf('::');
    const pkg = module.slice(0, Math.max(0, cut));
    const name = module.slice(cut + 2);
    const path = cut < 0 ? undefined : this.r.provider(packageKey('rust', pkg));
    const file = path === undefined ? undefined : this.world.file(path);
    const inline = file ? this.inlinePath(file, pkg) : null;
    if (!file || inline === null) return null;
    this.r.read(file.path, scopeName(inline, name));
    for (const binding of file.imports) {
      if (binding.local !== name || (binding.scope ?? '') !== inline || declaresModule(binding)) continue;
      const found = this.r.bindingTarget(file, binding);
      if (found?.t === 'symbol' && !isMacro(found.sym)) return found;
    }
    return null;
  }

  /** The item `name` of module `pkg` defined in `file` (top level or in the inline module `pkg` names). */
  definition(file: FileGraph, pkg: string, name: string): SymbolDef | undefined {
    if (name.endsWith('!')) return file.symbols.find((s) => isMacro(s) && s.name === name.slice(0, -1));
    const inline = this.inlinePath(file, pkg);
    if (inline === null) return undefined;
    const sym = indexOf(file).byLocalId.get(inline ? `${inline}.${name}` : name);
    return sym && sym.parent === null && !sym.receiver ? sym : undefined;
  }

  /** The file a module package is (an IMPORTS edge's target): for `mod x;`, the file it loads. */
  moduleFile(target: Target, file: FileGraph, binding: ImportBinding): Target | null {
    if (target.t !== 'package') return target;
    const declared = this.declaredModule(file, binding);
    if (declared?.module === target.name) return { t: 'module', path: declared.path };
    const path = this.r.provider(packageKey('rust', target.name));
    return path === undefined ? null : { t: 'module', path };
  }

  // ---------------------------------------------------------------------------------------------

  private modulePath(file: FileGraph): string[] | null {
    return rustModulePath(file.path, this.world);
  }

  private pathStart(file: FileGraph, fromId: string | null, parts: string[], inUse: boolean): { target: Target; rest: string[] } | null {
    const [head, ...rest] = parts;
    const fileModule = this.modulePath(file);
    const own = fileModule && [...fileModule, ...this.inlineScope(file, fromId)];
    const module = (path: string[]): Target => ({ t: 'package', language: 'rust', name: path.join('::') });
    if (head === 'crate' || head === 'self' || head === 'super') {
      if (!own) return null;
      if (head === 'crate') return { target: module(own.slice(0, 1)), rest };
      if (head === 'self') return { target: module(own), rest };
      let up = 0;
      while (parts[up] === 'super') up++;
      return own.length - up < 1 ? null : { target: module(own.slice(0, own.length - up)), rest: parts.slice(up) };
    }
    if (head === undefined) return null;
    if (head === '') return rest.length > 0 ? { target: this.externCrate(rest[0], true)!, rest: rest.slice(1) } : null; // `::name`
    let found = own ? this.lookup(file, fromId, head) : this.externCrate(head, inUse);
    // A path goes on through modules, types and crates, never through a function or a value.
    if (found && (rest.length > 0 || inUse) && found.t === 'symbol' && !TYPE_KINDS.has(found.sym.kind)) found = this.externCrate(head, inUse);
    if (found) return { target: found, rest };
    // A `use` path that names nothing in scope names a crate (Rust 2018): an unknown one is external.
    return inUse && !head.endsWith('!') ? { target: { t: 'external', family: 'rs', name: head }, rest } : null;
  }

  /** A module-level name of the file: its items, its `use` bindings, its glob imports. */
  private moduleScope(file: FileGraph, name: string): Target | null {
    const index = indexOf(file);
    const macro = name.endsWith('!');
    const bare = macro ? name.slice(0, -1) : name;
    this.r.read(file.path, scopeName('', bare));
    const own = macro ? file.symbols.find((s) => isMacro(s) && s.name === bare) : index.byLocalId.get(name);
    if (own && own.parent === null && !own.receiver && (macro || !isMacro(own))) return { t: 'symbol', path: file.path, sym: own };
    const binding = index.importsByScope.get('')?.get(bare);
    if (binding) {
      const bound = this.r.bindingTarget(file, binding);
      if (bound) return bound;
    }
    const globbed = this.fromGlobs(file, name);
    if (globbed || !macro) return globbed;
    const crate = this.modulePath(file)?.[0];
    return crate === undefined ? null : this.r.member({ t: 'package', language: 'rust', name: crate }, name);
  }

  /** A name a glob import of a repository module brings (`external`: the first glob of an external one, `pub use std::*`). */
  private fromGlobs(file: FileGraph, name: string, inline = '', external = false): Target | null {
    this.r.read(file.path, STAR);
    const globs = inline ? file.imports.filter((b) => b.imported === '*' && b.scope === inline) : indexOf(file).starImports;
    for (const star of globs) {
      const module = this.module(file, star.module.split('::'), star.scope);
      if (external && module.t === 'external' && !name.endsWith('!')) return this.r.member(module, name);
      if (external || (module.t !== 'package' && module.t !== 'symbol')) continue;
      const found = this.r.member(module, name);
      if (found) return found;
    }
    return null;
  }

  /**
   * `name` as an extern crate: a library of the repository is its root module, std/core/alloc and
   * the manifests' dependencies are External; other names only in `use` paths (`orElse`).
   */
  private externCrate(name: string, orElse: boolean): Target | null {
    if (name.endsWith('!')) return null;
    this.r.consume(CARGO);
    const layout = crateLayout(this.world.manifests, this.world.paths);
    const library = layout.libraries.get(name);
    if (library) return { t: 'package', language: 'rust', name: crateId(library) };
    return orElse || SYSROOT_CRATES.has(name) || layout.dependencies.has(name) ? { t: 'external', family: 'rs', name } : null;
  }

  /** The type `self` / `Self` stands for in a method: its parent type, or its impl's type in another file. */
  private selfType(file: FileGraph, fromId: string | null): Target | null {
    const index = indexOf(file);
    for (let sym = fromId === null ? undefined : index.byLocalId.get(fromId); sym; sym = sym.parent === null ? undefined : index.byLocalId.get(sym.parent)) {
      if (sym.receiver) {
        const type = this.r.receiverType(file, sym.receiver);
        return type ? { t: 'symbol', ...type } : null;
      }
      if (sym.kind === 'Class' || sym.kind === 'Interface' || sym.kind === 'Enum' || sym.kind === 'TypeAlias') return { t: 'symbol', path: file.path, sym };
    }
    return null;
  }

  /** The inline module path a binding scope or definition sits in (`mod tests { … }` → ['tests']). */
  private inlineScope(file: FileGraph, scope: string | null): string[] {
    if (!scope || !file.inlineModules?.length) return [];
    if (file.inlineModules.includes(scope)) return scope.split('.');
    const index = indexOf(file);
    let sym = index.byLocalId.get(scope);
    while (sym && sym.parent !== null) sym = index.byLocalId.get(sym.parent);
    if (!sym) return [];
    // A method of an impl for a type of another file: `inner.Type.m`.
    const localId = sym.receiver ? sym.localId.replace(/@\d+$/, '').slice(0, -(sym.name.length + 1)) : sym.localId;
    const inline = inlineModuleOf(sym.receiver ? { ...sym, localId, name: sym.receiver[sym.receiver.length - 1] } : sym);
    return inline ? inline.split('.') : [];
  }

  /** `pkg` as an inline module path of `file` ('' for the file's own module), null when `pkg` is not in it. */
  private inlinePath(file: FileGraph, pkg: string): string | null {
    const own = this.modulePath(file)?.join('::');
    if (own === undefined) return null;
    if (pkg === own) return '';
    return pkg.startsWith(`${own}::`) ? pkg.slice(own.length + 2).split('::').join('.') : null;
  }
}
