// The Repository interface served by an Engine in the calling thread: the CLI, tests, and a worker
// thread's side of WorkerRepository. Search, completion context, the explorer session and the jobs
// that read the graph are created here, next to it, and follow the engine's graph as it changes.
import * as path from 'node:path';
import { ContextAssembler, type AssembleOptions } from '../completion/assemble';
import type { CursorQuery } from '../completion/queryGraph';
import { Engine, type IndexProgress } from '../engine';
import type { HostMessage, ViewBy, WebviewMessage } from '../explorer/protocol';
import { nodeAtLine } from '../explorer/search';
import { ExplorerSession } from '../explorer/session';
import { describeNode, findNodes, nodeAt } from '../graph/describe';
import type { GraphDiff } from '../graph/repositoryGraph';
import { currentHierarchy, hasSavedHierarchy, saveHierarchy, settleHierarchy } from '../features/featureStore';
import type { FeatureHierarchy } from '../features/hierarchy';
import { DescriptionCache } from '../lifting/descriptionCache';
import { liftGraph, liftingCost, type AreaNamingReport, type Describer, type LiftReport } from '../lifting/lifter';
import { groupAreas } from '../features/areaGroups';
import { nameAreas } from '../features/areaNames';
import { sourceReader } from '../lifting/source';
import { EmbeddingJob } from '../models/embeddingJob';
import { searchModelsWith, type LoadedModels } from '../models/loader';
import type { SearchModels } from '../models/types';
import { createSearcher, type SearchContext, type Searcher, type SearcherOptions } from '../search';
import { descriptionsStamp, restoredIndexes, saveEngineSnapshot } from '../search/querySnapshot';
import { DESCRIPTIONS_FILE } from '../store/storeVersion';
import { AgentTools } from '../tools/agentTools';
import { diskText, type CallState, type ToolContext } from '../tools/context';
import { gitDiff } from '../tools/diff';
import type { FoundNodes, GraphCounts, Repository, RepositoryOptions, ToolResult } from './repository';

/**
 * A functional view that edits changed is settled (rebuilt: featureStore.settleHierarchy) once the
 * graph has had no change for this long: a fraction of an index, too much for every save.
 */
const SETTLE_AFTER_MS = 2_000;

export class LocalRepository implements Repository {
  private searcher: Searcher;
  private assembler: ContextAssembler | undefined;
  private explorer: ExplorerSession | undefined;
  private tools: AgentTools | undefined;
  private models: LoadedModels | undefined;
  private modelLine = 'model-free: search models are not started';
  private embedding: { job: EmbeddingJob; progress?: { done: number; total: number } } | undefined;
  private descriptions: Promise<DescriptionCache> | undefined;
  private descriptionCache: DescriptionCache | undefined;
  private featureView: { hierarchy: Promise<FeatureHierarchy>; version: number } | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  /** Aborted by stopEmbedding. */
  private readonly closing = new AbortController();
  /** Model requests naming or grouping the view are on their way: it is settled after them. */
  private naming = 0;
  /** Bumped by every batch of new descriptions: answers made before it (search, features) are out of date. */
  descriptionsVersion = 0;

  private readonly described = { get: (hash: string) => this.descriptionCache?.get(hash) };

  private constructor(
    readonly engine: Engine,
    private readonly log: (message: string) => void,
    private readonly settleAfterMs = SETTLE_AFTER_MS,
  ) {
    this.searcher = this.newSearcher();
  }

  private newSearcher(prebuilt?: SearcherOptions['prebuilt']): Searcher {
    return createSearcher(this.engine, { models: () => this.searchModels(), descriptions: this.described, prebuilt });
  }

  /** A repository over an engine this process has opened (`cartograph describe` in an engine process). */
  static over(engine: Engine, log: (message: string) => void = () => undefined): LocalRepository {
    return new LocalRepository(engine, log);
  }

  static async open(root: string, options: RepositoryOptions = {}): Promise<LocalRepository> {
    const { settleAfterMs, ...engineOptions } = options;
    const log = options.log ?? (() => undefined);
    const repo = new LocalRepository(await Engine.open(root, { ...engineOptions, log }), log, settleAfterMs);
    // Descriptions from an earlier lifting are searched from the first query, as the CLI's are.
    await repo.descriptionsCache();
    // A graph restored from the query snapshot starts with the snapshot's indexes (the first search
    // would otherwise build both: seconds at a million lines); they catch up with the index that follows.
    const prebuilt = await restoredIndexes(repo.engine, repo.described);
    if (prebuilt) repo.searcher = repo.newSearcher(prebuilt);
    return repo;
  }

