// `npm run train:reranker [-- --embedding-model ID] [--held-out NAME]... [--fresh] [--report FILE]`
// Trains the learned reranker of natural-language search (src/core/search/rerank.ts) and writes its
// weights into src/core/search/rerankerWeights.json: one set for the embedding model (default: the
// shipped one; a new model is retrained with this one command, under its own id) and one model-free.
// Steps: fetch the training packages (train/reranker/packages.ts, cached under train/.data/cache like
// `npm run train:data`), make bench:search-style queries on each, record the product's candidates and
// features (cached per package under train/.data/reranker/), hold out a quarter of the model's
// held-out packages as validation (by package), train a linear and a small MLP scorer, each with
// RankNet and with LambdaRank, boosted trees (LambdaMART), and the trees blended with the LambdaRank linear
// scorer, keep the best on validation. Deterministic for the same candidates (seeded).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLED_EMBEDDING_MODEL } from '../src/core/models/bundled';
import { loadSearchModels } from '../src/core/models/loader';
import { ParserPool } from '../src/core/parse/parser';
import { BASE_FEATURES, FEATURES, MODEL_FREE, RERANK_DEPTH, rerankerFor, rerankQuery, withQueryFeatures, type NeuralWeights, type RerankerFile, type RerankerWeights, type TreeWeights } from '../src/core/search/rerank';
import { evaluationReason } from './data/exclusions';
import type { Source } from './data/sources';
import { validationPackages } from './data/split';
import { collectPackage, MAX_CLASS_QUERIES, MAX_QUERIES, sample, type PackageExamples } from './reranker/collect';
import { evaluate, train, type Group, type TrainOptions } from './reranker/learn';
import { blend } from './reranker/blend';
import { trainTrees, type TreeOptions } from './reranker/trees';
import { HELD_OUT, OTHERS } from './reranker/packages';

const { values } = parseArgs({
  options: {
    'embedding-model': { type: 'string' },
    'held-out': { type: 'string', multiple: true },
    fresh: { type: 'boolean' },
    report: { type: 'string' },
    out: { type: 'string' },
  },
});
const modelId = values['embedding-model'] ?? BUNDLED_EMBEDDING_MODEL;
const heldOut = values['held-out'] ?? HELD_OUT;
const others = OTHERS.filter((n) => !heldOut.includes(n));
const root = path.join(__dirname, '..');
const data = path.join(__dirname, '.data');
const cache = path.join(data, 'cache');
const featuresDir = path.join(data, 'reranker');
const outFile = path.resolve(values.out ?? path.join(root, 'src/core/search/rerankerWeights.json'));
const SEED = 17;
// LambdaRank's linear scorer at a lower rate than RankNet's: its lambdas are NDCG@10 swap gains, larger than
// RankNet's per-pair 1/pairs (the sweep is in docs/benchmarks.md's git history, "A stronger reranker").
const CONFIGS: (Omit<TrainOptions, 'seed'> & { name: string })[] = [
  { name: 'linear', loss: 'ranknet', hidden: 0, epochs: 40, learningRate: 0.02, l2: 1e-4, batch: 32 },
  { name: 'linear-lambda', loss: 'lambdarank', hidden: 0, epochs: 40, learningRate: 0.005, l2: 1e-4, batch: 32 },
  { name: 'mlp-16', loss: 'ranknet', hidden: 16, epochs: 40, learningRate: 0.01, l2: 1e-4, batch: 32 },
  { name: 'mlp-16-lambda', loss: 'lambdarank', hidden: 16, epochs: 40, learningRate: 0.01, l2: 1e-4, batch: 32 },
];
/** LambdaMART: up to 300 trees of 16 leaves, the count chosen on validation (docs/benchmarks.md, "The shipped code-search model and reranker"). */
const TREE_CONFIGS: (TreeOptions & { name: string })[] = [{ name: 'trees-16', trees: 300, leaves: 16, learningRate: 0.1, minLeaf: 50, l2: 1, bins: 64 }];
/** The blend tried after the others: trees and a linear scorer, each standardised, the trees' share chosen on validation. */
const BLEND = { name: 'trees-16+linear-lambda', members: ['trees-16', 'linear-lambda'] } as const;
const LOSSES = {
  ranknet: 'RankNet pairwise logistic, each query weighted equally',
  lambdarank: 'LambdaRank: RankNet pairs weighted by |change of NDCG@10| if swapped',
  lambdamart: 'LambdaMART: boosted regression trees fitted to LambdaRank gradients, Newton leaf values',
  blend: 'LambdaMART trees and a LambdaRank linear scorer, each standardised on the training candidates, mixed in the share that validated best',
};

