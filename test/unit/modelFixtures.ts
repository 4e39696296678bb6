// RANDOM-weight models with the exact shape of all-MiniLM-L6-v2 (bi-encoder) and
// ms-marco-MiniLM-L-6-v2 (cross-encoder), next to the real MiniLM tokenizer: they exercise the real
// transformers.js loading and inference code. Their outputs mean nothing; use them for plumbing,
// speed and memory only. Generated once by ../shared/recipes/models/make_random_bert_onnx.py (Debian
// python3-onnx + python3-numpy, installed by .ci/run) and cached in test/.cache/random-models.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const RECIPE = path.resolve(REPO, '..', 'shared', 'recipes', 'models', 'make_random_bert_onnx.py');
const TOKENIZER = path.resolve(REPO, '..', 'shared', 'models', 'tokenizers', 'all-MiniLM-L6-v2');
export const RANDOM_MODELS_DIR = path.join(REPO, 'test', '.cache', 'random-models');
/** Model ids under RANDOM_MODELS_DIR (what `localPath` + id resolve to). */
export const RANDOM_EMBEDDER = 'synthetic/minilm-l6-shape-embed';
export const RANDOM_RERANKER = 'synthetic/minilm-l6-shape-rerank';
const READY = path.join(RANDOM_MODELS_DIR, '.ready');

/** Builds the fixture folder when absent; returns its path (the `localPath` to load from). */
export function ensureRandomModels(): string {
  if (fs.existsSync(READY)) return RANDOM_MODELS_DIR;
  for (const needed of [RECIPE, TOKENIZER]) {
    if (!fs.existsSync(needed)) throw new Error(`random-weight model fixtures need ${needed}`);
  }
  fs.rmSync(RANDOM_MODELS_DIR, { recursive: true, force: true });
  try {
    // Debian's interpreter: python3-onnx is installed for it, not for a pyenv or venv python first on PATH.
    execFileSync(fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', [RECIPE, RANDOM_MODELS_DIR], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim().split('\n').at(-1) ?? '';
    throw new Error(`could not generate the random-weight model fixtures (apt-get install python3-onnx python3-numpy): ${stderr || String(err)}`);
  }
  for (const id of [RANDOM_EMBEDDER, RANDOM_RERANKER]) {
    const dir = path.join(RANDOM_MODELS_DIR, id);
    for (const file of fs.readdirSync(TOKENIZER)) fs.copyFileSync(path.join(TOKENIZER, file), path.join(dir, file));
  }
  // The cross-encoder's config: a BERT sequence classifier with one logit per pair, as ms-marco's.
  const rerankConfig = path.join(RANDOM_MODELS_DIR, RANDOM_RERANKER, 'config.json');
  const config = JSON.parse(fs.readFileSync(rerankConfig, 'utf8')) as Record<string, unknown>;
  Object.assign(config, { architectures: ['BertForSequenceClassification'], id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 } });
  fs.writeFileSync(rerankConfig, JSON.stringify(config, null, 2));
  fs.writeFileSync(READY, new Date().toISOString());
  return RANDOM_MODELS_DIR;
}
