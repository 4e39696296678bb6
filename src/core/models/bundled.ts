// Cartograph's own code-search model, shipped in the repository and the .vsix under models/ (trained
// by `npm run train:model`; data, licenses, metrics and file hashes in models/<id>/MODEL_CARD.md). It
// loads through the same transformers.js path as a downloaded model, from a local folder with
// downloads off, so search by meaning works offline with no setting.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TransformersOptions } from './transformersModels';

export const BUNDLED_EMBEDDING_MODEL = 'cartograph-code-search-v5';

/**
 * Weights of the shipped model's lists (vector seeds, MCTS hits) in the fused natural-language
 * ranking, where the lexical list weighs 1. At weight 1 its lists pulled the hybrid below model-free
 * search; the value was chosen on two bench:search corpora (requests, click) and checked on the
 * others; for v4 and again for v5, weight 1 scored lower on the learned reranker's validation packages
 * (docs/benchmarks.md, "The shipped code-search model and reranker", its "Fusion weight" note; the
 * earlier checks are in that file's git history).
 */
export const SHIPPED_MODEL_FUSION = { vector: 0.5, mcts: 0.5 };

/** The models folder: next to the sources in development, next to `dist/` in bundles and the .vsix. */
export function findBundledModelsDir(start = __dirname): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'models');
    if (fs.existsSync(path.join(candidate, BUNDLED_EMBEDDING_MODEL, 'config.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** transformers.js options that load the shipped model from its folder and never download. */
export function bundledOptions(options: TransformersOptions = {}): TransformersOptions {
  const dir = findBundledModelsDir();
  if (!dir) throw new Error(`the shipped model ${BUNDLED_EMBEDDING_MODEL} is missing: no models/${BUNDLED_EMBEDDING_MODEL}/ folder above ${__dirname}`);
  return { ...options, localPath: dir, allowRemote: false, quantized: true };
}
