// transformers.js models in the process's model thread (modelWorker.ts). The main thread only posts
// texts and gets vectors back. One thread for every model, started on first use and kept for the
// life of the process (see modelWorker.ts for why it is never stopped); it does not keep a CLI or a
// test process alive while idle. A query's rerank queues behind at most one background embedding
// batch (~0.2 s).
import type { ModelReply, ModelRequest } from './modelWorker';
import type { Closable, DownloadProgress, TransformersOptions } from './transformersModels';
import type { Embedder, Reranker } from './types';
import { startWorkerScript } from '../workerScript';

/** A request without its id (distributed over the union, which a plain Omit would collapse). */
type RequestBody = ModelRequest extends infer R ? (R extends ModelRequest ? Omit<R, 'id'> : never) : never;
type Done = ModelReply & { kind: 'done' };


class ModelThread {
  private readonly worker = startWorkerScript(__dirname, 'modelWorker');
  private readonly pending = new Map<number, { resolve: (reply: Done) => void; reject: (err: Error) => void; onProgress?: (p: DownloadProgress) => void }>();
  private nextId = 0;
  stopped: Error | undefined;

  constructor() {
    this.worker.unref();
    this.worker.on('message', (reply: ModelReply) => {
      const waiting = this.pending.get(reply.id);
      if (reply.kind === 'progress') return waiting?.onProgress?.(reply.progress);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if (reply.kind === 'done') waiting?.resolve(reply);
      else waiting?.reject(new Error(reply.error));
    });
    const stop = (err: Error) => {
      this.stopped ??= err;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
    };
    this.worker.on('error', (err) => stop(new Error(`the model thread failed: ${err.message}`)));
    this.worker.on('exit', (code) => stop(new Error(`the model thread stopped (exit code ${code})`)));
  }

  request(body: RequestBody, onProgress?: (p: DownloadProgress) => void): { id: number; reply: Promise<Done> } {
    const id = this.nextId++;
    if (this.stopped) return { id, reply: Promise.reject(this.stopped) };
    const reply = new Promise<Done>((resolve, reject) => this.pending.set(id, { resolve, reject, onProgress }));
    // Referenced while a request is out, so a CLI waits for its answer.
    this.worker.ref();
    this.worker.postMessage({ ...body, id });
    return { id, reply };
  }
}

let shared: ModelThread | undefined;
function modelThread(): ModelThread {
  if (!shared || shared.stopped) shared = new ModelThread();
  return shared;
}

/** Loads a model in the thread; returns its handle, its vector length (embedders) and how to release it. */
async function load(role: 'embedder' | 'reranker', model: string, options: TransformersOptions) {
  const { onProgress, ...rest } = options;
  const thread = modelThread();
  const { id, reply } = thread.request({ op: 'load', role, model, options: rest }, onProgress);
  const { dim } = await reply;
  let closed = false;
  return {
    thread,
    handle: id,
    dim: dim ?? 0,
    call: async (body: RequestBody): Promise<Done> => {
      if (closed) throw new Error(`${role} ${model} was closed`);
      return thread.request(body).reply;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await thread.request({ op: 'unload', model: id }).reply.catch(() => undefined);
    },
  };
}

export async function loadWorkerEmbedder(model: string, options: TransformersOptions = {}): Promise<Embedder & Closable> {
  const loaded = await load('embedder', model, options);
  return {
    id: model,
    dim: loaded.dim,
    embed: async (texts) => (texts.length === 0 ? [] : (await loaded.call({ op: 'embed', model: loaded.handle, texts })).vectors!),
    close: loaded.close,
  };
}

export async function loadWorkerReranker(model: string, options: TransformersOptions = {}): Promise<Reranker & Closable> {
  const loaded = await load('reranker', model, options);
  return {
    id: model,
    score: async (query, passages) => (passages.length === 0 ? [] : (await loaded.call({ op: 'score', model: loaded.handle, query, passages })).scores!),
    close: loaded.close,
  };
}
