// Functional abstraction without a model: areas are communities of files (Louvain, graphology's
// maintained implementation, seeded) in one weighted graph that joins three signals an architect reads
// a repository by: dependencies (calls, uses, inheritance, imports between files), similarity of the
// file summaries (what their entities do, by their features' words) and the folder tree (each file
// tied to its folder, each folder to its parent, as hubs). The split recurses top-down: an area with
// too many files is split again on its own subgraph, and a split into too many parts gets intermediate
// areas from the communities of the parts' quotient graph. Same graph, same seed: same hierarchy.
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import { rng } from '../random';
import { dirOf } from './grounding';

/** An area holding at most this many files is a leaf: its files are listed, not split further. */
export const LEAF_FILES = 12;
/** More children than this and a parent gets intermediate areas: an architect reads a handful per level. */
export const MAX_CHILDREN = 9;
const MAX_DEPTH = 6;
const SEED = 36;
/** Weight of a tie between a file and its folder, and a folder and its parent (dependency weights are ln(1 + edges)). */
const FOLDER_WEIGHT = 1;
/** Weight of a cosine of 1 between two file summaries (routing a changed file weighs it the same). */
export const SIMILARITY_WEIGHT = 3;
/**
 * Resolutions tried from the coarsest: the split kept is the finest one with at most MAX_CHILDREN parts.
 * At 1 alone, Louvain cut Django's 880 files in 15, which intermediate areas then grouped in three
 * (a level an architect learns nothing from); at 0.5 it gave 9: the ORM, GIS, the admin, templates…
 */
const RESOLUTIONS = [0.5, 1, 2, 4];
/**
 * When even the coarsest gives too many parts, coarser ones are tried (each half the last) down to this:
 * once more of Django's files were linked, 0.5 gave 11 parts, which intermediate areas grouped in three
 * mixed ones again; 0.25 gives 9.
 */
const MIN_RESOLUTION = 0.05;

/** A node of the induced tree before it is numbered and named: a leaf's files, or its children. */
export interface AreaDraft {
  files: string[];
  children: AreaDraft[];
}

interface AreaSignals {
  /** Every file, sorted. */
  files: readonly string[];
  /** A file's dependency strength with each other file, counted both ways (so `a`'s entry for `b` is `b`'s for `a`). */
  dependency(a: string): ReadonlyMap<string, number>;
  /** Each file's most similar files with their cosine. */
  similar(a: string): ReadonlyArray<[string, number]>;
}

/** The weighted file graph (plus folder hubs) the communities are found in. */
export function signalGraph(signals: AreaSignals): Graph {
  const g = new Graph({ type: 'undirected' });
  const addWeight = (a: string, b: string, w: number) => {
    if (a === b || w <= 0) return;
    if (!g.hasNode(a)) g.addNode(a);
    if (!g.hasNode(b)) g.addNode(b);
    if (g.hasEdge(a, b)) g.updateEdgeAttribute(a, b, 'weight', (x: number) => x + w);
    else g.addEdge(a, b, { weight: w });
  };
  for (const file of signals.files) {
    g.addNode(file);
    // The file to its folder, and up the folders until one already chained to the root.
    for (let from = file, dir = dirOf(file); ; from = `dir:${dir}`, dir = dirOf(dir)) {
      const chained = g.hasNode(`dir:${dir}`);
      addWeight(from, `dir:${dir}`, from === file ? FOLDER_WEIGHT : FOLDER_WEIGHT / 2);
      if (chained || dir === '') break;
    }
  }
  for (const file of signals.files) {
    for (const [other, n] of signals.dependency(file)) if (file < other && g.hasNode(other)) addWeight(file, other, Math.log1p(n));
    for (const [other, cos] of signals.similar(file)) addWeight(file, other, SIMILARITY_WEIGHT * cos);
  }
  return g;
}

/** The area tree over every file in `g`, deterministic for a given graph. */
export function induceAreas(g: Graph, files: readonly string[]): AreaDraft {
  return split([...files].sort(), g, 0);
}

function split(files: string[], g: Graph, depth: number): AreaDraft {
  if (files.length <= LEAF_FILES || depth >= MAX_DEPTH) return { files, children: [] };
  const groups = communities(files, g);
  // Parts too many to read, most of them a pair or less, are fragments of one homogeneous folder
  // (Django's 76 locale folders of formats.py and __init__.py, tied to nothing else): one leaf.
  const fragments = groups.length > MAX_CHILDREN && medianSize(groups) <= 2 && mergeGroups(groups, g).length >= groups.length;
  if (groups.length < 2 || fragments) return { files, children: [] };
  return { files, children: arrange(groups, g, depth) };
}

function medianSize(groups: string[][]): number {
  const sizes = groups.map((g) => g.length).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)];
}

/** Children for `groups`, under intermediate areas when they are more than MAX_CHILDREN. */
function arrange(groups: string[][], g: Graph, depth: number): AreaDraft[] {
  if (groups.length > MAX_CHILDREN) {
    const merged = mergeGroups(groups, g);
    if (merged.length >= 2 && merged.length < groups.length) {
      return merged.map((members) =>
        members.length === 1 ? split(members[0], g, depth + 1) : { files: members.flat().sort(), children: arrange(members, g, depth + 1) },
      );
    }
  }
  return groups.map((group) => split(group, g, depth + 1));
}

