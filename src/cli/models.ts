// `cartograph query`'s model flags: the models they name are loaded in-process (a terminal run has no
// UI thread to keep free), the store's nodes are embedded once before the search (vectors persist in
// the store, so the next query embeds only what changed), and anything missing is said in one line
// on stderr while the query still answers model-free.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Engine } from '../core/engine';
import { embedForSearch } from '../core/models/embedForSearch';
import type { EmbeddingReport } from '../core/models/embeddingJob';
import { loadSearchModels, type ModelSettings } from '../core/models/loader';
import type { SearchModels } from '../core/models/types';
import type { ModelFlags } from './flags';

/**
 * --models-dir is the extension's `cartograph.models.localPath` (`<dir>/<model id>/...`) and means
 * offline: nothing is downloaded. Without it models download once into the user's cache folder (not
 * into node_modules, transformers.js' default, which an upgrade wipes).
 */
export function modelSettings(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const localPath = flags['models-dir'] ? path.resolve(flags['models-dir']) : undefined;
  const cacheDir = path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'cartograph', 'models');
  const endpoint = flags['embedding-endpoint'];
  return {
    embeddingModel: flags['embedding-model'],
    rerankerModel: flags['reranker-model'],
    endpoint: endpoint ? { baseURL: endpoint, apiKey: env.CARTOGRAPH_API_KEY } : undefined,
    transformers: { localPath, cacheDir, allowRemote: localPath ? false : undefined },
  };
}

export interface QueryModels {
  models: SearchModels;
  embedding?: EmbeddingReport;
  close(): Promise<void>;
}

export async function loadQueryModels(engine: Engine, flags: ModelFlags, quiet: boolean): Promise<QueryModels> {
  const loaded = await loadSearchModels(modelSettings(flags));
  // One line per missing model; the answer below is then (partly) model-free, and still exit 0.
  for (const problem of loaded.problems) console.error(`cartograph: ${problem}; searching without it`);
  const tty = !quiet && process.stderr.isTTY;
  const { models, embedding, problem } = await embedForSearch(engine, loaded, {
    onProgress: tty ? (done, total) => process.stderr.write(`\r embedding ${done}/${total} nodes`) : undefined,
  });
  if (tty && embedding && embedding.embedded > 0) process.stderr.write('\n');
  if (problem) console.error(`cartograph: ${problem}`);
  else if (embedding && embedding.embedded > 0) {
    console.error(`cartograph: embedded ${embedding.embedded} nodes (${embedding.reused} reused) in ${(embedding.ms / 1000).toFixed(1)} s${embedding.persisted ? '' : ', kept in memory only'}`);
  }
  return { models, embedding, close: loaded.close };
}
