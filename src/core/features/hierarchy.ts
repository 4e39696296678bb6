// The functional view (RPG-Encoder): areas → sub-areas → files → entities, every function, method and
// class under exactly one leaf area (through its file), every area grounded to its folders. Built once
// from the graph (areas.ts), then kept current per change (RPG-Encoder's evolution): a deleted file's
// entities go and empty areas are pruned; a changed entity is re-lifted only when its content hash
// changed; a changed file is re-routed only when its summary drifted; a new file is routed top-down to
// the most compatible area. Area names are kept as built: an area does not rename itself on every save.
// Routing is fast but depends on the order of the changes; once they pause, a view left by them is
// settled to a build from scratch (settleTo), so that the same code gives the same view.
import { SIMILARITY_WEIGHT, induceAreas, signalGraph, type AreaDraft } from './areas';
import { dirOf, filesPerFolder, groundArea } from './grounding';
import { areaName, areaTerms } from './naming';
import { featureEntities, fileLinks, liftEntity, summarize, SurfaceWords, type FeatureGraph, type LiftedEntity, type Said } from './profiles';
import { accumulate, dot, nearestNeighbours, norm, termStats, tfidf, type TermStats, type Vector } from './vectors';

/** How an area is named where it stands beside graph nodes (agent tools' ids, the explorer's view): `area:2.3`. */
export const AREA_PREFIX = 'area:';

export interface Area {
  /** '' for the repository; children number from 1 under their parent: "2", "2.3", "2.3.1". */
  id: string;
  name: string;
  /** Its most distinctive words among its siblings, most telling first. */
  terms: string[];
  parent: string | null;
  /** Sub-areas; empty for a leaf. */
  children: string[];
  /** A leaf's files, sorted; empty for an inner area. */
  files: string[];
  /** The folders that ground it (non-redundant LCAs of its files' paths; '' is the repository root). */
  scopes: string[];
}

export interface FeatureUpdate {
  /** Entities whose content hash changed or that are new: lifted again. */
  relifted: number;
  /** Entities of changed files lifted before with the same hash: features reused. */
  reused: number;
  removedEntities: number;
  addedFiles: number;
  removedFiles: number;
  /** Known files whose summary drifted past DRIFT and were routed again. */
  rerouted: number;
  /** Areas removed because nothing was left under them. */
  pruned: number;
}

/** Persisted form (features.json); `format` changes when this shape does. */
export interface PersistedHierarchy {
  format: typeof FORMAT;
  rootName: string;
  stats: { files: number; df: Array<[string, number]> };
  areas: Area[];
  files: Array<{ path: string; leaf: string; hash: string; terms: Array<[string, number]>; entities: Array<{ id: string; hash: string; features: string[]; said?: string }> }>;
  /** The top level was grouped by a model (areaGroups.ts). */
  grouped?: boolean;
  /** false: changed by updates since it was built (settled at the next pause). */
  settled?: boolean;
}

const FORMAT = 1;
/** Similar files linked per file, and the least cosine that links them. */
const NEIGHBOURS = 5;
const MIN_SIMILARITY = 0.2;
/** A file whose summary moved further than this (1 − cosine to its previous one) is routed again. */
export const DRIFT = 0.5;

export class FeatureHierarchy {
  readonly areas = new Map<string, Area>();
  /** Bumped by every update: what is derived from the hierarchy (its search index) knows when to refresh. */
  version = 0;
  /** A model grouped the top level (areaGroups.ts): the view evolves from there and is not grouped again. */
  grouped = false;
  /** Whether this is the view a build from scratch gives the graph (false once an update changed a file). */
  settled = true;
  private readonly entities = new Map<string, LiftedEntity>();
  private readonly files = new Map<string, { leaf: string; hash: string; terms: Map<string, number>; vector: Vector; entities: string[] }>();
  /** Sum of the vectors of the files below each area: routing compares a file with it. */
  private readonly centroids = new Map<string, Vector>();
  private readonly byFolder = new Map<string, Set<string>>();
  private folderCounts = new Map<string, number>();

  private constructor(
    readonly rootName: string,
    private stats: TermStats,
  ) {}

