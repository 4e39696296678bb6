// The repository knowledge graph in memory (graphology), kept equal to a from-scratch build of the
// current tree through per-file deltas (RPG-Encoder's add / modify / delete). Each file owns its
// module, its definitions and the edges that start in it; Folder and External nodes are derived
// and reference-counted. A batch of file changes re-resolves the changed files and exactly the
// files that consulted something the change can affect (see moduleKeys.ts).
import { MultiDirectedGraph } from 'graphology';
import type { FileGraph } from '../parse/fileGraph';
import { ambientGlobalKeys, isAmbientGlobalKey } from './ambientGlobals';
import { ChangeSet } from './changeSet';
import { changedInterfaceKeys } from './fileIndex';
import {
  COMPILED_KEY, TSCONFIG_KEY, compareRank, manifestKey, dirOf, isPythonPackageInit, providedKeys, providerRank, pythonModuleName,
} from './moduleKeys';
import { packageProvidedKeys, packageScheme, type ProjectLayout } from './packageScope';
import { withModDeclarations } from './rustModules';
import { Resolver, type FileResolution, type ImportStats, type World } from './resolve';
import { edgeId, folderId, moduleId, type GraphEdge, type GraphNode, type Language } from '../model/schema';
import { TsConfigSet } from './tsconfig';
import type { ManifestFile, ProjectConfig } from '../workspace/projectConfig';
import { sliceClock } from '../eventLoop';

export interface GraphDiff {
  nodes: { upsert: GraphNode[]; remove: string[] };
  edges: { upsert: GraphEdge[]; remove: string[] };
}

export interface FileChanges {
  upsert?: FileGraph[];
  remove?: string[];
  /** The full current project config (tsconfig/jsconfig files, build manifests), when it may have changed. */
  config?: ProjectConfig;
}

export interface ApplyStats {
  /** Files re-resolved in this batch (changed ones plus their affected dependents). */
  resolved: number;
}

export class RepositoryGraph {
  readonly graph = new MultiDirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
  private readonly files = new Map<string, FileGraph>();
  private readonly resolutions = new Map<string, FileResolution>();
  private readonly providers = new Map<string, Set<string>>();
  private readonly bestProvider = new Map<string, string | undefined>();
  private readonly consumers = new Map<string, Set<string>>();
  private readonly providedBy = new Map<string, string[]>();
  private initDirs = new Set<string>();
  private readonly externalEdges = new Map<string, number>();
  private readonly folderModules = new Map<string, number>();
  private tsconfigs = new TsConfigSet();
  private manifests: readonly ManifestFile[] = [];
  /** Every file path, replaced (not mutated) when files come or go: package schemes memoise on it. */
  private paths: ReadonlySet<string> = new Set();
  private modDeclarations: ProjectLayout['modDeclarations'] = new Map();
  private config: ProjectConfig = { tsconfigs: [], manifests: [], compiledModules: [] };
  private compiledModules: ReadonlySet<string> = new Set();
  private projectConfigJson = JSON.stringify(this.config);
  lastApply: ApplyStats = { resolved: 0 };
  /** Bumped when an apply starts: readers that cache derived indexes (search) know when to refresh. */
  version = 0;
  /** The version of the last apply that finished (equal to `version` unless one is under way). */
  settledVersion = 0;
  /** Which nodes each recent apply touched, oldest first (see {@link touchedSince}). */
  private readonly touchLog: { version: number; ids: ReadonlySet<string> }[] = [];

  constructor(readonly rootName: string) {}

  fileGraph(path: string): FileGraph | undefined {
    return this.files.get(path);
  }

  /** The nodes a file owns: its module and its definitions (no scan of the whole graph). */
  nodesInFile(path: string): readonly GraphNode[] {
    return this.resolutions.get(path)?.nodes ?? [];
  }

  /** The project config the graph was resolved with, as JSON (the last `config` applied). */
  get configJson(): string {
    return this.projectConfigJson;
  }

  filePaths(): string[] {
    return [...this.files.keys()];
  }

