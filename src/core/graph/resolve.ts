// RANGER stage 2 (stitching): placeholder imports and symbolic references of one file become
// edges to real nodes of the repository (or External nodes). Every fact read from another file or
// from the module index is recorded as a consumed key, which is what lets incremental updates
// re-resolve exactly the files an edit can affect.
import { flat } from '../flatString';
import { ELEMENT_STEP, ITEM_STEP, VALUE_STEP, type FileGraph, type ImportBinding, type Reference, type SymbolDef } from '../parse/fileGraph';
import { ambientGlobalKey } from './ambientGlobals';
import { JS_GLOBALS, PYTHON_BUILTINS } from '../model/builtins';
import { COMMONJS, STAR, basesOf as basesKey, indexOf, interfaceKey, scopeName } from './fileIndex';
import { goImportPath, goModulesOf, resolveGoImport } from './goModules';
import {
  ASSET_EXTENSION, COMPILED_KEY, TSCONFIG_KEY, dirOf, joinRelative, jsPathKey, isPythonPackageInit, manifestKey, stripPython,
} from './moduleKeys';
import {
  packageClauseKey, packageKey, packageMemberKey, packageScheme, subjectKey, type PackageScheme, type ProjectLayout,
} from './packageScope';
import { RustPaths } from './rustResolve';
import type { Target } from './target';
import {
  edgeId, externalId, folderId, moduleId, symbolId,
  type EdgeKind, type GraphEdge, type GraphNode, type Language,
} from '../model/schema';
import type { TsConfigSet } from './tsconfig';
import type { ManifestFile } from '../workspace/projectConfig';

export interface World {
  file(path: string): FileGraph | undefined;
  /** Best provider of a module key, or undefined. */
  provider(key: string): string | undefined;
  /** Dotted (Python) or path-based (TS/JS) module name of a file. */
  moduleName(path: string): string;
  tsconfigs: TsConfigSet;
  /** The repository's go.mod and Cargo.toml files; a lookup that reads them consumes `manifestKey(name)`. */
  manifests: readonly ManifestFile[];
  /** Compiled Python extension modules by path without extension (ProjectConfig); a lookup of one consumes COMPILED_KEY. */
  compiledModules: ReadonlySet<string>;
  /** Every file path of the repository (package schemes read it with the manifests: ProjectLayout). */
  paths: ReadonlySet<string>;
  /** Rust files' `mod` declarations, which place files in the module tree (ProjectLayout). */
  modDeclarations: ProjectLayout['modDeclarations'];
}

export type { Target } from './target';

type ModuleResult = Target | { t: 'asset' } | { t: 'missing' } | null;

/** A chain step for a call's result (`make().run` → ['make', '()', 'run']), as the extractors write it. */
const CALL_RESULT = '()';
/**
 * A chain step for an untyped parameter of a function passed to a call (TypeScript extractor,
 * `callbackParam`): argument j's parameter i (`=`: the function type alias a variable is declared with), and what fixes the callee's type parameters there
 * (`t=` explicit type arguments, `r=` the declared type's arguments matched to the return type's).
 */
/** `(j.i)`: parameter i of the function passed as argument j; `(j.key.i)`: of the one under `key` in the object literal passed as j; `(=.i)`: of a function-type alias. */
const CALLBACK_PARAM = /^\((\d+(?:\.[^.;()]+)?|=)\.(\d+)(?:;([tr])=(.*))?\)$/;
/**
 * `(|A,ns.B)`: a value of a union of named types, each alternative a dotted name (TypeScript extractor,
 * unionStep): a member is each alternative's that has it. `(>A,B)`: the names spread into an object
 * literal, last first (throughFacade): a member is the first alternative's that has it.
 */
const UNION_STEP = /^\(([|>])(.+)\)$/;

export interface ImportStats {
  /** Imports whose module is part of the repository. */
  internal: number;
  /** Of those, imports whose name resolved to a node. */
  resolved: number;
  unresolvedSamples: string[];
}

export interface FileResolution {
  nodes: GraphNode[];
  edges: GraphEdge[];
  consumed: Set<string>;
  imports: ImportStats;
  unresolvedRefs: number;
  /** With `withUseLines`: every line each target is referenced on (edges keep one line per source and target). */
  useLines?: Map<string, number[]>;
}

interface Memo {
  target: Target | null;
  consumed: string[];
}

/** Resolves files against a fixed world; create one per batch of changes (its memo assumes nothing moves). */
export class Resolver {
  private readonly memo = new Map<string, Memo>();
  private readonly inProgress = new Set<string>();
  private consumed = new Set<string>();
  private cycleHit = false;

  /** Rust's module paths and bare-name scopes (rustResolve.ts). */
  private readonly rust: RustPaths;

  constructor(private readonly world: World) {
    this.rust = new RustPaths(world, {
      provider: (key) => this.provider(key),
      consume: (key) => this.consumed.add(key),
      read: (path, suffix) => this.read(path, suffix),
      memoized: (key, compute) => this.memoized(key, compute),
      member: (target, name) => this.member(target, name),
      bindingTarget: (file, binding) => this.bindingTarget(file, binding, this.importModule(file, binding)),
      receiverType: (file, chain) => this.receiverType(file, chain),
    });
  }

