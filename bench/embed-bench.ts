// `npm run bench:embed [-- --json FILE] [--corpus NAME]... [--queries N] [--shipped]`: the embedding
// path's plumbing and speed, with RANDOM-weight stand-ins of all-MiniLM-L6-v2's exact shape (see
// test/unit/modelFixtures.ts), or with `--shipped` the code-search model shipped in models/ (plus the
// time to embed one query in the model thread). Nothing here says anything about retrieval quality
// (bench:search measures that). Per corpus: searchable nodes, bi-encoder throughput on node texts (batch 16,
// int8, in the model thread the editor uses), time for the background job to embed every node and
// store the vectors in LanceDB, a second run with nothing changed, the main thread's longest block
// during the job (and with the model on the main thread instead), nearest() latency over all
// vectors (in-memory exact scan, and LanceDB's flat vector search over the same stored vectors),
// the wait after an edit before an answer may use the new vectors, RSS. Each corpus runs in a process of its own so peak RSS is that corpus's alone.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { BUNDLED_EMBEDDING_MODEL, bundledOptions } from '../src/core/models/bundled';
import { EmbeddingJob } from '../src/core/models/embeddingJob';
import { loadTransformersEmbedder } from '../src/core/models/transformersModels';
import { loadWorkerEmbedder } from '../src/core/models/workerModels';
import { nodeFields, nodeText, SEARCHABLE_KINDS } from '../src/core/search/nodeText';
import { loadLance } from '../src/core/store/storeFolder';
import { ensureRandomModels, RANDOM_EMBEDDER } from '../test/unit/modelFixtures';
import { resultsPerCorpus } from './isolated';
import { withLoopGaps } from './loopGaps';

const CORPORA = path.join(__dirname, '.corpora');
const { values } = parseArgs({ options: { json: { type: 'string' }, corpus: { type: 'string', multiple: true }, queries: { type: 'string' }, child: { type: 'boolean' }, shipped: { type: 'boolean' } } });
const corpora = values.corpus ?? ['flask', 'django'];
const QUERIES = Number(values.queries ?? 200);
const EDITS = 20;
const BATCH = 16;
const K = 10;
const MODEL = values.shipped ? BUNDLED_EMBEDDING_MODEL : RANDOM_EMBEDDER;
const modelOptions = () => (values.shipped ? bundledOptions({ batchSize: BATCH }) : { localPath: ensureRandomModels(), allowRemote: false, batchSize: BATCH });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function latencies(count: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(2), p95: +percentile(times, 95).toFixed(2) };
}