  importStats(): ImportStats {
    const total: ImportStats = { internal: 0, resolved: 0, unresolvedSamples: [] };
    for (const [path, res] of this.resolutions) {
      total.internal += res.imports.internal;
      total.resolved += res.imports.resolved;
      for (const s of res.imports.unresolvedSamples) if (total.unresolvedSamples.length < 20) total.unresolvedSamples.push(`${path}: ${s}`);
    }
    return total;
  }

  unresolvedReferences(): number {
    let n = 0;
    for (const res of this.resolutions.values()) n += res.unresolvedRefs;
    return n;
  }

  /**
   * The ids of every node added, changed or removed, or whose out-edges changed, by the applies after
   * `settled` (a value of `settledVersion` read earlier), including one still under way; undefined
   * when that history is no longer kept (then rebuild whatever was derived from the graph).
   */
  touchedSince(settled: number): Set<string> | undefined {
    const kept = this.touchLog[0]?.version ?? this.version + 1;
    if (settled + 1 < kept && settled < this.version) return undefined;
    const ids = new Set<string>();
    for (const entry of this.touchLog) if (entry.version > settled) for (const id of entry.ids) ids.add(id);
    return ids;
  }

  /** Applies a batch of file changes and returns what changed in the graph. */
  apply(changes: FileChanges): GraphDiff {
    const steps = this.applySteps(changes);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same, giving the event loop back whenever `sliceMs` of work has run, so an editor host stays
   * responsive while thousands of files are stitched. The caller must not start another apply
   * before this one resolves (the engine serializes them).
   */
  async applySliced(changes: FileChanges, sliceMs = 8): Promise<GraphDiff> {
    const steps = this.applySteps(changes);
    const checkpoint = sliceClock(sliceMs);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await checkpoint();
    }
  }

