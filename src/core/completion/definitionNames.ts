// Top-level definitions of the repository by name, for names a buffer uses without importing them
// (an import line being written, auto-import style). Follows the graph file by file, like the
// window index: a file whose hash changed is re-read, a removed file is dropped.
import type { RepositoryGraph } from '../graph/repositoryGraph';
import { symbolId } from '../graph/schema';

const IMPORTABLE = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'GlobalVariable']);

export class DefinitionNames {
  private readonly byFile = new Map<string, { hash: string; names: Array<[string, string]> }>();
  private byName = new Map<string, string[]>();
  private seenVersion = -1;

  constructor(private readonly graph: RepositoryGraph) {}

  /** Ids of the exported top-level definitions called `name`, in path order. */
  named(name: string): readonly string[] {
    this.refresh();
    return this.byName.get(name) ?? [];
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
      const names: Array<[string, string]> = [];
      for (const sym of this.graph.fileGraph(path)?.symbols ?? []) {
        if (sym.parent === null && sym.exported && IMPORTABLE.has(sym.kind)) names.push([sym.name, symbolId(path, sym.localId)]);
      }
      this.byFile.set(path, { hash, names });
    }
    if (changed) {
      const byName = new Map<string, string[]>();
      for (const path of [...this.byFile.keys()].sort()) for (const [name, id] of this.byFile.get(path)!.names) (byName.get(name) ?? byName.set(name, []).get(name)!).push(id);
      this.byName = byName;
    }
    this.seenVersion = this.graph.version;
  }
}