  /** Lifts every entity (with a model's descriptions where `said` has one), summarizes every file and induces the areas. */
  static build(graph: FeatureGraph, said?: Said): FeatureHierarchy {
    const paths = graph.filePaths().sort();
    const surface = new SurfaceWords();
    const lifted = new Map<string, { entities: Array<[string, LiftedEntity]>; terms: Map<string, number> }>();
    for (const path of paths) {
      const entities = featureEntities(graph, path).map((n): [string, LiftedEntity] => [n.id, liftEntity(n, undefined, said).lifted]);
      const terms = summarize(path, moduleDoc(graph, path), entities.map(([, e]) => e.features), surface);
      lifted.set(path, { entities, terms });
    }
    const stats = termStats([...lifted.values()].map((l) => l.terms));
    const h = new FeatureHierarchy(graph.rootName, stats);
    for (const [path, { entities, terms }] of lifted) {
      for (const [id, e] of entities) h.entities.set(id, e);
      h.files.set(path, { leaf: '', hash: fileHash(graph, path), terms, vector: tfidf(terms, stats), entities: entities.map(([id]) => id) });
    }
    const vectors = new Map([...h.files].map(([p, f]) => [p, f.vector]));
    const similar = nearestNeighbours(vectors, stats, NEIGHBOURS, MIN_SIMILARITY);
    const links = new Map(paths.map((p) => [p, fileLinks(graph, p)]));
    const g = signalGraph({ files: paths, dependency: (p) => links.get(p)!, similar: (p) => similar.get(p) ?? [] });
    h.adopt(induceAreas(g, paths), surface);
    return h;
  }

  static fromJSON(data: PersistedHierarchy): FeatureHierarchy {
    if (data.format !== FORMAT) throw new Error(`features format ${String(data.format)}, expected ${FORMAT}`);
    const h = new FeatureHierarchy(data.rootName, { files: data.stats.files, df: new Map(data.stats.df) });
    for (const area of data.areas) h.areas.set(area.id, area);
    h.grouped = data.grouped === true;
    h.settled = data.settled !== false;
    for (const f of data.files) {
      const terms = new Map(f.terms);
      for (const e of f.entities) h.entities.set(e.id, { path: f.path, hash: e.hash, features: e.features, ...(e.said ? { said: e.said } : {}) });
      h.files.set(f.path, { leaf: f.leaf, hash: f.hash, terms, vector: tfidf(terms, h.stats), entities: f.entities.map((e) => e.id) });
    }
    h.indexFiles();
    return h;
  }