  /** The apply algorithm as a generator: it yields after each file's share of each phase. */
  private *applySteps(changes: FileChanges): Generator<void, GraphDiff> {
    const version = ++this.version;
    const diff = new DiffCollector();
    this.touchLog.push({ version, ids: diff.touched });
    if (this.touchLog.length > TOUCH_LOG_LENGTH) this.touchLog.shift();
    const removed = new Set<string>();
    const added = new Set<string>();
    const dirty = new Set<string>();
    const changedKeys = new Set<string>();

    const removedGraphs = new Map<string, FileGraph>();
    for (const path of changes.remove ?? []) {
      const old = this.files.get(path);
      if (!old) continue;
      this.files.delete(path);
      removed.add(path);
      removedGraphs.set(path, old);
    }
    for (const file of changes.upsert ?? []) {
      const old = this.files.get(file.path);
      this.files.set(file.path, file);
      dirty.add(file.path);
      // Removed and re-created in one batch is a modification; the module keys of new files change below.
      const previous = removed.delete(file.path) ? removedGraphs.get(file.path) : old;
      if (!previous) added.add(file.path);
      for (const key of changedInterfaceKeys(file.path, previous, file)) changedKeys.add(key);
      yield;
    }
    for (const path of removed) for (const key of changedInterfaceKeys(path, removedGraphs.get(path), undefined)) changedKeys.add(key);

    const layoutBefore = this.layout();
    if (changes.config) for (const key of this.setConfig(changes.config)) changedKeys.add(key);

    // Packages: adding or removing an __init__.py renames every module beneath it.
    const initTouched = [...added, ...removed].some(isPythonPackageInit);
    let rekey: Iterable<string> = [...added, ...removed];
    if (initTouched) {
      this.initDirs = new Set([...this.files.keys()].filter(isPythonPackageInit).map((p) => (p.includes('/') ? dirOf(p) : '')));
      const python = [...this.files.values()].filter((f) => f.language === 'python').map((f) => f.path);
      for (const path of python) dirty.add(path);
      rekey = new Set([...rekey, ...python]);
    }
    // A file of a package-scoped language provides a key per top-level name: an edit can change them.
    const rekeyed = new Set(rekey);
    // So does a file declaring ambient globals (or one that did: `declare global` removed).
    for (const file of changes.upsert ?? []) {
      if (packageScheme(file.language) || file.symbols.some((s) => s.global) || this.providedBy.get(file.path)?.some(isAmbientGlobalKey)) rekeyed.add(file.path);
    }
    // Which package a file is in may hang on manifests and on other files (Cargo's crate roots):
    // when that changes, every file of the language is re-keyed and re-resolved (its qnames change).
    if (added.size > 0 || removed.size > 0) this.paths = new Set(this.files.keys());
    this.modDeclarations = withModDeclarations(this.modDeclarations, changes.upsert ?? [], removed);
    for (const path of this.relaidFiles(layoutBefore, this.layout())) {
      rekeyed.add(path);
      dirty.add(path);
    }
    for (const path of rekeyed) {
      const file = this.files.get(path);
      const before = this.providedBy.get(path) ?? [];
      const after = file ? this.keysProvidedBy(file) : [];
      // Only keys gained or lost change a lookup's answer (a body edit keeps every key).
      const kept = new Set(after);
      for (const key of before) {
        if (kept.has(key)) continue;
        this.providers.get(key)?.delete(path);
        changedKeys.add(key);
      }
      const had = new Set(before);
      for (const key of after) {
        if (had.has(key)) continue;
        let set = this.providers.get(key);
        if (!set) this.providers.set(key, (set = new Set()));
        set.add(path);
        changedKeys.add(key);
      }
      if (file) this.providedBy.set(path, after);
      else this.providedBy.delete(path);
      yield;
    }
    for (const key of changedKeys) {
      this.bestProvider.delete(key);
      for (const consumer of this.consumers.get(key) ?? []) if (this.files.has(consumer)) dirty.add(consumer);
    }

    const resolver = new Resolver(this.world());
    const fresh = new Map<string, FileResolution>();
    for (const path of dirty) {
      fresh.set(path, resolver.resolveFile(path));
      yield;
    }
    this.lastApply = { resolved: dirty.size };

    // 1. edges that went away or changed
    for (const path of [...dirty, ...removed]) {
      const before = this.resolutions.get(path);
      if (!before) continue;
      const after = new Map((fresh.get(path)?.edges ?? []).map((e) => [e.id, e]));
      for (const edge of before.edges) if (!after.has(edge.id)) this.dropEdge(edge, diff);
      yield;
    }
    // 2. folders of removed modules, then the modules' own nodes
    for (const path of removed) this.unlinkFolder(path, diff);
    for (const path of [...dirty, ...removed]) {
      const before = this.resolutions.get(path);
      if (!before) continue;
      const after = new Set((fresh.get(path)?.nodes ?? []).map((n) => n.id));
      for (const node of before.nodes) {
        if (after.has(node.id) || !this.graph.hasNode(node.id)) continue;
        this.graph.dropNode(node.id);
        diff.removeNode(node.id);
      }
      yield;
    }
    // 3. nodes that are new or changed, with their folders
    for (const [path, res] of fresh) {
      const before = new Map((this.resolutions.get(path)?.nodes ?? []).map((n) => [n.id, n]));
      for (const node of res.nodes) {
        const old = before.get(node.id);
        if (!old) {
          this.graph.addNode(node.id, node);
          diff.upsertNode(node);
        } else if (!sameNode(old, node)) {
          this.graph.replaceNodeAttributes(node.id, node);
          diff.upsertNode(node);
        }
      }
      if (added.has(path)) this.linkFolder(path, diff);
      yield;
    }
    // 4. edges that are new or changed, a step per EDGE_STEP of them
    for (const [path, res] of fresh) {
      const before = new Map((this.resolutions.get(path)?.edges ?? []).map((e) => [e.id, e]));
      let done = 0;
      for (const edge of res.edges) {
        const old = before.get(edge.id);
        if (!old) this.addEdge(edge, diff);
        else if (old.line !== edge.line) {
          this.graph.replaceEdgeAttributes(edge.id, edge);
          diff.upsertEdge(edge);
        }
        if (++done % EDGE_STEP === 0) yield;
      }
      yield;
    }
    // 5. externals nobody points at any more
    for (const [id, count] of this.externalEdges) {
      if (count > 0) continue;
      this.externalEdges.delete(id);
      if (this.graph.hasNode(id)) {
        this.graph.dropNode(id);
        diff.removeNode(id);
      }
    }

    // Recording what each file now consumes and provides is ~20-30 ms on Django's 943 files: sliced
    // too. Nothing reads these records between two applies, and the version settles after the last.
    for (const path of removed) this.setResolution(path, undefined);
    for (const [path, res] of fresh) {
      this.setResolution(path, res);
      yield;
    }
    this.settledVersion = version;
    // Listing a whole-graph diff is ~8 ms on Django: not in the same slice as the last file's records.
    yield;
    return diff.result();
  }

