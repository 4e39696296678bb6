// `npm run bench:search [-- --json FILE] [--corpus NAME]... [--django-queries N] [--no-django]
//     [--models-dir DIR --embedding-model ID --reranker-model ID] [--feature-text]`
// Search quality and latency on real code whose docstrings become the queries (issue 4).
// Per corpus (Debian python3-flask/-requests/-click/-werkzeug, npm rxjs): every Function/Method
// whose docstring's first sentence has >= 3 words gives one natural-language query (that sentence,
// relevant = that function) and one entity query (its own name). The index holds a copy of the code
// with function/class docstrings and all JSDoc stripped. Paths: BM25 over the stripped code
// (MiniSearch, the baseline this bench always had; and standard Okapi BM25, every query-term
// occurrence counted, Lucene's k1 1.2 and b 0.75: bench/search/okapi.ts) and Cartograph model-free (`createSearcher` from src/core/search, when
// present). Metrics: NDCG@10, Recall@10, MRR@10; entity top-1/top-5; latency p50/p95; and the same
// latencies on Django (859 files). `--queries` adds every query with its target and ranks to the JSON
// (and, with the models, the default path's first three answers).
// Held-out discipline (bench/search/split.ts): the five dev corpora are split, seeded, into a tuning
// half and a held-out half; the tables show both. Other corpora (--corpus gson, a path) are in neither.
// With model flags (transformers.js ids under DIR, offline) two more paths per corpus: flat embedding
// search (cosine nearest nodes, no MCTS) and Cartograph with the models (vector seeds + MCTS scored by
// the bi-/cross-encoder); on Django, latency only: the embedding pass over all of it, then the
// natural-language queries with the models.
// `--feature-text` (issue 36) adds each Cartograph path again with the functional view's model-free
// feature phrases (FeatureHierarchy, lifted from the stripped code) indexed as part of each entity's
// description: the same queries, with and without, side by side.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { qnameParts } from '../src/core/model/schema';
import { findNodes } from '../src/core/graph/describe';
import { Engine } from '../src/core/engine';
import { ParserPool } from '../src/core/parse/parser';
import { embedForSearch } from '../src/core/models/embedForSearch';
import { loadSearchModels, type LoadedModels } from '../src/core/models/loader';
import type { SearchModels } from '../src/core/models/types';
import type { SearchResult } from '../src/core/search/types';
import { withLoopGaps } from './loopGaps';
import { buildBm25, buildOkapi, type Bm25Index } from './search/bm25';
import { CORPORA, TS_PACKAGE, corpusVersions, ensureTsPackage, groundTruth, keyOf, stripCopy, type GroundTruth } from './search/corpus';
import { dedupe, hitAt, mean, percentile, rankingMetrics, type RankingMetrics } from './search/metrics';
import { fixtureSigns } from './search/modelCheck';
import { HALVES, splitHalves, type Half } from './search/split';
import { FeatureHierarchy } from '../src/core/features/hierarchy';
import type { FeatureText } from '../src/core/search/lexical';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    corpus: { type: 'string', multiple: true },
    'django-queries': { type: 'string' },
    'no-django': { type: 'boolean' },
    queries: { type: 'boolean' },
    'models-dir': { type: 'string' },
    'embedding-model': { type: 'string' },
    'reranker-model': { type: 'string' },
    'feature-text': { type: 'boolean' },
  },
});
const PY_CORPORA = ['flask', 'requests', 'click', 'werkzeug'];
const corpora = values.corpus ?? [...PY_CORPORA, TS_PACKAGE.name];
const DJANGO_QUERIES = Number(values['django-queries'] ?? 200);
/** The dev corpora's halves, one weight each (their query counts are known only after a run). */
const HALF_OF: Record<string, Half> = splitHalves(Object.fromEntries([...PY_CORPORA, TS_PACKAGE.name].map((c) => [c, 1])));
const LIMIT = 20; // hits requested per query; metrics use the top 10 after collapsing overloads

type Searcher = { search(query: string, limit?: number, context?: { fromPath?: string }): Promise<SearchResult> };
type SearcherFactory = (engine: Engine, options?: { mcts?: { enabled?: boolean }; models?: () => SearchModels | undefined; rerank?: boolean; features?: FeatureText }) => Searcher;

async function loadSearcher(): Promise<{ create?: SearcherFactory; status: string }> {
  const file = path.join(__dirname, '..', 'src', 'core', 'search', 'index.ts');
  if (!fs.existsSync(file)) return { status: 'not available yet (src/core/search/index.ts missing)' };
  try {
    const mod = await import('../src/core/search/index');
    const create = (mod as { createSearcher?: SearcherFactory }).createSearcher;
    return create ? { create, status: 'available' } : { status: 'not available yet (no createSearcher export)' };
  } catch (err) {
    return { status: `not available (import failed: ${(err as Error).message.split('\n')[0]})` };
  }
}

