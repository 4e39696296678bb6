// The natural-language path (RANGER §3.4): seeds from the lexical index (and from vector search when an
// embedding model is loaded), then the MCTS traversal of the graph started from the repository root and
// from those seeds, then one ranking that fuses the lists. Each hit says how it was found: `lexical`,
// `vector`, or `mcts` with the tree path that reached it.
import type { ReadonlyGraph } from '../graph/describe';
import { BUNDLED_EMBEDDING_MODEL, SHIPPED_MODEL_FUSION } from '../models/bundled';
import type { SearchModels } from '../models/types';
import type { LexicalIndex } from './lexical';
import { mctsSearch, type MctsOptions, type MctsScorers } from './mcts';
import { containersOf, modelFreeScorers, type ContainerMemo } from './modelFreeScorers';
import { modelScorers } from './modelScorers';
import { collapseToImplementations } from './implementations';
import { forCandidates, rerank, rerankerFor, rerankQuery, type Candidate, type FusedVia, type RerankQuery, type RerankerFile, type RerankerWeights } from './rerank';
import type { SearchHit, Via } from './types';

type Graph = ReadonlyGraph;

export interface NaturalLanguageOptions {
  /**
   * RANGER's traversal with the paper's defaults: a budget of `iterations` expansions of its own (what
   * the seeds take never comes out of it), and a wall-clock cap only as a safety (`safetyMs`, reported
   * in `timingsMs.mctsCut` when hit). `enabled` defaults to whether a
   * model is loaded: with the lexical stand-in scorers the traversal only re-finds what the lexical
   * seeds already rank (measured on four Python corpora: NDCG@10 equal or up to 0.02 lower, and
   * 4–15 ms more per query; `npm run bench:search`, docs/benchmarks.md), so model-free search skips
   * it unless asked.
   */
  mcts?: MctsOptions & { enabled?: boolean };
  /** Seeds per source (lexical, vector) that also become MCTS start nodes next to the root. Default 5. */
  seedRoots?: number;
  /** Weight of each list in the fused ranking (each list's scores are first divided by its best). */
  weights?: Partial<Record<FusedVia, number>>;
  /**
   * The learned reranker over the fused candidates (rerank.ts): on by default where a weight set was
   * trained for the models in use; `false` keeps the plain fusion (the benchmarks' "before" rows).
   */
  rerank?: boolean;
  /** @internal The reranker's weight file (default: the shipped rerankerWeights.json); tests pass altered ones. */
  rerankerFile?: RerankerFile;
  /** @internal Containers found by earlier questions on this version of the graph (the searcher keeps them). */
  containers?: ContainerMemo;
  /** @internal What the reranker sees of each query, before it reorders: `npm run train:reranker` collects it. */
  onCandidates?: (query: RerankQuery, candidates: Candidate[]) => void;
}

/**
 * The traversal's safety cap in an interactive query. With the default scorers (the shipped model and
 * the model-free relevance) the iterations finish far below it; a downloaded cross-encoder scoring tens
 * of pairs a second can reach it, and the answer then says the traversal was cut.
 */
const MCTS_SAFETY_MS = 1000;
const WEIGHTS: Record<FusedVia, number> = { lexical: 1, vector: 1, mcts: 1 };

