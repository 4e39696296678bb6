// Any OpenAI-compatible server (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio) through the
// `openai` package: streamed completions and chat with a timeout, cancellation through an
// AbortSignal (the HTTP request is aborted, not just ignored), and early stop once a stop
// sequence shows up in the stream (servers that cap the number of stops get the rest enforced here).
import OpenAI from 'openai';
import { cutAtStop } from '../completion/postprocess';
import type { BuiltPrompt } from '../completion/prompt';

export interface LlmClientOptions {
  baseURL: string;
  /** Sent as a bearer token; local servers need none. */
  apiKey?: string;
  timeoutMs: number;
}

export interface Generation {
  text: string;
  /** The endpoint used: `completions` (raw FIM) or `chat`. */
  via: 'completions' | 'chat';
}

/** OpenAI accepts at most four stop sequences; the others are applied to the stream here. */
const SERVER_STOPS = 4;

export class LlmClient {
  private readonly openai: OpenAI;

  constructor(readonly options: LlmClientOptions) {
    // The client insists on a key; without one no Authorization header is sent at all (null removes it),
    // rather than `Bearer none`, which some proxies log or reject as a malformed credential.
    this.openai = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'unused',
      timeout: options.timeoutMs,
      maxRetries: 0,
      ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    });
  }

  async firstModel(signal?: AbortSignal): Promise<string | undefined> {
    const page = await this.openai.models.list({ signal, timeout: this.options.timeoutMs });
    return page.data[0]?.id;
  }

  /** The whole answer must arrive within the timeout: a stream that stalls halfway fails like a server that never answers. */
  async generate(prompt: BuiltPrompt, model: string, signal?: AbortSignal): Promise<Generation> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const failure = () => (signal?.aborted ? new OpenAI.APIUserAbortError() : new Error(`no complete answer within ${this.options.timeoutMs} ms`));
    let generation: Generation;
    try {
      generation = await this.stream(prompt, model, signal ? AbortSignal.any([signal, deadline]) : deadline);
    } catch (err) {
      throw deadline.aborted || signal?.aborted ? failure() : err;
    }
    // An aborted stream ends quietly in the openai package: a partial answer is no answer.
    if (deadline.aborted || signal?.aborted) throw failure();
    return generation;
  }

  private async stream(prompt: BuiltPrompt, model: string, signal: AbortSignal): Promise<Generation> {
    const request = { signal, timeout: this.options.timeoutMs };
    if (prompt.kind === 'completion') {
      const serverStops = prompt.stop.slice(0, SERVER_STOPS);
      const stream = await this.openai.completions.create(
        { model, prompt: prompt.prompt, max_tokens: prompt.maxTokens, temperature: 0.2, stream: true, ...(serverStops.length > 0 ? { stop: serverStops } : {}) },
        request,
      );
      return { text: await collect(stream, (chunk) => chunk.choices[0]?.text ?? '', prompt.stop, () => stream.controller.abort()), via: 'completions' };
    }
    // No server-side stops for chat: a reply may open with a markdown fence line that a `\n` stop would end on.
    const stream = await this.openai.chat.completions.create({ model, messages: prompt.messages, max_tokens: prompt.maxTokens, temperature: 0.2, stream: true }, request);
    return { text: await collect(stream, (chunk) => chunk.choices[0]?.delta?.content ?? '', prompt.stop, () => stream.controller.abort()), via: 'chat' };
  }
}

async function collect<T>(stream: AsyncIterable<T>, textOf: (chunk: T) => string, stops: readonly string[], stop: () => void): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += textOf(chunk);
    const cut = cutAtStop(stripOpeningFence(text), stops);
    if (cut.stopped) {
      stop();
      return cut.text;
    }
  }
  return stripOpeningFence(text);
}

/** A chat model's reply may open with a markdown fence line (```python); the code starts after it. */
function stripOpeningFence(text: string): string {
  return text.replace(/^\s*```[\w-]*\n/, '');
}

/** The server has no such endpoint (a chat-only server asked for raw completions). */
export function isMissingEndpoint(err: unknown): boolean {
  return err instanceof OpenAI.APIError && (err.status === 404 || err.status === 405 || err.status === 501);
}

/** The HTTP status of a failed request (401, 404, 500…); undefined when no answer came (connection, timeout). */
export function httpStatusOf(err: unknown): number | undefined {
  return err instanceof OpenAI.APIError && typeof err.status === 'number' ? err.status : undefined;
}

export function isAbort(err: unknown): boolean {
  return err instanceof OpenAI.APIUserAbortError || (err instanceof Error && err.name === 'AbortError');
}
