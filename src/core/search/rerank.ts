// A learned reranker of our own: the natural-language path's fused candidates (the best 50)
// are re-scored by a small model over features the product already has or computes in microseconds
// per candidate: each list's score and rank (lexical, vector cosine, MCTS), which query words the
// candidate's name, class/module, signature, path, callees, callers and own code say (each word also
// weighted by how rare it is in the repository), how many other candidates share its file, its kind,
// whether it is private or a test, how many callers it has, whether it is a closure and where the
// candidates around it and inside it stand. The scorer is boosted regression trees
// (LambdaMART), a linear / one-hidden-layer one, or a blend of trees and a linear one, whichever
// validated best. Weights are trained by `npm run train:reranker` on packages that are never
// benchmarked (train/reranker/; docs/benchmarks.md "The shipped code-search model and reranker", whose
// git history keeps the sweeps that chose each of these) and shipped in
// rerankerWeights.json, one set per embedding model they were trained with and one model-free: any
// other model keeps the plain fusion, since its scores mean something else.
import type { ReadonlyGraph } from '../graph/describe';
import { qnameParts } from '../model/schema';
import { identifierWords } from './identifiers';
import { CONTAINMENT_KINDS, containerOf } from './modelFreeScorers';
import { searchableWords, type LexicalIndex } from './lexical';
import { memoizedStemmer } from './stems';
import shipped from './rerankerWeights.json';

type Graph = ReadonlyGraph;

/** The lists fused before reranking. */
export type FusedVia = 'lexical' | 'vector' | 'mcts';

/** One fused candidate: where each list put it (score divided by the list's best, 0-based rank). */
export interface Candidate {
  id: string;
  /** Today's fused score (weighted sum of the lists' normalised scores) and its 0-based rank. */
  fused: number;
  fusedRank: number;
  lists: Partial<Record<FusedVia, { score: number; rank: number }>>;
}

/** What the features need of the query, computed once per query. */
export interface RerankQuery {
  /** Stemmed searchable words of the query, distinct. */
  words: Set<string>;
  /** Cosine between the query's embedding and a node's stored vector (undefined: no vector / no model). */
  cosine?: (id: string) => number | undefined;
  /** The best cosine among this query's candidates (set by {@link forCandidates}): a cosine means more next to its query's best. */
  bestCosine?: number;
  /** The query reads like the description of a type, not of an action ("A mapping that…", "Base class for…", "Raised when…"). */
  typeAsked: boolean;
  /** IDF of each query word in the repository (lexical.ts); 1 each without an index. */
  idf: Map<string, number>;
  /** Which query words each node's own code says (names it mentions; literals and comments), from the lexical index. */
  ownTerms?: LexicalIndex['ownTerms'];
  /** Fused ranks of the candidates in each file (set by {@link forCandidates}), best first: a file several candidates come from is likely the answer's. */
  fileRanks?: Map<string, number[]>;
  /** Each reranked candidate's fused rank (set by {@link forCandidates}): where its container and its members stand. */
  fusedRanks?: Map<string, number>;
  /** The node that holds a node (containerOf), remembered across the search's questions; containerOf itself without. */
  container?: (id: string) => string | undefined;
}

/** The features of a candidate (docs/benchmarks.md lists their meaning); what `npm run train:reranker` caches per package. */
export const BASE_FEATURES = [
  'lexical', 'lexicalRecipRank', 'inLexical',
  'cosine', 'cosineGap', 'hasVector', 'vectorRecipRank',
  'mcts', 'mctsRecipRank',
  'fused', 'fusedRecipRank',
  'nameCoverage', 'queryInName', 'contextOverlap', 'signatureOverlap', 'pathOverlap', 'bodyOverlap', 'queryWords',
  'queryInContext', 'queryInBody', 'queryInCallers', 'siblings', 'siblingRecipRank',
  'queryInMentions', 'queryInStrings', 'idfCoverage', 'idfNameCoverage', 'missingIdf',
  'isFunction', 'isMethod', 'isClass', 'isOtherKind',
  'private', 'dunder', 'testPath',
  'callers', 'lines', 'nameWords',
  'nested', 'containerRecipRank', 'memberRecipRank',
] as const;

/**
 * The query's kind of question, alone and crossed with the candidate's kind: docstrings describe a
 * function with a verb ("Return…", "Parse…") and a class with a noun phrase ("A…", "Base class for…");
 * so do people asking for either. Without these a reranker learns "the answer is a function" (the
 * usual case) and buries every class.
 */