export async function naturalLanguageSearch(
  graph: Graph,
  lexical: LexicalIndex,
  query: string,
  limit: number,
  models: SearchModels | undefined,
  options: NaturalLanguageOptions,
  timingsMs: Record<string, number>,
): Promise<SearchHit[]> {
  // The query is embedded (in the model's thread where the models run in one: the service, the editor)
  // while this thread runs the lexical search; a failure is the search's, when it is awaited below.
  const embedding = models?.embedder?.embed([query]).then(([vector]) => vector);
  embedding?.catch(() => undefined);
  let t = performance.now();
  const matches = lexical.scores(query);
  timingsMs.lexical = performance.now() - t;
  const lists: SearchHit[][] = [matches.slice(0, Math.max(limit, 50))];

  // Built only when asked for: spreading the matches up the containment tree is wasted when MCTS is off.
  const container = containersOf(graph, options.containers);
  const lexicalScorers = () => modelFreeScorers(graph, matches, container);
  let scorers: (() => MctsScorers) = lexicalScorers;
  let cosine: RerankQuery['cosine'];
  const withModel = Boolean(models?.embedder || models?.reranker);
  if (models && withModel) {
    t = performance.now();
    const withModels = await modelScorers(graph, await embedding, models, lexicalScorers);
    scorers = () => withModels.scorers;
    cosine = withModels.cosine;
    if (withModels.seeds.length > 0) lists.push(withModels.seeds);
    timingsMs.vector = performance.now() - t;
  }

  // Nothing matches the words and no code is near the query's meaning: the traversal would only rank
  // unrelated nodes, so the answer is that nothing was found.
  if (lists.every((list) => list.length === 0)) return [];
  const mcts = options.mcts ?? {};
  if (mcts.enabled ?? withModel) {
    t = performance.now();
    const seedRoots = options.seedRoots ?? 5;
    // Start nodes: the repository root (RANGER) and the containers of the best seeds, so the seeds
    // themselves are candidates of the first expansions and get scored by the cross-encoder (a start
    // node never is).
    const seedParents = lists.flatMap((l) => l.slice(0, seedRoots).map((h) => container(h.id) ?? h.id));
    const roots = [...(graph.hasNode('dir:.') ? ['dir:.'] : []), ...seedParents];
    const traversalScorers = scorers();
    const result = await mctsSearch(graph, query, traversalScorers, { ...mcts, safetyMs: mcts.safetyMs ?? MCTS_SAFETY_MS, roots: roots.length > 0 ? roots : undefined });
    lists.push(result.hits);
    timingsMs.mcts = performance.now() - t;
    timingsMs.mctsIterations = result.iterations;
    if (result.cut) timingsMs.mctsCut = 1;
  }
  // The shipped model is a small bag-of-tokens encoder: its lists count for less next to the lexical one.
  const modelWeights = models?.embedder?.id === BUNDLED_EMBEDDING_MODEL ? SHIPPED_MODEL_FUSION : {};
  const fused = fuse(lists, { ...WEIGHTS, ...modelWeights, ...options.weights });
  const reranker = options.rerank === false ? undefined : rerankerFor(models?.embedder?.id, Boolean(models?.reranker), options.rerankerFile);
  if (!reranker && !options.onCandidates) return collapseToImplementations(graph, fused.map(({ hit, candidate }) => asHit(hit, candidate.fused)), limit);
  t = performance.now();
  const reranked = learnedOrder(graph, { ...rerankQuery(query, cosine, lexical), container }, fused, reranker, options.onCandidates);
  // Present only when the learned reranker ordered the hits: the search's reason says so.
  if (reranker) timingsMs.rerank = performance.now() - t;
  return collapseToImplementations(graph, reranked, limit);
}

/** The fused list in the reranker's order, its scores squashed into (0, 1); the plain fusion without one. */
function learnedOrder(graph: Graph, asked: RerankQuery, fused: Fused[], reranker: RerankerWeights | undefined, onCandidates: NaturalLanguageOptions['onCandidates']): SearchHit[] {
  const candidates = fused.map((f) => f.candidate);
  const query = forCandidates(graph, asked, candidates);
  onCandidates?.(query, candidates);
  if (!reranker) return fused.map(({ hit, candidate }) => asHit(hit, candidate.fused));
  return rerank(graph, query, candidates, reranker).map(({ candidate, score }) => asHit(fused[candidate.fusedRank].hit, 1 / (1 + Math.exp(-score))));
}

const asHit = (hit: SearchHit, score: number): SearchHit => ({ id: hit.id, score, via: hit.via as Via, ...(hit.path ? { path: hit.path } : {}) });

interface Fused {
  /** The hit that gave the candidate most (its `via`), with the MCTS path when one list had it. */
  hit: SearchHit;
  candidate: Candidate;
}

/** Sum of each list's normalised score times its weight, best first; each candidate keeps where every list put it (the reranker's features). */
function fuse(lists: SearchHit[][], weights: Record<FusedVia, number>): Fused[] {
  const fused = new Map<string, Fused & { best: number }>();
  for (const list of lists) {
    const top = list[0]?.score;
    if (!top || top <= 0) continue;
    list.forEach((hit, rank) => {
      const via = hit.via as FusedVia;
      const normalised = Math.max(0, hit.score / top);
      const part = weights[via] * normalised;
      const entry = fused.get(hit.id);
      if (!entry) {
        fused.set(hit.id, { hit, best: part, candidate: { id: hit.id, fused: part, fusedRank: 0, lists: { [via]: { score: normalised, rank } } } });
        return;
      }
      entry.candidate.fused += part;
      entry.candidate.lists[via] ??= { score: normalised, rank };
      const path = entry.hit.path ?? hit.path;
      if (part > entry.best) {
        entry.best = part;
        entry.hit = hit;
      }
      if (path) entry.hit = { ...entry.hit, path };
    });
  }
  const ranked = [...fused.values()].sort((a, b) => b.candidate.fused - a.candidate.fused || (a.hit.id < b.hit.id ? -1 : 1));
  ranked.forEach((f, i) => (f.candidate.fusedRank = i));
  return ranked.map(({ hit, candidate }) => ({ hit, candidate }));
}