  get root(): string {
    return this.engine.root;
  }

  async storeInfo() {
    return this.engine.storeInfo();
  }

  index(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal) {
    return this.engine.index(onProgress, signal);
  }

  async updateFile(filePath: string, text?: string): Promise<GraphCounts> {
    return this.changed(await this.engine.updateFile(filePath, text));
  }

  async syncPaths(filePaths: string[]): Promise<GraphCounts> {
    return this.changed(await this.engine.syncPaths(filePaths));
  }

  private async changed(diff: GraphDiff): Promise<GraphCounts> {
    // A view by areas follows the hierarchy, caught up with this change first.
    if (this.explorer?.viewBy === 'areas') await this.features(true);
    this.explorer?.graphChanged(diff);
    return this.counts();
  }

  async counts(): Promise<GraphCounts> {
    const graph = this.engine.graph;
    return { nodes: graph.graph.order, edges: graph.graph.size, files: graph.filePaths().length };
  }

  async filePaths(prefix = ''): Promise<string[]> {
    return this.engine.graph.filePaths().filter((f) => f.startsWith(prefix));
  }

  async stats() {
    return this.engine.stats();
  }

  storeSize() {
    return this.engine.storeSize();
  }

  flush() {
    return this.engine.flush();
  }

  async node(id: string) {
    const graph = this.engine.graph.graph;
    return graph.hasNode(id) ? graph.getNodeAttributes(id) : undefined;
  }

  async nodesInFile(relPath: string) {
    return [...this.engine.graph.nodesInFile(relPath)];
  }

  async findNodes(query: string) {
    return findNodes(this.engine.graph.graph, query);
  }

  async describeAt(relPath: string, line: number, col: number) {
    const id = nodeAt(this.engine.graph, relPath, line, col);
    return id === undefined ? undefined : describeNode(this.engine.graph.graph, id);
  }

  async nodeAtLine(relPath: string, line: number) {
    return nodeAtLine(this.engine.graph.nodesInFile(relPath), line)?.id;
  }

  /** True when `query` is a sentence (the natural-language route): the only questions search models answer. */
  async asksInWords(query: string): Promise<boolean> {
    return (await this.searcher.route(query)).route === 'natural-language';
  }

  async search(query: string, limit: number, context?: SearchContext): Promise<FoundNodes> {
    const result = await this.searcher.search(query, limit, context);
    const graph = this.engine.graph.graph;
    return { result, nodes: result.hits.map((hit) => graph.getNodeAttributes(hit.id)) };
  }

  async runTool(name: string, args: unknown, call?: CallState): Promise<ToolResult> {
    this.tools ??= new AgentTools(this.toolContext());
    return this.tools.run(name, args, call);
  }

  private toolContext(): ToolContext {
    const root = this.engine.root;
    return {
      root,
      graph: this.engine.graph,
      search: (query, limit, context) => this.searcher.search(query, limit, context),
      assemble: (query, options) => this.assembleContext(query, options),
      readText: diskText(this.engine.boundary, this.engine.maxFileSize),
      gitDiff: () => gitDiff(root),
      features: (options) => this.features(options?.build ?? true),
    };
  }

  /** The functional view, current with the graph (built on first use). */
  async featureHierarchy(): Promise<FeatureHierarchy> {
    return (await this.features(true))!;
  }

  /**
   * The functional view, loaded from the store or built on first use (`build: false`: loaded only), then
   * caught up with the graph whenever it changed since (only the files whose content changed are looked
   * at again), and with new descriptions (features lifted with what the model said).
   */
  private async features(build: boolean): Promise<FeatureHierarchy | undefined> {
    const graph = this.engine.graph;
    const storeDir = this.engine.storeInfo().dir ?? null;
    if (!this.featureView) {
      if (!build && !(storeDir && hasSavedHierarchy(storeDir))) return undefined;
      this.featureView = { hierarchy: currentHierarchy(graph, storeDir, this.described.get).then((r) => r.hierarchy), version: graph.settledVersion };
      return this.featureView.hierarchy;
    }
    const hierarchy = await this.featureView.hierarchy;
    if (this.featureView.version !== graph.settledVersion) {
      this.featureView.version = graph.settledVersion;
      const update = hierarchy.sync(graph, this.described.get);
      // Derived data: a save that fails is retried with the next change, and caught up from the graph at the next start.
      if (storeDir && Object.values(update).some((n) => n > 0)) await saveHierarchy(storeDir, hierarchy).catch(() => undefined);
    }
    if (!hierarchy.settled && !hierarchy.grouped) this.settleLater();
    return hierarchy;
  }

