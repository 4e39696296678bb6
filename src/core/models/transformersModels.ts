// Bi-encoder and cross-encoder through transformers.js (ONNX Runtime on the CPU). Models come from a
// local folder first (offline machines), then from the download cache, then from the Hugging Face
// hub when downloads are allowed. transformers.js keeps these locations in one process-wide `env`,
// so they are set right before each load (loads are serialized here for that reason).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Embedder, Reranker } from './types';

type Transformers = typeof import('@xenova/transformers');

export interface TransformersOptions {
  /** Where downloaded models are cached (transformers.js' `env.cacheDir`). */
  cacheDir?: string;
  /** A folder holding `<model id>/config.json, tokenizer.json, onnx/model_quantized.onnx` (`env.localModelPath`). */
  localPath?: string;
  /** false: never contact the hub (`env.allowRemoteModels`); the model must be in localPath or the cache. */
  allowRemote?: boolean;
  /** int8 weights (`onnx/model_quantized.onnx`, what the hub's Xenova models ship by default) or fp32 (`onnx/model.onnx`). */
  quantized?: boolean;
  /** Texts (or query-passage pairs) per forward pass. */
  batchSize?: number;
  onProgress?: (progress: DownloadProgress) => void;
}

/** One file of a model being fetched: `loaded`/`total` bytes are known only while downloading. */
export interface DownloadProgress {
  model: string;
  file: string;
  status: 'initiate' | 'download' | 'progress' | 'done';
  loaded?: number;
  total?: number;
}

const DEFAULT_BATCH = 16;

let transformers: Promise<Transformers> | undefined;
/** Loaded on first use: importing the module starts ONNX Runtime's native binding. */
function loadTransformers(): Promise<Transformers> {
  transformers ??= import('@xenova/transformers').catch((err: unknown) => {
    transformers = undefined;
    throw new Error(`transformers.js could not be loaded on this machine: ${messageOf(err)}`);
  });
  return transformers;
}

let loading: Promise<unknown> = Promise.resolve();
/** One load at a time: each sets the process-wide `env` for itself. */
function serializedLoad<T>(load: () => Promise<T>): Promise<T> {
  const run = loading.then(load);
  loading = run.catch(() => undefined);
  return run;
}

async function configured(options: TransformersOptions): Promise<Transformers> {
  const t = await loadTransformers();
  t.env.allowLocalModels = true;
  t.env.allowRemoteModels = options.allowRemote ?? true;
  if (options.localPath) t.env.localModelPath = withSlash(options.localPath);
  if (options.cacheDir) t.env.cacheDir = withSlash(options.cacheDir);
  t.env.useFSCache = true;
  return t;
}

function pretrainedOptions(model: string, options: TransformersOptions) {
  return {
    quantized: options.quantized ?? true,
    cache_dir: options.cacheDir,
    progress_callback: options.onProgress
      ? (p: { status: string; file?: string; loaded?: number; total?: number }) => {
          if (p.status === 'initiate' || p.status === 'download' || p.status === 'progress' || p.status === 'done') {
            options.onProgress!({ model, file: p.file ?? '', status: p.status, loaded: p.loaded, total: p.total });
          }
        }
      : undefined,
  };
}

/** Says which places were tried, so a user on an offline machine knows where to put the files. */
function unavailable(role: string, model: string, options: TransformersOptions, err: unknown): Error {
  const places = [options.localPath && `the local model folder ${options.localPath}`, options.cacheDir && `the cache ${options.cacheDir}`].filter(Boolean).join(' or ');
  const remote = options.allowRemote === false ? 'downloads are turned off' : 'the download failed';
  return new Error(`${role} ${model} is not available: not found in ${places || 'any local folder'} and ${remote} (${messageOf(err)})`, { cause: err });
}

/** A model that holds native resources (ONNX sessions, a thread): close it when settings change or the host stops. */
export interface Closable {
  close(): Promise<void>;
}

