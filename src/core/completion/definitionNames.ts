// Top-level definitions of the repository by name, for names a buffer uses without importing them
// (an import line being written, auto-import style), the types that declare a member of a given
// name, for an object literal the graph cannot type (its keys say which type it is), and each file's
// top-level definitions by spelling, for the analogue of a name (analogy.ts), and the Python classes
// declaring a member of a given name, for a value the graph cannot type (the members used on it say which class it is). Follows the
// graph file by file, like the window index: a file whose hash changed is re-read, a removed file is dropped.
import type { RepositoryGraph } from '../graph/repositoryGraph';
import { symbolId } from '../model/schema';

const IMPORTABLE = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'GlobalVariable']);
/** Types an object literal can be checked against. */
const LITERAL_TYPES = new Set(['Interface', 'TypeAlias', 'Class']);

/** A member of a type, by id, with its type's id. */
export interface TypeMember {
  member: string;
  owner: string;
}

interface FileNames {
  hash: string;
  names: Array<[string, string]>;
  members: Array<[string, TypeMember]>;
  /** Members of Python classes by name. */
  classMembers: Array<[string, TypeMember]>;
  /** Top-level definitions by spelling(name). */
  spelled: Map<string, string[]>;
}

/** A name as its words spell it, whatever the case style: `$ZodNanoID`, `zod_nano_id` → `zodnanoid`. */
export function spelling(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export class DefinitionNames {
  private readonly byFile = new Map<string, FileNames>();
  private byName = new Map<string, string[]>();
  private byMember = new Map<string, TypeMember[]>();
  private byClassMember = new Map<string, TypeMember[]>();
  private seenVersion = -1;

  constructor(private readonly graph: RepositoryGraph) {}

  /** Ids of the exported top-level definitions called `name`, in path order. */
  named(name: string): readonly string[] {
    this.refresh();
    return this.byName.get(name) ?? [];
  }

  /** Fields and methods called `name` of the repository's interfaces, object type aliases and classes (TypeScript/JavaScript). */
  typesWithMember(name: string): readonly TypeMember[] {
    this.refresh();
    return this.byMember.get(name) ?? [];
  }

  /**
   * Fields and methods called `name` of the repository's Python classes: the classes an untyped
   * value can be, read from the members the code uses on it (duck typing, structural.ts).
   */
  classesWithMember(name: string): readonly TypeMember[] {
    this.refresh();
    return this.byClassMember.get(name) ?? [];
  }

  /** Ids of the top-level definitions of `path` whose name is spelled `key` (spelling()), in source order. */
  inFile(path: string, key: string): readonly string[] {
    this.refresh();
    return this.byFile.get(path)?.spelled.get(key) ?? [];
  }

  private refresh(): void {
    if (this.seenVersion === this.graph.version) return;
    const live = new Set(this.graph.filePaths());
    let changed = false;
    for (const path of this.byFile.keys()) if (!live.has(path)) changed = this.byFile.delete(path) || changed;
    for (const path of live) {
      const hash = this.graph.fileGraph(path)?.hash ?? '';
      if (this.byFile.get(path)?.hash === hash) continue;
      changed = true;
      const file = this.graph.fileGraph(path);
      const names: Array<[string, string]> = [];
      const members: Array<[string, TypeMember]> = [];
      const classMembers: Array<[string, TypeMember]> = [];
      const spelled = new Map<string, string[]>();
      const kinds = new Map((file?.symbols ?? []).map((sym) => [sym.localId, sym.kind]));
      for (const sym of file?.symbols ?? []) {
        if (sym.parent === null && sym.exported && IMPORTABLE.has(sym.kind)) names.push([sym.name, symbolId(path, sym.localId)]);
        if (sym.parent === null) {
          const key = spelling(sym.name);
          (spelled.get(key) ?? spelled.set(key, []).get(key)!).push(symbolId(path, sym.localId));
        }
        const literalKeys = file!.language !== 'python' && sym.parent !== null && (sym.kind === 'Field' || sym.kind === 'Method');
        if (literalKeys && LITERAL_TYPES.has(kinds.get(sym.parent!) ?? '')) members.push([sym.name, { member: symbolId(path, sym.localId), owner: symbolId(path, sym.parent!) }]);
        const classMember = file!.language === 'python' && sym.parent !== null && (sym.kind === 'Field' || sym.kind === 'Method') && kinds.get(sym.parent) === 'Class';
        if (classMember) classMembers.push([sym.name, { member: symbolId(path, sym.localId), owner: symbolId(path, sym.parent!) }]);
      }
      this.byFile.set(path, { hash, names, members, classMembers, spelled });
    }
    if (changed) {
      const byName = new Map<string, string[]>();
      const byMember = new Map<string, TypeMember[]>();
      const byClassMember = new Map<string, TypeMember[]>();
      for (const path of [...this.byFile.keys()].sort()) {
        const file = this.byFile.get(path)!;
        for (const [name, id] of file.names) (byName.get(name) ?? byName.set(name, []).get(name)!).push(id);
        for (const [name, m] of file.members) (byMember.get(name) ?? byMember.set(name, []).get(name)!).push(m);
        for (const [name, m] of file.classMembers) (byClassMember.get(name) ?? byClassMember.set(name, []).get(name)!).push(m);
      }
      this.byName = byName;
      this.byMember = byMember;
      this.byClassMember = byClassMember;
    }
    this.seenVersion = this.graph.version;
  }
}