function ensureCorpora(): void {
  const python = [...PY_CORPORA, 'django'];
  if (!python.every((c) => fs.existsSync(path.join(CORPORA, c)))) {
    execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  }
  if (corpora.includes(TS_PACKAGE.name)) ensureTsPackage();
  if (corpora.includes('gson') && !fs.existsSync(path.join(CORPORA, 'gson'))) execFileSync('bash', [path.join(__dirname, 'fetch-java-corpora.sh')], { stdio: 'inherit' });
}

interface Latency { n: number; p50: number; p95: number; mean: number }
const latency = (ms: number[]): Latency => ({ n: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), mean: mean(ms) });

type CartographRun = RankingMetrics & { warmupMs: number; latency: Latency; routes: Record<string, number>; mctsIterations?: number };

/** The paths that need a model, on the same queries; a path whose model is not loaded is null. */
interface ModelRuns {
  status: string;
  embedding: { nodes: number; ms: number } | null;
  /** Cosine nearest nodes to the embedded query: the vectors alone, no lexical seeds, no MCTS. */
  flatEmbedding: (RankingMetrics & { latency: Latency }) | null;
  /** createSearcher with the models: lexical + vector seeds and MCTS scored by the bi-/cross-encoder. */
  cartographModels: CartographRun | null;
  /** The same with MCTS off: lexical + vector seeds fused, nothing else. */
  cartographModelsNoMcts: CartographRun | null;
  /** The default path without the learned reranker (the plain fusion of the lists). */
  cartographModelsFusion: CartographRun | null;
  /** `--feature-text`: the default path with feature phrases in the lexical index. */
  cartographModelsFeatures: CartographRun | null;
  /** The default path's ranked keys per query, for `--queries`; dropped before the JSON is written. */
  runs?: { ranked: string[] }[];
}

interface EntityMetrics {
  queries: number;
  top1: number;
  top5: number;
  /**
   * The best top-1 any ranking can reach: queries that are the same name get the same answer list, so
   * at most one target per distinct name can be first (distinct names / queries).
   */
  top1Ceiling: number;
  /**
   * Each distinct name asked once, answered right when the first hit is any of the documented
   * functions of that name: the IR reading of a query whose text several targets share.
   */
  distinctNames: number;
  distinctTop1: number;
  uniqueNames: number;
  uniqueTop1: number;
  uniqueTop5: number;
}

interface CorpusResult {
  corpus: string;
  version: string;
  files: number;
  functions: number;
  groundTruth: number;
  queries: number;
  missingInStripped: number;
  docLeftInStripped: number;
  syntaxErrorFiles: { original: number; stripped: number };
  stripped: { files: number; strippedFiles: number; removed: number };
  indexMs: number;
  /** In which half of the dev set the corpus is; undefined for corpora outside it. */
  half?: Half;
  bm25: RankingMetrics & { documents: number; buildMs: number; latency: Latency };
  /** Standard Okapi BM25 (every query-term occurrence counted) over the same documents and tokens. */
  okapi: RankingMetrics & { documents: number; buildMs: number; latency: Latency };
  cartograph: CartographRun | null;
  /** Model-free without the learned reranker: the lexical list alone (src/core/search/rerank.ts). */
  cartographFusion: CartographRun | null;
  /** Ablation: the same searcher with RANGER's MCTS forced on, scored by the lexical stand-in scorers. */
  cartographMcts: CartographRun | null;
  /** `--feature-text`: model-free with the entities' feature phrases in the lexical index (null without the flag). */
  cartographFeatures: CartographRun | null;
  /** `--feature-text`: entities with feature phrases, and the milliseconds FeatureHierarchy.build took. */
  featureText?: { entities: number; buildMs: number };
  /** Only with model flags (null otherwise): see ModelRuns. */
  models: ModelRuns | null;
  entity: EntityMetrics & { via: string; latency: Latency; routes: Record<string, number>; qualifiedTop1: number; qualifiedTop5: number; fromCallerTop1: number; fromCallerTop5: number; withCaller: number };
  perQuery?: { query: string; target: string; bm25Rank: number; cartographRank: number | null; featuresRank: number | null; targetFeatures: string[] | null; modelsRank: number | null; modelsTop: string[] | null; entityRank: number }[];
}

/** One entity query: what was asked (with its context), the ranked keys, the target. */
interface EntityRun { query: string; ranked: string[]; key: string; unique: boolean }

function entityMetrics(runs: EntityRun[]): EntityMetrics {
  const unique = runs.filter((r) => r.unique);
  const h = (rs: typeof runs, k: number) => mean(rs.map((r) => hitAt(r.ranked, new Set([r.key]), k)));
  const byQuery = new Map<string, EntityRun & { keys: Set<string> }>();
  for (const r of runs) {
    const seen = byQuery.get(r.query);
    if (seen) seen.keys.add(r.key);
    else byQuery.set(r.query, { ...r, keys: new Set([r.key]) });
  }
  const distinct = [...byQuery.values()];
  const top1Ceiling = runs.length === 0 ? 0 : distinct.length / runs.length;
  const distinctTop1 = mean(distinct.map((r) => hitAt(r.ranked, r.keys, 1)));
  return { queries: runs.length, top1: h(runs, 1), top5: h(runs, 5), top1Ceiling, distinctNames: distinct.length, distinctTop1, uniqueNames: unique.length, uniqueTop1: h(unique, 1), uniqueTop5: h(unique, 5) };
}

