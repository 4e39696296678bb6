// The model path with RANDOM-weight stand-ins of the real shape (test/unit/modelFixtures.ts): loading
// from a local folder with downloads off, output shape and normalisation, batching, the readable
// error when a model cannot be had, the model-free status; and the OpenAI-compatible embeddings
// client against a local HTTP server. Nothing here says anything about retrieval quality.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { loadSearchModels } from '../../src/core/models/loader';
import { loadEndpointEmbedder } from '../../src/core/models/openaiEmbedder';
import { isModelOnDisk, loadTransformersEmbedder, loadTransformersReranker, type DownloadProgress } from '../../src/core/models/transformersModels';
import type { Embedder, Reranker } from '../../src/core/models/types';
import { loadWorkerEmbedder, loadWorkerReranker } from '../../src/core/models/workerModels';
import { ensureRandomModels, RANDOM_EMBEDDER, RANDOM_RERANKER } from './modelFixtures';

const TEXTS = [
  'def add(self, a, b) -> float: Return the sum of a and b.',
  'class Calculator: A calculator that adds and multiplies.',
  'x',
  'def format_result(value): Format a value with the module precision. uses round precision',
  'A much longer passage that needs more tokens than the others so that a batch holding it pads the short ones: '.repeat(4),
];

let localPath: string;
let embedder: Embedder;
let reranker: Reranker;
const progress: DownloadProgress[] = [];
const emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-model-cache-'));
after(() => fs.rmSync(emptyCache, { recursive: true, force: true }));

before(async () => {
  localPath = ensureRandomModels();
  const options = { localPath, allowRemote: false, cacheDir: emptyCache, onProgress: (p: DownloadProgress) => progress.push(p) };
  embedder = await loadTransformersEmbedder(RANDOM_EMBEDDER, options);
  reranker = await loadTransformersReranker(RANDOM_RERANKER, { ...options, batchSize: 2 });
});

function maxDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

test('the bi-encoder loads from the local folder with downloads off and gives unit vectors of the hidden size', async () => {
  assert.equal(embedder.id, RANDOM_EMBEDDER);
  assert.equal(embedder.dim, 384);
  const vectors = await embedder.embed(TEXTS);
  assert.equal(vectors.length, TEXTS.length);
  for (const v of vectors) {
    assert.equal(v.length, 384);
    assert.ok(v.every(Number.isFinite));
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4, `norm ${Math.hypot(...v)}`);
  }
  assert.ok(maxDifference(vectors[0], vectors[1]) > 1e-3, 'different texts give different vectors');
  const files = new Set(progress.filter((p) => p.model === RANDOM_EMBEDDER && p.status === 'done').map((p) => p.file));
  assert.ok(files.has('onnx/model_quantized.onnx') && files.has('tokenizer.json'), `progress reported for ${[...files]}`);
  assert.deepEqual(fs.readdirSync(emptyCache), [], 'a local model is not copied into the cache');
  assert.equal(isModelOnDisk(RANDOM_EMBEDDER, { localPath, cacheDir: emptyCache }), true);
  assert.equal(isModelOnDisk('Xenova/all-MiniLM-L6-v2', { localPath, cacheDir: emptyCache }), false, 'would download');
});

test('a batch gives the same vectors as the texts one by one (padding is masked out)', async () => {
  // fp32 weights: equal up to float rounding. int8 weights (the default): dynamic quantization takes
  // its activation scale from the whole batch, so padding moves results slightly; cosine stays ~1.
  const fp32 = await loadTransformersEmbedder(RANDOM_EMBEDDER, { localPath, allowRemote: false, quantized: false, batchSize: 2 });
  for (const [model, tolerance] of [[fp32, 1e-5], [embedder, 2e-3]] as const) {
    const batched = await model.embed(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      const [single] = await model.embed([TEXTS[i]]);
      assert.ok(maxDifference(batched[i], single) < tolerance, `text ${i} differs by ${maxDifference(batched[i], single)}`);
      assert.ok(dot(batched[i], single) > 0.999);
    }
  }
  assert.deepEqual(await embedder.embed([]), []);
});

