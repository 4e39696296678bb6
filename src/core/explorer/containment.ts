// The containment tree the explorer walks: Folder → Module → Class/Function → Method/Field, read off
// the graph's structural edges (CONTAINS, HAS_METHOD, HAS_FIELD). External nodes belong to no folder,
// so they hang under one synthetic group. By areas, the functional hierarchy takes the folders' place:
// Area → sub-area → Module (a leaf area's files) → its definitions. Compiled twins (search/compiledTwins.ts:
// `v3/types.cjs` built from `src/v3/types.ts`) are folded into their source, as answers fold them: the
// source module says what it was compiled to, and a folder left with nothing but twins is not shown.
// Rebuilt per graph version: O(nodes + edges).
import type { MultiDirectedGraph } from 'graphology';
import type { EdgeKind, GraphEdge, GraphNode, NodeKind } from '../model/schema';
import { AREA_PREFIX, type Area } from '../features/hierarchy';
import { compiledFrom } from '../search/compiledTwins';
import { EXTERNALS_GROUP } from './protocol';

export type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

const STRUCTURAL: ReadonlySet<EdgeKind> = new Set(['CONTAINS', 'HAS_METHOD', 'HAS_FIELD']);

/** The functional hierarchy, as the view by areas reads it (features/hierarchy.ts's FeatureHierarchy). */
export interface AreaTree {
  readonly areas: ReadonlyMap<string, Area>;
}

/** Children are listed folders first, then modules, types, functions, members: the order of a file tree. */
const KIND_ORDER: Record<NodeKind, number> = {
  Folder: 0, Module: 1, Class: 2, Interface: 2, Enum: 2, TypeAlias: 3, Function: 4, Method: 4, Field: 5, GlobalVariable: 5, External: 6,
};

export class Containment {
  private readonly parents = new Map<string, string>();
  private readonly childLists = new Map<string, string[]>();
  private readonly subtreeSizes = new Map<string, number>();
  readonly roots: string[] = [];
  /** The areas by their view id (`area:2.3`), in the view by areas. */
  private readonly areas = new Map<string, Area>();
  private readonly byAreas: boolean;
  /** Compiled files folded into their TypeScript source, by source. */
  private readonly twins = new Map<string, string[]>();
  /** The folded files themselves, and the folders left with nothing else: not in the tree. */
  private readonly folded = new Set<string>();

  constructor(readonly graph: Graph, byAreas?: AreaTree) {
    this.byAreas = byAreas !== undefined;
    this.foldTwins();
    if (byAreas) this.addAreas(byAreas);
    graph.forEachEdge((_, edge, source, target) => {
      // one parent per node: the first structural edge wins if a node were ever contained twice
      if (!STRUCTURAL.has(edge.kind) || this.parents.has(target) || source === target || this.isFolded(target)) return;
      // by areas, a module hangs under its area, and folders are not in the tree
      if (byAreas && graph.getNodeAttributes(source).kind === 'Folder') return;
      this.parents.set(target, source);
      push(this.childLists, source, target);
    });
    graph.forEachNode((id, node) => {
      if (node.kind !== 'External') return;
      this.parents.set(id, EXTERNALS_GROUP);
      push(this.childLists, EXTERNALS_GROUP, id);
    });
    const label = (id: string) => (graph.hasNode(id) ? graph.getNodeAttributes(id) : undefined);
    for (const list of this.childLists.values()) {
      list.sort((a, b) => {
        const x = label(a);
        const y = label(b);
        // an area's sub-areas (not graph nodes) before its files, in their numbering: 2.9 before 2.10
        const areas = Number(this.areas.has(b)) - Number(this.areas.has(a));
        return areas || (x && y ? KIND_ORDER[x.kind] - KIND_ORDER[y.kind] || x.name.localeCompare(y.name) : 0) || a.localeCompare(b, undefined, { numeric: true });
      });
    }
    graph.forEachNode((id, node) => {
      if (!this.parents.has(id) && !(byAreas && node.kind === 'Folder') && !this.isFolded(id)) this.roots.push(id);
    });
    for (const id of this.areas.keys()) if (!this.parents.has(id)) this.roots.push(id);
    this.roots.sort((a, b) => (a === 'dir:.' ? -1 : b === 'dir:.' ? 1 : a.localeCompare(b, undefined, { numeric: true })));
    if (this.childLists.has(EXTERNALS_GROUP)) this.roots.push(EXTERNALS_GROUP);
    this.countSubtrees();
  }