  /** The module keys a file answers lookups for (see moduleKeys.ts). */
  private keysProvidedBy(file: FileGraph): string[] {
    return [...providedKeys(file.path, file.language, this.initDirs, this.rootName), ...packageProvidedKeys(file, this.layout()), ...ambientGlobalKeys(file)];
  }

  /** What each file's resolution leaves besides its nodes and edges: saved beside the graph (querySnapshot.ts). */
  resolutionStates(): ResolutionState[] {
    return [...this.resolutions].map(([path, r]) => ({ path, consumed: [...r.consumed], imports: r.imports, unresolvedRefs: r.unresolvedRefs }));
  }

  /**
   * Takes the graph as an earlier apply of these same `files` and `config` left it (saved with its
   * resolution states in the query snapshot) instead of resolving every file again: a warm start then
   * costs what adding the saved nodes and edges costs. Only into an empty graph. Throws, leaving the
   * graph empty, when the saved graph does not fit the files (then build it: {@link applySliced}).
   */
  async restoreSliced(files: FileGraph[], config: ProjectConfig, saved: SavedGraph, states: ResolutionState[], sliceMs = 8): Promise<void> {
    if (this.files.size > 0 || this.graph.order > 0) throw new Error('restore: the graph is not empty');
    const checkpoint = sliceClock(sliceMs);
    try {
      const resolutions = savedResolutions(files, saved, states);
      for (const file of files) this.files.set(file.path, file);
      this.paths = new Set(this.files.keys());
      this.initDirs = new Set(files.map((f) => f.path).filter(isPythonPackageInit).map((p) => (p.includes('/') ? dirOf(p) : '')));
      this.modDeclarations = withModDeclarations(this.modDeclarations, files, new Set());
      this.setConfig(config);
      for (let i = 0; i < saved.order; i++) {
        if (i % RESTORE_STEP === 0) await checkpoint();
        const node = saved.nodeAt(i);
        this.graph.addNode(node.id, node);
      }
      for (let i = 0; i < saved.size; i++) {
        if (i % RESTORE_STEP === 0) await checkpoint();
        const edge = saved.edgeAt(i);
        // The endpoints as the nodes' own id strings, as addEdge does.
        edge.source = this.graph.getNodeAttributes(edge.source).id;
        edge.target = this.graph.getNodeAttributes(edge.target).id;
        this.graph.addDirectedEdgeWithKey(edge.id, edge.source, edge.target, edge);
        if (edge.target.startsWith('ext:')) this.externalEdges.set(edge.target, (this.externalEdges.get(edge.target) ?? 0) + 1);
        if (edge.owner === '') continue; // a folder's CONTAINS edge: counted below
        const owner = resolutions.get(edge.owner);
        if (!owner) throw new Error(`the saved graph has an edge of ${edge.owner}, which is not indexed`);
        owner.edges.push(edge);
      }
      for (const file of files) {
        for (const dir of folderChain(file.path)) this.folderModules.set(dir, (this.folderModules.get(dir) ?? 0) + 1);
        const keys = this.keysProvidedBy(file);
        this.providedBy.set(file.path, keys);
        for (const key of keys) (this.providers.get(key) ?? this.providers.set(key, new Set()).get(key)!).add(file.path);
        this.setResolution(file.path, resolutions.get(file.path)!);
      }
      this.version = this.settledVersion = this.version + 1;
    } catch (err) {
      this.clear();
      throw err;
    }
  }