  toJSON(): PersistedHierarchy {
    return {
      format: FORMAT,
      rootName: this.rootName,
      stats: { files: this.stats.files, df: [...this.stats.df].sort((a, b) => (a[0] < b[0] ? -1 : 1)) },
      areas: [...this.areas.values()],
      files: [...this.files].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, f]) => ({
        path,
        leaf: f.leaf,
        hash: f.hash,
        terms: [...f.terms],
        entities: f.entities.map((id) => {
          const { hash, features, said } = this.entities.get(id)!;
          return { id, hash, features, ...(said ? { said } : {}) };
        }),
      })),
      ...(this.grouped ? { grouped: true } : {}),
      ...(this.settled ? {} : { settled: false }),
    };
  }

  // ---- reading ---------------------------------------------------------------------------------

  get root(): Area {
    return this.areas.get('')!;
  }

  /** The leaf area a file is in. */
  leafOf(path: string): string | undefined {
    return this.files.get(path)?.leaf;
  }

  /** The areas from the top level down to the file's leaf (the repository itself left out). */
  chain(path: string): Area[] {
    const chain: Area[] = [];
    for (let id = this.leafOf(path); id !== undefined && id !== ''; id = this.areas.get(id)?.parent ?? undefined) chain.unshift(this.areas.get(id)!);
    return chain;
  }

  /** The entities with features in a file, in the order the graph gave them. */
  entitiesOf(path: string): string[] {
    return this.files.get(path)?.entities ?? [];
  }

  /** The file an entity with features is in. */
  entityPath(id: string): string | undefined {
    return this.entities.get(id)?.path;
  }

  features(id: string): string[] {
    return this.entities.get(id)?.features ?? [];
  }

  /** Every entity with its features (for search over them). */
  allFeatures(): IterableIterator<[string, LiftedEntity]> {
    return this.entities.entries();
  }

  /** Every file under an area, sorted. */
  filesUnder(id: string): string[] {
    const area = this.areas.get(id);
    if (!area) return [];
    return area.children.length === 0 ? area.files : area.children.flatMap((c) => this.filesUnder(c)).sort();
  }

  /** Entities with features under an area (through its files). */
  entityCount(id: string): number {
    return this.filesUnder(id).reduce((n, f) => n + this.entitiesOf(f).length, 0);
  }

  filePaths(): string[] {
    return [...this.files.keys()];
  }

  /** Names an area (a model's name for it: areaNames.ts); false when there is no such area or it has that name. */
  rename(id: string, name: string): boolean {
    const area = this.areas.get(id);
    if (!area || area.name === name) return false;
    area.name = name;
    this.version++;
    return true;
  }

  /**
   * A model's functional abstraction over the areas built here (areaGroups.ts): the areas `units`
   * (disjoint, together holding every file) go under new top-level areas, one per group, named as the
   * model named them; a group of one is that area, renamed. Areas are numbered again; every file
   * keeps its leaf; folders ground every area again.
   */
  regroup(groups: ReadonlyArray<{ name: string; units: readonly string[] }>): void {
    const old = new Map(this.areas);
    const units = groups.flatMap((g) => g.units);
    const held = units.flatMap((u) => (old.has(u) ? this.leavesUnder(u) : [undefined]));
    const leaves = new Set(held);
    // no area named twice or inside another, none that does not exist
    if (leaves.size !== held.length || leaves.has(undefined)) throw new Error('the groups name an area twice, inside another, or one that does not exist');
    for (const [path, f] of this.files) if (!leaves.has(f.leaf)) throw new Error(`the groups leave ${path} out`);
    const renumbered = new Map<string, string>();
    const copy = (id: string, newId: string, parent: string, name?: string): string => {
      const area = old.get(id)!;
      const moved: Area = { ...area, id: newId, parent, name: name ?? area.name, children: [] };
      this.areas.set(newId, moved);
      renumbered.set(id, newId);
      area.children.forEach((child, i) => moved.children.push(copy(child, `${newId}.${i + 1}`, newId)));
      return newId;
    };
    const root: Area = { ...old.get('')!, children: [] };
    this.areas.clear();
    this.areas.set('', root);
    groups.forEach((group, i) => {
      const id = String(i + 1);
      if (group.units.length === 1) {
        root.children.push(copy(group.units[0], id, '', group.name));
        return;
      }
      const terms = mergedTerms(group.units.map((u) => old.get(u)!.terms));
      this.areas.set(id, { id, name: group.name, terms, parent: '', children: group.units.map((u, j) => copy(u, `${id}.${j + 1}`, id)), files: [], scopes: [] });
      root.children.push(id);
    });
    for (const f of this.files.values()) f.leaf = renumbered.get(f.leaf)!;
    this.grouped = true;
    this.version++;
    this.centroids.clear();
    this.indexFiles();
  }

  /**
   * Becomes `fresh`, a build from scratch of the same graph (featureStore.settleHierarchy): the view
   * no longer depends on the order of the changes that led here. True when areas or leaves moved.
   */
  settleTo(fresh: FeatureHierarchy): boolean {
    const moved = JSON.stringify([...this.areas.values()]) !== JSON.stringify([...fresh.areas.values()]);
    for (const [mine, theirs] of [[this.areas, fresh.areas], [this.entities, fresh.entities], [this.files, fresh.files], [this.centroids, fresh.centroids], [this.byFolder, fresh.byFolder]] as Array<[Map<string, unknown>, Map<string, unknown>]>) {
      mine.clear();
      for (const [k, v] of theirs) mine.set(k, v);
    }
    this.folderCounts = fresh.folderCounts;
    this.stats = fresh.stats;
    this.grouped = fresh.grouped;
    this.settled = true;
    this.version++;
    return moved;
  }

  /** The leaf areas under an area (itself, for a leaf). */
  private leavesUnder(id: string): string[] {
    const area = this.areas.get(id);
    if (!area) return [];
    return area.children.length === 0 ? [id] : area.children.flatMap((c) => this.leavesUnder(c));
  }

  // ---- evolution -------------------------------------------------------------------------------

  /**
   * Catches up with a graph that changed since (a hierarchy loaded from disk): the files whose content
   * differs, or that came or went, and those with an entity a model described (or described anew) since.
   */
  sync(graph: FeatureGraph, said?: Said): FeatureUpdate {
    const stale = graph.filePaths().filter((p) => this.files.get(p)?.hash !== fileHash(graph, p));
    const present = new Set(graph.filePaths());
    const redescribed = [...this.entities.values()].filter((e) => e.said !== said?.(e.hash)).map((e) => e.path);
    return this.update(graph, [...stale, ...[...this.files.keys()].filter((p) => !present.has(p)), ...redescribed], said);
  }

  /** Brings the hierarchy in line with the graph for `paths` (files changed, added or removed). */
  update(graph: FeatureGraph, paths: Iterable<string>, said?: Said): FeatureUpdate {
    this.version++;
    const report: FeatureUpdate = { relifted: 0, reused: 0, removedEntities: 0, addedFiles: 0, removedFiles: 0, rerouted: 0, pruned: 0 };
    const touched = new Set<string>();
    for (const path of [...new Set(paths)].sort()) {
      const known = this.files.get(path);
      if (!graph.fileGraph(path)) {
        if (!known) continue;
        this.settled = false;
        report.removedEntities += known.entities.length;
        report.removedFiles++;
        touched.add(known.leaf);
        this.detach(path);
        for (const id of known.entities) this.entities.delete(id);
        this.files.delete(path);
        continue;
      }
      this.settled = false;
      const ids: string[] = [];
      for (const node of featureEntities(graph, path)) {
        const { lifted, relifted } = liftEntity(node, this.entities.get(node.id), said);
        if (relifted) report.relifted++;
        else report.reused++;
        this.entities.set(node.id, lifted);
        ids.push(node.id);
      }
      const kept = new Set(ids);
      for (const id of known?.entities ?? []) {
        if (kept.has(id)) continue;
        this.entities.delete(id);
        report.removedEntities++;
      }
      const terms = summarize(path, moduleDoc(graph, path), ids.map((id) => this.entities.get(id)!.features));
      const vector = tfidf(terms, this.stats);
      if (known && 1 - dot(known.vector, vector) <= DRIFT) {
        for (const id of this.lineage(known.leaf)) {
          accumulate(this.centroid(id), known.vector, -1);
          accumulate(this.centroid(id), vector, 1);
        }
        this.files.set(path, { leaf: known.leaf, hash: fileHash(graph, path), terms, vector, entities: ids });
        continue;
      }
      if (known) {
        report.rerouted++;
        touched.add(known.leaf);
        this.detach(path);
      } else report.addedFiles++;
      this.files.set(path, { leaf: '', hash: fileHash(graph, path), terms, vector, entities: ids });
      touched.add(this.attach(path, this.route(vector, fileLinks(graph, path), dirOf(path))));
    }
    // The areas whose files changed, taken before pruning removes the empty ones from the tree.
    const changed = new Set([...touched].flatMap((leaf) => this.lineage(leaf)));
    report.pruned = this.prune(touched);
    for (const id of changed) if (this.areas.has(id)) this.areas.get(id)!.scopes = groundArea(this.filesUnder(id), this.folderCounts);
    return report;
  }

  /**
   * The leaf a file with `vector` and `links` in folder `dir` fits best, chosen level by level from the
   * top: by the cosine of its summary with each child's centroid (weighed as the build weighs it), plus how much more of its links and
   * of its folder mates lie under the child than the child's size alone would put there (raw shares
   * drew files into the biggest areas, whatever they were about).
   */
  private route(vector: Vector, links: ReadonlyMap<string, number>, dir: string): string {
    const linkWeight = this.weightByArea([...links].filter(([p]) => this.files.has(p)));
    const folderWeight = this.weightByArea([...(this.byFolder.get(dir) ?? [])].map((p) => [p, 1]));
    const size = this.weightByArea([...this.files.keys()].filter((p) => this.files.get(p)!.leaf !== '').map((p) => [p, 1]));
    let area = this.root;
    while (area.children.length > 0) {
      let best = area.children[0];
      let bestScore = -Infinity;
      for (const child of area.children) {
        const c = this.centroid(child);
        const expected = share(size, child, area.id);
        const score = (SIMILARITY_WEIGHT * dot(vector, c)) / (norm(c) || 1) + share(linkWeight, child, area.id) - expected + share(folderWeight, child, area.id) - expected;
        if (score > bestScore) [best, bestScore] = [child, score];
      }
      area = this.areas.get(best)!;
    }
    return area.id;
  }

  /** Weight of `weighted` files under each area (every ancestor of their leaves, the root included). */
  private weightByArea(weighted: Array<[string, number]>): Map<string, number> {
    const byArea = new Map<string, number>();
    for (const [path, w] of weighted) for (const id of this.lineage(this.files.get(path)!.leaf)) byArea.set(id, (byArea.get(id) ?? 0) + w);
    return byArea;
  }

  private attach(path: string, leaf: string): string {
    const file = this.files.get(path)!;
    file.leaf = leaf;
    const area = this.areas.get(leaf)!;
    area.files = [...area.files, path].sort();
    for (const id of this.lineage(leaf)) accumulate(this.centroid(id), file.vector, 1);
    this.folderCount(path, 1);
    return leaf;
  }

  private detach(path: string): void {
    const file = this.files.get(path)!;
    const area = this.areas.get(file.leaf)!;
    area.files = area.files.filter((f) => f !== path);
    for (const id of this.lineage(file.leaf)) accumulate(this.centroid(id), file.vector, -1);
    this.folderCount(path, -1);
  }

  /** Removes areas left empty, bottom-up; returns how many. */
  private prune(touched: Set<string>): number {
    let pruned = 0;
    for (const start of touched) {
      let id: string | null = start;
      while (id !== null && id !== '' && this.areas.has(id)) {
        const area: Area = this.areas.get(id)!;
        if (area.files.length > 0 || area.children.length > 0) break;
        this.areas.delete(id);
        this.centroids.delete(id);
        pruned++;
        const parent: Area = this.areas.get(area.parent!)!;
        parent.children = parent.children.filter((c) => c !== id);
        id = parent.id;
      }
    }
    return pruned;
  }

  // ---- construction ----------------------------------------------------------------------------

  /** Numbers, names and grounds the induced tree, and assigns every file its leaf. */
  private adopt(draft: AreaDraft, surface: SurfaceWords): void {
    const termsOf = (f: string) => this.files.get(f)!.terms;
    const visit = (node: AreaDraft, id: string, parent: Area | null, parentFiles: readonly string[]) => {
      const terms = parent ? areaTerms(node.files, parentFiles, termsOf, surface) : [];
      const area: Area = {
        id,
        name: parent ? areaName(terms) : this.rootName,
        terms,
        parent: parent?.id ?? null,
        children: [],
        files: node.children.length === 0 ? node.files : [],
        scopes: [],
      };
      this.areas.set(id, area);
      parent?.children.push(id);
      node.children.forEach((child, i) => visit(child, id ? `${id}.${i + 1}` : String(i + 1), area, node.files));
    };
    // The repository is the root area; a repository too small to split is one leaf under it.
    const top = draft.children.length > 0 ? draft : { files: draft.files, children: [draft] };
    visit(top, '', null, []);
    for (const area of this.areas.values()) for (const f of area.files) this.files.get(f)!.leaf = area.id;
    this.indexFiles();
  }

  /** The per-folder counts and the centroids, from the files and their leaves; then every scope. */
  private indexFiles(): void {
    this.folderCounts = filesPerFolder(this.files.keys());
    for (const path of this.files.keys()) {
      const dir = dirOf(path);
      let set = this.byFolder.get(dir);
      if (!set) this.byFolder.set(dir, (set = new Set()));
      set.add(path);
    }
    for (const [, f] of this.files) for (const id of this.lineage(f.leaf)) accumulate(this.centroid(id), f.vector, 1);
    for (const area of this.areas.values()) area.scopes = groundArea(this.filesUnder(area.id), this.folderCounts);
  }

  private folderCount(path: string, sign: 1 | -1): void {
    for (let dir = dirOf(path); ; dir = dirOf(dir)) {
      this.folderCounts.set(dir, (this.folderCounts.get(dir) ?? 0) + sign);
      if (dir === '') break;
    }
    const dir = dirOf(path);
    let set = this.byFolder.get(dir);
    if (!set) this.byFolder.set(dir, (set = new Set()));
    if (sign > 0) set.add(path);
    else set.delete(path);
  }

  /** An area and its ancestors up to the root. */
  private lineage(id: string): string[] {
    const ids: string[] = [];
    for (let at: string | null = id; at !== null && this.areas.has(at); at = this.areas.get(at)!.parent) ids.push(at);
    return ids;
  }

  private centroid(id: string): Vector {
    let c = this.centroids.get(id);
    if (!c) this.centroids.set(id, (c = new Map()));
    return c;
  }
}

/** The words of a group of areas: each area's most telling first, then their second, … (six at most). */
function mergedTerms(lists: ReadonlyArray<readonly string[]>): string[] {
  const terms = new Set<string>();
  for (let rank = 0; terms.size < 6 && lists.some((l) => l.length > rank); rank++) for (const l of lists) if (l[rank] && terms.size < 6) terms.add(l[rank]);
  return [...terms];
}

/** The share of a file's weight (links, folder mates) that lies under `child`, of what lies under its parent. */
function share(weights: ReadonlyMap<string, number>, child: string, parent: string): number {
  const total = weights.get(parent) ?? 0;
  return total > 0 ? (weights.get(child) ?? 0) / total : 0;
}

function fileHash(graph: FeatureGraph, path: string): string {
  return graph.fileGraph(path)?.hash ?? '';
}

function moduleDoc(graph: FeatureGraph, path: string): string {
  return graph.graph.hasNode(path) ? graph.graph.getNodeAttribute(path, 'doc') : '';
}
