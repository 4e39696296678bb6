// The editor's side of the engine worker: the Repository interface as requests to a worker thread
// that holds the engine and its graph (repositoryWorker.ts). The editor's thread keeps no graph, so
// building or loading one never makes V8 mark it there. The models stay here, in the editor: the
// worker asks for embeddings, reranker scores and descriptions, and the chat endpoint's API key never
// crosses to it.
import type { Worker } from 'node:worker_threads';
import type { AssembleOptions, FusedContext } from '../completion/assemble';
import type { CursorQuery } from '../completion/queryGraph';
import type { EngineStats, IndexProgress, IndexReport } from '../engine';
import type { HostMessage, ViewBy, WebviewMessage } from '../explorer/protocol';
import type { NodeDescription } from '../graph/describe';
import type { GraphNode } from '../model/schema';
import type { Describer, LiftingCost, LiftReport } from '../lifting/lifter';
import type { EmbeddingReport } from '../models/embeddingJob';
import type { LoadedModels } from '../models/loader';
import type { FileRanking, SearchContext } from '../search';
import type { CallState } from '../tools/context';
import { startWorkerScript } from '../workerScript';
import { Channel, type CallOptions } from './channel';
import type { ShareOptions } from './hostedService';
import type { FoundNodes, GraphCounts, ModelSpec, Opened, Repository, RepositoryOptions, StoreInfo, ToolResult } from './repository';

/**
 * One engine worker thread. It outlives the repositories opened in it: a Reindex re-opens the engine
 * in the same thread, which keeps its modules loaded and its code compiled (a fresh worker costs
 * ~0.2 s more), and avoids tearing down a heap that held a graph while the editor waits.
 */
class EngineThread {
  readonly worker: Worker;
  readonly channel: Channel;
  /** The repository open in the thread; requests from the worker are answered with its models and describer. */
  current: WorkerRepository | undefined;
  dead = false;

  constructor() {
    this.worker = startWorkerScript(__dirname, 'repositoryWorker');
    const current = () => this.current;
    this.channel = new Channel(this.worker, {
      embed: ([texts]) => need(current()?.models?.embedder, 'embedding model').embed(texts as string[]),
      rerank: ([query, passages]) => need(current()?.models?.reranker, 'reranker').score(query as string, passages as string[]),
      describe: ([system, prompt], context) => need(current()?.describer, 'describer').describe(system as string, prompt as string, context.signal),
    });
    this.channel.on<string>('log', (m) => current()?.log?.(m));
    this.channel.on<HostMessage>('explorer', (m) => current()?.explorerSend?.(m));
    // A worker that dies (out of memory, a crash in native code) fails what waits on it, and what comes after.
    const died = (error: Error) => {
      this.dead = true;
      this.channel.close(error);
      const repository = current();
      if (repository && !repository.closed) repository.stopped?.(error);
    };
    this.worker.on('error', (err) => died(new Error(`the engine worker failed: ${err.message}`)));
    this.worker.on('exit', (code) => died(new Error(`the engine worker stopped (exit code ${code})`)));
  }
}

export class WorkerRepository implements Repository {
  /** @internal read by EngineThread */
  models: LoadedModels | undefined;
  /** @internal */
  describer: Describer | undefined;
  /** @internal */
  explorerSend: ((message: HostMessage) => void) | undefined;
  /** @internal */
  stopped: ((error: Error) => void) | undefined;
  /** @internal Closed, or re-opened as another WorkerRepository: its requests fail. */
  closed = false;
  /**
   * The store it opened and, when the folder is shared (`share` of `open`) and no other editor serves
   * it, the socket the worker serves the CLI and agents on.
   */
  opened: Opened = { storeDir: null };

  private constructor(
    readonly root: string,
    private readonly thread: EngineThread,
    /** @internal */
    readonly log: ((message: string) => void) | undefined,
  ) {}

  /** The worker thread itself (tests stop it to play a crash). */
  get worker(): Worker {
    return this.thread.worker;
  }

  /**
   * Opens the engine in a worker thread: `previous`'s thread when it is still running (its engine is
   * closed first), else a new one. Fails as Engine.open would, or when the worker cannot start.
   */
  static async open(root: string, options: RepositoryOptions = {}, previous?: WorkerRepository, share?: ShareOptions): Promise<WorkerRepository> {
    const { log, ...engineOptions } = options;
    let thread = previous?.thread;
    if (previous) await previous.closeEngine();
    if (!thread || thread.dead) thread = new EngineThread();
    const repository = new WorkerRepository(root, thread, log);
    thread.current = repository;
    try {
      repository.opened = await thread.channel.call<Opened>('open', [root, engineOptions, share]);
    } catch (err) {
      repository.closed = true;
      await thread.worker.terminate();
      throw err;
    }
    return repository;
  }

