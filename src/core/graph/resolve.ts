// RANGER stage 2 (stitching): placeholder imports and symbolic references of one file become
// edges to real nodes of the repository (or External nodes). Every fact read from another file or
// from the module index is recorded as a consumed key, which is what lets incremental updates
// re-resolve exactly the files an edit can affect.
import { flat } from '../flatString';
import type { FileGraph, ImportBinding, SymbolDef } from '../parse/fileGraph';
import { JS_GLOBALS, PYTHON_BUILTINS } from './builtins';
import { COMMONJS, STAR, basesOf as basesKey, indexOf, interfaceKey, scopeName } from './fileIndex';
import {
  ASSET_EXTENSION, TSCONFIG_KEY, dirOf, joinRelative, jsPathKey, isPythonPackageInit, stripPython,
} from './moduleKeys';
import {
  edgeId, externalId, moduleId, symbolId,
  type EdgeKind, type GraphEdge, type GraphNode,
} from './schema';
import type { TsConfigSet } from './tsconfig';

export interface World {
  file(path: string): FileGraph | undefined;
  /** Best provider of a module key, or undefined. */
  provider(key: string): string | undefined;
  /** Dotted (Python) or path-based (TS/JS) module name of a file. */
  moduleName(path: string): string;
  tsconfigs: TsConfigSet;
}

export type Target =
  | { t: 'module'; path: string }
  | { t: 'symbol'; path: string; sym: SymbolDef }
  | { t: 'external'; family: 'py' | 'js'; name: string };

type ModuleResult = Target | { t: 'asset' } | { t: 'missing' } | null;