test('the cross-encoder scores each (query, passage) pair, the same in batches as alone', async () => {
  const fp32 = await loadTransformersReranker(RANDOM_RERANKER, { localPath, allowRemote: false, quantized: false, batchSize: 2 });
  const passages = TEXTS.slice(0, 5);
  // Equality is checked on fp32 weights: with int8 ones the batch sets the activation scale (see above).
  const scores = await fp32.score('where are numbers added', passages);
  assert.equal(scores.length, passages.length);
  for (let i = 0; i < passages.length; i++) {
    const [alone] = await fp32.score('where are numbers added', [passages[i]]);
    assert.ok(Math.abs(alone - scores[i]) < 1e-5, `pair ${i}: ${alone} vs ${scores[i]}`);
  }
  const other = await fp32.score('a different query', passages);
  assert.ok(other.some((s, i) => Math.abs(s - scores[i]) > 1e-6), 'the query takes part in the score');
  const int8 = await reranker.score('where are numbers added', passages);
  assert.equal(int8.length, passages.length);
  assert.ok([...scores, ...int8].every(Number.isFinite));
});

test('a model that is neither local nor cached, with downloads off, fails with a message that says where it looked', async () => {
  await assert.rejects(loadTransformersEmbedder('Xenova/all-MiniLM-L6-v2', { localPath, allowRemote: false, cacheDir: emptyCache }), (err: Error) => {
    assert.match(err.message, /embedding model Xenova\/all-MiniLM-L6-v2 is not available/);
    assert.ok(err.message.includes(localPath) && err.message.includes(emptyCache), err.message);
    assert.match(err.message, /downloads are turned off/);
    return true;
  });
});

