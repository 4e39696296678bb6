// transformers.js models in worker threads (modelWorker.ts), one per model so a query's rerank never
// waits behind a background embedding batch. The main thread only posts texts and gets vectors back.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ModelMessage, ModelRequest, ModelWorkerData } from './modelWorker';
import type { TransformersOptions } from './transformersModels';
import type { Embedder, Reranker } from './types';

/** A model that holds a thread: close it when the settings change or the extension stops. */
export interface Closable {
  close(): Promise<void>;
}

/** The worker script: next to the bundle in dist/, or the TypeScript source run through tsx (tests, benchmarks). */
function startWorker(data: ModelWorkerData): Worker {
  const bundled = path.join(__dirname, 'modelWorker.js');
  if (fs.existsSync(bundled)) return new Worker(bundled, { workerData: data });
  const source = path.join(__dirname, 'modelWorker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, workerData: data });
}

/** A request without its id (distributed over the union, which a plain Omit would collapse). */
type RequestBody = ModelRequest extends infer R ? (R extends ModelRequest ? Omit<R, 'id'> : never) : never;

class ModelThread implements Closable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (m: ModelMessage & { kind: 'reply' }) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private exited: Error | undefined;
  readonly ready: Promise<number>;

  constructor(data: ModelWorkerData, onProgress?: TransformersOptions['onProgress']) {
    this.worker = startWorker(data);
    // Background work must not keep a CLI or test process alive.
    this.worker.unref();
    this.ready = new Promise<number>((resolve, reject) => {
      this.worker.on('message', (message: ModelMessage) => {
        if (message.kind === 'progress') onProgress?.(message.progress);
        else if (message.kind === 'loaded') resolve(message.dim);
        else if (message.kind === 'failed') reject(new Error(message.error));
        else {
          const waiting = this.pending.get(message.id);
          this.pending.delete(message.id);
          waiting?.resolve(message);
        }
      });
      const fail = (err: Error) => {
        this.exited = err;
        reject(err);
        for (const waiting of this.pending.values()) waiting.reject(err);
        this.pending.clear();
      };
      this.worker.on('error', (err) => fail(new Error(`the ${data.role} thread failed: ${err.message}`)));
      this.worker.on('exit', (code) => fail(new Error(`the ${data.role} thread stopped (exit code ${code})`)));
    });
    // The failure is reported by whoever awaits `ready`; this keeps it from counting as unhandled.
    this.ready.catch(() => undefined);
  }

  request(request: RequestBody): Promise<ModelMessage & { kind: 'reply' }> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)),
        reject,
      });
      // Referenced while a request is out, so a CLI waits for its answer.
      this.worker.ref();
      this.worker.postMessage({ ...request, id } as ModelRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<ModelMessage & { kind: 'reply' }>;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Waits for the model; a thread whose model could not be had is stopped. */
async function loaded(thread: ModelThread): Promise<number> {
  try {
    return await thread.ready;
  } catch (err) {
    await thread.close();
    throw err;
  }
}

export async function loadWorkerEmbedder(model: string, options: TransformersOptions = {}): Promise<Embedder & Closable> {
  const { onProgress, ...rest } = options;
  const thread = new ModelThread({ role: 'embedder', model, options: rest }, onProgress);
  const dim = await loaded(thread);
  return {
    id: model,
    dim,
    embed: async (texts) => (texts.length === 0 ? [] : (await thread.request({ op: 'embed', texts })).vectors!),
    close: () => thread.close(),
  };
}

export async function loadWorkerReranker(model: string, options: TransformersOptions = {}): Promise<Reranker & Closable> {
  const { onProgress, ...rest } = options;
  const thread = new ModelThread({ role: 'reranker', model, options: rest }, onProgress);
  await loaded(thread);
  return {
    id: model,
    score: async (query, passages) => (passages.length === 0 ? [] : (await thread.request({ op: 'score', query, passages })).scores!),
    close: () => thread.close(),
  };
}
