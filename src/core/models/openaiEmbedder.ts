// A bi-encoder behind an OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, llama.cpp
// server, vLLM, LM Studio, text-embeddings-inference). Used only when the user configured an
// endpoint: node text then leaves this machine, for that server.
import OpenAI from 'openai';
import { messageOf } from './transformersModels';
import type { Embedder } from './types';

export interface EndpointEmbedderOptions {
  /** Base URL including the version prefix, e.g. `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  model: string;
  /** From VS Code's secret storage; local servers usually need none. */
  apiKey?: string;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Retries of failed requests (default 1). */
  maxRetries?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BATCH = 64;

/** Connects and embeds one probe text (which also gives the vector length); throws a readable error. */
export async function loadEndpointEmbedder(options: EndpointEmbedderOptions): Promise<Embedder> {
  const client = new OpenAI({
    baseURL: options.baseURL,
    // The client insists on a key; without one no Authorization header is sent (null removes it).
    apiKey: options.apiKey || 'unused',
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? 1,
    ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const request = async (texts: string[]): Promise<Float32Array[]> => {
    let response: OpenAI.Embeddings.CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create({ model: options.model, input: texts, encoding_format: 'float' });
    } catch (err) {
      throw new Error(`embedding endpoint ${options.baseURL} (model ${options.model}) failed: ${describe(err)}`, { cause: err });
    }
    const data = [...response.data].sort((a, b) => a.index - b.index);
    if (data.length !== texts.length) throw new Error(`embedding endpoint ${options.baseURL} answered ${data.length} vectors for ${texts.length} texts`);
    return data.map((d) => normalized(d.embedding));
  };
  const dim = (await request(['dimension probe']))[0].length;
  if (dim === 0) throw new Error(`embedding endpoint ${options.baseURL} returned empty vectors for model ${options.model}`);
  return {
    id: `${options.model}@${options.baseURL}`,
    dim,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let at = 0; at < texts.length; at += batchSize) {
        const vectors = await request(texts.slice(at, at + batchSize));
        for (const v of vectors) {
          if (v.length !== dim) throw new Error(`embedding endpoint ${options.baseURL} changed its vector length from ${dim} to ${v.length}`);
        }
        out.push(...vectors);
      }
      return out;
    },
  };
}

function describe(err: unknown): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (err instanceof OpenAI.APIConnectionError) return `unreachable (${messageOf(err.cause ?? err)})`;
  if (err instanceof OpenAI.APIError) return `HTTP ${err.status ?? '?'}: ${messageOf(err)}`;
  return messageOf(err);
}

/** Servers differ on whether they normalise; the Embedder contract promises unit vectors. */
function normalized(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}
