// RANGER's encoders when models are loaded: the bi-encoder similarity is the cosine between the query's
// embedding and a node's stored vector, the cross-encoder relevance is the reranker's score of the
// node's passage. Nodes without a stored vector yet (embedding runs in the background) fall back to the
// model-free similarity, and no reranker falls back to the model-free relevance: search never waits for
// the embedding job.
import type { ReadonlyGraph } from '../graph/describe';
import { rowDot } from '../models/nodeVectors';
import type { SearchModels } from '../models/types';
import type { MctsScorers } from './mcts';
import { nodeText } from './nodeText';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

/** Vector-search seeds taken per query. */
const VECTOR_SEEDS = 50;
/**
 * Cosine below which a vector neighbour is unrelated to the query, not a weak match: nonsense queries
 * ("xyzzy plugh frobnicate") peak at 0.15 against code with the shipped model, related pairs start
 * near 0.2 (docs/benchmarks.md). Without it every query has neighbours, so none could say "nothing found".
 */
export const MIN_SEED_SIMILARITY = 0.2;

/** `queryVector`: the query's embedding by `models.embedder` (none without one). */
export async function modelScorers(graph: Graph, queryVector: Float32Array | undefined, models: SearchModels, lexical: () => MctsScorers): Promise<{ scorers: MctsScorers; seeds: SearchHit[]; cosine?: (id: string) => number | undefined }> {
  const { reranker, vectors } = models;
  const seeds: SearchHit[] =
    queryVector && vectors && vectors.size > 0
      ? (await vectors.nearest(queryVector, VECTOR_SEEDS)).filter((s) => s.score >= MIN_SEED_SIMILARITY && graph.hasNode(s.id)).map((s) => ({ id: s.id, score: s.score, via: 'vector' as const }))
      : [];
  let fallbackScorers: MctsScorers | undefined;
  const fallback = () => (fallbackScorers ??= lexical());
  // The bi-encoder's similarity of a node with a stored vector; also a feature of the learned reranker (rerank.ts).
  const cosine =
    queryVector && vectors
      ? (id: string) => {
          const v = vectors.get(id);
          return v ? rowDot(v, 0, queryVector, Math.min(v.length, queryVector.length)) : undefined;
        }
      : undefined;
  const similarity: MctsScorers['similarity'] = cosine
    ? async (q, ids) => {
        const fallbackScores = await fallback().similarity(q, ids);
        return ids.map((id, i) => cosine(id) ?? fallbackScores[i]);
      }
    : (q, ids) => fallback().similarity(q, ids);
  const relevance: MctsScorers['relevance'] = reranker ? (q, ids) => reranker.score(q, ids.map((id) => nodeText(graph, id))) : (q, ids) => fallback().relevance(q, ids);
  return { scorers: { similarity, relevance }, seeds, cosine };
}