export async function loadTransformersEmbedder(model: string, options: TransformersOptions = {}): Promise<Embedder & Closable> {
  return serializedLoad(async () => {
    const t = await configured(options);
    let extractor: Awaited<ReturnType<Transformers['pipeline']>>;
    try {
      extractor = await t.pipeline('feature-extraction', model, pretrainedOptions(model, options));
    } catch (err) {
      throw unavailable('embedding model', model, options, err);
    }
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    const run = async (texts: string[]): Promise<Float32Array[]> => {
      const output = (await extractor(texts, { pooling: 'mean', normalize: true })) as { data: Float32Array; dims: number[] };
      const dim = output.dims[output.dims.length - 1];
      return texts.map((_, i) => similarToNothing(output.data.slice(i * dim, (i + 1) * dim)));
    };
    // The vector length is the model's hidden size: read it from one real forward pass, not a config guess.
    const dim = (await run(['dimension probe']))[0].length;
    return {
      id: model,
      dim,
      async embed(texts: string[]): Promise<Float32Array[]> {
        const out: Float32Array[] = [];
        for (let at = 0; at < texts.length; at += batchSize) out.push(...(await run(texts.slice(at, at + batchSize))));
        return out;
      },
      close: async () => {
        await extractor.dispose();
      },
    };
  });
}

/**
 * A text without a single token (the shipped model drops punctuation, so `()` has none) mean-pools to
 * 0/0: NaN everywhere, which sorts unpredictably. The zero vector instead: cosine 0 with every node.
 */
function similarToNothing(vector: Float32Array): Float32Array {
  return vector.every(Number.isFinite) ? vector : new Float32Array(vector.length);
}

export async function loadTransformersReranker(model: string, options: TransformersOptions = {}): Promise<Reranker & Closable> {
  return serializedLoad(async () => {
    const t = await configured(options);
    let tokenizer: Awaited<ReturnType<Transformers['AutoTokenizer']['from_pretrained']>>;
    let classifier: Awaited<ReturnType<Transformers['AutoModelForSequenceClassification']['from_pretrained']>>;
    try {
      const pretrained = pretrainedOptions(model, options);
      tokenizer = await t.AutoTokenizer.from_pretrained(model, pretrained);
      classifier = await t.AutoModelForSequenceClassification.from_pretrained(model, pretrained);
    } catch (err) {
      throw unavailable('reranker model', model, options, err);
    }
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    return {
      id: model,
      async score(query: string, passages: string[]): Promise<number[]> {
        const scores: number[] = [];
        for (let at = 0; at < passages.length; at += batchSize) {
          const batch = passages.slice(at, at + batchSize);
          const inputs = tokenizer(
            batch.map(() => query),
            { text_pair: batch, padding: true, truncation: true },
          );
          const { logits } = (await classifier(inputs)) as { logits: { data: Float32Array; dims: number[] } };
          // ms-marco cross-encoders have one logit per pair; with several labels the first is taken.
          const labels = logits.dims[1] ?? 1;
          for (let i = 0; i < batch.length; i++) scores.push(logits.data[i * labels]);
        }
        return scores;
      },
      close: async () => {
        await classifier.dispose();
      },
    };
  });
}

/** True when the model's weights are in the local folder or the cache: loading it downloads nothing. */
export function isModelOnDisk(model: string, options: Pick<TransformersOptions, 'localPath' | 'cacheDir' | 'quantized'>): boolean {
  const weights = path.join(...model.split('/'), 'onnx', options.quantized === false ? 'model.onnx' : 'model_quantized.onnx');
  return [options.localPath, options.cacheDir].some((dir) => dir !== undefined && fs.existsSync(path.join(dir, weights)));
}

function withSlash(dir: string): string {
  return dir.endsWith('/') || dir.endsWith('\\') ? dir : `${dir}/`;
}

export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0].slice(0, 300);
}
