// The code-search model shipped in models/ (trained by `npm run train:model`, never in CI): every
// file matches the sha256 its model card states, the folder fits the size budget, and it loads
// through the product's own loader (the default when no model is configured) and gives, for fixed
// texts, the token ids and vectors the training script computed in PyTorch when it exported the
// model (test/fixtures/shipped-model-reference.json). That pins the tokenizer.json and ONNX graph
// to what was trained: a tokenizer transformers.js reads differently, or weights that are not the
// card's, fail here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { BUNDLED_EMBEDDING_MODEL, findBundledModelsDir } from '../../src/core/models/bundled';
import { loadSearchModels } from '../../src/core/models/loader';
import { defaultModels } from '../../src/core/service/modelSlot';
import { NO_MODELS } from '../../src/core/service/serviceProtocol';

const REPO = path.resolve(__dirname, '..', '..');
const DIR = path.join(REPO, 'models', BUNDLED_EMBEDDING_MODEL);
const CARD = path.join(DIR, 'MODEL_CARD.md');
const REFERENCE = JSON.parse(fs.readFileSync(path.join(REPO, 'test', 'fixtures', 'shipped-model-reference.json'), 'utf8')) as {
  modelId: string;
  texts: string[];
  ids: number[][];
  vectors: number[][];
};
const MAX_BYTES = 30 * 1024 * 1024;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));
}

test('every shipped file matches the sha256 in the model card, and the card lists every file', () => {
  const card = fs.readFileSync(CARD, 'utf8');
  // Rows of the card's file table: | `path` | bytes | `sha256` |
  const stated = new Map([...card.matchAll(/^\| `([^`]+)` \| [\d,]+ \| `([0-9a-f]{64})` \|$/gm)].map((m) => [m[1], m[2]]));
  const shipped = filesUnder(DIR).filter((f) => f !== 'MODEL_CARD.md').sort();
  assert.deepEqual([...stated.keys()].sort(), shipped);
  for (const file of shipped) {
    const sha = createHash('sha256').update(fs.readFileSync(path.join(DIR, file))).digest('hex');
    assert.equal(sha, stated.get(file), `${file} differs from the model card`);
  }
  const bytes = filesUnder(DIR).reduce((sum, f) => sum + fs.statSync(path.join(DIR, f)).size, 0);
  assert.ok(bytes <= MAX_BYTES, `${bytes} bytes shipped, budget ${MAX_BYTES}`);
});

test("the shipped model is found next to the sources and is the default embedder of the editor and the repository's service; settings that name nothing load nothing", async () => {
  assert.equal(findBundledModelsDir(), path.dirname(DIR));
  const none = await loadSearchModels(NO_MODELS);
  assert.equal(none.embedder, undefined);
  assert.equal((await loadSearchModels(defaultModels({ CARTOGRAPH_MODEL_FREE: '1' }))).embedder, undefined);
  const loaded = await loadSearchModels({ ...defaultModels({}), transformers: { allowRemote: true } });
  try {
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.embedder?.id, BUNDLED_EMBEDDING_MODEL);
    assert.equal(loaded.status, `embeddings ${BUNDLED_EMBEDDING_MODEL}`);
  } finally {
    await loaded.close();
  }
});

test('transformers.js tokenizes and embeds as PyTorch did at export', async () => {
  assert.equal(REFERENCE.modelId, BUNDLED_EMBEDDING_MODEL);
  const { AutoTokenizer, env } = await import('@xenova/transformers');
  env.localModelPath = `${path.dirname(DIR)}/`;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(BUNDLED_EMBEDDING_MODEL);
  REFERENCE.texts.forEach((text, i) => assert.deepEqual(tokenizer.encode(text), REFERENCE.ids[i], `token ids of ${JSON.stringify(text)}`));

  const loaded = await loadSearchModels({ embeddingModel: BUNDLED_EMBEDDING_MODEL });
  try {
    const embedder = loaded.embedder!;
    assert.equal(embedder.dim, REFERENCE.vectors[0].length);
    const vectors = await embedder.embed(REFERENCE.texts);
    vectors.forEach((v, i) => {
      const worst = Math.max(...REFERENCE.vectors[i].map((x, d) => Math.abs(x - v[d])));
      assert.ok(worst < 1e-4, `vector of ${JSON.stringify(REFERENCE.texts[i])} differs by ${worst}`);
    });
  } finally {
    await loaded.close();
  }
});

test('a text with no token (the tokenizer drops punctuation) embeds to the zero vector, not NaN, next to a normal one', async () => {
  const loaded = await loadSearchModels({ embeddingModel: BUNDLED_EMBEDDING_MODEL });
  try {
    const [symbols, empty, words] = await loaded.embedder!.embed(['() -> {}', '', 'Return the size of the file.']);
    for (const v of [symbols, empty]) assert.ok(v.every((x) => x === 0), `expected zeros, got ${v.slice(0, 4).join(', ')}…`);
    const norm = Math.hypot(...words);
    assert.ok(Math.abs(norm - 1) < 1e-4, `a real sentence keeps its unit vector (norm ${norm})`);
  } finally {
    await loaded.close();
  }
});