  /** Back to empty (a restore that failed part-way). */
  private clear(): void {
    this.graph.clear();
    for (const map of [this.files, this.resolutions, this.providers, this.bestProvider, this.consumers, this.providedBy, this.externalEdges, this.folderModules]) map.clear();
    this.initDirs = new Set();
    this.paths = new Set();
    this.modDeclarations = new Map();
  }

  /**
   * Resolves `file` (an unsaved editor buffer) against the repository as it is, without changing the
   * graph: completion's query graph links the code being written to repository nodes this way.
   */
  resolveDetached(file: FileGraph, withUseLines = false): FileResolution {
    const world = this.world();
    const overlay: World = { ...world, file: (path) => (path === file.path ? file : world.file(path)) };
    return new Resolver(overlay).resolveFile(file.path, withUseLines);
  }

  private layout(): ProjectLayout {
    return { manifests: this.manifests, paths: this.paths, modDeclarations: this.modDeclarations };
  }

  /** Files of the languages whose package layout differs between two layouts. */
  private relaidFiles(before: ProjectLayout, after: ProjectLayout): string[] {
    if (before.manifests === after.manifests && before.paths === after.paths && before.modDeclarations === after.modDeclarations) return [];
    const relaid = new Set<Language>();
    const moved = new Set<string>();
    const seen = new Set<Language>();
    for (const file of this.files.values()) {
      if (seen.has(file.language)) continue;
      seen.add(file.language);
      const scheme = packageScheme(file.language);
      if (scheme?.layoutKey && scheme.layoutKey(before) !== scheme.layoutKey(after)) relaid.add(file.language);
      else for (const path of scheme?.movedFiles?.(before, after) ?? []) if (this.files.has(path)) moved.add(path);
    }
    return [...moved, ...[...this.files.values()].filter((f) => relaid.has(f.language)).map((f) => f.path)];
  }

  private world(): World {
    return {
      file: (path) => this.files.get(path),
      provider: (key) => {
        if (this.bestProvider.has(key)) return this.bestProvider.get(key);
        let best: string | undefined;
        for (const path of this.providers.get(key) ?? []) {
          if (best === undefined || compareRank(providerRank(path, key), providerRank(best, key)) < 0) best = path;
        }
        this.bestProvider.set(key, best);
        return best;
      },
      moduleName: (path) => {
        const file = this.files.get(path);
        if (file?.language === 'python') return pythonModuleName(path, this.initDirs, this.rootName);
        // Java: the file's public type by its fully qualified name (`com.google.gson.Gson`).
        if (file?.language === 'java') return [file.package, path.split('/').pop()!.replace(/\.java$/, '')].filter(Boolean).join('.');

        // Rust: the module path (`tokio::runtime::builder`), or the path outside every crate.
        if (file?.language === 'rust') return packageScheme('rust')!.packageOf(file, this.layout()) ?? path.replace(/\.rs$/, '');
        return path.replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
      },
      tsconfigs: this.tsconfigs,
      manifests: this.manifests,
      compiledModules: this.compiledModules,
      paths: this.paths,
      modDeclarations: this.modDeclarations,
    };
  }

  /** Takes a new project config; returns the keys of what changed in it. */
  private setConfig(config: ProjectConfig): string[] {
    const json = JSON.stringify(config);
    if (json === this.projectConfigJson) return [];
    const before = this.config;
    this.config = config;
    this.projectConfigJson = json;
    const changed: string[] = [];
    if (JSON.stringify(before.tsconfigs) !== JSON.stringify(config.tsconfigs)) {
      this.tsconfigs = new TsConfigSet(config.tsconfigs);
      changed.push(TSCONFIG_KEY);
    }
    const names = new Set([...before.manifests, ...config.manifests].map((m) => baseName(m.path)));
    for (const name of names) {
      const of = (list: ManifestFile[]) => JSON.stringify(list.filter((m) => baseName(m.path) === name));
      if (of(before.manifests) !== of(config.manifests)) changed.push(manifestKey(name));
    }
    // A new array only when a manifest changed: package schemes memoise on its identity (layoutKey).
    if (changed.some((key) => key !== TSCONFIG_KEY)) this.manifests = config.manifests;
    if (JSON.stringify(before.compiledModules) !== JSON.stringify(config.compiledModules)) {
      this.compiledModules = new Set(config.compiledModules);
      changed.push(COMPILED_KEY);
    }
    return changed;
  }