  resolveFile(path: string, withUseLines = false): FileResolution {
    const file = this.world.file(path);
    if (!file) throw new Error(`resolveFile: unknown file ${path}`);
    this.consumed = new Set();
    const nodes = this.buildNodes(file);
    const edges = new Map<string, GraphEdge>();
    const addEdge = (kind: EdgeKind, source: string, target: string, line: number) => {
      const id = edgeId(kind, source, target);
      const existing = edges.get(id);
      if (!existing) edges.set(id, { id, kind, source, target, line, owner: path });
      else if (line < existing.line) existing.line = line;
    };
    const modId = moduleId(path);
    for (const sym of file.symbols) {
      let parentId = sym.parent === null ? modId : symbolId(path, sym.parent);
      let parentKind = sym.parent === null ? 'Module' : indexOf(file).byLocalId.get(sym.parent)?.kind;
      const receiver = sym.receiver ? this.receiverType(file, sym.receiver) : null;
      if (receiver) {
        parentId = symbolId(receiver.path, receiver.sym.localId);
        parentKind = receiver.sym.kind;
      }
      // A TypeAlias holds the members of its object type (`type T = { a: X }`), as an interface does, and
      // Go's methods on named non-struct types (`type byName []*Command`).
      const isMember = parentKind === 'Class' || parentKind === 'Interface' || parentKind === 'Enum' || parentKind === 'TypeAlias';
      const kind: EdgeKind = isMember && sym.kind === 'Method' ? 'HAS_METHOD' : isMember && sym.kind === 'Field' ? 'HAS_FIELD' : 'CONTAINS';
      addEdge(kind, parentId, symbolId(path, sym.localId), -1);
    }

    const imports: ImportStats = { internal: 0, resolved: 0, unresolvedSamples: [] };
    const countImport = (module: ModuleResult, target: Target | null, what: string) => {
      if (!module || module.t === 'asset' || module.t === 'external') return;
      imports.internal++;
      if (target) imports.resolved++;
      else if (imports.unresolvedSamples.length < 5) imports.unresolvedSamples.push(what);
    };
    for (const binding of file.imports) {
      const module = this.importModule(file, binding);
      const target = this.bindingTarget(file, binding, module, true);
      countImport(module, target, `${binding.module}${binding.imported ? `:${binding.imported}` : ''}`);
      // A package has no node: `import a.b.*` counts as resolved and draws no edge, unless the package
      // is a folder (Go) or a file (a Rust module).
      const folder = target?.t === 'package' ? this.packageFolder(target) : undefined;
      const edgeTarget = target?.t === 'package' && target.language === 'rust' ? this.rust.moduleFile(target, file, binding) : target;
      if (folder !== undefined) addEdge('IMPORTS', modId, folderId(folder), binding.line);
      // `mod tests { use super::*; }` imports its own file's module: no edge to itself.
      else if (edgeTarget && edgeTarget.t !== 'package' && this.targetId(edgeTarget) !== modId) addEdge('IMPORTS', modId, this.targetId(edgeTarget), binding.line);
    }
    for (const reexport of file.exports) {
      // Rust's `pub use` is an import binding too, counted and drawn above.
      if (!reexport.from || file.language === 'rust') continue;
      const module = this.resolveModule(file, reexport.from);
      const target = module && (module.t === 'module' || module.t === 'external') ? module : null;
      countImport(module, target, reexport.from);
      if (target) addEdge('IMPORTS', modId, this.targetId(target), -1);
    }

    let unresolvedRefs = 0;
    const useLines = withUseLines ? new Map<string, number[]>() : undefined;
    for (const ref of file.refs) {
      const scope = this.referenceScope(file, ref);
      // A value of a union type (`observer: NextObserver<T> | ErrorObserver<T>`): `observer.next()` is each one's, as
      // the TypeScript service answers; unresolved only when no alternative resolves.
      const union = UNION_STEP.exec(ref.chain[0]);
      const names = union ? union[2].split(',') : [];
      const alternatives = (union?.[1] === '|' ? this.withoutBases(file, scope, names) : names)
        .map((alternative) => this.resolveChain(file, scope, [...alternative.split('.'), ...ref.chain.slice(1)])).filter((r) => r !== null);
      const first = union?.[1] === '>' ? alternatives.find((r) => !r.partial) ?? alternatives[0] : undefined;
      const found = (!union ? [this.resolveChain(file, scope, ref.chain)] : first ? [first] : alternatives)
        .flatMap((r) => r?.alternatives?.map((target) => ({ target, partial: false })) ?? [r]);
      const subject = ref.subject ? this.subjectType(file, ref.subject, ref.chain) : null;
      let drawn = false;
      for (const resolved of found) {
        // A Rust struct literal's key is a field: a method of that name (the field is then `T.x@2`) is not what it names.
        const notField = ref.exact && file.language === 'rust' && !(resolved?.target.t === 'symbol' && resolved.target.sym.kind === 'Field');
        if (!resolved || resolved.target.t === 'package' || (ref.subject && !subject) || (ref.exact && (resolved.partial || resolved.target.t === 'external')) || notField) continue;
        drawn = true;
        const source = subject ? symbolId(subject.path, subject.sym.localId) : ref.from === null ? modId : symbolId(path, ref.from);
        const kind = resolved.partial ? 'USES' : ref.kind;
        const targetId = this.targetId(resolved.target);
        if (targetId !== source || kind === 'CALLS') addEdge(kind, source, targetId, ref.line);
        for (const signature of kind === 'CALLS' ? this.callSignatures(resolved.target) : []) addEdge('CALLS', source, this.targetId(signature), ref.line);
        if (useLines) (useLines.get(targetId) ?? useLines.set(targetId, []).get(targetId)!).push(ref.line);
      }
      if (!drawn) unresolvedRefs++;
    }
    const consumed = this.consumed;
    const own = interfaceKey(path, '');
    for (const key of consumed) if (key.startsWith(own)) consumed.delete(key);
    return { nodes, edges: [...edges.values()], consumed, imports, unresolvedRefs, useLines };
  }

  /**
   * Calling a TypeScript variable or field of a callable type calls that type's call signature too
   * (`eq(a, b)` with `const eq = Equivalence.array(…)`, `Equivalence<A> { (self: A, that: A): boolean }`),
   * as the TypeScript service places such a call: at the variable and at the signature.
   */
  private callSignatures(target: Target): Target[] {
    if (target.t !== 'symbol' || !this.isTypeScript(target.path)) return [];
    // Also through a const merged into the called name (`interface ZodObject` and `const ZodObject:
    // $constructor<ZodObject>`: `new ZodObject(…)` is $constructor's construct signature).
    const merged = indexOf(this.world.file(target.path)!).namesakes.get(target.sym.localId) ?? [target.sym];
    const signatures: Target[] = [];
    for (const sym of merged) {
      if (sym.kind !== 'GlobalVariable' && sym.kind !== 'Field') continue;
      const type = this.typeOf(target.path, sym);
      if (type?.t === 'symbol' && (type.sym.kind === 'Interface' || type.sym.kind === 'TypeAlias')) signatures.push(type);
    }
    return signatures;
  }

  targetId(target: Target): string {
    switch (target.t) {
      case 'module':
        return moduleId(target.path);
      case 'symbol':
        return symbolId(target.path, target.sym.localId);
      case 'external':
        return externalId(target.family, target.name);
      case 'package':
        throw new Error(`a package has no node: ${target.name}`);
    }
  }

  /** Where a reference's names are looked up: a Java supertype is named from outside its class (as basesOf reads it). */
  private referenceScope(file: FileGraph, ref: Reference): string | null {
    if (ref.kind !== 'INHERITS' || ref.from === null || !packageScheme(file.language)) return ref.from;
    return indexOf(file).byLocalId.get(ref.from)?.parent ?? null;
  }

  /**
   * The subtype of an INHERITS written away from it, when this file draws the edge: an edge has one
   * owner, so not when the type's own file writes the same supertype, nor when another such file
   * provides the subject key first (see subjectKey).
   */
  private subjectType(file: FileGraph, subject: string[], chain: string[]): { path: string; sym: SymbolDef } | null {
    const scope = this.packageOf(file, 'receiver');
    if (scope === undefined || this.provider(subjectKey(file.language, scope, subject, chain)) !== file.path) return null;
    const type = this.receiverType(file, subject);
    const typeFile = type && this.world.file(type.path);
    if (!type || !typeFile) return null;
    this.read(type.path, basesKey(type.sym.localId));
    const last = chain[chain.length - 1];
    return (indexOf(typeFile).bases.get(type.sym.localId) ?? []).some((ref) => ref.chain[ref.chain.length - 1] === last) ? null : type;
  }

  /** The type a method's `receiver` (or an INHERITS `subject`) names, when it is a repository type. */
  private receiverType(file: FileGraph, chain: string[]): { path: string; sym: SymbolDef } | null {
    const found = this.resolveChain(file, null, chain);
    const t = found && !found.partial ? found.target : null;
    return t?.t === 'symbol' && (t.sym.kind === 'Class' || t.sym.kind === 'Interface' || t.sym.kind === 'Enum' || t.sym.kind === 'TypeAlias') ? t : null;
  }