const rankedKeys = (ids: string[]) => dedupe(ids.map(keyOf)).slice(0, 10);

function functionCount(engine: Engine): number {
  let n = 0;
  engine.graph.graph.forEachNode((_id, a) => void ((a.kind === 'Function' || a.kind === 'Method') && n++));
  return n;
}

async function runEntity(engine: Engine, gt: GroundTruth[], create: SearcherFactory | undefined, searcher: Searcher | undefined) {
  const nameCount = new Map<string, number>();
  engine.graph.graph.forEachNode((_id, a) => {
    if (a.kind === 'Function' || a.kind === 'Method') nameCount.set(a.name, (nameCount.get(a.name) ?? 0) + 1);
  });
  const runs: EntityRun[] = [];
  const ms: number[] = [];
  const routes: Record<string, number> = {};
  for (const q of gt) {
    const t = performance.now();
    let ids: string[];
    if (searcher) {
      const res = await searcher.search(q.name, LIMIT);
      ids = res.hits.map((h) => h.id);
      routes[res.route] = (routes[res.route] ?? 0) + 1;
    } else {
      ids = findNodes(engine.graph.graph, q.name);
    }
    ms.push(performance.now() - t);
    runs.push({ query: q.name, ranked: rankedKeys(ids), key: q.key, unique: (nameCount.get(q.name) ?? 0) === 1 });
  }
  // What a user types to disambiguate a shared name: the last two parts of the qualified name
  // (`Flask.run`, `helpers.url_for`, Rust `Runtime::new`).
  const qualified: EntityRun[] = [];
  for (const q of gt) {
    // Rust: `Runtime::new`, as written in Rust.
    const name = qnameParts(q.qname).slice(-2).join(q.qname.includes('::') ? '::' : '.');
    const ids = searcher ? (await searcher.search(name, LIMIT)).hits.map((h) => h.id) : findNodes(engine.graph.graph, name);
    qualified.push({ query: name, ranked: rankedKeys(ids), key: q.key, unique: true });
  }
  const q = entityMetrics(qualified);
  // The bare name asked from where it is used (the QuickPick passes the active editor's file): the
  // file of the first caller by id; functions nobody calls are asked without context.
  const fromCaller: EntityRun[] = [];
  let withCaller = 0;
  for (const g of gt) {
    const callers = engine.graph.graph.filterInEdges(g.id, (_e, a) => a.kind === 'CALLS').map((e) => engine.graph.graph.source(e)).sort();
    const fromPath = callers.length ? engine.graph.graph.getNodeAttribute(callers[0], 'path') : undefined;
    if (fromPath) withCaller++;
    const ids = searcher ? (await searcher.search(g.name, LIMIT, { fromPath })).hits.map((h) => h.id) : findNodes(engine.graph.graph, g.name);
    fromCaller.push({ query: `${g.name} from ${fromPath ?? 'nowhere'}`, ranked: rankedKeys(ids), key: g.key, unique: true });
  }
  const c = entityMetrics(fromCaller);
  return { ...entityMetrics(runs), qualifiedTop1: q.top1, qualifiedTop5: q.top5, fromCallerTop1: c.top1, fromCallerTop5: c.top5, withCaller, ranked: runs.map((r) => r.ranked), via: create ? 'cartograph searcher' : 'findNodes (src/cli/show.ts) stand-in', latency: latency(ms), routes };
}

