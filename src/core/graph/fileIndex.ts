// Lookup tables over one per-file graph, built once per FileGraph object and cached, plus the
// signature of everything other files can read from it: when an edit leaves that signature
// alone, no other file's resolution can change and only the edited file is re-resolved.
import type { ExportBinding, FileGraph, ImportBinding, Reference, SymbolDef } from '../parse/fileGraph';
import { sha1 } from '../parse/extractUtil';

export interface FileIndex {
  byLocalId: Map<string, SymbolDef>;
  /** parent localId ('' for the module) → name → first definition of that name. */
  children: Map<string, Map<string, SymbolDef>>;
  /** scope localId ('' for the module) → bound name → first import binding of that name. */
  importsByScope: Map<string, Map<string, ImportBinding>>;
  /** `from x import *` at module level. */
  starImports: ImportBinding[];
  exportsByName: Map<string, ExportBinding[]>;
  /** `export * from 'x'`. */
  starExports: ExportBinding[];
  /** localId of a class → its INHERITS references. */
  bases: Map<string, Reference[]>;
  interfaceSignature: string;
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
  for (const sym of file.symbols) {
    byLocalId.set(sym.localId, sym);
    const parent = sym.parent ?? '';
    let names = children.get(parent);
    if (!names) children.set(parent, (names = new Map()));
    if (!names.has(sym.name)) names.set(sym.name, sym);
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
  return { byLocalId, children, importsByScope, starImports, exportsByName, starExports, bases, interfaceSignature: signatureOf(file) };
}

/** Everything resolution of *other* files may read from this one; line numbers and bodies excluded. */
function signatureOf(file: FileGraph): string {
  const parts: unknown[] = [
    file.language,
    file.symbols.map((s) => [s.localId, s.kind, s.name, s.parent, s.exported]),
    file.imports.filter((b) => b.scope === null).map((b) => [b.local, b.module, b.imported]),
    file.exports.map((e) => [e.exported, e.local, e.from, e.imported]),
    file.refs.filter((r) => r.kind === 'INHERITS').map((r) => [r.from, r.chain, r.relation]),
  ];
  return sha1(JSON.stringify(parts));
}
