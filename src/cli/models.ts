// `cartograph query`'s model flags: the models they name are loaded in-process (a terminal run has no
// UI thread to keep free), the store's nodes are embedded once before the search (vectors persist in
// the store, so the next query embeds only what changed), and anything missing is said in one line
// on stderr while the query still answers model-free.
import type { Engine } from '../core/engine';
import { embedForSearch } from '../core/models/embedForSearch';
import type { EmbeddingReport } from '../core/models/embeddingJob';
import { loadSearchModels } from '../core/models/loader';
import type { SearchModels } from '../core/models/types';
import type { ModelFlags } from './flags';
import { modelSettings } from './modelSettings';

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
