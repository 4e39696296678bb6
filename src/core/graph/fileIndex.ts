// Lookup tables over one per-file graph, built once per FileGraph object and cached, plus its
// *interface*: a descriptor per name that other files can look up in it. Resolution records which
// names it looked up (`file:<path>#<scope>.<name>`); an edit re-resolves other files only for the
// names whose descriptors changed, so adding a function to a hub module costs one file, not fifty.
import { flat } from '../flatString';
import type { ExportBinding, FileGraph, ImportBinding, Reference, SymbolDef } from '../parse/fileGraph';

export interface FileIndex {
  byLocalId: Map<string, SymbolDef>;
  /** parent localId ('' for the module) → name → first definition of that name. */
  children: Map<string, Map<string, SymbolDef>>;
  /** localId → every definition of its name in its scope, in order, where there are several (TypeScript's merged declarations). */
  namesakes: Map<string, SymbolDef[]>;
  /** scope localId ('' for the module) → bound name → first import binding of that name. */
  importsByScope: Map<string, Map<string, ImportBinding>>;
  /** `from x import *` at module level. */
  starImports: ImportBinding[];
  exportsByName: Map<string, ExportBinding[]>;
  /** `export * from 'x'`. */
  starExports: ExportBinding[];
  /** localId of a class → its INHERITS references. */
  bases: Map<string, Reference[]>;
  /** Interface key suffix → descriptor (see interfaceOf). */
  interface: Map<string, string>;
}

const cache = new WeakMap<FileGraph, FileIndex>();

export function indexOf(file: FileGraph): FileIndex {
  let index = cache.get(file);
  if (!index) {
    index = buildIndex(file);
    cache.set(file, index);
  }
  return index;
}

function buildIndex(file: FileGraph): FileIndex {
  const byLocalId = new Map<string, SymbolDef>();
  const children = new Map<string, Map<string, SymbolDef>>();
  const namesakes = new Map<string, SymbolDef[]>();
  for (const sym of file.symbols) {
    byLocalId.set(sym.localId, sym);
    // A method declared away from its type (Go, Rust `impl`) is no top-level name of its file: it is
    // listed under its type's name, so `Len` of `func (b byName) Len()` never answers a bare `Len`.
    const parent = sym.parent ?? (sym.receiver ? sym.receiver[sym.receiver.length - 1] : '');
    let names = children.get(parent);
    if (!names) children.set(parent, (names = new Map()));
    const first = names.get(sym.name);
    if (!first) {
      names.set(sym.name, sym);
      continue;
    }
    const all = namesakes.get(first.localId) ?? [first];
    all.push(sym);
    for (const s of all) namesakes.set(s.localId, all);
  }
  const importsByScope = new Map<string, Map<string, ImportBinding>>();
  const starImports: ImportBinding[] = [];
  for (const binding of file.imports) {
    if (binding.imported === '*') {
      if (binding.scope === null) starImports.push(binding);
      continue;
    }
    if (!binding.local) continue;
    const scope = binding.scope ?? '';
    let names = importsByScope.get(scope);
    if (!names) importsByScope.set(scope, (names = new Map()));
    if (!names.has(binding.local)) names.set(binding.local, binding);
  }
  const exportsByName = new Map<string, ExportBinding[]>();
  const starExports: ExportBinding[] = [];
  for (const binding of file.exports) {
    if (binding.exported === '*') {
      starExports.push(binding);
      continue;
    }
    const list = exportsByName.get(binding.exported);
    if (list) list.push(binding);
    else exportsByName.set(binding.exported, [binding]);
  }
  const bases = new Map<string, Reference[]>();
  for (const ref of file.refs) {
    if (ref.kind !== 'INHERITS' || ref.from === null) continue;
    const list = bases.get(ref.from);
    if (list) list.push(ref);
    else bases.set(ref.from, [ref]);
  }
  const index = { byLocalId, children, namesakes, importsByScope, starImports, exportsByName, starExports, bases, interface: new Map() };
  index.interface = interfaceOf(index);
  return index;
}

/** `file:<path>#<suffix>`: one name (or list) of one file that another file's resolution read. */
export function interfaceKey(path: string, suffix: string): string {
  return `file:${path}#${suffix}`;
}

/** Names in a scope: `<scope>.<name>` ('' scope = module); star lists: `*`; class bases: `<class>^`; CommonJS shape: `cjs`. */
export const scopeName = (scope: string, name: string) => flat(`${scope}.${name}`);
export const STAR = '*';
export const basesOf = (classId: string) => flat(`${classId}^`);
export const COMMONJS = 'cjs';

/** Everything resolution of *other* files may read from this one, by name; lines and bodies excluded. */
function interfaceOf(index: Omit<FileIndex, 'interface'>): Map<string, string> {
  const out = new Map<string, string>();
  const describe = (key: string, part: unknown) => {
    const prev = out.get(key);
    out.set(key, flat(prev === undefined ? JSON.stringify(part) : `${prev}|${JSON.stringify(part)}`));
  };
  for (const [scope, names] of index.children) {
    // A field's type is part of what dependents read through it (`state.app.jinja_env`), and so are its items' and values' classes.
    // ...and a function's callback parameter types (an untyped parameter of a callback passed to it),
    // and whether a method is a property (`obj.name.x` reads through its type), and the classes of a tuple it returns.
    for (const [name, first] of names) for (const sym of index.namesakes.get(first.localId) ?? [first]) describe(scopeName(scope, name), ['def', sym.localId, sym.kind, sym.exported, sym.type?.join('.') ?? '', ...(sym.items ? [`items ${sym.items.join('.')}`] : []), ...(sym.values ? [`values ${sym.values.join('.')}`] : []), ...(sym.elements ? [`elements ${sym.elements.map((e) => e.join('.')).join(',')}`] : []), ...(sym.property ? ['property'] : []), ...(sym.callbacks ? [sym.callbacks, sym.typeParams ?? [], sym.returnArgs ?? []] : [])]);
  }
  for (const [scope, names] of index.importsByScope) {
    for (const [name, b] of names) describe(scopeName(scope, name), ['import', b.module, b.imported]);
  }
  for (const [name, list] of index.exportsByName) describe(scopeName('', name), ['export', list.map((e) => [e.local, e.from, e.imported])]);
  describe(STAR, [index.starImports.map((b) => b.module), index.starExports.map((e) => e.from)]);
  for (const [cls, refs] of index.bases) describe(basesOf(cls), refs.map((r) => r.chain));
  const exportedTopLevel = [...(index.children.get('')?.values() ?? [])].some((s) => s.exported);
  describe(COMMONJS, [index.exportsByName.size, index.exportsByName.has('default'), index.starExports.length, exportedTopLevel]);
  return out;
}

/** Interface keys whose descriptors differ between two versions of a file (either may be absent). */
export function changedInterfaceKeys(path: string, before: FileGraph | undefined, after: FileGraph | undefined): string[] {
  const a = before ? indexOf(before).interface : new Map<string, string>();
  const b = after ? indexOf(after).interface : new Map<string, string>();
  const changed: string[] = [];
  for (const [key, value] of a) if (b.get(key) !== value) changed.push(interfaceKey(path, key));
  for (const key of b.keys()) if (!a.has(key)) changed.push(interfaceKey(path, key));
  return changed;
}