  private setResolution(path: string, res: FileResolution | undefined): void {
    const before = this.resolutions.get(path);
    for (const key of before?.consumed ?? []) this.consumers.get(key)?.delete(path);
    if (!res) {
      this.resolutions.delete(path);
      return;
    }
    this.resolutions.set(path, res);
    for (const key of res.consumed) {
      let set = this.consumers.get(key);
      if (!set) this.consumers.set(key, (set = new Set()));
      set.add(path);
    }
  }

  private addEdge(edge: GraphEdge, diff: DiffCollector): void {
    if (edge.target.startsWith('ext:')) {
      const count = this.externalEdges.get(edge.target) ?? 0;
      this.externalEdges.set(edge.target, count + 1);
      if (!this.graph.hasNode(edge.target)) {
        const node = externalNode(edge.target);
        this.graph.addNode(node.id, node);
        diff.upsertNode(node);
      }
    }
    // Resolution builds an endpoint's id afresh for each reference: point the edge at the node's own
    // copy instead (108k strings, 6 MB of Django's heap, less for every major GC to mark).
    edge.source = this.graph.getNodeAttributes(edge.source).id;
    edge.target = this.graph.getNodeAttributes(edge.target).id;
    this.graph.addDirectedEdgeWithKey(edge.id, edge.source, edge.target, edge);
    diff.upsertEdge(edge);
  }

  private dropEdge(edge: GraphEdge, diff: DiffCollector): void {
    if (edge.target.startsWith('ext:')) this.externalEdges.set(edge.target, (this.externalEdges.get(edge.target) ?? 1) - 1);
    if (this.graph.hasEdge(edge.id)) this.graph.dropEdge(edge.id);
    diff.removeEdge(edge);
  }

  /** Counts a new module into its folders, creating Folder nodes and CONTAINS edges down from the root. */
  private linkFolder(path: string, diff: DiffCollector): void {
    const chain = folderChain(path);
    for (let i = 0; i < chain.length; i++) {
      const dir = chain[i];
      const count = this.folderModules.get(dir) ?? 0;
      this.folderModules.set(dir, count + 1);
      if (count > 0) continue;
      const node = folderNode(dir, this.rootName);
      this.graph.addNode(node.id, node);
      diff.upsertNode(node);
      if (i > 0) this.addEdge(derivedEdge(folderId(chain[i - 1]), node.id), diff);
    }
    this.addEdge(derivedEdge(folderId(chain[chain.length - 1]), moduleId(path)), diff);
  }

  private unlinkFolder(path: string, diff: DiffCollector): void {
    const chain = folderChain(path);
    this.dropEdge(derivedEdge(folderId(chain[chain.length - 1]), moduleId(path)), diff);
    for (let i = chain.length - 1; i >= 0; i--) {
      const dir = chain[i];
      const count = (this.folderModules.get(dir) ?? 1) - 1;
      if (count > 0) {
        this.folderModules.set(dir, count);
        continue;
      }
      this.folderModules.delete(dir);
      if (i > 0) this.dropEdge(derivedEdge(folderId(chain[i - 1]), folderId(dir)), diff);
      this.graph.dropNode(folderId(dir));
      diff.removeNode(folderId(dir));
    }
  }
}

/** A file's resolution as saved: what {@link RepositoryGraph.resolutionStates} lists for it. */
export interface ResolutionState {
  path: string;
  consumed: string[];
  imports: ImportStats;
  unresolvedRefs: number;
}

/** A graph saved earlier, read node by node and edge by edge in the order it was built (graphCodec's CompactGraph). */
export interface SavedGraph {
  readonly order: number;
  readonly size: number;
  nodeAt(i: number): GraphNode;
  edgeAt(i: number): GraphEdge;
}