interface ManifestSource extends Source { language?: string }

function sources(): Map<string, ManifestSource> {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, 'manifest.json'), 'utf8')) as { training: ManifestSource[] };
  const byName = new Map(manifest.training.map((s) => [s.name, s]));
  for (const name of [...heldOut, ...others]) {
    const s = byName.get(name);
    if (!s) throw new Error(`${name} is not in train/manifest.json's training list: the reranker trains on training packages only`);
    const why = evaluationReason(s);
    if (why) throw new Error(`${name} is reserved for evaluation (${why})`);
  }
  return byName;
}

const cacheFile = (variant: string, name: string) => path.join(featuresDir, variant.replace(/[^\w.-]+/g, '_'), `${name.replace('/', '__')}.json`);

function cached(variant: string, s: Source): PackageExamples | undefined {
  const file = cacheFile(variant, s.name);
  if (values.fresh || !fs.existsSync(file)) return undefined;
  const examples = JSON.parse(fs.readFileSync(file, 'utf8')) as PackageExamples;
  return examples.version === s.version && examples.features.join() === BASE_FEATURES.join() && examples.maxQueries?.join() === [MAX_QUERIES, MAX_CLASS_QUERIES].join() && examples.depth === RERANK_DEPTH ? examples : undefined;
}

async function collectAll(byName: Map<string, ManifestSource>): Promise<Map<string, PackageExamples[]>> {
  const loaded = await loadSearchModels({ embeddingModel: modelId });
  if (!loaded.embedder) throw new Error(`embedding model ${modelId} did not load: ${loaded.problems.join('; ')}`);
  const pool = new ParserPool();
  const work = path.join(featuresDir, 'work');
  const out = new Map<string, PackageExamples[]>();
  for (const name of [...heldOut, ...others]) {
    const s = byName.get(name)!;
    const variants = heldOut.includes(name) ? [MODEL_FREE, modelId] : [MODEL_FREE];
    const have = variants.map((v) => cached(v, s));
    const missing = variants.filter((_v, i) => !have[i]);
    const t = performance.now();
    const made = missing.length ? await collectPackage(s, cache, work, pool, missing.map((id) => ({ id, loaded: id === MODEL_FREE ? undefined : loaded }))) : [];
    for (const m of made) {
      fs.mkdirSync(path.dirname(cacheFile(m.variant, name)), { recursive: true });
      fs.writeFileSync(cacheFile(m.variant, name), JSON.stringify(m));
    }
    const all = variants.map((v, i) => have[i] ?? made.find((m) => m.variant === v)!);
    out.set(name, all);
    console.error(`[train:reranker] ${name}: ${all.map((e) => `${e.variant} ${e.queries.length} queries`).join(', ')}${missing.length ? ` (${Math.round(performance.now() - t)} ms)` : ' (cached)'}`);
  }
  await loaded.close();
  return out;
}

/**
 * Training queries per package at most, function and class (every k-th of those collected): with all of
 * them (up to 800 / 160) the six largest packages gave 67% of the model set's usable training queries, and
 * validation was no better (v3 0.576 vs 0.577 balanced; docs/benchmarks.md's git history, "A stronger reranker"). Validation keeps all.
 */
const TRAIN_QUERIES = { function: 300, class: 60 } as const;