async function benchCorpus(name: string, pool: ParserPool, create: SearcherFactory | undefined, versions: Record<string, string>, loaded: LoadedModels | undefined): Promise<CorpusResult> {
  // An absolute path is a tree unpacked elsewhere (Go from Debian's .debs, see docs/benchmarks.md).
  const dir = path.isAbsolute(name) ? name : path.join(CORPORA, name, name === TS_PACKAGE.name ? 'src' : '');
  const original = await Engine.open(dir, { storeDir: null });
  await original.index();
  const gt = groundTruth(original);
  const originalErrors = original.stats().syntaxErrorFiles;
  await original.close();

  const strip = await stripCopy(dir, pool);
  const t0 = performance.now();
  const engine = await Engine.open(strip.dir, { storeDir: null });
  await engine.index();
  const indexMs = performance.now() - t0;
  const stats = engine.stats();
  const graph = engine.graph.graph;
  const missing = gt.filter((g) => !graph.hasNode(g.id));
  const queries = gt.filter((g) => graph.hasNode(g.id));
  const docLeft = queries.filter((g) => graph.getNodeAttribute(g.id, 'doc') !== '').length;

  // The BM25 baselines.
  const baseline = (index: Bm25Index) => {
    const ms: number[] = [];
    const runs = queries.map((q) => {
      const t = performance.now();
      const ids = index.search(q.query, LIMIT);
      ms.push(performance.now() - t);
      return { ranked: rankedKeys(ids), relevant: new Set([q.key]) };
    });
    return { runs, result: { ...rankingMetrics(runs), documents: index.documents, buildMs: index.buildMs, latency: latency(ms) } };
  };
  const { runs: bmRuns, result: bm25 } = baseline(buildBm25(engine));
  const { result: okapi } = baseline(buildOkapi(engine));

  // Cartograph model-free, and the MCTS ablation.
  let searcher: Searcher | undefined;
  let cartographRuns: { ranked: string[]; relevant: Set<string> }[] | undefined;
  let cartograph: CartographRun | null = null;
  let cartographMcts: CartographRun | null = null;
  let cartographFusion: CartographRun | null = null;
  let cartographFeatures: CartographRun | null = null;
  let featureRuns: { ranked: string[]; relevant: Set<string> }[] | undefined;
  let features: FeatureHierarchy | undefined;
  let featureText: CorpusResult['featureText'];
  if (create) {
    searcher = create(engine);
    ({ metrics: cartograph, runs: cartographRuns } = await runCartograph(searcher, queries));
    ({ metrics: cartographFusion } = await runCartograph(create(engine, { rerank: false }), queries));
    ({ metrics: cartographMcts } = await runCartograph(create(engine, { mcts: { enabled: true } }), queries));
    if (values['feature-text']) {
      const t = performance.now();
      features = FeatureHierarchy.build(engine.graph);
      featureText = { entities: [...features.allFeatures()].length, buildMs: performance.now() - t };
      ({ metrics: cartographFeatures, runs: featureRuns } = await runCartograph(create(engine, { features }), queries));
    }
  }
  const models = loaded ? await runModels(engine, queries, loaded, create, features) : null;
  const entity = await runEntity(engine, queries, create, searcher);
  const rank = (ranked: string[], key: string) => ranked.indexOf(key) + 1;
  const perQuery = values.queries
    ? queries.map((q, i) => ({
        query: q.query,
        target: q.id,
        bm25Rank: rank(bmRuns[i].ranked, q.key),
        cartographRank: cartographRuns ? rank(cartographRuns[i].ranked, q.key) : null,
        featuresRank: featureRuns ? rank(featureRuns[i].ranked, q.key) : null,
        targetFeatures: features ? features.features(q.id) : null,
        modelsRank: models?.runs ? rank(models.runs[i].ranked, q.key) : null,
        modelsTop: models?.runs?.[i].ranked.slice(0, 3) ?? null,
        entityRank: rank(entity.ranked[i], q.key),
      }))
    : undefined;
  await engine.close();
  fs.rmSync(path.dirname(strip.dir), { recursive: true, force: true });

  const versionKey = name === TS_PACKAGE.name ? `npm:${name}` : name === 'gson' ? 'gson' : `python3-${name}`;
  return {
    corpus: path.isAbsolute(name) ? path.basename(name) : name,
    half: HALF_OF[name],
    version: versions[versionKey] ?? (name === 'gson' ? '9835b6f90' : '?'),
    files: stats.files,
    functions: functionCount(engine),
    groundTruth: gt.length,
    queries: queries.length,
    missingInStripped: missing.length,
    docLeftInStripped: docLeft,
    syntaxErrorFiles: { original: originalErrors, stripped: stats.syntaxErrorFiles },
    stripped: { files: strip.files, strippedFiles: strip.strippedFiles, removed: strip.removed },
    indexMs,
    bm25,
    okapi,
    cartograph,
    cartographFusion,
    cartographMcts,
    cartographFeatures,
    featureText,
    models: models && { ...models, runs: undefined },
    entity: { ...entity, ranked: undefined } as CorpusResult['entity'],
    perQuery,
  };
}

async function runCartograph(searcher: Searcher, queries: GroundTruth[]): Promise<{ metrics: CartographRun; runs: { ranked: string[]; relevant: Set<string> }[] }> {
  const tw = performance.now();
  await searcher.search('warm up the index', LIMIT);
  const warmupMs = performance.now() - tw;
  const ms: number[] = [];
  const routes: Record<string, number> = {};
  let iterations = 0;
  const runs = [];
  for (const q of queries) {
    const t = performance.now();
    const res = await searcher.search(q.query, LIMIT);
    ms.push(performance.now() - t);
    routes[res.route] = (routes[res.route] ?? 0) + 1;
    iterations += res.timingsMs.mctsIterations ?? 0;
    runs.push({ ranked: rankedKeys(res.hits.map((h) => h.id)), relevant: new Set([q.key]) });
  }
  return { metrics: { ...rankingMetrics(runs), warmupMs, latency: latency(ms), routes, mctsIterations: iterations / Math.max(1, queries.length) }, runs };
}