const QUERY_FEATURES = ['typeAsked', 'typeAskedClass', 'typeAskedCallable'] as const;

/** The feature names, in the order of the vectors and of the weights. */
export const FEATURES = [...BASE_FEATURES, ...QUERY_FEATURES] as const;

/** First words of a query that describe a type (counted on the training packages' class and function docstrings). */
const TYPE_OPENERS = new Set(['a', 'an', 'base', 'abstract', 'mixin', 'subclass', 'class', 'exception', 'raised', 'represents', 'represent', 'wrapper', 'interface']);

/** Candidates reranked per query: the fused list's best; the rest keep their order below them. */
export const RERANK_DEPTH = 50;

const stem = memoizedStemmer(50_000);
const stemmedWords = (text: string): string[] => searchableWords(text).map(stem);

export function rerankQuery(query: string, cosine?: RerankQuery['cosine'], lexicon?: Pick<LexicalIndex, 'idf' | 'ownTerms'>): RerankQuery {
  const words = new Set(stemmedWords(query));
  const idf = new Map([...words].map((w) => [w, lexicon ? lexicon.idf(w) : 1]));
  // "class" as a word of its own: `response_class` names a value, not the kind of answer.
  return { words, idf, ownTerms: lexicon && ((id, words) => lexicon.ownTerms(id, words)), cosine, typeAsked: TYPE_OPENERS.has(identifierWords(query)[0] ?? '') || /\bclass\b/i.test(query) };
}

/** The query as the features of these candidates need it (their best cosine, the files they come from). */
export function forCandidates(graph: Graph, query: RerankQuery, candidates: Candidate[]): RerankQuery {
  let best: number | undefined;
  const fileRanks = new Map<string, number[]>();
  const fusedRanks = new Map<string, number>();
  for (const c of candidates.slice(0, RERANK_DEPTH)) {
    fusedRanks.set(c.id, c.fusedRank);
    const cos = query.cosine?.(c.id);
    if (cos !== undefined && (best === undefined || cos > best)) best = cos;
    const file = graph.getNodeAttribute(c.id, 'path');
    const ranks = fileRanks.get(file);
    if (ranks) ranks.push(c.fusedRank);
    else fileRanks.set(file, [c.fusedRank]);
  }
  for (const ranks of fileRanks.values()) ranks.sort((a, b) => a - b);
  return { ...query, bestCosine: best, fileRanks, fusedRanks };
}

/** Share of the query's words that `words` say (0 for an empty query). */
function coverage(words: Iterable<string>, query: Set<string>): number {
  if (query.size === 0) return 0;
  const said = new Set(words);
  let hit = 0;
  for (const w of query) if (said.has(w)) hit++;
  return hit / query.size;
}

/** Share of `words` the query says (0 when there are none). */
function overlap(words: string[], query: Set<string>): number {
  if (words.length === 0) return 0;
  let hit = 0;
  for (const w of words) if (query.has(w)) hit++;
  return hit / words.length;
}

/** IDF-weighted share of the query's words that `said` holds (0 for an empty query). */
function idfCoverage(said: Set<string>, idf: Map<string, number>): number {
  let hit = 0;
  let all = 0;
  for (const [w, weight] of idf) {
    all += weight;
    if (said.has(w)) hit += weight;
  }
  return all === 0 ? 0 : hit / all;
}

/** The most telling query word the candidate says nowhere, next to the query's most telling word (0: it says them all). */
function missingIdf(said: Set<string>, idf: Map<string, number>): number {
  let missing = 0;
  let top = 0;
  for (const [w, weight] of idf) {
    top = Math.max(top, weight);
    if (!said.has(w)) missing = Math.max(missing, weight);
  }
  return top === 0 ? 0 : missing / top;
}

const TEST_PATH = /(^|\/)(tests?|testing|__tests__|spec)(\/|$)|(^|\/)(test_[^/]*|[^/]*_test\.py|conftest\.py|[^/]*\.(test|spec)\.[jt]sx?)$/;

export function candidateFeatures(graph: Graph, query: RerankQuery, c: Candidate): number[] {
  return withQueryFeatures(query, baseFeatures(graph, query, c));
}

/** The base features followed by the query's own (QUERY_FEATURES), which need nothing but the query and the base. */
export function withQueryFeatures(query: Pick<RerankQuery, 'typeAsked'>, base: number[]): number[] {
  const asked = query.typeAsked ? 1 : 0;
  const isClass = base[BASE_FEATURES.indexOf('isClass')];
  const callable = base[BASE_FEATURES.indexOf('isFunction')] + base[BASE_FEATURES.indexOf('isMethod')];
  return [...base, asked, asked * isClass, asked * callable];
}

