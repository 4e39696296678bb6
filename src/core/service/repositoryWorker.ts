// The engine worker thread: a LocalRepository served over a Channel (see WorkerRepository, the
// editor's side). Models and chat endpoints stay with the editor: embedding, reranking and
// describing are requests back to it.
import { parentPort } from 'node:worker_threads';
import type { IndexProgress } from '../engine';
import type { Describer } from '../lifting/lifter';
import type { LoadedModels } from '../models/loader';
import type { Embedder, Reranker } from '../models/types';
import { Channel, type Handler } from './channel';
import { LocalRepository } from './localRepository';
import type { ModelSpec, Repository, RepositoryOptions } from './repository';

let repository: LocalRepository | undefined;
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
  open: async ([root, options]) => {
    repository = await LocalRepository.open(root as string, { ...(options as RepositoryOptions), log: (m) => channel.notify('log', m) });
  },
  index: (_, context) => opened().index((p: IndexProgress) => context.progress(p), context.signal),
  openExplorer: ([folder]) => opened().openExplorer(folder as string, (m) => channel.notify('explorer', m)),
  useModels: ([spec, status]) => opened().useModels(standIns(spec as ModelSpec | undefined), status as string),
  embed: (_, context) => opened().embed(context.signal),
  lift: (_, context) => {
    const describer: Describer = { describe: (system, prompt, signal) => channel.call<string>('describe', [system, prompt], { signal }) };
    return opened().lift(describer, context.signal);
  },
  close: async () => {
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