async function runModels(engine: Engine, queries: GroundTruth[], loaded: LoadedModels, create: SearcherFactory | undefined, features: FeatureText | undefined): Promise<ModelRuns> {
  const t = performance.now();
  // The engine has no store here (storeDir: null): the vectors live in memory for this run only.
  const { models, embedding, vectors, problem } = await embedForSearch(engine, loaded);
  if (problem) console.error(`[bench:search] ${problem}`);
  const embedded = embedding ? { nodes: embedding.embedded + embedding.reused, ms: performance.now() - t } : null;
  let flatEmbedding: ModelRuns['flatEmbedding'] = null;
  if (loaded.embedder && vectors) {
    const ms: number[] = [];
    const runs = [];
    for (const q of queries) {
      const t0 = performance.now();
      const [vector] = await loaded.embedder.embed([q.query]);
      const ids = (await vectors.nearest(vector, LIMIT)).map((h) => h.id);
      ms.push(performance.now() - t0);
      runs.push({ ranked: rankedKeys(ids), relevant: new Set([q.key]) });
    }
    flatEmbedding = { ...rankingMetrics(runs), latency: latency(ms) };
  }
  const withModels = create ? await runCartograph(create(engine, { models: () => models }), queries) : null;
  const cartographModelsNoMcts = create ? (await runCartograph(create(engine, { models: () => models, mcts: { enabled: false } }), queries)).metrics : null;
  const cartographModelsFusion = create ? (await runCartograph(create(engine, { models: () => models, rerank: false }), queries)).metrics : null;
  const cartographModelsFeatures = create && features ? (await runCartograph(create(engine, { models: () => models, features }), queries)).metrics : null;
  return { status: models.status, embedding: embedded, flatEmbedding, cartographModels: withModels?.metrics ?? null, cartographModelsNoMcts, cartographModelsFusion, cartographModelsFeatures, runs: withModels?.runs };
}

async function benchDjango(create: SearcherFactory | undefined, n: number, loaded: LoadedModels | undefined) {
  const dir = path.join(CORPORA, 'django');
  const t0 = performance.now();
  const engine = await Engine.open(dir, { storeDir: null });
  await engine.index();
  const indexMs = performance.now() - t0;
  const gt = groundTruth(engine);
  const step = Math.max(1, Math.floor(gt.length / n));
  const sample = gt.filter((_g, i) => i % step === 0).slice(0, n);
  const out: Record<string, unknown> = { files: engine.stats().files, functions: functionCount(engine), documented: gt.length, sampled: sample.length, indexMs };
  const bm25 = buildBm25(engine);
  out.bm25BuildMs = bm25.buildMs;
  const answers: unknown[] = [];
  const time = async (f: (q: GroundTruth) => unknown) => {
    const ms: number[] = [];
    answers.length = 0;
    for (const q of sample) {
      const t = performance.now();
      answers.push(await f(q));
      ms.push(performance.now() - t);
    }
    return latency(ms);
  };
  out.bm25NaturalLanguage = await time((q) => bm25.search(q.query, LIMIT));
  if (create) {
    // The first queries build the indexes (in slices): how long the event loop is held meanwhile.
    const searcher = create(engine);
    const firstEntity = await withLoopGaps(() => searcher.search(sample[0].name, LIMIT));
    const firstNaturalLanguage = await withLoopGaps(() => searcher.search('warm up the index', LIMIT));
    out.cartographFirstQueries = { entity: firstEntity, naturalLanguage: firstNaturalLanguage };
    out.cartographWarmupMs = firstEntity.wallMs + firstNaturalLanguage.wallMs;
    out.cartographNaturalLanguage = await time((q) => searcher.search(q.query, LIMIT));
    out.cartographEntity = await time((q) => searcher.search(q.name, LIMIT));
    // The first query after a save: the indexes re-read what the save touched.
    const edited = path.join(dir, 'db', 'models', 'query.py');
    const text = fs.readFileSync(edited, 'utf8');
    const afterSave: number[] = [];
    for (let i = 0; i < 10; i++) {
      await engine.updateFile(edited, `${text}\n\ndef bench_added_${i}(value):\n    """Return the value unchanged."""\n    return value\n`);
      const t = performance.now();
      await searcher.search(sample[i % sample.length].query, LIMIT);
      afterSave.push(performance.now() - t);
    }
    out.cartographFirstQueryAfterSave = latency(afterSave);
    const withMcts = create(engine, { mcts: { enabled: true } });
    out.cartographMctsNaturalLanguage = await time((q) => withMcts.search(q.query, LIMIT));
    if (loaded?.embedder) {
      const t = performance.now();
      const { models, embedding } = await embedForSearch(engine, loaded);
      out.modelsEmbedding = { nodes: (embedding?.embedded ?? 0) + (embedding?.reused ?? 0), ms: performance.now() - t };
      const withModels = create(engine, { models: () => models });
      out.cartographModelsNaturalLanguage = await time((q) => withModels.search(q.query, LIMIT));
      // RANGER's traversal on the model path: how many queries it ran on, and whether a second pass
      // over the same queries ranks the same (its budget is iterations, not time).
      const first = (answers as SearchResult[]).slice();
      await time((q) => withModels.search(q.query, LIMIT));
      const again = answers as SearchResult[];
      const ids = (r: SearchResult) => r.hits.map((h) => h.id).join(' ');
      out.modelsTraversal = {
        queries: first.length,
        withIterations: first.filter((r) => (r.timingsMs.mctsIterations ?? 0) > 0).length,
        meanIterations: mean(first.map((r) => r.timingsMs.mctsIterations ?? 0)),
        cut: first.filter((r) => r.timingsMs.mctsCut).length,
        sameRankingTwice: first.filter((r, i) => ids(r) === ids(again[i])).length,
      };
      const fusionOnly = create(engine, { models: () => models, rerank: false });
      out.cartographModelsFusionNaturalLanguage = await time((q) => fusionOnly.search(q.query, LIMIT));
    }
  } else {
    out.cartographNaturalLanguage = null;
    out.findNodesEntity = await time((q) => findNodes(engine.graph.graph, q.name));
  }
  await engine.close();
  return out;
}

