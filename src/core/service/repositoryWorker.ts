// The engine worker thread: a LocalRepository served over a Channel (see WorkerRepository, the
// editor's side). Models and chat endpoints stay with the editor: embedding, reranking and
// describing are requests back to it.
import { parentPort } from 'node:worker_threads';
import type { IndexProgress } from '../engine';
import type { ViewBy } from '../explorer/protocol';
import type { LoadedModels } from '../models/loader';
import type { Embedder, Reranker } from '../models/types';
import { Channel, type Handler } from './channel';
import { remoteDescriber } from './remoteDescriber';
import { HostedService, type ShareOptions } from './hostedService';
import { LocalRepository } from './localRepository';
import type { ModelSpec, Opened, Repository, RepositoryOptions } from './repository';

let repository: LocalRepository | undefined;
/** The repository's service, when the editor shares this folder's graph and no other editor serves it. */
let hosted: HostedService | undefined;
const opened = (): LocalRepository => {
  if (!repository) throw new Error('the repository is not open');
  return repository;
};
// Stand-ins are kept while the model id stays: the embedding job keeps its vectors for the same embedder.
let embedder: Embedder | undefined;
let reranker: Reranker | undefined;

/** Requests that are plain method calls on the repository. */
const PLAIN: (keyof Repository)[] = [
  'storeInfo', 'updateFile', 'syncPaths', 'counts', 'filePaths', 'stats', 'storeSize', 'flush', 'node', 'nodesInFile',
  'findNodes', 'describeAt', 'nodeAtLine', 'search', 'runTool', 'rankFiles', 'prepareSearch', 'assembleContext', 'explorerMessage', 'explorerFocus',
  'explorerFound', 'closeExplorer', 'modelStatus',
];

const handlers: Record<string, Handler> = {
  open: async ([root, options, share]): Promise<Opened> => {
    const log = (m: string) => channel.notify('log', m);
    const wanted = share as ShareOptions | undefined;
    // The socket first: a service process that holds the shared store lets go of it before we open it.
    hosted = wanted ? await HostedService.claim(root as string, wanted, (m) => log(`service: ${m}`)) : undefined;
    const storeDir = hosted ? wanted!.storeDir : (options as RepositoryOptions).storeDir;
    try {
      repository = await LocalRepository.open(root as string, { ...(options as RepositoryOptions), storeDir, log });
      await hosted?.serve();
    } catch (err) {
      await hosted?.stop();
      hosted = undefined;
      throw err;
    }
    return { storeDir: storeDir ?? null, socket: hosted?.socket };
  },
  index: async (_, context) => {
    const repo = opened();
    try {
      const report = await repo.index((p: IndexProgress) => context.progress(p), context.signal);
      hosted?.indexedWith(repo, report);
      return report;
    } catch (err) {
      hosted?.indexFailed(err);
      throw err;
    }
  },
  openExplorer: ([folder, viewBy]) => opened().openExplorer(folder as string, (m) => channel.notify('explorer', m), viewBy as ViewBy),
  useModels: ([spec, status]) => opened().useModels(standIns(spec as ModelSpec | undefined), status as string),
  embed: (_, context) => opened().embed(context.signal),
  lift: (_, context) => {
    return opened().lift(remoteDescriber(channel, 'describe'), context.signal);
  },
  liftingCost: () => opened().liftingCost(),
  close: async () => {
    await hosted?.stop();
    hosted = undefined;
    await repository?.close();
    repository = undefined;
  },
};
for (const name of PLAIN) {
  handlers[name] = (args) => (opened()[name] as (...a: unknown[]) => unknown)(...args);
}

function standIns(spec: ModelSpec | undefined): LoadedModels | undefined {
  if (!spec) return undefined;
  const wanted = spec.embedder;
  if (wanted && (embedder?.id !== wanted.id || embedder.dim !== wanted.dim)) {
    embedder = { id: wanted.id, dim: wanted.dim, embed: (texts) => channel.call<Float32Array[]>('embed', [texts]) };
  }
  if (spec.reranker && reranker?.id !== spec.reranker.id) {
    reranker = { id: spec.reranker.id, score: (query, passages) => channel.call<number[]>('rerank', [query, passages]) };
  }
  return {
    embedder: wanted ? embedder : undefined,
    reranker: spec.reranker ? reranker : undefined,
    status: spec.status,
    problems: spec.problems,
    close: async () => undefined,
  };
}

// At normal priority, unlike the parse workers: it answers the editor's requests (completion
// context, search), whose latency a lower priority raised by ~3 ms at the median (bench/repository-bench.ts).
const channel = new Channel(parentPort!, handlers);
