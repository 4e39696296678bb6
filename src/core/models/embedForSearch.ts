// One embedding pass, then the SearchModels built from it: what a one-shot run (the CLI's query, the
// search benchmark) needs before its first search. The store keeps the vectors by content hash, so a
// later run over the same store embeds only what changed. The editor runs the same EmbeddingJob
// incrementally in the background instead (src/extension/models.ts).
import type { Engine } from '../engine';
import { EmbeddingJob, type EmbeddingJobOptions, type EmbeddingReport } from './embeddingJob';
import { searchModelsWith, type LoadedModels } from './loader';
import type { MemoryNodeVectors } from './nodeVectors';
import { messageOf } from './transformersModels';
import type { SearchModels } from './types';

export interface EmbeddedModels {
  models: SearchModels;
  /** Undefined without an embedding model, or when the pass failed (see `problem`). */
  embedding?: EmbeddingReport;
  /** The engine's node vectors (also in `models.vectors`), typed for callers that scan them directly. */
  vectors?: MemoryNodeVectors;
  /** Why the embedding pass stopped early (an endpoint went down): search uses what was embedded. */
  problem?: string;
}

export async function embedForSearch(engine: Pick<Engine, 'graph' | 'currentStore' | 'flush'>, loaded: LoadedModels, options: EmbeddingJobOptions = {}): Promise<EmbeddedModels> {
  if (!loaded.embedder) return { models: searchModelsWith(loaded, undefined) };
  const job = new EmbeddingJob(engine, loaded.embedder, options);
  try {
    const embedding = await job.run();
    return { models: searchModelsWith(loaded, job.vectors), embedding, vectors: job.vectors };
  } catch (err) {
    const problem = `embedding stopped early (${messageOf(err)})`;
    const models = searchModelsWith(loaded, job.vectors);
    return { models: { ...models, status: `${models.status}; ${problem}` }, vectors: job.vectors, problem };
  }
}