const balanced = (examples: PackageExamples[]): PackageExamples[] =>
  examples.map((e) => ({ ...e, queries: (['function', 'class'] as const).flatMap((t) => sample(e.queries.filter((q) => q.target === t), TRAIN_QUERIES[t])) }));

type TargetGroup = Group & { target: 'function' | 'class' };
const groupsOf = (examples: PackageExamples[]): TargetGroup[] =>
  examples.flatMap((e) =>
    e.queries.map((q) => {
      const query = rerankQuery(q.query);
      return { features: q.features.map((x) => withQueryFeatures(query, x)), labels: q.labels, keys: q.keys, target: q.target };
    }),
  );

/** Validation NDCG@10 of all queries (what the choice is made on), and of function (bench:search's kind) and class queries apart. */
function scores(groups: TargetGroup[], weights: RerankerWeights | undefined): { all: number; function: number; class: number } {
  return { all: evaluate(groups, weights), function: evaluate(groups.filter((g) => g.target === 'function'), weights), class: evaluate(groups.filter((g) => g.target === 'class'), weights) };
}

interface VariantReport {
  variant: string;
  trainPackages: string[];
  validationPackages: string[];
  trainQueries: number;
  validationQueries: { function: number; class: number };
  /** Validation NDCG@10 over the candidate lists (queries whose answer is not among the 50 count 0 either way). */
  validation: Record<string, { all: number; function: number; class: number }>;
  chosen: string;
  seconds: Record<string, number>;
}

