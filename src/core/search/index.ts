// "Find where X is implemented": one entry point for the CLI, the VS Code command and the benchmarks.
// Entity queries and structural questions are answered from the graph; natural language goes to
// lexical (and, with a model, vector) seeds and RANGER's MCTS traversal (naturalLanguage.ts).
import type { ReadonlyGraph } from '../graph/describe';
import type { RepositoryGraph } from '../graph/repositoryGraph';
import type { SearchModels } from '../models/types';
import { EntityIndex, nearness } from './entityIndex';
import { FileIndex, rankFiles, type FileRanking } from './fileRanking';
import { LazyIndex, type NodeIndex } from './lazyIndex';
import { LexicalIndex, unsearchable, type FeatureText } from './lexical';
import type { ContainerMemo } from './modelFreeScorers';
import { rootCounts, type RootCounts } from './mcts';
import { naturalLanguageSearch, type NaturalLanguageOptions } from './naturalLanguage';
import { byImplementation, collapseToImplementations } from './implementations';
import { routeQuery, type Routed } from './router';
import { related } from './structural';
import type { SearchResult } from './types';

export type { SearchHit, SearchResult } from './types';
export { filesQuery, type FileHit, type FileRanking } from './fileRanking';

export interface Searcher {
  search(query: string, limit?: number, context?: SearchContext): Promise<SearchResult>;
  /** Issue → file localization: the files a question (a bug report, a task) concerns, best first. */
  files(query: string, limit?: number): Promise<FileRanking>;
  /** How `search` would answer the query (graph lookup or natural language), without searching. */
  route(query: string): Promise<Routed>;
  /**
   * Builds the indexes queries need (in slices) ahead of the first one, ready for updates: the QuickPick
   * calls it when it opens, so the build overlaps the typing. Until then nothing is built (no memory
   * spent on search).
   */
  prepare(): Promise<void>;
  /** These nodes' search text changed outside the graph (a description arrived): re-read them on the next query. */
  invalidate(ids: Iterable<string>): void;
  /** Both indexes, built now if need be and up to date with the graph: what the query snapshot saves. */
  indexes(): Promise<SearchIndexes>;
}

export interface SearchIndexes {
  entities: EntityIndex;
  lexical: LexicalIndex;
}

/** What search reads of the repository graph: a live RepositoryGraph, or a query snapshot's frozen one (read in place). */
export type SearchGraph = Pick<RepositoryGraph, 'version' | 'settledVersion' | 'touchedSince' | 'fileGraph' | 'filePaths'> & { graph: ReadonlyGraph };

/** Where the question is asked from: shared names resolve to the definitions nearest to it. */
export interface SearchContext {
  /** Repository-relative path of the file in the active editor. */
  fromPath?: string;
  /** This question alone is answered without the models (`--model-free` asked of a service that has them loaded). */
  modelFree?: boolean;
}

export interface SearcherOptions extends NaturalLanguageOptions {
  /** The models usable right now (asked on every query: they load, and vectors fill, in the background). */
  models?: () => SearchModels | undefined;
  /** Generated descriptions by content hash (semantic lifting), searched with the rest of a node's text. */
  descriptions?: { get(hash: string): string | undefined };
  /** Feature phrases (the functional view), searched with the descriptions; none by default (bench:search `--feature-text`). */
  features?: FeatureText;
  /** @internal Test seam: milliseconds of work per slice of the index builds (default 8). */
  indexSliceMs?: number;
  /**
   * Indexes already made for the graph at `version` (loaded from the query snapshot), used instead of the
   * first build: caught up with the nodes changed since, or not used when too much changed.
   */
  prebuilt?: { version: number; entities(): Loaded<EntityIndex>; lexical(): Loaded<LexicalIndex> };
}

/** An index read from elsewhere (undefined: it could not be, build it). */
type Loaded<T> = T | undefined;