const f3 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(3));
const ms1 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(0));

/** Query-weighted means over the corpora; null unless every corpus has the path. */
function overall(results: CorpusResult[], pick: (r: CorpusResult) => RankingMetrics | null | undefined): RankingMetrics | null {
  const rs = results.filter((r) => pick(r));
  const q = rs.reduce((a, r) => a + pick(r)!.queries, 0);
  const w = (f: keyof RankingMetrics) => rs.reduce((a, r) => a + pick(r)![f] * pick(r)!.queries, 0) / q;
  return rs.length === results.length && q ? { queries: q, ndcg10: w('ndcg10'), recall10: w('recall10'), mrr10: w('mrr10') } : null;
}

function table(results: CorpusResult[], searcherStatus: string, django: Record<string, any> | null, modelWarning: string | null): string {
  const out: string[] = [];
  out.push('### Natural-language queries (docstring first sentence → its function; index = stripped code)', '');
  const withFeatures = results.some((r) => r.cartographFeatures);
  out.push(`| corpus | half | version | functions | queries | BM25 NDCG@10 | BM25 R@10 | BM25 MRR | Okapi NDCG@10 | Okapi R@10 | Okapi MRR | Cartograph NDCG@10 | Cartograph R@10 | Cartograph MRR | + MCTS NDCG@10 | + MCTS R@10 | + MCTS MRR |${withFeatures ? ' + feature text NDCG@10 | + feature text R@10 | + feature text MRR |' : ''}`);
  out.push(`|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${withFeatures ? '---:|---:|---:|' : ''}`);
  const na = 'not available yet';
  const row = (label: string, half: string, version: string, functions: number, rs: CorpusResult[]) => {
    const b = overall(rs, (r) => r.bm25);
    const o = overall(rs, (r) => r.okapi);
    const c = overall(rs, (r) => r.cartograph);
    const m = overall(rs, (r) => r.cartographMcts);
    const ft = overall(rs, (r) => r.cartographFeatures);
    if (!b || !o) return;
    const featureCells = withFeatures ? ` ${ft ? f3(ft.ndcg10) : '–'} | ${ft ? f3(ft.recall10) : '–'} | ${ft ? f3(ft.mrr10) : '–'} |` : '';
    out.push(`| ${label} | ${half} | ${version} | ${functions} | ${b.queries} | ${f3(b.ndcg10)} | ${f3(b.recall10)} | ${f3(b.mrr10)} | ${f3(o.ndcg10)} | ${f3(o.recall10)} | ${f3(o.mrr10)} | ${c ? f3(c.ndcg10) : na} | ${c ? f3(c.recall10) : '–'} | ${c ? f3(c.mrr10) : '–'} | ${m ? f3(m.ndcg10) : '–'} | ${m ? f3(m.recall10) : '–'} | ${m ? f3(m.mrr10) : '–'} |${featureCells}`);
  };
  for (const r of results) row(r.corpus, r.half ?? '–', r.version, r.functions, [r]);
  for (const half of HALVES) {
    const rs = results.filter((r) => r.half === half);
    if (rs.length) row(`**${half}** (query-weighted)`, half, '', rs.reduce((a, r) => a + r.functions, 0), rs);
  }
  row('**all** (query-weighted)', '', '', results.reduce((a, r) => a + r.functions, 0), results);
  out.push(
    '',
    `Cartograph model-free: ${searcherStatus} (lexical seeds; MCTS is off without a model). "+ MCTS" is the ablation with RANGER's traversal forced on, scored by the lexical stand-in scorers (src/core/search/modelFreeScorers.ts). ${
      results.some((r) => r.models) ? 'Flat embedding search and Cartograph + models: next table.' : 'Flat embedding search and MCTS with real encoders: not measured (no real model weights on this machine; pass --models-dir DIR --embedding-model ID --reranker-model ID).'
    }${withFeatures ? ' "+ feature text": the model-free path with each entity\'s feature phrases (FeatureHierarchy, model-free) indexed in its description.' : ''}`,
    '',
  );
  if (results.some((r) => r.models)) out.push(...modelTable(results, modelWarning));

  out.push('### Entity queries (the function\'s own name → that function)', '');
  out.push('| corpus | via | queries | top-1 | top-1 ceiling | top-5 | distinct names | top-1 (each name once, any of its functions) | unique names | top-1 (unique) | top-5 (unique) | top-1 (`Class.method`) | top-5 (`Class.method`) | top-1 (from a caller\'s file) | top-5 (from a caller\'s file) | p50 ms | p95 ms |');
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const e = r.entity;
    out.push(`| ${r.corpus} | ${e.via} | ${e.queries} | ${f3(e.top1)} | ${f3(e.top1Ceiling)} | ${f3(e.top5)} | ${e.distinctNames} | ${f3(e.distinctTop1)} | ${e.uniqueNames} | ${f3(e.uniqueTop1)} | ${f3(e.uniqueTop5)} | ${f3(e.qualifiedTop1)} | ${f3(e.qualifiedTop5)} | ${f3(e.fromCallerTop1)} (${e.withCaller} with a caller) | ${f3(e.fromCallerTop5)} | ${ms1(e.latency.p50)} | ${ms1(e.latency.p95)} |`);
  }
  out.push('', '### Latency per path (ms, per query, in-process)', '');
  out.push('| corpus | BM25 p50 | BM25 p95 | Cartograph NL p50 | Cartograph NL p95 | Cartograph warm-up | stripped index |');
  out.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const c = r.cartograph;
    out.push(`| ${r.corpus} | ${ms1(r.bm25.latency.p50)} | ${ms1(r.bm25.latency.p95)} | ${c ? ms1(c.latency.p50) : '–'} | ${c ? ms1(c.latency.p95) : '–'} | ${c ? ms1(c.warmupMs) : '–'} | ${ms1(r.indexMs)} |`);
  }
  if (django) {
    const d = django;
    let modelsTraversalLine = '';
    out.push('', `### Django (${d.files} files, ${d.functions} functions/methods, index ${ms1(d.indexMs)} ms; ${d.sampled} sampled documented functions)`, '');
    out.push('| path | p50 ms | p95 ms |', '|---|---:|---:|');
    out.push(`| BM25 natural-language (build ${ms1(d.bm25BuildMs)} ms) | ${ms1(d.bm25NaturalLanguage.p50)} | ${ms1(d.bm25NaturalLanguage.p95)} |`);
    if (d.cartographNaturalLanguage) {
      out.push(`| Cartograph natural-language (warm-up ${ms1(d.cartographWarmupMs)} ms) | ${ms1(d.cartographNaturalLanguage.p50)} | ${ms1(d.cartographNaturalLanguage.p95)} |`);
      out.push(`| Cartograph natural-language + MCTS (lexical scorers, 200 iterations) | ${ms1(d.cartographMctsNaturalLanguage.p50)} | ${ms1(d.cartographMctsNaturalLanguage.p95)} |`);
      if (d.cartographModelsNaturalLanguage) {
        out.push(`| Cartograph natural-language with the models (embedding pass: ${d.modelsEmbedding.nodes} nodes in ${ms1(d.modelsEmbedding.ms / 1000)} s) | ${ms1(d.cartographModelsNaturalLanguage.p50)} | ${ms1(d.cartographModelsNaturalLanguage.p95)} |`);
        out.push(`| the same, plain fusion (no learned reranker) | ${ms1(d.cartographModelsFusionNaturalLanguage.p50)} | ${ms1(d.cartographModelsFusionNaturalLanguage.p95)} |`);
        const t = d.modelsTraversal;
        modelsTraversalLine = `MCTS on the model path: iterations > 0 on ${t.withIterations} of ${t.queries} queries (mean ${t.meanIterations.toFixed(1)}), cut by the safety cap on ${t.cut}; the same ranking on a second pass for ${t.sameRankingTwice} of ${t.queries}.`;
      }
      out.push(`| Cartograph entity | ${ms1(d.cartographEntity.p50)} | ${ms1(d.cartographEntity.p95)} |`);
      out.push(`| Cartograph natural-language, first query after a save (10 saves of db/models/query.py) | ${ms1(d.cartographFirstQueryAfterSave.p50)} | ${ms1(d.cartographFirstQueryAfterSave.p95)} |`);
      const { entity, naturalLanguage } = d.cartographFirstQueries;
      if (modelsTraversalLine) out.push('', modelsTraversalLine);
      out.push('', '| first query (builds its index in slices) | wall ms | longest event-loop block ms |', '|---|---:|---:|');
      out.push(`| entity (entity index) | ${entity.wallMs} | ${entity.longestBlockMs} |`, `| natural-language (lexical index) | ${naturalLanguage.wallMs} | ${naturalLanguage.longestBlockMs} |`);
    } else {
      out.push(`| Cartograph natural-language | not available yet | |`);
      out.push(`| entity via findNodes stand-in | ${ms1(d.findNodesEntity.p50)} | ${ms1(d.findNodesEntity.p95)} |`);
    }
  }
  return out.join('\n');
}