/** The file communities of `files` in their induced subgraph (with the folder hubs below their common folder). */
function communities(files: string[], g: Graph): string[][] {
  const sub = induced(files, g);
  const at = (resolution: number) => {
    const mapping = louvain(sub, { getEdgeWeight: 'weight', rng: rng(SEED), resolution });
    return absorbSingletons(groupBy(files, (f) => mapping[f]), sub);
  };
  let best: string[][] | undefined;
  for (const resolution of RESOLUTIONS) {
    const groups = at(resolution);
    if (groups.length > MAX_CHILDREN) {
      best ??= coarser(at, resolution / 2) ?? groups;
      break;
    }
    if (groups.length >= 2) best = groups;
  }
  if (best) return best;
  return groupBy(files, (f) => dirOf(f)).length >= 2 ? byFolderBelow(files) : [files];
}

/** The split at the first resolution from `resolution` down (halving) with at most MAX_CHILDREN parts, if any has two or more. */
function coarser(at: (resolution: number) => string[][], resolution: number): string[][] | undefined {
  for (let r = resolution; r >= MIN_RESOLUTION; r /= 2) {
    const groups = at(r);
    if (groups.length <= MAX_CHILDREN) return groups.length >= 2 ? groups : undefined;
  }
  return undefined;
}

function induced(files: string[], g: Graph): Graph {
  const keep = new Set(files);
  const common = commonFolder(files);
  // Folder hubs at or above the files' common folder tie every file to every other alike: left out.
  for (const f of files) for (let dir = dirOf(f); dir.length > common.length; dir = dirOf(dir)) keep.add(`dir:${dir}`);
  const sub = new Graph({ type: 'undirected' });
  for (const node of [...keep].sort()) sub.addNode(node);
  for (const node of [...keep].sort()) {
    g.forEachEdge(node, (_e, attributes, source, target) => {
      const other = source === node ? target : source;
      if (node < other && keep.has(other)) sub.addEdge(node, other, { weight: attributes.weight as number });
    });
  }
  return sub;
}

/** A file alone in its community joins the community it is most tied to (a lone file is no area). */
function absorbSingletons(groups: string[][], sub: Graph): string[][] {
  if (groups.length < 2) return groups;
  const big = groups.filter((g) => g.length > 1);
  if (big.length === 0) return groups;
  const groupOf = new Map<string, number>();
  big.forEach((members, i) => members.forEach((f) => groupOf.set(f, i)));
  for (const lone of groups.filter((g) => g.length === 1).map((g) => g[0])) {
    const ties = new Array<number>(big.length).fill(0);
    sub.forEachEdge(lone, (_e, attributes, source, target) => {
      const i = groupOf.get(source === lone ? target : source);
      if (i !== undefined) ties[i] += attributes.weight as number;
    });
    const best = ties.reduce((b, t, i) => (t > ties[b] ? i : b), 0);
    big[best].push(lone);
  }
  return big.map((members) => members.sort());
}

/** Communities of the groups' quotient graph (ties summed between groups): the intermediate areas. */
function mergeGroups(groups: string[][], g: Graph): string[][][] {
  const q = new Graph({ type: 'undirected' });
  const groupOf = new Map<string, string>();
  groups.forEach((members, i) => {
    q.addNode(String(i));
    for (const f of members) groupOf.set(f, String(i));
  });
  groups.forEach((members, i) => {
    for (const f of members) {
      g.forEachEdge(f, (_e, attributes, source, target) => {
        const j = groupOf.get(source === f ? target : source);
        if (j === undefined || j === String(i) || String(i) > j) return;
        const w = attributes.weight as number;
        if (q.hasEdge(String(i), j)) q.updateEdgeAttribute(String(i), j, 'weight', (x: number) => x + w);
        else q.addEdge(String(i), j, { weight: w });
      });
    }
  });
  const mapping = louvain(q, { getEdgeWeight: 'weight', rng: rng(SEED) });
  const merged = new Map<number, string[][]>();
  groups.forEach((members, i) => {
    const c = mapping[String(i)];
    merged.set(c, [...(merged.get(c) ?? []), members]);
  });
  return order([...merged.values()], (m) => m.flat());
}

/** The files split by the folder below their common one (files directly in it form one group). */
function byFolderBelow(files: string[]): string[][] {
  const common = commonFolder(files);
  const strip = common === '' ? 0 : common.length + 1;
  return groupBy(files, (f) => {
    const rest = f.slice(strip);
    const slash = rest.indexOf('/');
    return slash < 0 ? '' : rest.slice(0, slash);
  });
}

function commonFolder(files: readonly string[]): string {
  let common = dirOf(files[0] ?? '');
  for (const f of files) while (common !== '' && !(f.startsWith(`${common}/`))) common = dirOf(common);
  return common;
}

function groupBy(files: string[], key: (f: string) => string | number): string[][] {
  const groups = new Map<string | number, string[]>();
  for (const f of files) {
    const k = key(f);
    const group = groups.get(k);
    if (group) group.push(f);
    else groups.set(k, [f]);
  }
  return order([...groups.values()], (g) => g);
}

/** Largest first, then by first path: the order children are numbered and shown in. */
function order<T>(items: T[], filesOf: (item: T) => string[]): T[] {
  const first = (item: T) => filesOf(item).reduce((a, b) => (b < a ? b : a));
  return items.sort((a, b) => filesOf(b).length - filesOf(a).length || (first(a) < first(b) ? -1 : 1));
}