/** Too many nodes changed to re-read them one by one: an index is built again. */
function largeChange(touched: ReadonlySet<string>, graph: SearchGraph): boolean {
  return touched.size > Math.max(2_000, graph.graph.order / 5);
}

/** The models line of an answer asked for without models. */
export const MODEL_FREE_ASKED = 'model-free: asked without models';

export function createSearcher(engine: { graph: SearchGraph }, options: SearcherOptions = {}): Searcher {
  let builtFor: SearchGraph | undefined;
  let settled = 0;
  const described = new Set<string>();
  // Each prebuilt index serves the first build of its kind only.
  const unused = new Set<'entities' | 'lexical'>(options.prebuilt ? ['entities', 'lexical'] : []);
  const prebuilt = <T extends NodeIndex>(kind: 'entities' | 'lexical'): T | undefined => {
    const saved = options.prebuilt;
    if (!saved || !unused.delete(kind)) return undefined;
    const index = saved[kind]() as T | undefined;
    const touched = engine.graph.touchedSince(saved.version);
    if (!index || !touched || largeChange(touched, engine.graph)) return undefined;
    index.update(touched);
    return index;
  };
  // Both indexes are built on the first query that needs them, in slices (LazyIndex).
  const entities = new LazyIndex(async () => prebuilt<EntityIndex>('entities') ?? EntityIndex.build(engine.graph.graph, options.indexSliceMs));
  const lexical = new LazyIndex(async () => {
    const graph = engine.graph;
    return prebuilt<LexicalIndex>('lexical') ?? LexicalIndex.build(graph.graph, options.descriptions, (path) => graph.fileGraph(path), options.indexSliceMs, options.features);
  });
  const fileTexts = new LazyIndex(() => {
    const graph = engine.graph;
    return FileIndex.build(() => graph.filePaths(), (path) => graph.fileGraph(path), options.indexSliceMs);
  });
  // After a save the indexes re-read only the nodes the save touched, on the next query (never on the
  // save path itself); a new graph, a large change or lost history rebuilds them.
  const fresh = () => {
    const graph = engine.graph;
    if (builtFor !== graph || settled !== graph.settledVersion || graph.version !== settled) {
      const touched = builtFor === graph ? graph.touchedSince(settled) : undefined;
      if (!touched || largeChange(touched, graph)) {
        entities.reset();
        lexical.reset();
        fileTexts.reset();
      } else {
        entities.touch(touched);
        lexical.touch(touched);
        fileTexts.touch(touched);
      }
      builtFor = graph;
      settled = graph.settledVersion;
    }
    // Described since (semantic lifting): touched after any reset, since an index restored from the
    // query snapshot was saved before these descriptions were written.
    if (described.size > 0) {
      lexical.touch(described);
      described.clear();
    }
  };
  // The traversal's neighbour lists, what its root reaches and the nodes' containers, kept while the graph stays at one version with no apply under way.
  interface TraversalMemo {
    lists: Map<string, string[]>;
    containers: ContainerMemo;
    counts?: RootCounts;
  }
  let traversal: TraversalMemo & { graph?: SearchGraph; version: number } = { version: -1, lists: new Map(), containers: new Map() };
  const traversalMemo = (): TraversalMemo => {
    const graph = engine.graph;
    if (graph.version !== graph.settledVersion) return { lists: new Map(), containers: new Map() };
    if (traversal.graph !== graph || traversal.version !== graph.version) traversal = { graph, version: graph.version, lists: new Map(), containers: new Map() };
    return traversal;
  };
  // A query that has to wait for a build says so in its timings (`indexBuild`, ms).
  const ready = async <T extends NodeIndex>(index: LazyIndex<T>, timingsMs?: Record<string, number>): Promise<T> => {
    if (index.isBuilt || !timingsMs) return index.get();
    const t = performance.now();
    const built = await index.get();
    timingsMs.indexBuild = (timingsMs.indexBuild ?? 0) + performance.now() - t;
    return built;
  };
  const route = async (query: string, timingsMs?: Record<string, number>): Promise<Routed> => {
    const index = await ready(entities, timingsMs);
    return routeQuery(query, (subject) => index.lookup(subject, 1).length > 0);
  };
  return {
    route(query: string): Promise<Routed> {
      fresh();
      return route(query);
    },
    async prepare(): Promise<void> {
      fresh();
      const [loaded] = await Promise.all([entities.get(), lexical.get()]);
      await loaded.prepareUpdates(options.indexSliceMs);
    },
    async files(query: string, limit = 20): Promise<FileRanking> {
      fresh();
      const timingsMs: Record<string, number> = {};
      const definitions = await ready(lexical, timingsMs);
      const files = await ready(fileTexts, timingsMs);
      const hits = rankFiles(engine.graph.graph, files, (text) => definitions.scores(text), query, limit, timingsMs);
      return { query, hits, timingsMs };
    },
    invalidate(ids: Iterable<string>): void {
      for (const id of ids) described.add(id);
    },
    async indexes(): Promise<SearchIndexes> {
      fresh();
      const [e, l] = await Promise.all([entities.get(), lexical.get()]);
      return { entities: e, lexical: l };
    },
    async search(query: string, limit = 20, context: SearchContext = {}): Promise<SearchResult> {
      fresh();
      const timingsMs: Record<string, number> = {};
      let t = performance.now();
      const routed = await route(query, timingsMs);
      timingsMs.route = performance.now() - t;
      t = performance.now();
      if (routed.route === 'natural-language') {
        const models = context.modelFree ? { status: MODEL_FREE_ASKED } : options.models?.();
        // Without an embedder only words find anything: say so rather than answer with silence.
        const why = models?.embedder ? undefined : unsearchable(query);
        if (why) return { query, route: routed.route, reason: `${routed.reason}, but ${why}`, hits: [], timingsMs };
        const memo = traversalMemo();
        const rootCountsOnce = () => (memo.counts ??= rootCounts(engine.graph.graph));
        const traversal = { ...options, containers: memo.containers, mcts: { ...options.mcts, neighbourLists: memo.lists, rootCounts: rootCountsOnce } };
        const hits = await naturalLanguageSearch(engine.graph.graph, await ready(lexical, timingsMs), query, limit, models, traversal, timingsMs);
        const scoring = models?.status ?? (timingsMs.mcts === undefined ? 'model-free: lexical search, no embedding model' : 'model-free: lexical seeds and MCTS with lexical scorers');
        const reranked = timingsMs.rerank === undefined ? '' : '; ordered by the learned reranker';
        return { query, route: routed.route, reason: `${routed.reason} (${scoring}${reranked})`, hits, timingsMs };
      }
      const nearby = context.fromPath ? nearness(engine.graph.graph, context.fromPath) : undefined;
      const subjects = (await entities.get()).lookup(routed.subject, limit, nearby);
      if (routed.route === 'entity') {
        timingsMs.lookup = performance.now() - t;
        return { query, route: routed.route, reason: routed.reason, hits: collapseToImplementations(engine.graph.graph, subjects.map((m) => ({ ...m, via: 'lookup' }))), timingsMs };
      }
      // Structural: the relation of the best-named subjects (all exact matches of the top score), one
      // per function (its overloads and stub declarations walked together), each answer once.
      const best = subjects.filter((m) => m.score >= subjects[0].score - 0.02);
      const functions = [...byImplementation(engine.graph.graph, best.map((m) => m.id)).values()];
      const hits = collapseToImplementations(engine.graph.graph, functions.flatMap((members) => related(engine.graph.graph, members, routed.relation)));
      timingsMs.structural = performance.now() - t;
      return { query, route: routed.route, reason: `${routed.reason} (${functions.length} node${functions.length === 1 ? '' : 's'} named ${routed.subject})`, hits: hits.slice(0, limit), total: hits.length, timingsMs };
    },
  };
}
