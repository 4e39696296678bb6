// The editor's side of the engine worker: the Repository interface as requests to a worker thread
// that holds the engine and its graph (repositoryWorker.ts). The editor's thread keeps no graph, so
// building or loading one never makes V8 mark it there. The models stay here, in the editor: the
// worker asks for embeddings, reranker scores and descriptions, and the chat endpoint's API key never
// crosses to it.
import type { Worker } from 'node:worker_threads';
import type { AssembleOptions, FusedContext } from '../completion/assemble';
import type { CursorQuery } from '../completion/queryGraph';
import type { EngineStats, IndexProgress, IndexReport } from '../engine';
import type { HostMessage, WebviewMessage } from '../explorer/protocol';
import type { NodeDescription } from '../graph/describe';
import type { GraphNode } from '../graph/schema';
import type { Describer, LiftReport } from '../lifting/lifter';
import type { EmbeddingReport } from '../models/embeddingJob';
import type { LoadedModels } from '../models/loader';
import type { SearchContext } from '../search';
import { startWorkerScript } from '../workerScript';
import { Channel } from './channel';
import type { FoundNodes, GraphCounts, Repository, RepositoryOptions, StoreInfo } from './repository';
import type { ModelSpec } from './repositoryWorker';

export class WorkerRepository implements Repository {
  private models: LoadedModels | undefined;
  private describer: Describer | undefined;
  private explorerSend: ((message: HostMessage) => void) | undefined;
  private closing = false;
  private stopped: ((error: Error) => void) | undefined;

  private constructor(
    readonly root: string,
    private readonly worker: Worker,
    private readonly channel: Channel,
  ) {}

  /** Starts a worker and opens the engine in it; fails as Engine.open would (or when the worker cannot start). */
  static async open(root: string, options: RepositoryOptions = {}): Promise<WorkerRepository> {
    const { log, ...engineOptions } = options;
    const worker = startWorkerScript(__dirname, 'repositoryWorker');
    let repository: WorkerRepository | undefined;
    const channel = new Channel(worker, {
      embed: ([texts]) => need(repository?.models?.embedder, 'embedding model').embed(texts as string[]),
      rerank: ([query, passages]) => need(repository?.models?.reranker, 'reranker').score(query as string, passages as string[]),
      describe: ([system, prompt], context) => need(repository?.describer, 'describer').describe(system as string, prompt as string, context.signal),
    });
    repository = new WorkerRepository(root, worker, channel);
    channel.on<string>('log', (m) => log?.(m));
    channel.on<HostMessage>('explorer', (m) => repository?.explorerSend?.(m));
    // A worker that dies (out of memory, a crash in native code) fails what waits on it, and what comes after.
    const died = (error: Error) => {
      channel.close(error);
      if (!repository?.closing) repository?.stopped?.(error);
    };
    worker.on('error', (err) => died(new Error(`the engine worker failed: ${err.message}`)));
    worker.on('exit', (code) => died(new Error(`the engine worker stopped (exit code ${code})`)));
    try {
      await channel.call('open', [root, engineOptions]);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return repository;
  }

  storeInfo() {
    return this.channel.call<StoreInfo>('storeInfo');
  }
  index(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal) {
    return this.channel.call<IndexReport>('index', [], { signal, onProgress });
  }
  updateFile(filePath: string, text?: string) {
    return this.channel.call<void>('updateFile', [filePath, text]);
  }
  syncPaths(filePaths: string[]) {
    return this.channel.call<void>('syncPaths', [filePaths]);
  }
  counts() {
    return this.channel.call<GraphCounts>('counts');
  }
  filePaths(prefix?: string) {
    return this.channel.call<string[]>('filePaths', [prefix]);
  }
  stats() {
    return this.channel.call<EngineStats>('stats');
  }
  storeSize() {
    return this.channel.call<number>('storeSize');
  }
  flush() {
    return this.channel.call<void>('flush');
  }
  node(id: string) {
    return this.channel.call<GraphNode | undefined>('node', [id]);
  }
  nodesInFile(relPath: string) {
    return this.channel.call<GraphNode[]>('nodesInFile', [relPath]);
  }
  findNodes(query: string) {
    return this.channel.call<string[]>('findNodes', [query]);
  }
  describeAt(relPath: string, line: number, col: number) {
    return this.channel.call<NodeDescription | undefined>('describeAt', [relPath, line, col]);
  }
  nodeAtLine(relPath: string, line: number) {
    return this.channel.call<string | undefined>('nodeAtLine', [relPath, line]);
  }
  search(query: string, limit: number, context?: SearchContext) {
    return this.channel.call<FoundNodes>('search', [query, limit, context]);
  }
  prepareSearch() {
    return this.channel.call<void>('prepareSearch');
  }
  assembleContext(query: CursorQuery, options?: AssembleOptions) {
    return this.channel.call<FusedContext>('assembleContext', [query, options]);
  }
  openExplorer(folder: string, send: (message: HostMessage) => void) {
    this.explorerSend = send;
    return this.channel.call<void>('openExplorer', [folder]);
  }
  explorerMessage(message: WebviewMessage) {
    return this.channel.call<boolean>('explorerMessage', [message]);
  }
  explorerFocus(id: string, reason: 'cursor' | 'search') {
    return this.channel.call<void>('explorerFocus', [id, reason]);
  }
  explorerFound(id: string, path: string[]) {
    return this.channel.call<void>('explorerFound', [id, path]);
  }
  closeExplorer() {
    this.explorerSend = undefined;
    return this.channel.call<void>('closeExplorer');
  }
  useModels(models: LoadedModels | undefined, status: string) {
    this.models = models;
    const spec: ModelSpec | undefined = models && {
      embedder: models.embedder && { id: models.embedder.id, dim: models.embedder.dim },
      reranker: models.reranker && { id: models.reranker.id },
      status: models.status,
      problems: models.problems,
    };
    return this.channel.call<void>('useModels', [spec, status]);
  }
  modelStatus() {
    return this.channel.call<string>('modelStatus');
  }
  embed(signal?: AbortSignal) {
    return this.channel.call<EmbeddingReport | undefined>('embed', [], { signal });
  }
  lift(describer: Describer, signal?: AbortSignal) {
    this.describer = describer;
    return this.channel.call<LiftReport>('lift', [], { signal });
  }

  /** Called once if the worker dies without being closed: every request fails from then on. */
  onStopped(listener: (error: Error) => void): void {
    this.stopped = listener;
  }

  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.channel.call('close');
    } finally {
      await this.worker.terminate();
    }
  }
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} in the editor`);
  return value;
}
