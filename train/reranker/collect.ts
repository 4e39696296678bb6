// The reranker's training examples, made the way bench:search makes its queries (bench/search/corpus.ts):
// every documented function of a package is a query (its docstring's first sentence), the index holds
// the package with docstrings stripped, that function is the relevant answer. The product's own
// searcher ranks each query; its candidates and their features are recorded as the reranker would see
// them (`onCandidates`), before any reranking.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../src/core/engine';
import { embedForSearch } from '../../src/core/models/embedForSearch';
import type { LoadedModels } from '../../src/core/models/loader';
import type { ParserPool } from '../../src/core/parse/parser';
import { createSearcher } from '../../src/core/search';
import { baseFeatures, BASE_FEATURES, RERANK_DEPTH, type Candidate, type RerankQuery } from '../../src/core/search/rerank';
import { groundTruth, keyOf, stripCopy, type GroundTruth } from '../../bench/search/corpus';
import { firstSentence, wordCount } from '../../bench/search/metrics';
import { unpack, type Source } from '../data/sources';

/** One query's candidates (at most RERANK_DEPTH), in the fused order. */
export interface QueryExample {
  query: string;
  /** What the query documents: a function or method (as in bench:search), or a class. */
  target: 'function' | 'class';
  /** Relevance key of each candidate (overloads share one) and whether it is the query's function. */
  keys: string[];
  labels: number[];
  /** BASE_FEATURES per candidate; the query's own features are added when training (withQueryFeatures). */
  features: number[][];
}

export interface PackageExamples {
  package: string;
  version: string;
  /** The weight set these were collected for: an embedding model's id, or "model-free". */
  variant: string;
  features: string[];
  /** The caps the queries were sampled with (MAX_QUERIES, MAX_CLASS_QUERIES): a cache made with others is remade. */
  maxQueries: [number, number];
  /** Candidates kept per query (RERANK_DEPTH when collected): a cache of another depth is remade. */
  depth: number;
  documented: number;
  queries: QueryExample[];
}

/**
 * Function and class queries collected per package at most (every k-th documented one): 800 / 160 keeps
 * every function of all but six packages, for a validation set of 2.7k queries. Training takes fewer of
 * the large packages (TRAIN_QUERIES in train-reranker.ts), or they would dominate.
 */
export const MAX_QUERIES = 800;
export const MAX_CLASS_QUERIES = 160;

/**
 * Classes documented the way groundTruth wants functions documented (a first sentence of >= 3 words):
 * without them the reranker would only ever have seen a function be the answer, and learn to bury
 * every class a user asks for.
 */
function classTruth(engine: Engine): GroundTruth[] {
  const out: GroundTruth[] = [];
  engine.graph.graph.forEachNode((id, a) => {
    const query = a.kind === 'Class' ? firstSentence(a.doc) : '';
    if (wordCount(query) >= 3) out.push({ id, key: keyOf(id), kind: a.kind, name: a.name, qname: a.qname, path: a.path, query });
  });
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Every k-th, so that at most `max` are kept. */
export const sample = <T>(items: T[], max: number): T[] => items.filter((_x, i) => i % Math.max(1, Math.ceil(items.length / max)) === 0);

/** The package's own library files copied into `work/<name>` (tests, vendored code and other languages left out). */
function libraryCopy(source: Source, cache: string, work: string): string {
  const u = unpack(source, cache);
  const dir = path.join(work, source.name.replace('/', '__'));
  fs.rmSync(dir, { recursive: true, force: true });
  for (const f of u.files) {
    fs.mkdirSync(path.dirname(path.join(dir, f.rel)), { recursive: true });
    fs.copyFileSync(path.join(u.root, f.rel), path.join(dir, f.rel));
  }
  return dir;
}

/**
 * The examples of one package for each variant asked for: "model-free" (no model: lexical list only)
 * and/or the loaded embedding model (vector seeds + MCTS), with the plain fusion deciding the candidates.
 */
export async function collectPackage(source: Source, cache: string, work: string, pool: ParserPool, variants: { id: string; loaded?: LoadedModels }[]): Promise<PackageExamples[]> {
  const dir = libraryCopy(source, cache, work);
  const original = await Engine.open(dir, { storeDir: null });
  await original.index();
  const gt = groundTruth(original);
  const classes = classTruth(original);
  await original.close();
  const strip = await stripCopy(dir, pool);
  const engine = await Engine.open(strip.dir, { storeDir: null });
  try {
    await engine.index();
    const graph = engine.graph.graph;
    const all = gt.filter((g) => graph.hasNode(g.id));
    const queries = [...sample(all, MAX_QUERIES).map((g) => ({ ...g, target: 'function' as const })), ...sample(classes.filter((g) => graph.hasNode(g.id)), MAX_CLASS_QUERIES).map((g) => ({ ...g, target: 'class' as const }))];
    const out: PackageExamples[] = [];
    for (const variant of variants) {
      const models = variant.loaded ? (await embedForSearch(engine, variant.loaded)).models : undefined;
      let seen: { query: RerankQuery; candidates: Candidate[] } | undefined;
      const searcher = createSearcher(engine, { models: () => models, rerank: false, onCandidates: (query, candidates) => (seen = { query, candidates }) });
      const examples: QueryExample[] = [];
      for (const q of queries) {
        seen = undefined;
        await searcher.search(q.query, 20);
        // An entity or structural route, or nothing matched: no candidates to rerank.
        const got = seen as { query: RerankQuery; candidates: Candidate[] } | undefined;
        if (!got) continue;
        const { query, candidates } = got;
        const top = candidates.slice(0, RERANK_DEPTH);
        const keys = top.map((c) => keyOf(c.id));
        examples.push({ query: q.query, target: q.target, keys, labels: keys.map((k) => (k === q.key ? 1 : 0)), features: top.map((c) => baseFeatures(graph, query, c)) });
      }
      out.push({ package: source.name, version: source.version, variant: variant.id, features: [...BASE_FEATURES], maxQueries: [MAX_QUERIES, MAX_CLASS_QUERIES], depth: RERANK_DEPTH, documented: all.length, queries: examples });
    }
    return out;
  } finally {
    await engine.close();
    fs.rmSync(path.dirname(strip.dir), { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