function modelTable(results: CorpusResult[], warning: string | null): string[] {
  const out = [`### Natural-language queries by path, with models (${results.find((r) => r.models)?.models?.status})`, ''];
  if (warning) out.push(`**${warning}**`, '');
  out.push('| corpus | path | NDCG@10 | R@10 | MRR | p50 ms | p95 ms |', '|---|---|---:|---:|---:|---:|---:|');
  const row = (corpus: string, name: string, m: (RankingMetrics & { latency?: Latency }) | null | undefined, why = 'not measured') =>
    out.push(m ? `| ${corpus} | ${name} | ${f3(m.ndcg10)} | ${f3(m.recall10)} | ${f3(m.mrr10)} | ${ms1(m.latency?.p50)} | ${ms1(m.latency?.p95)} |` : `| ${corpus} | ${name} | ${why} | | | | |`);
  const paths: [string, (r: CorpusResult) => (RankingMetrics & { latency?: Latency }) | null | undefined, string?][] = [
    ['BM25', (r) => r.bm25],
    ['standard Okapi BM25 (repeated query terms counted)', (r) => r.okapi],
    ['Cartograph model-free, plain fusion (no learned reranker)', (r) => r.cartographFusion],
    ['Cartograph model-free (default: learned reranker where trained)', (r) => r.cartograph],
    ['flat embedding search', (r) => r.models?.flatEmbedding, 'no embedding model loaded'],
    ['Cartograph + models, vector seeds without MCTS', (r) => r.models?.cartographModelsNoMcts],
    ['Cartograph + models (vectors + MCTS), plain fusion (no learned reranker)', (r) => r.models?.cartographModelsFusion],
    ['Cartograph + models (vectors + MCTS; default: learned reranker where trained)', (r) => r.models?.cartographModels],
    ...(results.some((r) => r.models?.cartographModelsFeatures)
      ? ([
          ['Cartograph model-free + feature text', (r) => r.cartographFeatures],
          ['Cartograph + models (default path) + feature text', (r) => r.models?.cartographModelsFeatures],
        ] as typeof paths)
      : []),
  ];
  for (const r of results) for (const [name, pick, why] of paths) row(r.corpus, name, pick(r), why);
  // Query-weighted over each half and over the corpora (latency is per corpus only).
  for (const half of HALVES) {
    const rs = results.filter((r) => r.half === half);
    if (rs.length) for (const [name, pick, why] of paths) row(`**${half}**`, name, overall(rs, pick), why);
  }
  for (const [name, pick, why] of paths) row('**all**', name, overall(results, pick), why);
  const embedded = results.filter((r) => r.models?.embedding).map((r) => `${r.corpus} ${r.models!.embedding!.nodes} nodes in ${ms1(r.models!.embedding!.ms / 1000)} s`);
  out.push('', `Embedding pass (in memory, before the queries): ${embedded.join(', ') || 'none'}. Flat embedding latency includes embedding the query.`, '');
  return out;
}