/** The candidate's features in BASE_FEATURES order. */
export function baseFeatures(graph: Graph, query: RerankQuery, c: Candidate): number[] {
  const node = graph.getNodeAttributes(c.id);
  const nameWords = stemmedWords(node.name);
  const parts = qnameParts(node.qname);
  const context = stemmedWords(parts.slice(0, -1).slice(-3).join(' '));
  // The parameters and annotations, without the name the signature starts with.
  const signature = stemmedWords(node.signature.replace(node.name, ' '));
  const pathWords = stemmedWords(node.path.replace(/\.[a-z]+$/, ''));
  const body: string[] = [];
  const callerWords: string[] = [];
  let callers = 0;
  // A closure and the function around it, or a method and its class, are often candidates together;
  // the query usually describes the outer, documented one.
  const rankOf = (id: string) => query.fusedRanks?.get(id);
  const container = query.container ? query.container(c.id) : containerOf(graph, c.id);
  let bestMember: number | undefined;
  graph.forEachOutEdge(c.id, (_e, edge, _s, target) => {
    if (edge.kind === 'CALLS' || edge.kind === 'USES' || edge.kind === 'INHERITS') body.push(...stemmedWords(graph.getNodeAttributes(target).name));
    const rank = CONTAINMENT_KINDS.has(edge.kind) ? rankOf(target) : undefined;
    if (rank !== undefined && (bestMember === undefined || rank < bestMember)) bestMember = rank;
  });
  graph.forEachInEdge(c.id, (_e, edge, source) => {
    if (edge.kind !== 'CALLS') return;
    callers++;
    // The callers' names say what the candidate is used for; a few are enough (a popular helper has hundreds).
    if (callers <= 20) callerWords.push(...stemmedWords(graph.getNodeAttributes(source).name));
  });
  // The other candidates of this file: how many, and the best fused rank among them.
  const fileRanks = query.fileRanks?.get(node.path) ?? [];
  const siblingBest = fileRanks.find((r) => r !== c.fusedRank);
  const recip = (rank: number | undefined) => (rank === undefined ? 0 : 1 / (1 + rank));
  // Only the query's words matter to every feature of the candidate's own code.
  const own = query.ownTerms?.(c.id, query.words);
  const mentions = own?.mentions ?? new Set<string>();
  const strings = own?.strings ?? new Set<string>();
  // Everything the candidate itself says (not its callers: they say what it is for, not what it is).
  const said = new Set([...nameWords, ...context, ...signature, ...pathWords, ...body, ...mentions, ...strings]);
  const cosine = query.cosine?.(c.id);
  const kind = node.kind;
  const raw = identifierWords(node.name);
  const containerKind = container && graph.getNodeAttribute(container, 'kind');
  return [
    c.lists.lexical?.score ?? 0, recip(c.lists.lexical?.rank), c.lists.lexical ? 1 : 0,
    cosine ?? 0, cosine === undefined || query.bestCosine === undefined ? 0 : cosine - query.bestCosine, cosine === undefined ? 0 : 1, recip(c.lists.vector?.rank),
    c.lists.mcts?.score ?? 0, recip(c.lists.mcts?.rank),
    c.fused, recip(c.fusedRank),
    overlap(nameWords, query.words), coverage(nameWords, query.words),
    overlap(context, query.words), overlap(signature, query.words), overlap(pathWords, query.words), overlap(body, query.words), Math.log1p(query.words.size),
    coverage(context, query.words), coverage(body, query.words), coverage(callerWords, query.words),
    Math.log1p(Math.max(0, fileRanks.length - 1)), recip(siblingBest),
    coverage(mentions, query.words), coverage(strings, query.words), idfCoverage(said, query.idf), idfCoverage(new Set(nameWords), query.idf), missingIdf(said, query.idf),
    kind === 'Function' ? 1 : 0, kind === 'Method' ? 1 : 0, kind === 'Class' ? 1 : 0, kind === 'Function' || kind === 'Method' || kind === 'Class' ? 0 : 1,
    /^_[^_]/.test(node.name) || /^_$/.test(node.name) ? 1 : 0, /^__.*__$/.test(node.name) ? 1 : 0, TEST_PATH.test(node.path) ? 1 : 0,
    Math.log1p(callers), Math.log1p(node.range ? node.range.endLine - node.range.startLine + 1 : 0), Math.log1p(raw.length),
    containerKind === 'Function' || containerKind === 'Method' ? 1 : 0, recip(container === undefined ? undefined : rankOf(container)), recip(bestMember),
  ];
}