  /**
   * The package of a file of a package-scoped language. What names it (go.mod module paths, Cargo
   * crates) is the scheme's layoutKey: when that changes, every file of the language is re-resolved.
   */
  private packageOf(file: FileGraph, scope: 'package' | 'receiver' = 'package'): string | undefined {
    const scheme = packageScheme(file.language);
    if (!scheme) return undefined;
    return scope === 'package' ? scheme.packageOf(file, this.world) : scheme.receiverScope(file, this.world);
  }

  /** The folder of a package whose packages are folders (Go), found through the file that provides it. */
  private packageFolder(target: Target & { t: 'package' }): string | undefined {
    if (!packageScheme(target.language)?.folderPackages) return undefined;
    const path = this.provider(packageKey(target.language, target.name));
    return path === undefined ? undefined : dirOf(path);
  }

  private buildNodes(file: FileGraph): GraphNode[] {
    const moduleName = this.world.moduleName(file.path);
    // Java, Go and Rust name a definition by its package (`com.google.gson.Gson`, `github.com/spf13/cobra.Command`,
    // `tokio::runtime::Runtime`).
    const prefix = this.packageOf(file) ?? moduleName;
    // Rust names items and associated items alike by `::` (`tokio::runtime::Runtime::new`).
    const separator = packageScheme(file.language)?.separator === '::' ? '::' : '.';
    const base = file.path.split('/').pop() ?? file.path;
    const nodes: GraphNode[] = [
      {
        id: moduleId(file.path),
        kind: 'Module',
        name: base,
        qname: moduleName,
        path: file.path,
        language: file.language,
        range: { startLine: 0, startCol: 0, endLine: Math.max(0, file.lines - 1), endCol: 0 },
        signature: '',
        doc: file.doc,
        hash: file.hash,
        exported: true,
      },
    ];
    for (const sym of file.symbols) {
      nodes.push({
        id: symbolId(file.path, sym.localId),
        kind: sym.kind,
        name: sym.name,
        qname: flat([prefix, sym.localId.replace(/@\d+/g, '')].filter(Boolean).join('.').replaceAll('.', separator)),
        path: file.path,
        language: file.language,
        range: sym.range,
        signature: sym.signature,
        doc: sym.doc,
        hash: sym.hash,
        exported: sym.exported,
      });
    }
    return nodes;
  }

  // ---- modules -------------------------------------------------------------------------------

  /** Notes that resolution read `suffix` of `path`'s interface (see fileIndex.ts). */
  private read(path: string, suffix: string): void {
    this.consumed.add(interfaceKey(path, suffix));
  }

  private provider(key: string): string | undefined {
    this.consumed.add(key);
    return this.world.provider(key);
  }

  /** The module an import binding names (a Rust binding also says from which inline module, or which file it loads). */
  private importModule(file: FileGraph, binding: ImportBinding): ModuleResult {
    return file.language === 'rust' ? this.rust.bindingModule(file, binding) : this.resolveModule(file, binding.module);
  }

  /** Finds the module a specifier names, as seen from `file`. */
  resolveModule(file: FileGraph, specifier: string): ModuleResult {
    if (file.language === 'go') return this.resolveGoModule(file, specifier);
    if (file.language === 'rust') return this.rust.module(file, specifier.split('::'));
    const scheme = packageScheme(file.language);
    if (scheme) return this.resolvePackageModule(file.language, scheme, specifier);
    return file.language === 'python' ? this.resolvePythonModule(file, specifier) : this.resolveJsModule(file, specifier);
  }

  /**
   * `a.b.C.D` as an import module: the longest prefix that is a repository package, then its members
   * (nested types); external when no prefix is a package of the repository.
   */
  private resolvePackageModule(language: Language, scheme: PackageScheme, specifier: string): ModuleResult {
    const parts = specifier.split(scheme.separator);
    for (let i = parts.length; i > 0; i--) {
      const pkg = parts.slice(0, i).join(scheme.separator);
      if (!this.provider(packageKey(language, pkg))) continue;
      let current: Target | null = { t: 'package', language, name: pkg };
      for (const name of parts.slice(i)) current = current && this.member(current, name);
      return current ?? { t: 'missing' };
    }
    return { t: 'external', family: scheme.family, name: specifier };
  }

  /**
   * A Go import path: the folder the go command would load it from (go.mod modules, local `replace`,
   * `vendor/`, the standard library when the repository is GOROOT/src), as a package; External when
   * outside the repository; missing when that folder holds no Go file.
   */
  private resolveGoModule(file: FileGraph, importPath: string): ModuleResult {
    this.consumed.add(manifestKey('go.mod'));
    const modules = goModulesOf(this.world.manifests);
    const hasPackage = (dir: string) => this.provider(packageKey('go', goImportPath(dir, modules))) !== undefined;
    const found = resolveGoImport(importPath, dirOf(file.path), modules, hasPackage);
    if (found.t === 'external') return { t: 'external', family: 'go', name: importPath };
    const pkg = goImportPath(found.dir, modules);
    return hasPackage(found.dir) ? { t: 'package', language: 'go', name: pkg } : { t: 'missing' };
  }

  private resolvePythonModule(file: FileGraph, specifier: string): ModuleResult {
    if (specifier.startsWith('.')) {
      const level = /^\.+/.exec(specifier)![0].length;
      let dir = dirOf(file.path);
      for (let i = 1; i < level; i++) {
        if (dir === '') return { t: 'missing' };
        dir = dirOf(dir);
      }
      const rest = specifier.slice(level).split('.').filter(Boolean).join('/');
      const path = [dir, rest].filter(Boolean).join('/');
      const found = this.provider(`pyp:${path}`);
      return found ? { t: 'module', path: found } : this.compiledModule(path) ?? { t: 'missing' };
    }
    const found = this.provider(`py:${specifier}`);
    if (found) return { t: 'module', path: found };
    const top = specifier.split('.')[0];
    if (top !== specifier && this.provider(`py:${top}`)) {
      const last = specifier.lastIndexOf('.');
      const parent = this.provider(`py:${specifier.slice(0, last)}`);
      const compiled = parent && isPythonPackageInit(parent) ? this.compiledModule(`${stripPython(parent)}/${specifier.slice(last + 1)}`) : null;
      return compiled ?? { t: 'missing' };
    }
    return { t: 'external', family: 'py', name: specifier };
  }

  /**
   * The compiled extension module at `path` (without extension), as an external module named as Python
   * imports it: the repository holds it, but no source the graph can read. Null when there is none.
   */
  private compiledModule(path: string): Target | null {
    this.consumed.add(COMPILED_KEY);
    if (!this.world.compiledModules.has(path)) return null;
    const dir = dirOf(path);
    const pkg = this.provider(`pyp:${dir}`);
    const own = path.slice(dir ? dir.length + 1 : 0);
    const name = pkg && isPythonPackageInit(pkg) ? [this.world.moduleName(pkg), own].filter(Boolean).join('.') : path.split('/').join('.');
    return { t: 'external', family: 'py', name };
  }

