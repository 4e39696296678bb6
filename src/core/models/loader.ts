// Loads whatever models the settings ask for and says in one line what search will run with. A
// model that cannot be had (offline, download failed, endpoint down) is left out with its reason:
// search degrades to model-free scoring, it never fails for want of a model.
import { BUNDLED_EMBEDDING_MODEL, bundledOptions } from './bundled';
import { loadEndpointEmbedder, type EndpointEmbedderOptions } from './openaiEmbedder';
import { isModelOnDisk, loadTransformersEmbedder, loadTransformersReranker, messageOf, type Closable, type TransformersOptions } from './transformersModels';
import type { Embedder, NodeVectors, Reranker, SearchModels } from './types';
import { loadWorkerEmbedder, loadWorkerReranker } from './workerModels';

export interface ModelSettings {
  /**
   * transformers.js bi-encoder id; empty or undefined: the shipped model when `shippedByDefault`, else
   * none. Ignored when `endpoint` is set. The shipped model's id loads from its own folder, offline.
   */
  embeddingModel?: string;
  /** No embedding model or endpoint configured means the shipped model (the editor), not none (the CLI). */
  shippedByDefault?: boolean;
  /** An OpenAI-compatible embeddings server; `model` is sent as the request's model. */
  endpoint?: Omit<EndpointEmbedderOptions, 'model'> & { model?: string };
  /** transformers.js cross-encoder id; empty or undefined: none. */
  rerankerModel?: string;
  transformers?: TransformersOptions;
  /** Run transformers.js models in worker threads (what an editor wants: inference blocks its thread). */
  threads?: boolean;
}

export type LoadedModels = Omit<SearchModels, 'vectors'> & {
  /** Why each missing model is missing, for the log. */
  problems: string[];
  /** Stops the models' threads (a no-op for in-process models). */
  close(): Promise<void>;
};

export async function loadSearchModels(settings: ModelSettings): Promise<LoadedModels> {
  const problems: string[] = [];
  const attempt = async <T>(what: string, load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (err) {
      problems.push(`no ${what} (${messageOf(err)})`);
      return undefined;
    }
  };
  const endpoint = settings.endpoint;
  const embeddingModel = settings.embeddingModel?.trim() || (settings.shippedByDefault ? BUNDLED_EMBEDDING_MODEL : '');
  let embedder: Embedder | undefined;
  if (endpoint?.baseURL) {
    const model = endpoint.model?.trim() || embeddingModel;
    if (!model) problems.push(`no embedding model (the endpoint ${endpoint.baseURL} needs a model name)`);
    else embedder = await attempt('embedding model', () => loadEndpointEmbedder({ ...endpoint, model }));
  } else if (embeddingModel) {
    const load = settings.threads ? loadWorkerEmbedder : loadTransformersEmbedder;
    // The shipped model's id loads from the shipped folder unless the configured folder holds a model of that id (a retrained one).
    const shipped = embeddingModel === BUNDLED_EMBEDDING_MODEL && !isModelOnDisk(embeddingModel, settings.transformers ?? {});
    embedder = await attempt('embedding model', async () => load(embeddingModel, shipped ? bundledOptions(settings.transformers) : settings.transformers));
  }
  const rerankerModel = settings.rerankerModel?.trim();
  const loadReranker = settings.threads ? loadWorkerReranker : loadTransformersReranker;
  const reranker: Reranker | undefined = rerankerModel ? await attempt('reranker', () => loadReranker(rerankerModel, settings.transformers)) : undefined;
  const close = async () => {
    for (const model of [embedder, reranker]) if (model && 'close' in model) await (model as Closable).close();
  };
  return { embedder, reranker, problems, status: statusLine(embedder, reranker, problems), close };
}

function statusLine(embedder: Embedder | undefined, reranker: Reranker | undefined, problems: string[]): string {
  if (!embedder && !reranker) return `model-free: ${problems.length > 0 ? problems.join('; ') : 'no models configured'}`;
  const loaded = [embedder && `embeddings ${embedder.id}`, reranker && `reranker ${reranker.id}`].filter(Boolean).join(', ');
  return problems.length > 0 ? `${loaded}; ${problems.join('; ')}` : loaded;
}

/**
 * What search may use: the loaded models plus the vectors embedded so far, with one status line that
 * says how many nodes have a vector (and how far a running embedding pass is). Editor and CLI alike.
 */
export function searchModelsWith(models: LoadedModels, vectors: NodeVectors | undefined, progress?: { done: number; total: number }): SearchModels {
  const embedding = progress && progress.done < progress.total ? `, embedding ${progress.done}/${progress.total}` : '';
  const embedded = models.embedder ? `; ${vectors?.size ?? 0} nodes embedded${embedding}` : '';
  return { embedder: models.embedder, reranker: models.reranker, vectors, status: `${models.status}${embedded}` };
}