  private call<T>(method: string, args: unknown[] = [], options?: CallOptions): Promise<T> {
    if (this.closed) return Promise.reject(new Error('this repository is closed (its folder was re-opened or closed)'));
    return this.thread.channel.call<T>(method, args, options);
  }

  /** Closes the engine and keeps the thread for the next open. */
  async closeEngine(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.thread.channel.call('close').catch(() => undefined);
  }

  storeInfo() {
    return this.call<StoreInfo>('storeInfo');
  }
  index(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal) {
    return this.call<IndexReport>('index', [], { signal, onProgress });
  }
  updateFile(filePath: string, text?: string) {
    return this.call<GraphCounts>('updateFile', [filePath, text]);
  }
  syncPaths(filePaths: string[]) {
    return this.call<GraphCounts>('syncPaths', [filePaths]);
  }
  counts() {
    return this.call<GraphCounts>('counts');
  }
  filePaths(prefix?: string) {
    return this.call<string[]>('filePaths', [prefix]);
  }
  stats() {
    return this.call<EngineStats>('stats');
  }
  storeSize() {
    return this.call<number>('storeSize');
  }
  flush() {
    return this.call<void>('flush');
  }
  node(id: string) {
    return this.call<GraphNode | undefined>('node', [id]);
  }
  nodesInFile(relPath: string) {
    return this.call<GraphNode[]>('nodesInFile', [relPath]);
  }
  findNodes(query: string) {
    return this.call<string[]>('findNodes', [query]);
  }
  describeAt(relPath: string, line: number, col: number) {
    return this.call<NodeDescription | undefined>('describeAt', [relPath, line, col]);
  }
  nodeAtLine(relPath: string, line: number) {
    return this.call<string | undefined>('nodeAtLine', [relPath, line]);
  }
  search(query: string, limit: number, context?: SearchContext) {
    return this.call<FoundNodes>('search', [query, limit, context]);
  }
  runTool(name: string, args: unknown, call?: CallState) {
    return this.call<ToolResult>('runTool', [name, args, call]);
  }

  rankFiles(question: string, limit: number) {
    return this.call<FileRanking>('rankFiles', [question, limit]);
  }
  prepareSearch() {
    return this.call<void>('prepareSearch');
  }
  assembleContext(query: CursorQuery, options?: AssembleOptions) {
    return this.call<FusedContext>('assembleContext', [query, options]);
  }
  openExplorer(folder: string, send: (message: HostMessage) => void, viewBy: ViewBy) {
    this.explorerSend = send;
    return this.call<void>('openExplorer', [folder, viewBy]);
  }
  explorerMessage(message: WebviewMessage) {
    return this.call<boolean>('explorerMessage', [message]);
  }
  explorerFocus(id: string, reason: 'cursor' | 'search') {
    return this.call<void>('explorerFocus', [id, reason]);
  }
  explorerFound(id: string, path: string[]) {
    return this.call<void>('explorerFound', [id, path]);
  }
  closeExplorer() {
    this.explorerSend = undefined;
    return this.call<void>('closeExplorer');
  }
  useModels(models: LoadedModels | undefined, status: string) {
    this.models = models;
    const spec: ModelSpec | undefined = models && {
      embedder: models.embedder && { id: models.embedder.id, dim: models.embedder.dim },
      reranker: models.reranker && { id: models.reranker.id },
      status: models.status,
      problems: models.problems,
    };
    return this.call<void>('useModels', [spec, status]);
  }
  modelStatus() {
    return this.call<string>('modelStatus');
  }
  embed(signal?: AbortSignal) {
    return this.call<EmbeddingReport | undefined>('embed', [], { signal });
  }
  lift(describer: Describer, signal?: AbortSignal) {
    this.describer = describer;
    return this.call<LiftReport>('lift', [], { signal });
  }
  liftingCost() {
    return this.call<LiftingCost>('liftingCost');
  }

  /** Called once if the worker dies while this repository is open: every request fails from then on. */
  onStopped(listener: (error: Error) => void): void {
    this.stopped = listener;
  }

  /** Closes the engine and stops the thread (unless the thread went on to a newer open). */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.closeEngine();
    } finally {
      await this.thread.worker.terminate();
    }
  }
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} in the editor`);
  return value;
}