  private settleLater(): void {
    clearTimeout(this.settleTimer);
    if (!Number.isFinite(this.settleAfterMs)) return;
    this.settleTimer = setTimeout(() => {
      this.settleFeatures().catch((err: unknown) => this.log(`settling the functional view: ${err instanceof Error ? err.message : String(err)}`));
    }, this.settleAfterMs);
    this.settleTimer.unref();
  }

  /**
   * Settles a functional view that edits changed (SETTLE_AFTER_MS after the last; the tests call it
   * when they choose): caught up with the graph, then rebuilt; saved, and an explorer by areas starts
   * over on it where areas or files moved. False when there was nothing to settle.
   */
  async settleFeatures(): Promise<boolean> {
    if (!this.featureView) return false;
    const hierarchy = (await this.features(true))!;
    clearTimeout(this.settleTimer);
    if (this.naming > 0) {
      this.settleLater();
      return false;
    }
    const moved = settleHierarchy(hierarchy, this.engine.graph, this.described.get);
    if (moved === undefined) return false;
    const storeDir = this.engine.storeInfo().dir;
    if (storeDir) await saveHierarchy(storeDir, hierarchy).catch(() => undefined);
    if (moved && this.explorer?.viewBy === 'areas') this.explorer.showBy(hierarchy);
    return true;
  }

  rankFiles(question: string, limit: number) {
    return this.searcher.files(question, limit);
  }

  prepareSearch() {
    return this.searcher.prepare();
  }

  assembleContext(query: CursorQuery, options?: AssembleOptions) {
    // The buffer parses where saves do: in the engine's on-demand worker when it is responsive.
    this.assembler ??= new ContextAssembler(this.engine.graph, this.engine.boundary, (p, l, t) => this.engine.parseBuffer(p, l, t));
    return this.assembler.assemble(query, options);
  }

  async openExplorer(folder: string, send: (message: HostMessage) => void, viewBy: ViewBy): Promise<void> {
    this.explorer = undefined;
    const areas = viewBy === 'areas' ? await this.viewAreas() : undefined;
    this.explorer = new ExplorerSession(folder, this.engine.graph.graph, send, {}, areas);
  }

  async explorerMessage(message: WebviewMessage): Promise<boolean> {
    if (message.type === 'setViewBy' && this.explorer) {
      const session = this.explorer;
      const areas = message.viewBy === 'areas' ? await this.viewAreas() : undefined;
      if (this.explorer === session) session.showBy(areas);
      return true;
    }
    return this.explorer?.handle(message) ?? false;
  }

  /**
   * The hierarchy a view by areas shows: the model-free one, built here on first use (a fraction of an
   * index), then kept current. Should it fail, the view is by folders (and the log says why).
   */
  private async viewAreas(): Promise<FeatureHierarchy | undefined> {
    try {
      return await this.features(true);
    } catch (err) {
      this.log(`explorer: no functional view (${err instanceof Error ? err.message : String(err)}); showing folders`);
      return undefined;
    }
  }

  async explorerFocus(id: string, reason: 'cursor' | 'search'): Promise<void> {
    this.explorer?.focus(id, reason);
  }

  async explorerFound(id: string, nodePath: string[]): Promise<void> {
    this.explorer?.found(id, nodePath);
  }

  async closeExplorer(): Promise<void> {
    this.explorer = undefined;
  }

  async useModels(models: LoadedModels | undefined, status: string): Promise<void> {
    if (models?.embedder !== this.models?.embedder) this.embedding = undefined;
    this.models = models;
    this.modelLine = status;
  }

  async modelStatus(): Promise<string> {
    return this.searchModels().status;
  }

  /** What search may use now: the models, with the vectors embedded so far. */
  private searchModels(): SearchModels {
    return this.models ? searchModelsWith(this.models, this.embedding?.job.vectors, this.embedding?.progress) : { status: this.modelLine };
  }

  async embed(signal?: AbortSignal) {
    return this.embeddingJob()?.run(signal);
  }

  /**
   * Embeds what has no vector yet, and waits for it only when at most `most` nodes need one
   * (EmbeddingJob.settle): a service answers a large repository's first questions while it embeds.
   */
  async embedSettled(most: number): Promise<void> {
    await this.embeddingJob()?.settle(most, this.closing.signal);
  }

  private embeddingJob(): EmbeddingJob | undefined {
    const embedder = this.models?.embedder;
    if (!embedder) return undefined;
    if (!this.embedding) {
      const created: NonNullable<LocalRepository['embedding']> = {
        job: new EmbeddingJob(this.engine, embedder, { log: this.log, onProgress: (done, total) => (created.progress = { done, total }) }),
      };
      this.embedding = created;
    }
    return this.embedding.job;
  }