  private resolveJsModule(file: FileGraph, specifier: string): ModuleResult {
    if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) {
      if (ASSET_EXTENSION.test(specifier)) return { t: 'asset' };
      const joined = joinRelative(file.path, specifier);
      if (joined === null) return { t: 'missing' };
      const found = this.provider(jsPathKey(joined));
      return found ? { t: 'module', path: found } : { t: 'missing' };
    }
    if (specifier.startsWith('node:')) return { t: 'external', family: 'js', name: specifier.slice(5) };
    // Consumed even when no config maps it: a tsconfig added later may (`@lib/x` was a package until then).
    this.consumed.add(TSCONFIG_KEY);
    const candidates = this.world.tsconfigs.candidates(file.path, specifier);
    if (candidates.length > 0) {
      for (const candidate of candidates) {
        const found = this.provider(jsPathKey(candidate.path));
        if (found) return { t: 'module', path: found };
      }
      if (candidates.some((c) => c.isPathMapping)) return ASSET_EXTENSION.test(specifier) ? { t: 'asset' } : { t: 'missing' };
    }
    return ASSET_EXTENSION.test(specifier) ? { t: 'asset' } : { t: 'external', family: 'js', name: specifier };
  }

  /** What an import binding stands for. `forEdge`: Python `import a.b.c` points the IMPORTS edge at a.b.c. */
  bindingTarget(file: FileGraph, binding: ImportBinding, module: ModuleResult, forEdge = false): Target | null {
    if (!module || module.t === 'asset' || module.t === 'missing') return null;
    if (packageScheme(file.language)) return binding.imported === '*' || binding.imported === null ? module : this.member(module, binding.imported);
    if (file.language === 'python') {
      if (binding.imported === null) {
        if (!forEdge && binding.module.startsWith(`${binding.local}.`)) {
          const top = this.resolvePythonModule(file, binding.local);
          return top && (top.t === 'module' || top.t === 'external') ? top : null;
        }
        return module.t === 'module' || module.t === 'external' ? module : null;
      }
      if (binding.imported === '*') return module.t === 'module' || module.t === 'external' ? module : null;
      return this.member(module as Target, binding.imported);
    }
    if (module.t === 'external') {
      const name = binding.imported && binding.imported !== 'default' && binding.imported !== '*' ? `${module.name}.${binding.imported}` : module.name;
      return { t: 'external', family: module.family, name };
    }
    if (module.t !== 'module') return null;
    if (binding.imported === null || binding.imported === '*') return forEdge ? module : this.commonJsValue(module.path) ?? module;
    return this.exportOf(module.path, binding.imported);
  }

  /** `const x = require('./m')` where m did `module.exports = X`: x is X. */
  private commonJsValue(path: string): Target | null {
    const file = this.world.file(path);
    if (!file) return null;
    this.read(path, COMMONJS);
    const index = indexOf(file);
    if (index.exportsByName.size !== 1 || !index.exportsByName.has('default') || index.starExports.length > 0) return null;
    if (file.symbols.some((s) => s.exported && s.parent === null)) return null;
    return this.exportOf(path, 'default');
  }

  // ---- members ---------------------------------------------------------------------------------

  private memoized(key: string, compute: () => Target | null): Target | null {
    const hit = this.memo.get(key);
    if (hit) {
      for (const k of hit.consumed) this.consumed.add(k);
      return hit.target;
    }
    if (this.inProgress.has(key)) {
      this.cycleHit = true;
      return null;
    }
    const outer = this.consumed;
    const outerCycle = this.cycleHit;
    this.consumed = new Set();
    this.cycleHit = false;
    this.inProgress.add(key);
    let target: Target | null;
    try {
      target = compute();
    } finally {
      this.inProgress.delete(key);
    }
    const consumed = this.consumed;
    if (!this.cycleHit) this.memo.set(key, { target, consumed: [...consumed] });
    this.cycleHit = this.cycleHit || outerCycle;
    this.consumed = outer;
    for (const k of consumed) outer.add(k);
    return target;
  }

  /**
   * `target.name`: a module's member, a class's member (through its bases), or a longer external name.
   * `name` '()' is a call's result (see CALL_RESULT).
   */
  member(target: Target, name: string): Target | null {
    const found = this.ownMember(target, name);
    if (found || target.t !== 'symbol' || !this.isTypeScript(target.path)) return found;
    // A name TypeScript declares twice, merged: `DateTime.Proto` with `type DateTime = …` and `namespace DateTime
    // { interface Proto }` is the namespace's; `$ZodString.init` with `interface $ZodString` and `const $ZodString:
    // $constructor<$ZodString>` is the const's (its type's); `transform(…)` with `interface transform` and
    // `function transform` is the function's call. Members read through every namesake (a function's or a
    // class's too) cost zod's completion context 2 of 135 definitions; through consts, none.
    for (const sym of indexOf(this.world.file(target.path)!).namesakes.get(target.sym.localId) ?? []) {
      const merges = name === CALL_RESULT ? sym.kind === 'Function' || sym.kind === 'Class' : sym.kind === 'GlobalVariable';
      const merged = sym === target.sym || !merges ? null : this.ownMember({ t: 'symbol', path: target.path, sym }, name);
      if (merged) return merged;
    }
    return null;
  }

  private isTypeScript(path: string): boolean {
    const language = this.world.file(path)?.language;
    return language === 'typescript' || language === 'tsx';
  }

  private ownMember(target: Target, name: string): Target | null {
    if (name === CALL_RESULT) return this.callResult(target);
    if (name === ITEM_STEP) return this.heldClass(target, 'items');
    if (name === VALUE_STEP) return this.heldClass(target, 'values');
    const element = ELEMENT_STEP.exec(name);
    if (element) return target.t === 'symbol' && target.sym.elements ? this.declaredClass(target.path, target.sym, Number(element[1])) : null;
    switch (target.t) {
      case 'external':
        return { t: 'external', family: target.family, name: `${target.name}${target.family === 'rs' ? '::' : '.'}${name}` };
      case 'module':
        return this.world.file(target.path)?.language === 'python' ? this.pythonModuleMember(target.path, name) : this.exportOf(target.path, name);
      case 'package':
        return this.packageMember(target.language, target.name, name, true);
      case 'symbol':
        return this.symbolMember(target, name);
    }
  }

  private symbolMember(target: Target & { t: 'symbol' }, name: string): Target | null {
    const kind = target.sym.kind;
    // `self.__class__(...)`: the instance's own class (Python; no other language spells that name).
    if (kind === 'Class' && name === '__class__') return target;
    if (kind === 'Class' || kind === 'Interface' || kind === 'Enum') return this.classMember(target.path, target.sym, name);
    if (isNamespace(target.sym) && this.isTypeScript(target.path)) return this.classMember(target.path, target.sym, name);
    if (kind === 'TypeAlias') {
      // An object type's own member, else the member of the type it names (`type A = B`).
      const own = this.classMember(target.path, target.sym, name);
      const type = own || !target.sym.type ? null : this.typeOf(target.path, target.sym);
      return own ?? (type ? this.member(type, name) : null);
    }
    // A function's `type` is what it returns, not what it is: `f.x` is not a member of that; a property's is.
    if (target.sym.type && holdsItsType(target.sym)) {
      const type = this.typeOf(target.path, target.sym);
      return type ? this.member(type, name) : null;
    }
    return null;
  }

  /**
   * A top-level name of a package, found through its key wherever in the package it is defined;
   * with `subpackages`, a nested package too (`com.google.gson` → `internal`).
   */
  private packageMember(language: Language, pkg: string, name: string, subpackages: boolean): Target | null {
    return this.memoized(`pk\u0000${language}\u0000${pkg}\u0000${name}\u0000${subpackages}`, () => {
      const path = this.provider(packageMemberKey(language, pkg, name));
      const file = path === undefined ? undefined : this.world.file(path);
      if (path !== undefined && file) {
        this.read(path, scopeName('', name));
        const sym = language === 'rust' ? this.rust.definition(file, pkg, name) : indexOf(file).children.get('')?.get(name);
        if (sym) return { t: 'symbol', path, sym };
      }
      const scheme = packageScheme(language);
      if (!scheme) return null;
      const nested = `${pkg}${scheme.separator}${name}`;
      // A Rust module's names include what it imports (`pub use`, globs); its child modules are items too.
      if (language === 'rust') return this.provider(packageKey(language, nested)) ? { t: 'package', language, name: nested } : this.rust.imported(pkg, name);
      if (!subpackages) return null;
      return this.provider(packageKey(language, nested)) ? { t: 'package', language, name: nested } : null;
    });
  }

  /** A method declared in another file for this type (Go methods, Rust impls): found by its receiver key. */
  private receiverMember(path: string, sym: SymbolDef, name: string): Target | null {
    const file = this.world.file(path);
    const scope = file && this.packageOf(file, 'receiver');
    if (!file || scope === undefined || sym.parent !== null) return null;
    const localId = `${sym.name}.${name}`;
    const owner = this.provider(packageMemberKey(file.language, scope, localId));
    const ownerFile = owner === undefined ? undefined : this.world.file(owner);
    if (owner === undefined || !ownerFile) return null;
    // fileIndex lists a method declared away from its type under the type's name.
    this.read(owner, scopeName(sym.name, name));
    const method = indexOf(ownerFile).byLocalId.get(localId);
    return method ? { t: 'symbol', path: owner, sym: method } : null;
  }

  /**
   * What calling `target` gives: a class's instance (its members are the class's), or the class a
   * function's declared return type names: `make().run`, `x = make(); x.run`.
   */
  private callResult(target: Target): Target | null {
    if (target.t !== 'symbol') return null; // an external call's result is unknown
    const kind = target.sym.kind;
    if (kind === 'Class') return target;
    // A function declared to return a collection or mapping (`-> t.Iterator[Ext]`) describes its result itself (heldClass).
    if (kind === 'Function' || kind === 'Method') return target.sym.type ? this.typeOf(target.path, target.sym) : target.sym.items || target.sym.values ? target : null;
    // Python: a variable holding a class (`introspection_class = DatabaseIntrospection`, `t.Type[Template]`) called: its instance.
    return target.sym.type && this.isPython(target.path) ? this.typeOf(target.path, target.sym) : null;
  }

  private isPython(path: string): boolean {
    return this.world.file(path)?.language === 'python';
  }

  /**
   * `step` of a member whose type is written through `self`, read from an instance of `receiver`: `self`
   * is that class, maybe a subclass of the one that wrote it. Django's BaseDatabaseWrapper.__init__ sets
   * `self.introspection = self.introspection_class(self)`; in mysql's DatabaseWrapper, which sets its own
   * introspection_class, `self.introspection.table_names` is mysql's DatabaseIntrospection's.
   * Null where nothing differs from reading the type where it was written.
   */
  private throughReceiver(current: Target, step: string, receiver: Target | null): Target | null {
    // Python only: elsewhere a type path's `self` is no receiver (Rust's `self::module::Type`).
    if (receiver?.t !== 'symbol' || current.t !== 'symbol' || current.sym.type?.[0] !== 'self' || !this.isPython(current.path)) return null;
    if (receiver.path === current.path && receiver.sym.localId === current.sym.parent) return null;
    // A function's type is what a call gives; a property's and a variable's, what reading it gives.
    if ((step === CALL_RESULT) === holdsItsType(current.sym)) return null;
    const type = this.memoized(`rr\u0000${receiver.path}\u0000${receiver.sym.localId}\u0000${current.path}\u0000${current.sym.localId}`, () => {
      const found = this.walk(receiver, current.sym.type!.slice(1));
      const t = found && !found.partial ? found.target : null;
      return t?.t === 'symbol' && isType(t.sym) ? t : null;
    });
    if (!type) return null;
    return step === CALL_RESULT ? type : this.member(type, step);
  }

  /**
   * The type of an untyped parameter of a function passed to `callee` (the CALLBACK_PARAM step): the
   * callee's declared callback parameter type, read in the callee's file; when that is one of the
   * callee's type parameters, the type argument fixing it at the call, read where the call is.
   * A type of the repository, else nothing.
   */
  private callbackParameter(callee: Target, step: RegExpExecArray, file: FileGraph, fromId: string | null): Target | null {
    if (callee.t !== 'symbol') return null;
    const calleeFile = this.world.file(callee.path);
    // A call names the value: the function of an interface and function declared under one name (`$constructor`).
    const fn =
      callee.sym.kind === 'Function' || callee.sym.kind === 'Method' || (callee.sym.kind === 'TypeAlias' && step[1] === '=') ? callee.sym
        : callee.sym.kind === 'Class' ? this.constructorOf(callee.path, callee.sym)
        : calleeFile && indexOf(calleeFile).namesakes.get(callee.sym.localId)?.find((s) => s.kind === 'Function');
    const declared = fn?.callbacks?.[`${step[1]}.${step[2]}`];
    if (!declared || !calleeFile) return null;
    let found: { target: Target; partial: boolean } | null;
    if (declared.length === 1 && fn!.typeParams?.includes(declared[0])) {
      const fixedBy = step[3] === 't' ? fn!.typeParams : fn!.returnArgs ?? [];
      const arg = step[4]?.split(',')[fixedBy.indexOf(declared[0])];
      found = arg ? this.resolveChain(file, fromId, arg.split('.')) : null;
    } else {
      found = this.resolveChain(calleeFile, fn!.localId, declared);
    }
    const t = found && !found.partial ? found.target : null;
    return t?.t === 'symbol' && (isType(t.sym) || t.sym.kind === 'TypeAlias') ? t : null;
  }

  /** A TypeScript class's own `constructor` (`new C(cb)` types cb's parameters by it). */
  private constructorOf(path: string, cls: SymbolDef): SymbolDef | undefined {
    const file = this.world.file(path);
    if (!file || !this.isTypeScript(path)) return undefined;
    this.read(path, scopeName(cls.localId, 'constructor'));
    return indexOf(file).children.get(cls.localId)?.get('constructor');
  }

  /**
   * `name` as one of the Python file's `from x import *` brings in. A name no Python module it
   * star-imports defines comes from the first one whose source the graph cannot read (`from ._flapack
   * import *` in scipy's lapack.py, a compiled module), if any.
   */
  private pythonStarMember(file: FileGraph, name: string): Target | null {
    let unread: Target | null = null;
    for (const star of indexOf(file).starImports) {
      const module = this.resolvePythonModule(file, star.module);
      if (module?.t === 'module') {
        const found = this.pythonModuleMember(module.path, name);
        if (found) return found;
      } else if (module?.t === 'external') unread ??= { t: 'external', family: 'py', name: `${module.name}.${name}` };
    }
    return unread;
  }

  private pythonModuleMember(path: string, name: string): Target | null {
    return this.memoized(`pm\u0000${path}\u0000${name}`, () => {
      const file = this.world.file(path);
      if (!file) return null;
      this.read(path, scopeName('', name));
      const index = indexOf(file);
      const own = index.children.get('')?.get(name);
      if (own) return { t: 'symbol', path, sym: own };
      const binding = index.importsByScope.get('')?.get(name);
      if (binding) {
        const module = this.resolvePythonModule(file, binding.module);
        const bound = this.bindingTarget(file, binding, module);
        if (bound) return bound;
      }
      if (isPythonPackageInit(path)) {
        const subPath = [stripPython(path), name].filter(Boolean).join('/');
        const sub = this.provider(`pyp:${subPath}`);
        if (sub) return { t: 'module', path: sub };
        const compiled = this.compiledModule(subPath);
        if (compiled) return compiled;
      }
      if (!name.startsWith('_')) {
        this.read(path, STAR);
        return this.pythonStarMember(file, name);
      }
      return null;
    });
  }

  exportOf(path: string, name: string): Target | null {
    return this.memoized(`ex\u0000${path}\u0000${name}`, () => {
      const file = this.world.file(path);
      if (!file) return null;
      this.read(path, scopeName('', name));
      const index = indexOf(file);
      for (const binding of index.exportsByName.get(name) ?? []) {
        if (binding.from !== undefined) {
          const module = this.resolveJsModule(file, binding.from);
          if (!module || module.t === 'asset' || module.t === 'missing' || module.t === 'package') continue;
          if (module.t === 'external') return { t: 'external', family: 'js', name: binding.imported ? `${module.name}.${binding.imported}` : module.name };
          if (binding.imported == null || binding.imported === '*') return module;
          const found = this.exportOf(module.path, binding.imported);
          if (found) return found;
        } else if (binding.local !== undefined) {
          const found = this.lookupScope(file, null, binding.local);
          if (found) return found;
        }
      }
      const own = index.children.get('')?.get(name);
      if (own && own.exported) return { t: 'symbol', path, sym: own };
      if (name !== 'default') {
        this.read(path, STAR);
        for (const star of index.starExports) {
          if (!star.from) continue;
          const module = this.resolveJsModule(file, star.from);
          if (module?.t === 'module') {
            const found = this.exportOf(module.path, name);
            if (found) return found;
          }
        }
      }
      return null;
    });
  }

  /**
   * The class of what `target` holds as `what` (a collection's items, a mapping's values): declared on
   * it, or, for a variable or field holding a call's result (`self.extensions = load_extensions(…)`),
   * on the function called.
   */
  private heldClass(target: Target, what: 'items' | 'values'): Target | null {
    if (target.t !== 'symbol') return null;
    if (target.sym[what]) return this.declaredClass(target.path, target.sym, what);
    const chain = target.sym.type;
    if (target.sym.kind === 'Function' || target.sym.kind === 'Method' || chain?.[chain.length - 1] !== CALL_RESULT) return null;
    return this.memoized(`hc${what}\u0000${target.path}\u0000${target.sym.localId}`, () => {
      const file = this.world.file(target.path);
      const called = file ? this.resolveChain(file, target.sym.parent, chain) : null;
      const fn = called && !called.partial ? called.target : null;
      return fn?.t === 'symbol' && fn.sym !== target.sym && fn.sym[what] ? this.declaredClass(fn.path, fn.sym, what) : null;
    });
  }

  /**
   * A union's alternatives but those another one derives from: with `destination: Subscriber<any> |
   * Observer<any>` (Subscriber implements Observer) the TypeScript service places `destination.next()` at
   * Subscriber's alone. Names that resolve to no type are kept (they reach nothing either way).
   */
  private withoutBases(file: FileGraph, scope: string | null, names: string[]): string[] {
    const types = names.map((name) => this.resolveChain(file, scope, name.split('.')));
    return names.filter((_, i) => {
      const base = types[i];
      return !base || base.partial || !types.some((other, j) => j !== i && other && !other.partial && this.derivesFrom(other.target, base.target, 0));
    });
  }

  private derivesFrom(type: Target, base: Target, depth: number): boolean {
    if (type.t !== 'symbol' || depth > MAX_BASE_DEPTH) return false;
    const baseId = this.targetId(base);
    return this.basesOf(type.path, type.sym).some((b) => this.targetId(b) === baseId || this.derivesFrom(b, base, depth + 1));
  }

  /**
   * The alternatives a TypeScript alias of a union of named types stands for (`type A = B | ns.C`), each
   * resolved where the alias is written; for a field, variable or alias declared with such an alias, its alias's.
   */
  private unionAlternatives(target: Target, depth = 0): Target[] {
    if (target.t !== 'symbol' || depth > MAX_UNION_DEPTH || !this.isTypeScript(target.path)) return [];
    const { sym } = target;
    const declared = sym.type;
    if (!declared) return [];
    const union = sym.kind === 'TypeAlias' && declared.length === 1 ? UNION_STEP.exec(declared[0]) : null;
    if (!union) {
      const type = holdsItsType(sym) ? this.typeOf(target.path, sym) : null;
      return type ? this.unionAlternatives(type, depth + 1) : [];
    }
    const file = union[1] === '|' ? this.world.file(target.path) : undefined;
    if (!file) return [];
    return union[2].split(',').map((alternative) => this.resolveChain(file, sym.parent, alternative.split('.'))).filter((r) => r !== null && !r.partial).map((r) => r!.target);
  }

  /** The class a typed field or variable holds (`self.x = Foo()`): its type chain resolved where it is defined. */
  private typeOf(path: string, sym: SymbolDef): Target | null {
    return this.declaredClass(path, sym, 'type');
  }

  /**
   * The class `sym`'s `type` (what it holds), `items` or `values` (what its collection or mapping holds) or element `what` of
   * the tuple it returns names, resolved where it is defined.
   */
  private declaredClass(path: string, sym: SymbolDef, what: 'type' | 'items' | 'values' | number): Target | null {
    const key = typeof what === 'number' ? `el${what}` : what.slice(0, 2);
    return this.memoized(`${key}\u0000${path}\u0000${sym.localId}`, () => {
      const file = this.world.file(path);
      const chain = typeof what === 'number' ? sym.elements?.[what] : sym[what];
      if (!file || !chain?.length) return null;
      const resolved = this.resolveChain(file, sym.parent, chain);
      if (!resolved || resolved.partial) return null;
      // Repository types only: `name: str` leaves `self.name.upper()` a use of the field, not of builtins.
      // Enums have methods too (Rust, Java): `self.state.is_idle()` with `state: State`.
      const t = resolved.target;
      if (t.t !== 'symbol') return null;
      if (isType(t.sym) || t.sym.kind === 'TypeAlias') return t;
      // Python: a chain read from a value ends at what holds one (`return self._query`, a property over a
      // field): what that field holds.
      return t.sym.type && holdsItsType(t.sym) && file.language === 'python' && t.sym !== sym ? this.typeOf(t.path, t.sym) : null;
    });
  }

  private classMember(path: string, sym: SymbolDef, name: string): Target | null {
    return this.memoized(`cm\u0000${path}\u0000${sym.localId}\u0000${name}`, () => {
      const file = this.world.file(path);
      if (!file) return null;
      this.read(path, scopeName(sym.localId, name));
      const own = indexOf(file).children.get(sym.localId)?.get(name);
      // A Java constructor is named as its class but is no member a name can reach (`new Foo()` reaches the class).
      const constructor = own && own.kind === 'Method' && own.name === sym.name && packageScheme(file.language) !== undefined;
      if (own && !constructor) return { t: 'symbol', path, sym: own };
      const elsewhere = this.receiverMember(path, sym, name);
      if (elsewhere) return elsewhere;
      for (const base of this.basesOf(path, sym)) {
        const found = this.member(base, name);
        if (found) return found;
      }
      return null;
    });
  }

  private basesOf(path: string, sym: SymbolDef): Target[] {
    const file = this.world.file(path)!;
    const bases: Target[] = [];
    this.read(path, basesKey(sym.localId));
    for (const ref of indexOf(file).bases.get(sym.localId) ?? []) {
      const target = this.resolveChain(file, sym.parent, ref.chain);
      if (target && !target.partial) bases.push(target.target);
    }
    return bases;
  }

  // ---- scopes and references -------------------------------------------------------------------

  /** A bare name as seen from inside `fromId`: enclosing function scopes, then the module, then builtins. */
  lookupScope(file: FileGraph, fromId: string | null, name: string): Target | null {
    if (file.language === 'rust') return this.rust.lookup(file, fromId, name);
    const scheme = packageScheme(file.language);
    if (scheme) return this.lookupPackageScope(file, scheme, fromId, name);
    const index = indexOf(file);
    const fromSym = fromId === null ? undefined : index.byLocalId.get(fromId);
    for (let scope = fromSym; scope; scope = scope.parent === null ? undefined : index.byLocalId.get(scope.parent)) {
      // Class bodies do not enclose their methods; a class's own body does see its names.
      const isClass = scope.kind === 'Class' || scope.kind === 'Interface' || scope.kind === 'Enum';
      if (isClass && scope !== fromSym) continue;
      this.read(file.path, scopeName(scope.localId, name));
      const local = index.children.get(scope.localId)?.get(name);
      if (local && !(isClass && file.language !== 'python')) return { t: 'symbol', path: file.path, sym: local };
      const binding = index.importsByScope.get(scope.localId)?.get(name);
      if (binding) return this.bindingTarget(file, binding, this.resolveModule(file, binding.module));
    }
    this.read(file.path, scopeName('', name));
    const own = index.children.get('')?.get(name);
    if (own) return { t: 'symbol', path: file.path, sym: own };
    const binding = index.importsByScope.get('')?.get(name);
    if (binding) return this.bindingTarget(file, binding, this.resolveModule(file, binding.module));
    if (file.language === 'python') {
      if (PYTHON_BUILTINS.has(name)) return { t: 'external', family: 'py', name: `builtins.${name}` };
      // `from x import *` brings public names in.
      this.read(file.path, STAR);
      const found = this.pythonStarMember(file, name);
      if (found) return found;
    } else if (file.language !== 'go') {
      if (JS_GLOBALS.has(name)) return { t: 'external', family: 'js', name };
      return this.ambientGlobal(name);
    }
    return null;
  }

  /** A name a declaration file of the repository declares for every file (ambientGlobals.ts). */
  private ambientGlobal(name: string): Target | null {
    return this.memoized(`ag\u0000${name}`, () => {
      const path = this.provider(ambientGlobalKey(name));
      const file = path === undefined ? undefined : this.world.file(path);
      if (path === undefined || !file) return null;
      this.read(path, scopeName('', name));
      const sym = indexOf(file).children.get('')?.get(name);
      return sym?.global ? { t: 'symbol', path, sym } : null;
    });
  }

  /**
   * A bare name as javac sees it (JLS 6.4): members of the enclosing types, innermost first, with
   * what they inherit; the file's own types; single-type and single static imports; the package; on-demand
   * imports; then the names every file sees (java.lang). A member inherited from a library type
   * cannot be listed, so it is the last resort, not a shadow over the lexical names.
   */
  private lookupPackageScope(file: FileGraph, scheme: PackageScheme, fromId: string | null, name: string): Target | null {
    const index = indexOf(file);
    let inherited: Target | null = null;
    const enclosing = scheme.typeMembersInScope && fromId !== null ? index.byLocalId.get(fromId) : undefined;
    for (let scope = enclosing; scope; scope = scope.parent === null ? undefined : index.byLocalId.get(scope.parent)) {
      if (isType(scope)) {
        const member = this.classMember(file.path, scope, name);
        if (member?.t === 'external') inherited ??= member;
        else if (member) return member;
      } else {
        // Classes local to a method.
        this.read(file.path, scopeName(scope.localId, name));
        const local = index.children.get(scope.localId)?.get(name);
        if (local) return { t: 'symbol', path: file.path, sym: local };
      }
    }
    this.read(file.path, scopeName('', name));
    const own = index.children.get('')?.get(name);
    if (own) return { t: 'symbol', path: file.path, sym: own };
    const binding = index.importsByScope.get('')?.get(name);
    if (binding && !binding.guessedLocal) return this.bindingTarget(file, binding, this.resolveModule(file, binding.module));
    // An unaliased import whose guessed name is right comes first: a Go `package fmt_test` file shares
    // its folder's names here, and `fmt.Println` is not a member of fmt's own `type fmt struct`.
    const guessed = binding ? this.importNamed(file, binding, name) : null;
    if (guessed) return guessed;
    const pkg = this.packageOf(file);
    const sibling = pkg === undefined ? null : this.packageMember(file.language, pkg, name, false);
    if (sibling) return sibling;
    // After the package's own names: asking each unaliased import whether it is `name` costs a key per
    // import, which only the names that are no package member should pay.
    const clauseNamed = scheme.clauseName ? this.importByClause(file, name) : null;
    if (clauseNamed) return clauseNamed;
    this.read(file.path, STAR);
    for (const star of index.starImports) {
      const module = this.resolveModule(file, star.module);
      if (!module || module.t === 'asset' || module.t === 'missing' || module.t === 'external') continue;
      const found = module.t === 'package' ? this.packageMember(module.language, module.name, name, false) : this.member(module, name);
      if (found) return found;
    }
    // java.lang before a guess at a library supertype's members: `String` is java.lang.String, not Iterable.String.
    const implicit = scheme.implicit(name);
    return implicit ? { t: 'external', family: scheme.family, name: implicit } : inherited;
  }

  /**
   * The package an import without an alias binds under `name`: a repository package whose files'
   * `package` clause says `name` (`import "github.com/json-iterator/go"` binds `jsoniter`), else a
   * package outside the repository whose guessed name (the path's last element) is `name`.
   */
  private importByClause(file: FileGraph, name: string): Target | null {
    // Memoised: every `jsoniter.X` of a file asks again.
    return this.memoized(`gi\u0000${file.path}\u0000${name}`, () => {
      for (const binding of file.imports) {
        const found = binding.guessedLocal ? this.importNamed(file, binding, name) : null;
        if (found) return found;
      }
      return null;
    });
  }

  /** What an unaliased import binds under `name`: its package when that says `name`, else nothing. */
  private importNamed(file: FileGraph, binding: ImportBinding, name: string): Target | null {
    // Memoised per folder and path: a name no import binds asks every import of the file.
    const module = this.memoized(`gm\u0000${dirOf(file.path)}\u0000${binding.module}`, () => {
      const found = this.resolveModule(file, binding.module);
      return found?.t === 'package' || found?.t === 'external' ? found : null;
    });
    if (module?.t !== 'package') return module && binding.local === name ? module : null;
    return this.provider(packageClauseKey(module.language, module.name, name)) !== undefined ? module : null;
  }

  private enclosingClass(file: FileGraph, fromId: string | null): SymbolDef | undefined {
    const index = indexOf(file);
    const anyType = packageScheme(file.language) !== undefined;
    for (let id = fromId; id !== null; ) {
      const sym = index.byLocalId.get(id);
      if (!sym) return undefined;
      if (sym.kind === 'Class' || (anyType && isType(sym))) return sym;
      id = sym.parent;
    }
    return undefined;
  }

  private resolveChain(file: FileGraph, fromId: string | null, chain: string[]): Resolved | null {
    const [head, ...rest] = chain;
    if (file.language === 'rust') {
      const start = this.rust.chainStart(file, fromId, chain);
      return start ? this.walk(start.target, start.rest) : null;
    }
    let current: Target | null;
    if (head === 'self' || head === 'this' || head === 'cls') {
      const cls = this.enclosingClass(file, fromId);
      if (!cls) return null;
      current = { t: 'symbol', path: file.path, sym: cls };
    } else if (head === 'super') {
      const cls = this.enclosingClass(file, fromId);
      if (!cls) return null;
      if (rest.length === 0) {
        const base = this.basesOf(file.path, cls)[0];
        return base ? { target: base, partial: false } : null;
      }
      const [name, ...more] = rest;
      current = null;
      for (const base of this.basesOf(file.path, cls)) {
        current = this.member(base, name);
        if (current) break;
      }
      if (!current) return null;
      return this.walk(current, more);
    } else {
      current = this.lookupScope(file, fromId, head);
      if (!current && rest.length > 0) return this.qualifiedName(file, chain);
    }
    if (!current) return null;
    return this.walk(current, rest, { file, fromId });
  }

  /** `com.google.gson.Gson.fromJson` written out in code: the longest package prefix, then members. */
  private qualifiedName(file: FileGraph, chain: string[]): Resolved | null {
    const scheme = packageScheme(file.language);
    if (!scheme || !scheme.isQualifiedName(chain)) return null;
    for (let i = chain.length - 1; i > 0; i--) {
      const pkg = chain.slice(0, i).join(scheme.separator);
      if (!this.provider(packageKey(file.language, pkg))) continue;
      return this.walk({ t: 'package', language: file.language, name: pkg }, chain.slice(i));
    }
    return { target: { t: 'external', family: scheme.family, name: chain.join('.') }, partial: false };
  }

  private walk(start: Target, rest: string[], at?: { file: FileGraph; fromId: string | null }, depth = 0): Resolved | null {
    let current = start;
    /** The class `current` was read from as a member (see throughReceiver). */
    let receiver: Target | null = null;
    for (const [i, name] of rest.entries()) {
      const callback = CALLBACK_PARAM.exec(name);
      const next = callback ? (at ? this.callbackParameter(current, callback, at.file, at.fromId) : null) : this.throughReceiver(current, name, receiver) ?? this.member(current, name);
      receiver = current.t === 'symbol' && current.sym.kind === 'Class' ? current : null;
      if (!next && depth < MAX_UNION_DEPTH) {
        // `observer.next` with `observer: PartialObserver<T>`, `type PartialObserver<T> = NextObserver<T> | ErrorObserver<T> | …`:
        // each alternative's member, as the TypeScript service answers.
        const reached = this.unionAlternatives(current).map((t) => this.walk(t, rest.slice(i), undefined, depth + 1)).filter((r) => r !== null && !r.partial);
        const alternatives = reached.flatMap((r) => r!.alternatives ?? [r!.target]);
        if (alternatives.length > 0) return { target: alternatives[0], partial: false, alternatives };
      }
      if (!next) {
        // An unknown call result, callback parameter or collection item or value, here or ahead (`x = _cv.get(); x.attr`):
        // what the chain reaches is unknown, and not a use of its head; the callee is recorded where the call itself is captured.
        if (rest.slice(i).some((step) => step === CALL_RESULT || step === ITEM_STEP || step === VALUE_STEP || ELEMENT_STEP.test(step) || CALLBACK_PARAM.test(step))) return null;
        // `self.helper.run()` with an untyped field: the field is what we know is used.
        return current.t === 'symbol' && current.sym.kind !== 'Class' ? { target: current, partial: true } : null;
      }
      current = next;
    }
    if (current.t !== 'package') return { target: current, partial: false };
    // A Rust expression never names a module: its last name is the value of that name (Rust's namespaces).
    const value = current.language === 'rust' ? this.rust.valueNamedAs(current.name) : null;
    return value ? { target: value, partial: false } : null;
  }
}

/** A chain's resolution: where it ends, whether only its head was known (`partial`), and every place a union type led it to. */
type Resolved = { target: Target; partial: boolean; alternatives?: Target[] };

/** How far up a class's bases a union's alternatives are compared (withoutBases). */
const MAX_BASE_DEPTH = 6;

/** Unions of unions followed this deep (`type A = B | C`, `type B = D | E`): aliases may name each other. */
const MAX_UNION_DEPTH = 3;

/** A TypeScript namespace is a GlobalVariable holding its members (`N.f()`, `extends DateTime.Proto`). */
function isNamespace(sym: SymbolDef): boolean {
  return sym.kind === 'GlobalVariable' && !sym.type;
}

/** Whether `sym`'s `type` is what reading it gives (a variable, a field, a property), not what calling it returns (a function). */
function holdsItsType(sym: SymbolDef): boolean {
  return (sym.kind !== 'Function' && sym.kind !== 'Method') || Boolean(sym.property);
}

function isType(sym: SymbolDef): boolean {
  return sym.kind === 'Class' || sym.kind === 'Interface' || sym.kind === 'Enum';
}