  has(id: string): boolean {
    if (id === EXTERNALS_GROUP) return this.childLists.has(id);
    if (id.startsWith(AREA_PREFIX)) return this.areas.has(id);
    return this.graph.hasNode(id) && !(this.byAreas && this.graph.getNodeAttributes(id).kind === 'Folder') && !this.isFolded(id);
  }

  /** The compiled files folded into this source module, sorted (none for any other node). */
  compiledTo(id: string): readonly string[] {
    return this.twins.get(id) ?? [];
  }

  /** A folded file, a definition in one, or a folder that held nothing else. */
  private isFolded(id: string): boolean {
    if (this.folded.size === 0) return false;
    const node = this.graph.getNodeAttributes(id);
    return this.folded.has(node.kind === 'Folder' ? id : node.path);
  }

  /** Finds the compiled twins, then the folders whose every module is one. */
  private foldTwins(): void {
    const modules = this.graph.filterNodes((_id, node) => node.kind === 'Module');
    for (const id of modules) {
      const source = compiledFrom(this.graph, id);
      if (!source) continue;
      this.folded.add(id);
      push(this.twins, source, id);
    }
    if (this.folded.size === 0) return;
    // Modules each folder keeps, counted up the folder chain.
    const kept = new Map<string, number>();
    for (const id of modules) {
      for (let at = this.folderOf(id); at !== undefined; at = this.folderOf(at)) kept.set(at, (kept.get(at) ?? 0) + (this.folded.has(id) ? 0 : 1));
    }
    for (const [folder, left] of kept) if (left === 0) this.folded.add(folder);
    for (const list of this.twins.values()) list.sort();
  }

  /** The folder node that contains a module or folder (CONTAINS in), if any. */
  private folderOf(id: string): string | undefined {
    let folder: string | undefined;
    this.graph.forEachInEdge(id, (_e, edge, source, _t, sourceAttributes) => {
      if (folder === undefined && edge.kind === 'CONTAINS' && sourceAttributes.kind === 'Folder') folder = source;
    });
    return folder;
  }

  /** The area a view id (`area:2.3`) stands for, in the view by areas. */
  area(id: string): Area | undefined {
    return this.areas.get(id);
  }

  /** Areas under their parents, then each leaf's files (their modules) under it; the repository's own area is no node. */
  private addAreas(tree: AreaTree): void {
    // An area of nothing but folded twins (their similar features group compiled files together) is not shown.
    const shown = new Map<string, boolean>();
    const hasFiles = (area: Area): boolean => {
      let has = shown.get(area.id);
      if (has === undefined) {
        const child = (id: string) => tree.areas.get(id);
        has = area.files.some((f) => this.graph.hasNode(f) && !this.folded.has(f)) || area.children.some((id) => child(id) !== undefined && hasFiles(child(id)!));
        shown.set(area.id, has);
      }
      return has;
    };
    for (const area of tree.areas.values()) if (area.id !== '' && hasFiles(area)) this.areas.set(AREA_PREFIX + area.id, area);
    for (const [id, area] of this.areas) {
      if (area.parent) {
        this.parents.set(id, AREA_PREFIX + area.parent);
        push(this.childLists, AREA_PREFIX + area.parent, id);
      }
      for (const file of area.files) {
        if (!this.graph.hasNode(file) || this.parents.has(file) || this.folded.has(file)) continue;
        this.parents.set(file, id);
        push(this.childLists, id, file);
      }
    }
  }

  parent(id: string): string | undefined {
    return this.parents.get(id);
  }

  children(id: string): readonly string[] {
    return this.childLists.get(id) ?? [];
  }

  /** Nodes below `id`, itself excluded. */
  descendants(id: string): number {
    return this.subtreeSizes.get(id) ?? 0;
  }

  /** From the root down to the parent of `id`. */
  ancestors(id: string): string[] {
    const chain: string[] = [];
    const seen = new Set<string>([id]);
    for (let p = this.parents.get(id); p !== undefined && !seen.has(p); p = this.parents.get(p)) {
      seen.add(p);
      chain.push(p);
    }
    return chain.reverse();
  }

  /** Iterative post-order: deep folder trees never overflow the stack. */
  private countSubtrees(): void {
    const stack: Array<[string, number]> = this.roots.map((r) => [r, 0]);
    const visited = new Set<string>();
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const kids = this.children(top[0]);
      if (top[1] < kids.length) {
        const next = kids[top[1]++];
        if (!visited.has(next)) {
          visited.add(next);
          stack.push([next, 0]);
        }
        continue;
      }
      stack.pop();
      let size = 0;
      for (const k of kids) size += 1 + (this.subtreeSizes.get(k) ?? 0);
      this.subtreeSizes.set(top[0], size);
    }
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
