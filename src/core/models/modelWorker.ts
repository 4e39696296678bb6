// Worker thread entry: hosts the transformers.js models of workerModels.ts. ONNX Runtime's node
// binding runs inference on the calling thread (a batch of 16 snippets holds it ~0.2 s), so models
// live here and the extension host's event loop stays free. One thread serves every model of the
// process for as long as the process lives: ONNX Runtime 1.14's binding is not context-aware, and
// once a thread that loaded it exits, loading it in another thread fails ("Module did not
// self-register").
import { parentPort } from 'node:worker_threads';
import { runInBackground } from '../backgroundPriority';
import { loadTransformersEmbedder, loadTransformersReranker, messageOf, type DownloadProgress, type TransformersOptions } from './transformersModels';
import type { Embedder, Reranker } from './types';

type Hosted = (Embedder | Reranker) & { close(): Promise<void> };

export type ModelRequest =
  | { id: number; op: 'load'; role: 'embedder' | 'reranker'; model: string; options: Omit<TransformersOptions, 'onProgress'> }
  | { id: number; op: 'embed'; model: number; texts: string[] }
  | { id: number; op: 'score'; model: number; query: string; passages: string[] }
  | { id: number; op: 'unload'; model: number };

export type ModelReply =
  | { id: number; kind: 'progress'; progress: DownloadProgress }
  | { id: number; kind: 'done'; dim?: number; vectors?: Float32Array[]; scores?: number[] }
  | { id: number; kind: 'failed'; error: string };

// Before any model loads, so ONNX Runtime's own threads inherit the lower priority.
runInBackground();
const port = parentPort!;
/** Loaded models by the id of the request that loaded them. */
const models = new Map<number, Promise<Hosted>>();

function hosted(id: number): Promise<Hosted> {
  const model = models.get(id);
  if (!model) throw new Error('the model was closed');
  return model;
}

async function answer(request: ModelRequest): Promise<Omit<ModelReply & { kind: 'done' }, 'id' | 'kind'>> {
  switch (request.op) {
    case 'load': {
      const onProgress = (progress: DownloadProgress) => port.postMessage({ id: request.id, kind: 'progress', progress } satisfies ModelReply);
      const options = { ...request.options, onProgress };
      const loading: Promise<Hosted> = request.role === 'embedder' ? loadTransformersEmbedder(request.model, options) : loadTransformersReranker(request.model, options);
      models.set(request.id, loading);
      try {
        const model = await loading;
        return { dim: 'dim' in model ? model.dim : undefined };
      } catch (err) {
        models.delete(request.id);
        throw err;
      }
    }
    case 'embed':
      return { vectors: await ((await hosted(request.model)) as Embedder).embed(request.texts) };
    case 'score':
      return { scores: await ((await hosted(request.model)) as Reranker).score(request.query, request.passages) };
    case 'unload': {
      const model = models.get(request.model);
      models.delete(request.model);
      await (await model?.catch(() => undefined))?.close();
      return {};
    }
  }
}

port.on('message', (request: ModelRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, kind: 'done', ...result } satisfies ModelReply, result.vectors?.map((v) => v.buffer as ArrayBuffer) ?? []),
    (err: unknown) => port.postMessage({ id: request.id, kind: 'failed', error: err instanceof Error ? err.message : messageOf(err) } satisfies ModelReply),
  );
});
