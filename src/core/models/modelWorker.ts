// Worker thread entry: hosts one transformers.js model for workerModels.ts. ONNX Runtime's node
// binding runs inference on the calling thread (a batch of 16 snippets holds it ~0.2 s), so models
// live here and the extension host's event loop stays free.
import { parentPort, workerData } from 'node:worker_threads';
import { loadTransformersEmbedder, loadTransformersReranker, messageOf, type TransformersOptions } from './transformersModels';
import type { Embedder, Reranker } from './types';

export interface ModelWorkerData {
  role: 'embedder' | 'reranker';
  model: string;
  options: Omit<TransformersOptions, 'onProgress'>;
}

export type ModelRequest = { id: number; op: 'embed'; texts: string[] } | { id: number; op: 'score'; query: string; passages: string[] };

export type ModelMessage =
  | { kind: 'progress'; progress: Parameters<NonNullable<TransformersOptions['onProgress']>>[0] }
  | { kind: 'loaded'; dim: number }
  | { kind: 'failed'; error: string }
  | { kind: 'reply'; id: number; vectors?: Float32Array[]; scores?: number[]; error?: string };

const port = parentPort!;
const { role, model, options } = workerData as ModelWorkerData;
const onProgress: TransformersOptions['onProgress'] = (progress) => port.postMessage({ kind: 'progress', progress } satisfies ModelMessage);

const loaded: Promise<Embedder | Reranker> =
  role === 'embedder' ? loadTransformersEmbedder(model, { ...options, onProgress }) : loadTransformersReranker(model, { ...options, onProgress });

loaded.then(
  (m) => port.postMessage({ kind: 'loaded', dim: 'dim' in m ? m.dim : 0 } satisfies ModelMessage),
  (err: unknown) => port.postMessage({ kind: 'failed', error: err instanceof Error ? err.message : String(err) } satisfies ModelMessage),
);

port.on('message', async (request: ModelRequest) => {
  try {
    const m = await loaded;
    if (request.op === 'embed') {
      const vectors = await (m as Embedder).embed(request.texts);
      port.postMessage({ kind: 'reply', id: request.id, vectors } satisfies ModelMessage, vectors.map((v) => v.buffer as ArrayBuffer));
    } else {
      port.postMessage({ kind: 'reply', id: request.id, scores: await (m as Reranker).score(request.query, request.passages) } satisfies ModelMessage);
    }
  } catch (err) {
    port.postMessage({ kind: 'reply', id: request.id, error: messageOf(err) } satisfies ModelMessage);
  }
});