function trainVariant(variant: string, trainSet: PackageExamples[], validationSet: PackageExamples[]): { weights: RerankerWeights; report: VariantReport } {
  const trainGroups = groupsOf(balanced(trainSet));
  const validationGroups = groupsOf(validationSet);
  const validation: VariantReport['validation'] = { fusion: scores(validationGroups, undefined) };
  const seconds: Record<string, number> = {};
  const trained = new Map<string, NeuralWeights | TreeWeights>();
  let best: { name: string; weights: RerankerWeights; ndcg: number } | undefined;
  /** Trains one scorer (timed), scores it on validation, logs it with `detail`, keeps it if it is the best so far. */
  const consider = <W extends RerankerWeights>(name: string, fit: () => { weights: W; detail: string }): W => {
    const t = performance.now();
    const { weights, detail } = fit();
    seconds[name] = Math.round(performance.now() - t) / 1000;
    validation[name] = scores(validationGroups, weights);
    const ndcg = validation[name].all;
    console.error(`[train:reranker] ${variant} ${name}: validation NDCG@10 ${ndcg.toFixed(4)} ${detail}, ${seconds[name]} s`);
    if (!best || ndcg > best.ndcg + 1e-9) best = { name, weights, ndcg };
    return weights;
  };
  for (const config of CONFIGS) {
    trained.set(config.name, consider(config.name, () => ({ weights: train(trainGroups, [...FEATURES], { ...config, seed: SEED }), detail: `(fusion ${validation.fusion.all.toFixed(4)})` })));
  }
  for (const config of TREE_CONFIGS) {
    trained.set(config.name, consider(config.name, () => {
      const { weights, curve } = trainTrees(trainGroups, validationGroups, [...FEATURES], config);
      return { weights, detail: `with ${weights.trees.length} of ${curve.length} trees` };
    }));
  }
  consider(BLEND.name, () => {
    const [first, second] = BLEND.members.map((name) => trained.get(name)!);
    const { weights, curve } = blend(first, second, trainGroups, validationGroups);
    return { weights, detail: `at share ${weights.members[0].weight} (${curve.map((c) => `${c.share}: ${c.ndcg.toFixed(4)}`).join(', ')})` };
  });
  return {
    weights: best!.weights,
    report: {
      variant,
      trainPackages: trainSet.map((e) => e.package),
      validationPackages: validationSet.map((e) => e.package),
      trainQueries: trainGroups.length,
      validationQueries: { function: validationGroups.filter((g) => g.target === 'function').length, class: validationGroups.filter((g) => g.target === 'class').length },
      validation,
      chosen: best!.name,
      seconds,
    },
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const byName = sources();
  const examples = await collectAll(byName);
  const languageOf = (name: string) => (byName.get(name)!.kind === 'npm' ? 'typescript' : 'python');
  const validation = validationPackages(heldOut.map((name) => ({ name, language: languageOf(name) })), 'cartograph-reranker', 0.25);
  const pick = (variant: string, inValidation: boolean) =>
    [...examples.values()].flat().filter((e) => e.variant === variant && validation.has(e.package) === inValidation);
  const previous: RerankerFile = fs.existsSync(outFile) ? JSON.parse(fs.readFileSync(outFile, 'utf8')) : { version: 1, features: [...FEATURES], sets: {} };
  const file: RerankerFile = { version: 1, features: [...FEATURES], sets: previous.features.join() === FEATURES.join() ? { ...previous.sets } : {} };
  const reports: VariantReport[] = [];
  for (const variant of [modelId, MODEL_FREE]) {
    const { weights, report } = trainVariant(variant, pick(variant, false), pick(variant, true));
    reports.push(report);
    file.sets[variant] = {
      ...weights,
      trained: {
        command: `npm run train:reranker${modelId === BUNDLED_EMBEDDING_MODEL ? '' : ` -- --embedding-model ${modelId}`}`,
        date: new Date().toISOString().slice(0, 10),
        scorer: report.chosen,
        loss: LOSSES[report.chosen === BLEND.name ? 'blend' : (CONFIGS.find((c) => c.name === report.chosen)?.loss ?? (report.chosen.startsWith('trees') ? 'lambdamart' : 'ranknet'))],
        seed: SEED,
        candidates: `the plain fusion's best ${RERANK_DEPTH} (lexical, and with a model vector seeds + MCTS)`,
        queries: `first docstring sentence of each documented function (at most ${MAX_QUERIES} per package, ${TRAIN_QUERIES.function} of them for training) and class (at most ${MAX_CLASS_QUERIES}, ${TRAIN_QUERIES.class} for training), index = the package with docstrings stripped, as bench:search`,
        trainPackages: report.trainPackages,
        validationPackages: report.validationPackages,
        trainQueries: report.trainQueries,
        validationQueries: report.validationQueries,
        validationNdcg10: Object.fromEntries(Object.entries(report.validation).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([t, x]) => [t, Number(x.toFixed(4))]))])),
      },
    };
  }
  // One line per array of numbers: a diff of a retraining shows which weights moved.
  fs.writeFileSync(outFile, `${JSON.stringify(file, null, 1).replace(/\[[^[\]{}]*\]/g, (list) => list.replace(/\s+/g, ''))}\n`);
  if (!rerankerFor(modelId, false, file)) throw new Error('the written weights do not load');
  const NAMES = [...CONFIGS, ...TREE_CONFIGS, BLEND].map((c) => c.name);
  console.log('Validation NDCG@10, all queries / function queries / class queries:\n');
  console.log(`| weight set | train queries (packages) | validation queries: function + class (packages) | fusion | ${NAMES.join(' | ')} | shipped |`);
  console.log(`|---|---:|---:|---:|${NAMES.map(() => '---:|').join('')}---|`);
  for (const r of reports) {
    const v = (k: string) => (r.validation[k] ? [r.validation[k].all, r.validation[k].function, r.validation[k].class].map((x) => x.toFixed(3)).join(' / ') : '–');
    console.log(`| ${r.variant} | ${r.trainQueries} (${r.trainPackages.length}) | ${r.validationQueries.function} + ${r.validationQueries.class} (${r.validationPackages.length}) | ${v('fusion')} | ${NAMES.map((name) => v(name)).join(' | ')} | ${r.chosen} |`);
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(`\nwrote ${path.relative(root, outFile)} in ${seconds} s`);
  if (values.report) fs.writeFileSync(values.report, `${JSON.stringify({ date: new Date().toISOString(), modelId, seconds, reports }, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