/** The models named by the flags, loaded once for every corpus; undefined without model flags. */
async function loadBenchModels(): Promise<{ loaded: LoadedModels; warning: string | null; signs: string[] } | undefined> {
  const ids = [values['embedding-model'], values['reranker-model']].filter((id): id is string => Boolean(id));
  if (ids.length === 0 && !values['models-dir']) return undefined;
  const localPath = values['models-dir'] ? path.resolve(values['models-dir']) : undefined;
  const loaded = await loadSearchModels({
    embeddingModel: values['embedding-model'],
    rerankerModel: values['reranker-model'],
    // Offline with a folder; otherwise transformers.js' own cache and the hub (a user's machine).
    transformers: { localPath, allowRemote: localPath ? false : undefined },
  });
  for (const problem of loaded.problems) console.error(`[bench:search] ${problem}`);
  const signs = fixtureSigns(localPath, ids);
  const warning = signs.length
    ? `WARNING: these models look like RANDOM-WEIGHT TEST FIXTURES (${signs[0]}${signs.length > 1 ? `, and ${signs.length - 1} more signs` : ''}). Their quality figures are noise: use this run for plumbing and latency only, never quote them.`
    : null;
  if (warning) console.error(`\n${'!'.repeat(100)}\n[bench:search] ${warning}\n${'!'.repeat(100)}\n`);
  return { loaded, warning, signs };
}

async function main(): Promise<void> {
  const started = performance.now();
  ensureCorpora();
  const versions = corpusVersions();
  const { create, status } = await loadSearcher();
  const bench = await loadBenchModels();
  const pool = new ParserPool();
  const results: CorpusResult[] = [];
  for (const name of corpora) {
    const t = performance.now();
    results.push(await benchCorpus(name, pool, create, versions, bench?.loaded));
    const r = results[results.length - 1];
    console.error(`[bench:search] ${name}: ${r.queries} queries (${r.missingInStripped} missing after stripping, ${r.docLeftInStripped} with doc left), ${ms1(performance.now() - t)} ms`);
  }
  const django = values['no-django'] ? null : await benchDjango(create, DJANGO_QUERIES, bench?.loaded);
  console.log(table(results, status, django, bench?.warning ?? null));
  // Again at the end, where the eye lands after a long run.
  if (bench?.warning) console.log(`\n**${bench.warning}**`);
  await bench?.loaded.close();
  const totalMs = performance.now() - started;
  console.log(`\n_${new Date().toISOString()}, Node ${process.version}, ${ms1(totalMs / 1000)} s total_`);
  if (values.json) {
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, searcher: status, models: bench ? { status: bench.loaded.status, problems: bench.loaded.problems, fixtureWarning: bench.warning, fixtureSigns: bench.signs } : null, limit: LIMIT, versions, corpora: results, django, totalMs }, null, 2)}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