async function benchCorpus(name: string) {
  const root = path.join(CORPORA, name);
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), `cartograph-embed-bench-${name}-`));
  let engine = await Engine.open(root, { storeDir });
  try {
    await engine.index();
    const graph = engine.graph.graph;
    const ids = graph.filterNodes((_, n) => SEARCHABLE_KINDS.has(n.kind));
    const texts = ids.map((id) => nodeText(graph, id));
    const meanChars = Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length);

    const rss = () => Math.round(process.memoryUsage().rss / 1048576);
    const rssAfterIndexMB = rss();
    let t = performance.now();
    const embedder = await loadWorkerEmbedder(MODEL, modelOptions());
    const loadMs = Math.round(performance.now() - t);
    const rssAfterLoadMB = rss();
    try {
      // Raw throughput: the first 256 node texts (in graph order), straight to the model thread.
      const sample = texts.slice(0, 256);
      t = performance.now();
      await embedder.embed(sample);
      const rawPerSecond = Math.round(sample.length / ((performance.now() - t) / 1000));
      // One query at a time through the model thread, as search embeds it: the first sentences of
      // documented nodes' docstrings (their names where none), spread over the corpus.
      const docs = ids.map((id) => nodeFields(graph, id).doc.split(/(?<=\.)\s/)[0].trim() || graph.getNodeAttribute(id, 'name'));
      const queryEmbedMs = await latencies(QUERIES, (i) => embedder.embed([docs[Math.floor((i * docs.length) / QUERIES)]]));

      // For comparison, the same model on the main thread: its longest block over 4 batches.
      const inProcess = await loadTransformersEmbedder(MODEL, modelOptions());
      const inProcessBlockMs = (await withLoopGaps(() => inProcess.embed(texts.slice(0, 4 * BATCH)))).longestBlockMs;
      await inProcess.close();

      // The background job: every searchable node, batches of 16, vectors written to LanceDB.
      const job = new EmbeddingJob(engine, embedder, { batchSize: BATCH });
      const { result: first, longestBlockMs: jobBlockMs, over50ms: jobBlocksOver50 } = await withLoopGaps(() => job.run());
      await engine.flush();
      const rssAfterJobMB = rss();
      const again = await job.run();
      const afterEdit = await editSettles(engine, root, job);

      // nearest(): queries are stored vectors of nodes spread over the corpus, k = 10.
      const queryIds = Array.from({ length: QUERIES }, (_, i) => ids[Math.floor((i * ids.length) / QUERIES)]);
      const queries = queryIds.map((id) => job.vectors.get(id)!);
      await job.vectors.nearest(queries[0], K); // packs the matrix once, as the first search after a change does
      const memory = await latencies(QUERIES, (i) => job.vectors.nearest(queries[i], K));
      // LanceDB's flat search over the stored copy, when the store took the vectors (its vector column
      // has one length, 384; a model of another length is kept in memory only).
      const { lance, agree } = first.persisted ? await lanceNearest(storeDir, queries, job) : { lance: null, agree: null };

      // A restart (the next window, the next CLI run): the vectors come back from the store.
      await engine.close();
      engine = await Engine.open(root, { storeDir });
      await engine.index();
      const restart = await new EmbeddingJob(engine, embedder, { batchSize: BATCH }).run();
      return {
        corpus: name,
        searchableNodes: ids.length,
        meanTextChars: meanChars,
        modelLoadMs: loadMs,
        rawTextsPerSecond: rawPerSecond,
        queryEmbedMs,
        job: { embedded: first.embedded, ms: first.ms, textsPerSecond: Math.round(first.embedded / (first.ms / 1000)), persisted: first.persisted, mainThreadLongestBlockMs: jobBlockMs, mainThreadBlocksOver50ms: jobBlocksOver50 },
        inProcessLongestBlockMs: inProcessBlockMs,
        secondRun: { embedded: again.embedded, reused: again.reused, ms: again.ms },
        afterEditMs: afterEdit,
        restart: { embedded: restart.embedded, reused: restart.reused, ms: restart.ms },
        nearest: { vectors: job.vectors.size, k: K, queries: QUERIES, inMemoryMs: memory, lanceFlatMs: lance, sameTopHit: agree },
        matrixMB: +((job.vectors.size * embedder.dim * 4) / 1e6).toFixed(1),
        rssMB: { afterIndex: rssAfterIndexMB, afterModelLoad: rssAfterLoadMB, afterJob: rssAfterJobMB },
      };
    } finally {
      await embedder.close();
    }
  } finally {
    await engine.close();
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

/**
 * A documented function appended to the corpus's first Python module (undone after), the file synced,
 * then the wait before a plain-English answer may use its vector (EmbeddingJob.settle, as a service's
 * answer waits), EDITS times.
 */
async function editSettles(engine: Engine, root: string, job: EmbeddingJob): Promise<{ p50: number; p95: number; edits: number } | null> {
  const rel = engine.graph.filePaths().filter((p) => p.endsWith('.py')).sort()[0];
  if (!rel) return null;
  const file = path.join(root, rel);
  const original = fs.readFileSync(file, 'utf8');
  const waits: number[] = [];
  try {
    for (let i = 0; i < EDITS; i++) {
      fs.writeFileSync(file, `${original}\n\ndef cartograph_bench_probe_${i}(feet):\n    """Convert a length in feet to furlongs."""\n    return feet / 660\n`);
      await engine.syncPaths([file]);
      const t = performance.now();
      await job.settle(Number.MAX_SAFE_INTEGER);
      waits.push(performance.now() - t);
      if (!job.vectors.hashOf(`${rel}#cartograph_bench_probe_${i}`)) throw new Error(`edit ${i}: no vector for the new function after settle`);
    }
  } finally {
    fs.writeFileSync(file, original);
    await engine.syncPaths([file]);
    await job.run();
  }
  waits.sort((a, b) => a - b);
  return { p50: Math.round(percentile(waits, 50)), p95: Math.round(percentile(waits, 95)), edits: EDITS };
}

async function lanceNearest(storeDir: string, vectors: Float32Array[], job: EmbeddingJob) {
  const db = await loadLance().connect(storeDir);
  const nodes = await db.openTable('nodes');
  // The column's length: a shorter model's vectors are stored zero-padded (EmbeddingJob), so its queries are too.
  const width = (await nodes.schema()).fields.find((f) => f.name === 'vector')!.type.listSize as number;
  const queries = vectors.map((v) => {
    const q = new Float32Array(width);
    q.set(v);
    return q;
  });
  const lance = await latencies(QUERIES, (i) => nodes.vectorSearch(Array.from(queries[i])).distanceType('cosine').where('vector IS NOT NULL').select(['id', '_distance']).limit(K).toArray());
  // Both answer exact (flat) search: their top hit for a node's own vector is that node.
  const agree = (await nodes.vectorSearch(Array.from(queries[1])).distanceType('cosine').where('vector IS NOT NULL').select(['id', '_distance']).limit(1).toArray())[0]?.id === (await job.vectors.nearest(vectors[1], 1))[0].id;
  nodes.close();
  db.close();
  return { lance, agree };
}

type Result = Awaited<ReturnType<typeof benchCorpus>> & { peakRssMB: number };

async function main() {
  if (!corpora.every((c) => fs.existsSync(path.join(CORPORA, c)))) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const results = await resultsPerCorpus(corpora, { script: __filename, child: values.child, json: values.json, args: ['--queries', String(QUERIES), ...(values.shipped ? ['--shipped'] : [])] }, benchCorpus);
  if (!results) return;
  const row = (label: string, get: (r: Result) => unknown) => `| ${label} | ${results.map((r) => String(get(r))).join(' | ')} |`;
  console.log(
    [
      `| ${values.shipped ? `${MODEL} (shipped model)` : 'RANDOM-weight MiniLM-L6-shaped stand-in (speed and plumbing only)'} | ${results.map((r) => r.corpus).join(' | ')} |`,
      `|---|${results.map(() => '---').join('|')}|`,
      row('searchable nodes (mean text length)', (r) => `${r.searchableNodes} (${r.meanTextChars} chars)`),
      row('model load (thread start, int8 ONNX)', (r) => `${r.modelLoadMs} ms`),
      row('bi-encoder throughput, 256 node texts, batch 16', (r) => `${r.rawTextsPerSecond} texts/s`),
      row(`one query embedded in the model thread, p50 / p95 (${QUERIES} queries)`, (r) => `${r.queryEmbedMs.p50} / ${r.queryEmbedMs.p95} ms`),
      row('background job: embed all + store in LanceDB', (r) => `${(r.job.ms / 1000).toFixed(1)} s (${r.job.textsPerSecond} texts/s)`),
      row('main thread: longest block during the job (model in a worker), blocks > 50 ms', (r) => `${r.job.mainThreadLongestBlockMs} ms, ${r.job.mainThreadBlocksOver50ms}`),
      row(`same model on the main thread: longest block embedding ${4 * BATCH} texts`, (r) => `${r.inProcessLongestBlockMs} ms`),
      row('second run, nothing changed', (r) => `${r.secondRun.ms} ms (${r.secondRun.embedded} embedded, ${r.secondRun.reused} reused)`),
      row(`an edit, then the wait for its vectors, p50 / p95 (${EDITS} edits)`, (r) => (r.afterEditMs ? `${r.afterEditMs.p50} / ${r.afterEditMs.p95} ms` : 'no Python module')),
      row('after a restart (vectors read back from LanceDB)', (r) => `${r.restart.ms} ms (${r.restart.embedded} embedded, ${r.restart.reused} reused)`),
      row(`nearest(), k=${K}, in-memory exact scan, p50 / p95`, (r) => `${r.nearest.inMemoryMs.p50} / ${r.nearest.inMemoryMs.p95} ms over ${r.nearest.vectors} vectors`),
      row(`LanceDB flat vector search, same vectors, p50 / p95`, (r) => (r.nearest.lanceFlatMs ? `${r.nearest.lanceFlatMs.p50} / ${r.nearest.lanceFlatMs.p95} ms (same top hit: ${r.nearest.sameTopHit})` : 'not stored (vectors kept in memory only)')),
      row('vector matrix in memory', (r) => `${r.matrixMB} MB`),
      row('RSS after structural index / + model loaded / after the job', (r) => `${r.rssMB.afterIndex} / ${r.rssMB.afterModelLoad} / ${r.rssMB.afterJob} MB`),
      row('peak RSS (whole process, model thread included)', (r) => `${r.peakRssMB} MB`),
    ].join('\n'),
  );
  console.log(`\n(node ${process.version}, ${os.cpus().length} cores, ${QUERIES} nearest() queries per corpus)`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, model: values.shipped ? `${MODEL} (shipped)` : `${RANDOM_EMBEDDER} (random weights)`, results }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