/** Nodes and edges added to the graph between two checks of the restore's time slice. */
const RESTORE_STEP = 500;

/**
 * Each file's resolution from a saved graph, its edges left to fill in as they are added. Throws when the
 * saved graph was not made from these files: a file without its state or the reverse, a module whose
 * text has changed, a node that no file owns (an edge's owner is checked as it is added).
 */
function savedResolutions(files: FileGraph[], saved: SavedGraph, states: ResolutionState[]): Map<string, FileResolution> {
  const resolutions = new Map<string, FileResolution>();
  for (const s of states) resolutions.set(s.path, { nodes: [], edges: [], consumed: new Set(s.consumed), imports: s.imports, unresolvedRefs: s.unresolvedRefs });
  const hashes = new Map(files.map((f) => [f.path, f.hash]));
  if (resolutions.size !== files.length || files.some((f) => !resolutions.has(f.path))) throw new Error('the saved graph is of other files');
  for (let i = 0; i < saved.order; i++) {
    const node = saved.nodeAt(i);
    if (node.kind === 'Folder' || node.kind === 'External') continue;
    const res = resolutions.get(node.path);
    if (!res) throw new Error(`the saved graph has a node of ${node.path}, which is not indexed`);
    if (node.kind === 'Module' && node.hash !== hashes.get(node.path)) throw new Error(`${node.path} has changed since the graph was saved`);
    res.nodes.push(node);
  }
  return resolutions;
}

/** '' (root), 'a', 'a/b' for 'a/b/c.py'. */
function folderChain(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

function folderNode(dir: string, rootName: string): GraphNode {
  return derivedNode(folderId(dir), 'Folder', dir === '' ? rootName : dir.split('/').pop()!, dir === '' ? rootName : dir, dir);
}

function externalNode(id: string): GraphNode {
  const name = id.slice(id.indexOf(':', 4) + 1);
  return derivedNode(id, 'External', name.split(/::|[./]/).filter(Boolean).pop() ?? name, name, '');
}

/** Folder and External nodes: no source of their own, so no range, signature, doc or hash. */
function derivedNode(id: string, kind: 'Folder' | 'External', name: string, qname: string, path: string): GraphNode {
  return { id, kind, name, qname, path, language: '', range: null, signature: '', doc: '', hash: '', exported: true };
}

function derivedEdge(source: string, target: string): GraphEdge {
  return { id: edgeId('CONTAINS', source, target), kind: 'CONTAINS', source, target, line: -1, owner: '' };
}

function sameNode(a: GraphNode, b: GraphNode): boolean {
  return (
    a.kind === b.kind && a.name === b.name && a.qname === b.qname && a.signature === b.signature && a.doc === b.doc &&
    a.hash === b.hash && a.exported === b.exported && a.language === b.language &&
    JSON.stringify(a.range) === JSON.stringify(b.range)
  );
}

/**
 * Edges added between two yields of an apply (a large module has thousands): 200 took 4-12 ms on
 * Django in plain Node but up to ~20 ms of CPU in a loaded extension host (profiled), hence 100.
 */
const EDGE_STEP = 100;

/** Applies remembered by {@link RepositoryGraph.touchedSince}: enough for saves between two queries. */
const TOUCH_LOG_LENGTH = 64;

class DiffCollector {
  private readonly nodes = new ChangeSet<GraphNode>();
  private readonly edges = new ChangeSet<GraphEdge>();
  /** Nodes whose own attributes or out-edges changed: what search text is derived from. */
  readonly touched = new Set<string>();

  upsertNode(node: GraphNode): void {
    this.nodes.upsert(node.id, node);
    this.touched.add(node.id);
  }
  removeNode(id: string): void {
    this.nodes.remove(id);
    this.touched.add(id);
  }
  upsertEdge(edge: GraphEdge): void {
    this.edges.upsert(edge.id, edge);
    this.touched.add(edge.source);
  }
  removeEdge(edge: GraphEdge): void {
    this.edges.remove(edge.id);
    this.touched.add(edge.source);
  }
  result(): GraphDiff {
    return { nodes: this.nodes.take(), edges: this.edges.take() };
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
