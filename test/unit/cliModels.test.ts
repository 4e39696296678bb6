// The built CLI's `query` with model flags, on a few files of the vendored Flask fixture and the
// RANDOM-weight stand-ins of test/unit/modelFixtures.ts: the models are loaded and reported, the
// store's nodes are embedded once and reused by the next run, and a model that cannot be loaded is
// one stderr line while the query still answers model-free. Plumbing only: the stand-ins' rankings
// mean nothing, so no assertion here is about which hit comes first.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { BUNDLED_EMBEDDING_MODEL } from '../../src/core/models/bundled';
import { ensureRandomModels, RANDOM_EMBEDDER, RANDOM_RERANKER } from './modelFixtures';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const FLASK = path.join(__dirname, '..', 'fixtures', 'real', 'flask');
/** Small enough to embed in a few seconds with the stand-ins (~20 texts/s), real code all the same. */
const FILES = ['config.py', 'logging.py', 'globals.py'];
const QUERY = 'load configuration values from a python file';

let tmp: string;
let root: string;
let modelsDir: string;

function cartograph(args: string[], cwd = root) {
  // XDG_CACHE_HOME: the download cache the CLI names must not be the user's real one.
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A copy of FILES, indexed: each test that writes vectors of its own model gets its own store. */
function indexedCopy(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (const file of FILES) fs.copyFileSync(path.join(FLASK, file), path.join(dir, file));
  const indexed = cartograph(['index', dir], dir);
  assert.equal(indexed.code, 0, indexed.stderr);
  return dir;
}

const withModels = (...extra: string[]) => ['query', QUERY, '--models-dir', modelsDir, '--embedding-model', RANDOM_EMBEDDER, '--reranker-model', RANDOM_RERANKER, ...extra];

before(() => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  modelsDir = ensureRandomModels();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-models-'));
  root = indexedCopy('flask');
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('query with model flags loads the models, embeds the store once and searches with them', () => {
  const first = cartograph(withModels('--json'));
  assert.equal(first.code, 0, first.stderr);
  const json = JSON.parse(first.stdout);
  assert.equal(json.route, 'natural-language');
  assert.match(json.models, new RegExp(`embeddings ${RANDOM_EMBEDDER}, reranker ${RANDOM_RERANKER}`));
  assert.doesNotMatch(json.reason, /model-free/);
  assert.ok(json.hits.length > 0);
  assert.ok(
    json.hits.some((h: { via: string }) => h.via === 'vector' || h.via === 'mcts'),
    'some hit came from the vector seeds or the model-scored traversal',
  );
  assert.ok(json.embedding.embedded > 0, 'the first run embeds the nodes');
  assert.equal(json.embedding.persisted, true);
  assert.match(first.stderr, new RegExp(`embedded ${json.embedding.embedded} nodes`));

  const second = JSON.parse(cartograph(withModels('--json')).stdout);
  assert.equal(second.embedding.embedded, 0, 'the second run reuses the stored vectors');
  assert.equal(second.embedding.reused, json.embedding.embedded + json.embedding.reused);
  assert.ok(second.hits.length > 0);

  const text = cartograph(withModels('--limit', '3'));
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout.split('\n')[0], new RegExp(`^natural-language: .*embeddings ${RANDOM_EMBEDDER}, reranker ${RANDOM_RERANKER}; \\d+ nodes embedded`));
  assert.doesNotMatch(text.stderr, /embedded \d+ nodes/, 'nothing to embed, nothing said');
});

test('the shipped model answers by its id with no --models-dir and no download, and the JSON names it', () => {
  const run = cartograph(['query', QUERY, '--embedding-model', BUNDLED_EMBEDDING_MODEL, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.match(json.models, new RegExp(`^embeddings ${BUNDLED_EMBEDDING_MODEL}; \\d+ nodes embedded$`));
  assert.ok(json.embedding.embedded > 0);
  assert.ok(json.hits.some((h: { via: string }) => h.via === 'vector' || h.via === 'mcts'));
});

test('a model that cannot be loaded is one line on stderr and the query answers model-free', () => {
  const run = cartograph(['query', QUERY, '--models-dir', modelsDir, '--embedding-model', 'nobody/no-such-model', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const problems = run.stderr.split('\n').filter((l) => l.includes('nobody/no-such-model'));
  assert.equal(problems.length, 1, run.stderr);
  assert.match(problems[0], /^cartograph: no embedding model \(embedding model nobody\/no-such-model is not available: .*; searching without it$/);
  const json = JSON.parse(run.stdout);
  assert.match(json.reason, /model-free/);
  assert.equal(json.embedding, null);
  assert.ok(json.hits.length > 0);
  assert.ok(json.hits.every((h: { via: string }) => h.via === 'lexical'));
});

test('a name or a structural question is answered from the graph without loading the models', () => {
  // A model id that cannot load: had the CLI tried, stderr would say so.
  for (const question of ['Config.from_pyfile', 'callers of from_pyfile']) {
    const run = cartograph(['query', question, '--models-dir', modelsDir, '--embedding-model', 'nobody/no-such-model', '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '', `${question}: nothing loaded, nothing said`);
    const json = JSON.parse(run.stdout);
    assert.notEqual(json.route, 'natural-language', question);
    assert.equal(json.models, undefined, question);
  }
});

test('without model flags a query answered in its own process is model-free and says why; --model-free says it was asked for', () => {
  const run = cartograph(['query', QUERY, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  // The default models are the repository service's (this suite runs with the service off).
  assert.match(json.models, /^model-free: answered in this process; the repository's service searches with the shipped model/);
  assert.equal(json.embedding, undefined);
  assert.match(json.reason, /model-free: answered in this process/);
  const asked = JSON.parse(cartograph(['query', QUERY, '--json', '--model-free']).stdout);
  assert.equal(asked.models, 'model-free: asked for (--model-free)');
  assert.deepEqual(asked.hits, json.hits);
});

test('--embedding-endpoint embeds through an OpenAI-compatible server with the key from the environment, never printed', async () => {
  const seen: { authorization?: string; model: string; inputs: number }[] = [];
  // Vectors from the text's length: meaningless, but of a fixed size and different per text.
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      seen.push({ authorization: req.headers.authorization, model: body.model, inputs: body.input.length });
      const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: [1, text.length % 7, text.length % 5] }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = indexedCopy('flask-endpoint');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const env = { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache'), CARTOGRAPH_API_KEY: 'sk-cli-secret' };
    const run = await promisify(execFile)(process.execPath, [CLI, 'query', QUERY, '--embedding-endpoint', url, '--embedding-model', 'tiny-embed', '--json'], { cwd: dir, env });
    const json = JSON.parse(run.stdout);
    assert.match(json.models, /^embeddings tiny-embed@http:\/\/127\.0\.0\.1:\d+\/v1; \d+ nodes embedded/);
    assert.ok(json.embedding.embedded > 0);
    assert.ok(seen.length > 1 && seen.every((r) => r.model === 'tiny-embed' && r.authorization === 'Bearer sk-cli-secret'));
    assert.doesNotMatch(run.stdout + run.stderr, /sk-cli-secret/);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
