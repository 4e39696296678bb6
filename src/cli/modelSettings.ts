// The model flags as the settings that load models: kept apart from models.ts (which loads them) so
// that the CLI's light bundle can send them to the repository's service without loading a model.
import * as os from 'node:os';
import * as path from 'node:path';
import type { ModelSettings } from '../core/models/loader';
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

