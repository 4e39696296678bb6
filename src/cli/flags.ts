// What both halves of the CLI share: the usage text and the flags.
import type { DescribeRequest } from '../core/service/serviceProtocol';
import type { IndexOptions } from '../core/store/indexOptions';
import { positiveInteger } from './commandLine';

export const USAGE = `Usage:
  cartograph index <dir> [--store DIR] [--exclude PATTERN]... [--max-file-size BYTES] [--include-minified] [--reset-options] [--follow-symlinks] [--json]
      --include-minified: also index minified JavaScript (*.min.js, very long lines) and .js files in vendor/ folders
      --exclude, --max-file-size and --include-minified are recorded with the store: later indexes and the
      repository's service read the folder the same way until other options are given (--reset-options: the defaults)
      --follow-symlinks: also index (and show) files through symlinks that lead out of <dir>; by default
      they are skipped as outside-root, so that a cloned repository cannot expose other files
  cartograph stats [--store DIR] [--json]
  cartograph show <name | qualified.name | node id> [--store DIR] [--json]
  cartograph query "<name, structural question or plain English>" [--store DIR] [--json] [--limit N] [--mcts]
      [--model-free] [--embedding-model ID] [--reranker-model ID] [--models-dir DIR] [--embedding-endpoint URL]
      plain English is searched as the editor searches it: with Cartograph's own model (shipped, never
      downloaded) and the reranker tuned for it, in the repository's service, which embeds the repository
      once and keeps the vectors; answered in this process (--no-service, or while the service starts) it
      is model-free and says so; --model-free: without any model
      with a model flag: transformers.js models (e.g. Xenova/all-MiniLM-L6-v2, Xenova/ms-marco-MiniLM-L-6-v2),
      from DIR/<id>/ offline with --models-dir, else downloaded once to ~/.cache/cartograph/models;
      --embedding-model cartograph-code-search-v5 is Cartograph's own model, shipped, never downloaded;
      or an OpenAI-compatible embeddings endpoint (--embedding-model names its model, key from
      $CARTOGRAPH_API_KEY). The store's nodes are embedded first and the vectors kept for later queries;
      a model that cannot be loaded is reported and the query answers without it
  cartograph features [<area id> | <file> | <name>] [--store DIR] [--json]
      the functional view: areas of related files (graph communities, model-free), each with the folders
      it is grounded in, its size and key terms; with a file or a name, the areas it is under and its
      features; with an area id (e.g. 2.3), what is under it
  cartograph mcp [<dir>...] [--root DIR]... [--store DIR] [--follow-symlinks]
      the agent tools over stdio for each folder (default: the current one)
  cartograph describe --endpoint URL --model NAME [--store DIR] [--max-calls N]
      semantic lifting: a one-line purpose description of every function and class, written by an
      OpenAI-compatible chat endpoint (API key from $CARTOGRAPH_API_KEY), cached by content hash
      and used by query; run by the repository's service when one is running (its next answer uses them)

  cartograph service status|stop [--all] [--json]
      the repository's service: one process per repository that keeps the graph warm and answers
      query, show, stats, features, index and every agent's mcp server; started by the first of them, stopped after
      15 minutes unused. --no-service (or CARTOGRAPH_NO_SERVICE=1) answers in the command's own process

The store defaults to <dir>/.cartograph; stats and show find it from the current folder upwards.`;

export interface ModelFlags {
  'embedding-model'?: string;
  'reranker-model'?: string;
  'models-dir'?: string;
  'embedding-endpoint'?: string;
}

export const MODEL_FLAG_OPTIONS = {
  'embedding-model': { type: 'string' },
  'reranker-model': { type: 'string' },
  'models-dir': { type: 'string' },
  'embedding-endpoint': { type: 'string' },
} as const;

export function wantsModels(flags: ModelFlags): boolean {
  return Boolean(flags['embedding-model'] || flags['reranker-model'] || flags['models-dir'] || flags['embedding-endpoint']);
}

/**
 * What a natural-language question answered in the CLI's own process searches with when no model flag
 * is given: nothing, as said here. The default models live in the repository's service (modelSlot.ts),
 * which keeps their vectors; a process of its own would embed the repository first.
 */
export function inProcessModels(flags: Flags): string {
  return flags['model-free']
    ? 'model-free: asked for (--model-free)'
    : "model-free: answered in this process; the repository's service searches with the shipped model (or pass --embedding-model cartograph-code-search-v5)";
}

export type Flags = ModelFlags & {
  store?: string;
  json?: boolean;
  exclude?: string[];
  'max-file-size'?: string;
  'include-minified'?: boolean;
  'reset-options'?: boolean;
  'follow-symlinks'?: boolean;
  limit?: string;
  mcts?: boolean;
  files?: boolean;
  endpoint?: string;
  model?: string;
  'max-calls'?: string;
  root?: string[];
  'no-service'?: boolean;
  'model-free'?: boolean;
  all?: boolean;
};

/** A store folder and the repository it belongs to. */
export interface StoreLocation {
  root: string;
  storeDir: string;
}

/** `describe`'s flags as its request (the key from $CARTOGRAPH_API_KEY); undefined, said on stderr, when one is missing. */
export function describeRequest(flags: Flags, env: NodeJS.ProcessEnv = process.env): DescribeRequest | undefined {
  if (!flags.endpoint || !flags.model) {
    console.error(`cartograph describe: --endpoint and --model are required\n\n${USAGE}`);
    return undefined;
  }
  const maxCalls = positiveInteger('max-calls', flags['max-calls']);
  return { baseURL: flags.endpoint, model: flags.model, ...(env.CARTOGRAPH_API_KEY ? { apiKey: env.CARTOGRAPH_API_KEY } : {}), ...(maxCalls !== undefined ? { maxCalls } : {}) };
}

/** The options `index` was given; undefined for none (the store's recorded ones apply); --reset-options: the defaults. */
export function indexOptionsOf(flags: Flags): IndexOptions | undefined {
  const maxFileSize = positiveInteger('max-file-size', flags['max-file-size'], 'a whole number of bytes');
  if (!flags.exclude?.length && maxFileSize === undefined && !flags['include-minified'] && !flags['reset-options']) return undefined;
  return { exclude: flags.exclude ?? [], includeMinified: flags['include-minified'] === true, ...(maxFileSize !== undefined ? { maxFileSize } : {}) };
}