/** A chain step for a call's result (`make().run` → ['make', '()', 'run']), as the extractors write it. */
const CALL_RESULT = '()';

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

  constructor(private readonly world: World) {}

  resolveFile(path: string): FileResolution {
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
      const parentId = sym.parent === null ? modId : symbolId(path, sym.parent);
      const parentKind = sym.parent === null ? 'Module' : indexOf(file).byLocalId.get(sym.parent)?.kind;
      // A TypeAlias holds the members of its object type (`type T = { a: X }`), as an interface does.
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
      const module = this.resolveModule(file, binding.module);
      const target = this.bindingTarget(file, binding, module, true);
      countImport(module, target, `${binding.module}${binding.imported ? `:${binding.imported}` : ''}`);
      if (target) addEdge('IMPORTS', modId, this.targetId(target), binding.line);
    }
    for (const reexport of file.exports) {
      if (!reexport.from) continue;
      const module = this.resolveModule(file, reexport.from);
      const target = module && (module.t === 'module' || module.t === 'external') ? module : null;
      countImport(module, target, reexport.from);
      if (target) addEdge('IMPORTS', modId, this.targetId(target), -1);
    }

    let unresolvedRefs = 0;
    for (const ref of file.refs) {
      const resolved = this.resolveChain(file, ref.from, ref.chain);
      if (!resolved) {
        unresolvedRefs++;
        continue;
      }
      const source = ref.from === null ? modId : symbolId(path, ref.from);
      const kind = resolved.partial ? 'USES' : ref.kind;
      const targetId = this.targetId(resolved.target);
      if (targetId !== source || kind === 'CALLS') addEdge(kind, source, targetId, ref.line);
    }
    const consumed = this.consumed;
    const own = interfaceKey(path, '');
    for (const key of consumed) if (key.startsWith(own)) consumed.delete(key);
    return { nodes, edges: [...edges.values()], consumed, imports, unresolvedRefs };
  }

  targetId(target: Target): string {
    switch (target.t) {
      case 'module':
        return moduleId(target.path);
      case 'symbol':
        return symbolId(target.path, target.sym.localId);
      case 'external':
        return externalId(target.family, target.name);
    }
  }

  private buildNodes(file: FileGraph): GraphNode[] {
    const moduleName = this.world.moduleName(file.path);
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
        qname: flat(`${moduleName}.${sym.localId.replace(/@\d+/g, '')}`),
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

  /** Finds the module a specifier names, as seen from `file`. */
  resolveModule(file: FileGraph, specifier: string): ModuleResult {
    return file.language === 'python' ? this.resolvePythonModule(file, specifier) : this.resolveJsModule(file, specifier);
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
      return found ? { t: 'module', path: found } : { t: 'missing' };
    }
    const found = this.provider(`py:${specifier}`);
    if (found) return { t: 'module', path: found };
    const top = specifier.split('.')[0];
    if (top !== specifier && this.provider(`py:${top}`)) return { t: 'missing' };
    return { t: 'external', family: 'py', name: specifier };
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
    const candidates = this.world.tsconfigs.candidates(file.path, specifier);
    if (candidates.length > 0) {
      this.consumed.add(TSCONFIG_KEY);
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
      return { t: 'external', family: 'js', name };
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
    if (name === CALL_RESULT) return this.callResult(target);
    switch (target.t) {
      case 'external':
        return { t: 'external', family: target.family, name: `${target.name}.${name}` };
      case 'module':
        return this.world.file(target.path)?.language === 'python' ? this.pythonModuleMember(target.path, name) : this.exportOf(target.path, name);
      case 'symbol': {
        const kind = target.sym.kind;
        if (kind === 'Class' || kind === 'Interface' || kind === 'Enum') return this.classMember(target.path, target.sym, name);
        if (kind === 'TypeAlias') {
          // An object type's own member, else the member of the type it names (`type A = B`).
          const own = this.classMember(target.path, target.sym, name);
          const type = own || !target.sym.type ? null : this.typeOf(target.path, target.sym);
          return own ?? (type ? this.member(type, name) : null);
        }
        // A function's `type` is what it returns, not what it is: `f.x` is not a member of that.
        if (target.sym.type && kind !== 'Function' && kind !== 'Method') {
          const type = this.typeOf(target.path, target.sym);
          return type ? this.member(type, name) : null;
        }
        return null;
      }
    }
  }

  /**
   * What calling `target` gives: a class's instance (its members are the class's), or the class a
   * function's declared return type names. Issue 19: `make().run`, `x = make(); x.run`.
   */
  private callResult(target: Target): Target | null {
    if (target.t !== 'symbol') return null; // an external call's result is unknown
    const kind = target.sym.kind;
    if (kind === 'Class') return target;
    return (kind === 'Function' || kind === 'Method') && target.sym.type ? this.typeOf(target.path, target.sym) : null;
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
        const sub = this.provider(`pyp:${[stripPython(path), name].filter(Boolean).join('/')}`);
        if (sub) return { t: 'module', path: sub };
      }
      if (!name.startsWith('_')) {
        this.read(path, STAR);
        for (const star of index.starImports) {
          const module = this.resolvePythonModule(file, star.module);
          if (module?.t === 'module') {
            const found = this.pythonModuleMember(module.path, name);
            if (found) return found;
          }
        }
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
          if (!module || module.t === 'asset' || module.t === 'missing') continue;
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

  /** The class a typed field or variable holds (`self.x = Foo()`): its type chain resolved where it is defined. */
  private typeOf(path: string, sym: SymbolDef): Target | null {
    return this.memoized(`ty\u0000${path}\u0000${sym.localId}`, () => {
      const file = this.world.file(path);
      if (!file || !sym.type) return null;
      const resolved = this.resolveChain(file, sym.parent, sym.type);
      if (!resolved || resolved.partial) return null;
      // Repository classes only: `name: str` leaves `self.name.upper()` a use of the field, not of builtins.
      const t = resolved.target;
      return t.t === 'symbol' && (t.sym.kind === 'Class' || t.sym.kind === 'Interface' || t.sym.kind === 'TypeAlias') ? t : null;
    });
  }

  private classMember(path: string, sym: SymbolDef, name: string): Target | null {
    return this.memoized(`cm\u0000${path}\u0000${sym.localId}\u0000${name}`, () => {
      const file = this.world.file(path);
      if (!file) return null;
      this.read(path, scopeName(sym.localId, name));
      const own = indexOf(file).children.get(sym.localId)?.get(name);
      if (own) return { t: 'symbol', path, sym: own };
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
      for (const star of index.starImports) {
        const module = this.resolvePythonModule(file, star.module);
        if (module?.t === 'module') {
          const found = this.pythonModuleMember(module.path, name);
          if (found) return found;
        }
      }
    } else if (JS_GLOBALS.has(name)) {
      return { t: 'external', family: 'js', name };
    }
    return null;
  }

  private enclosingClass(file: FileGraph, fromId: string | null): SymbolDef | undefined {
    const index = indexOf(file);
    for (let id = fromId; id !== null; ) {
      const sym = index.byLocalId.get(id);
      if (!sym) return undefined;
      if (sym.kind === 'Class') return sym;
      id = sym.parent;
    }
    return undefined;
  }

  private resolveChain(file: FileGraph, fromId: string | null, chain: string[]): { target: Target; partial: boolean } | null {
    const [head, ...rest] = chain;
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
    }
    if (!current) return null;
    return this.walk(current, rest);
  }

  private walk(start: Target, rest: string[]): { target: Target; partial: boolean } | null {
    let current = start;
    for (const [i, name] of rest.entries()) {
      const next = this.member(current, name);
      if (!next) {
        // An unknown call result, here or ahead (`x = _cv.get(); x.attr`): what the chain reaches is
        // unknown, and not a use of its head; the callee is recorded where the call itself is captured.
        if (rest.indexOf(CALL_RESULT, i) >= 0) return null;
        // `self.helper.run()` with an untyped field: the field is what we know is used.
        return current.t === 'symbol' && current.sym.kind !== 'Class' ? { target: current, partial: true } : null;
      }
      current = next;
    }
    return { target: current, partial: false };
  }
}