  /**
   * Describes functions and classes with the model behind `describer`, then groups the functional view's
   * parts into top-level areas and names its upper areas with it (areaGroups.ts, areaNames.ts; not when
   * the run stopped early). `onDescribed` counts progress.
   */
  async lift(describer: Describer, signal?: AbortSignal, maxCalls?: number, onDescribed?: (count: number) => void): Promise<LiftReport> {
    const cache = await this.descriptionsCache();
    const report = await liftGraph(this.engine.graph.graph, describer, cache, {
      sourceOf: sourceReader(this.engine.boundary),
      signal,
      maxCalls,
      onDescribed: (ids) => {
        // Searched from the next query on; their features are lifted again with the descriptions at the functional view's next use.
        this.searcher.invalidate(ids);
        this.descriptionsVersion++;
        if (this.featureView) this.featureView.version = Number.NaN;
        onDescribed?.(ids.length);
      },
    });
    if (report.stopped) return report;
    return { ...report, areas: await this.nameAreas(describer, cache, signal, maxCalls === undefined ? undefined : maxCalls - report.described - report.failed) };
  }

  /** The functional view's parts grouped into top-level areas, and its upper areas named, by the model that described the code; kept with the view and the descriptions. */
  private async nameAreas(describer: Describer, cache: DescriptionCache, signal?: AbortSignal, maxCalls?: number): Promise<AreaNamingReport> {
    // named on the settled view, and not settled under the model's feet (area ids would change)
    await this.settleFeatures().catch(() => false); // (a view that cannot be built is reported below)
    this.naming++;
    try {
      const hierarchy = (await this.features(true))!;
      const before = hierarchy.version;
      const kept = { get: (key: string) => cache.get(key), set: (key: string, text: string) => cache.set(key, text) };
      // grouped first, so that the names are given to the areas the model grouped the code into
      const grouping = await groupAreas(hierarchy, describer, kept, { signal, maxCalls });
      const asked = !grouping.cached && grouping.grouped + grouping.failed > 0 ? 1 : 0;
      const left = maxCalls === undefined ? undefined : maxCalls - asked;
      const areas = { ...(await nameAreas(hierarchy, describer, kept, { signal, maxCalls: left })), grouping };
      await cache.save();
      // Saved when a name changed (a run after every burst of saves mostly finds them all named already).
      const storeDir = this.engine.storeInfo().dir;
      if (storeDir && hierarchy.version !== before) await saveHierarchy(storeDir, hierarchy).catch(() => undefined);
      if (hierarchy.version !== before) {
        this.descriptionsVersion++;
        // an explorer by areas starts over on the areas as grouped and named now
        if (this.explorer?.viewBy === 'areas') this.explorer.showBy(hierarchy);
      }
      return areas;
    } catch (err) {
      // The descriptions are made and kept: a view that cannot be built only goes unnamed.
      return { named: 0, cached: 0, failed: 0, stopped: err instanceof Error ? err.message : String(err) };
    } finally {
      this.naming--;
    }
  }

  async liftingCost() {
    return liftingCost(this.engine.graph.graph, await this.descriptionsCache(), sourceReader(this.engine.boundary));
  }

  /** Saves the query snapshot of the graph as it is now (querySnapshot.ts): the next process answers from it at once. */
  async saveQuerySnapshot(): Promise<void> {
    const dir = this.engine.storeInfo().dir;
    if (!dir) throw new Error('the graph store is not available');
    await saveEngineSnapshot(this.engine, this.searcher, descriptionsStamp(dir), this.log);
  }

  /** Descriptions live beside the store (in memory without one). */
  private descriptionsCache(): Promise<DescriptionCache> {
    const dir = this.engine.storeInfo().dir;
    this.descriptions ??= DescriptionCache.open(dir ? path.join(dir, DESCRIPTIONS_FILE) : null).then((cache) => (this.descriptionCache = cache));
    return this.descriptions;
  }

  /**
   * Stops the background embedding for good, between two batches, once what it computed is saved:
   * before the models or the store close under it (a run writing to a closed store loses its vectors).
   */
  async stopEmbedding(): Promise<void> {
    this.closing.abort();
    await this.embedding?.job.idle();
  }

  async close(): Promise<void> {
    clearTimeout(this.settleTimer);
    this.explorer = undefined;
    await this.stopEmbedding();
    await this.engine.close();
  }
}