test('the loader reports model-free with the reasons when no model can be had, and names what it loaded otherwise', async () => {
  const offline = await loadSearchModels({
    embeddingModel: 'Xenova/all-MiniLM-L6-v2',
    rerankerModel: 'Xenova/ms-marco-MiniLM-L-6-v2',
    transformers: { localPath, allowRemote: false, cacheDir: emptyCache },
  });
  assert.equal(offline.embedder, undefined);
  assert.equal(offline.reranker, undefined);
  assert.match(offline.status, /^model-free: no embedding model \(.*Xenova\/all-MiniLM-L6-v2.*\); no reranker \(.*ms-marco/);
  assert.equal(offline.problems.length, 2);

  assert.equal((await loadSearchModels({})).status, 'model-free: no models configured');

  const loaded = await loadSearchModels({ embeddingModel: RANDOM_EMBEDDER, rerankerModel: RANDOM_RERANKER, transformers: { localPath, allowRemote: false } });
  assert.equal(loaded.embedder?.dim, 384);
  assert.equal(loaded.reranker?.id, RANDOM_RERANKER);
  assert.equal(loaded.status, `embeddings ${RANDOM_EMBEDDER}, reranker ${RANDOM_RERANKER}`);
});

test('models in worker threads give the in-process results while the main event loop keeps running', async () => {
  const threaded = await loadWorkerEmbedder(RANDOM_EMBEDDER, { localPath, allowRemote: false });
  const threadedReranker = await loadWorkerReranker(RANDOM_RERANKER, { localPath, allowRemote: false, batchSize: 2 });
  try {
    assert.equal(threaded.dim, 384);
    const expected = await embedder.embed(TEXTS);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const many = Array.from({ length: 12 }, () => TEXTS).flat();
    const vectors = await threaded.embed(many);
    clearInterval(timer);
    // In-process, inference holds the thread for the whole call (bench:embed measures that block).
    assert.ok(ticks > 0, 'the event loop ran while the worker embedded');
    assert.equal(vectors.length, many.length);
    for (let i = 0; i < TEXTS.length; i++) assert.ok(maxDifference(vectors[i], expected[i]) < 1e-6);
    assert.deepEqual(await threadedReranker.score('where are numbers added', TEXTS), await reranker.score('where are numbers added', TEXTS));
    assert.deepEqual(await threaded.embed([]), []);
  } finally {
    await threaded.close();
    await threadedReranker.close();
  }
  await assert.rejects(threaded.embed(['after close']), /embedder synthetic\/minilm-l6-shape-embed was closed/);
  // A failed load leaves the thread serving: the next model loads in it (what a settings change does).
  await assert.rejects(loadWorkerEmbedder('Xenova/all-MiniLM-L6-v2', { localPath, allowRemote: false, cacheDir: emptyCache }), /embedding model Xenova\/all-MiniLM-L6-v2 is not available: .*downloads are turned off/);
  const again = await loadWorkerEmbedder(RANDOM_EMBEDDER, { localPath, allowRemote: false });
  assert.equal((await again.embed(['x']))[0].length, 384);
  await again.close();
});

// ---- OpenAI-compatible /v1/embeddings --------------------------------------------------------------

interface Recorded {
  url: string;
  authorization?: string;
  body: { model: string; input: string[] };
}

/** A scripted embeddings server: vector i of a request is [len(text), i+1, 0, ...] (not normalised). */
async function embeddingsServer(reply?: (req: Recorded) => { status: number; body: unknown } | 'hang'): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      const recorded: Recorded = { url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(data) };
      requests.push(recorded);
      const scripted = reply?.(recorded);
      if (scripted === 'hang') return;
      const { status, body } = scripted ?? {
        status: 200,
        body: {
          object: 'list',
          model: recorded.body.model,
          // Out of order on purpose: the index field says which text a vector belongs to.
          data: recorded.body.input.map((text, i) => ({ object: 'embedding', index: i, embedding: [text.length, i + 1, 0, 0] })).reverse(),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

test('the endpoint embedder sends the model and texts to /v1/embeddings in batches and returns unit vectors in text order', async () => {
  const server = await embeddingsServer();
  try {
    const remote = await loadEndpointEmbedder({ baseURL: server.url, model: 'nomic-embed-text', apiKey: 'secret-key', batchSize: 2 });
    assert.equal(remote.dim, 4);
    assert.equal(remote.id, `nomic-embed-text@${server.url}`);
    const vectors = await remote.embed(['abc', 'abcdef', 'a']);
    // The probe, then ceil(3 / 2) requests.
    assert.deepEqual(server.requests.map((r) => r.body.input), [['dimension probe'], ['abc', 'abcdef'], ['a']]);
    assert.ok(server.requests.every((r) => r.url === '/v1/embeddings' && r.body.model === 'nomic-embed-text' && r.authorization === 'Bearer secret-key'));
    const expected = [[3, 1], [6, 2], [1, 1]].map(([a, b]) => [a / Math.hypot(a, b), b / Math.hypot(a, b), 0, 0]);
    vectors.forEach((v, i) => expected[i].forEach((x, j) => assert.ok(Math.abs(v[j] - x) < 1e-6, `vector ${i}: ${[...v]}`)));
  } finally {
    await server.close();
  }
});

test('an unreachable, failing or hanging endpoint gives a readable error and the loader goes model-free', async () => {
  const down = await embeddingsServer();
  await down.close();
  await assert.rejects(loadEndpointEmbedder({ baseURL: down.url, model: 'm', maxRetries: 0 }), (err: Error) => {
    assert.ok(err.message.startsWith(`embedding endpoint ${down.url} (model m) failed: unreachable`), err.message);
    return true;
  });
  const viaLoader = await loadSearchModels({ endpoint: { baseURL: down.url, model: 'm', maxRetries: 0 } });
  assert.match(viaLoader.status, /^model-free: no embedding model \(embedding endpoint .* unreachable/);

  const failing = await embeddingsServer(() => ({ status: 404, body: { error: { message: 'model "m" not found' } } }));
  const hanging = await embeddingsServer(() => 'hang');
  try {
    await assert.rejects(loadEndpointEmbedder({ baseURL: failing.url, model: 'm', maxRetries: 0 }), /failed: HTTP 404: .*model "m" not found/);
    const started = Date.now();
    await assert.rejects(loadEndpointEmbedder({ baseURL: hanging.url, model: 'm', maxRetries: 0, timeoutMs: 300 }), /failed: timed out/);
    assert.ok(Date.now() - started < 5_000);
  } finally {
    await failing.close();
    await hanging.close();
  }
});
