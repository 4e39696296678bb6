// The search benchmark's fixture check (bench/search/modelCheck.ts): random-weight stand-ins must be
// recognised even under a real model's id, and a folder without their signs must not be flagged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { fixtureSigns } from '../../bench/search/modelCheck';
import { ensureRandomModels, RANDOM_EMBEDDER } from './modelFixtures';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-model-check-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('random-weight fixtures are flagged by id, marker and ONNX producer', () => {
  const dir = ensureRandomModels();
  assert.ok(fixtureSigns(dir, [RANDOM_EMBEDDER]).length >= 3);
  // Copied under a real id into a folder without the marker: the weights still give it away.
  const disguised = path.join(tmp, 'Xenova', 'all-MiniLM-L6-v2');
  fs.cpSync(path.join(dir, RANDOM_EMBEDDER), disguised, { recursive: true });
  const signs = fixtureSigns(tmp, ['Xenova/all-MiniLM-L6-v2']);
  assert.ok(signs.length > 0 && signs.every((s) => /random-weight fixture recipe/.test(s)), signs.join('\n'));
});

test('a folder without fixture signs is not flagged', () => {
  const real = path.join(tmp, 'real', 'Xenova', 'ms-marco-MiniLM-L-6-v2', 'onnx');
  fs.mkdirSync(real, { recursive: true });
  fs.writeFileSync(path.join(real, 'model_quantized.onnx'), Buffer.from('\x08\x07\x12\x07pytorch'));
  assert.deepEqual(fixtureSigns(path.join(tmp, 'real'), ['Xenova/ms-marco-MiniLM-L-6-v2']), []);
  assert.deepEqual(fixtureSigns(undefined, ['Xenova/all-MiniLM-L6-v2']), []);
});