/** A trained scorer: a neural one over standardised features, boosted trees over the raw ones, or a blend of such scorers. */
export type RerankerWeights = NeuralWeights | TreeWeights | BlendWeights;

/** Standardise each feature, then a linear layer, or one hidden layer (tanh) and a linear output. */
export interface NeuralWeights {
  features: string[];
  mean: number[];
  std: number[];
  /** Hidden layer: one row of input weights per unit, and its biases; absent for a linear model. */
  hidden?: { weights: number[][]; bias: number[] };
  /** Output weights (one per hidden unit, or per feature for a linear model). */
  output: number[];
  bias: number;
}

/**
 * One regression tree: internal node i sends a row left when x[feature[i]] <= threshold[i]; a child
 * index c >= 0 is another internal node, c < 0 the leaf -(c + 1). A tree of one leaf has no nodes.
 */
export interface RerankerTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  leaf: number[];
}

/** Boosted regression trees (LambdaMART, train/reranker/trees.ts): the score is the sum of the trees' leaves. */
export interface TreeWeights {
  features: string[];
  trees: RerankerTree[];
  bias: number;
}

/**
 * Scorers mixed (train/reranker/blend.ts): each member's score is standardised by its mean and spread
 * over the training candidates, so that neither dominates by its scale, and weighted. Trees cut the
 * features into steps, a linear scorer weighs them smoothly: where one errs the other often does not.
 */
export interface BlendWeights {
  features: string[];
  members: { weight: number; mean: number; std: number; scorer: NeuralWeights | TreeWeights }[];
}

/** The leaf a row reaches in one tree. */
export function treeValue(tree: RerankerTree, x: number[]): number {
  if (tree.feature.length === 0) return tree.leaf[0];
  let node = 0;
  for (;;) {
    const next = x[tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
    if (next < 0) return tree.leaf[-next - 1];
    node = next;
  }
}

export function rerankerScore(weights: RerankerWeights, x: number[]): number {
  if ('members' in weights) return weights.members.reduce((s, m) => s + (m.weight * (rerankerScore(m.scorer, x) - m.mean)) / m.std, 0);
  if ('trees' in weights) return weights.trees.reduce((s, tree) => s + treeValue(tree, x), weights.bias);
  const z = x.map((v, i) => (v - weights.mean[i]) / weights.std[i]);
  const h = weights.hidden ? weights.hidden.weights.map((row, j) => Math.tanh(row.reduce((s, w, i) => s + w * z[i], weights.hidden!.bias[j]))) : z;
  return h.reduce((s, v, i) => s + v * weights.output[i], weights.bias);
}

/** The shipped file: weight sets by the model they were trained with ("model-free" without one), and how they were trained. */
export interface RerankerFile {
  version: number;
  features: string[];
  sets: Record<string, RerankerWeights & { trained: Record<string, unknown> }>;
}

/** Key of the model-free weight set. */
export const MODEL_FREE = 'model-free';

/**
 * The weight set for this search, or undefined to keep the plain fusion: the shipped model's set when
 * it is the embedder (and no cross-encoder changes what MCTS scores mean), the model-free set when no
 * model is loaded. A file whose features differ from this code's is ignored rather than misread.
 */
export function rerankerFor(embedderId: string | undefined, crossEncoder: boolean, file: RerankerFile = shipped as RerankerFile): RerankerWeights | undefined {
  if (crossEncoder || file.features.join() !== FEATURES.join()) return undefined;
  const set = file.sets[embedderId ?? MODEL_FREE];
  return set && set.features.join() === FEATURES.join() ? set : undefined;
}

/** The candidates reordered by the learned score (best first); those below RERANK_DEPTH follow in their order. */
export function rerank(graph: Graph, query: RerankQuery, candidates: Candidate[], weights: RerankerWeights): { candidate: Candidate; score: number }[] {
  const top = candidates.slice(0, RERANK_DEPTH).map((candidate) => ({ candidate, score: rerankerScore(weights, candidateFeatures(graph, query, candidate)) }));
  top.sort((a, b) => b.score - a.score || a.candidate.fusedRank - b.candidate.fusedRank);
  const floor = top.length ? top[top.length - 1].score : 0;
  return [...top, ...candidates.slice(RERANK_DEPTH).map((candidate, i) => ({ candidate, score: floor - 1 - i }))];
}
