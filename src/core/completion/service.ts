// One inline completion end to end, editor-independent: fused context → prompt → LLM → post-processing,
// with the record of exactly what was sent and how long each stage took (the transparency command
// shows it). Failures never throw: an endpoint that is down yields no completion and backs off.
import { Backoff } from '../llm/backoff';
import { LlmClient, httpStatusOf, isAbort, isMissingEndpoint } from '../llm/client';
import type { AssembleOptions, ContextAssembler, FusedContext } from './assemble';
import { cutAtStop, stripFences, trimSuffixOverlap } from './postprocess';
import { answerTokens, buildPrompt, completionShape, detectFamily, type BuiltPrompt, type CompletionShape, type PromptFamily } from './prompt';
import type { CursorQuery } from './queryGraph';
import { DEFAULT_CONTEXT_WINDOW } from './window';

export interface EndpointSettings {
  /** Base URL of an OpenAI-compatible API (`http://127.0.0.1:8080/v1`). */
  endpoint: string;
  /** Empty: the first model the server lists. */
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /** 'auto' picks the FIM template from the model name. */
  promptFormat: PromptFamily | 'auto';
  /** The model's context window in tokens (default DEFAULT_CONTEXT_WINDOW): the whole prompt and the answer fit in it. */
  contextWindow?: number;
}

export type Outcome = 'completed' | 'empty' | 'cancelled' | 'failed' | 'backing-off';

export interface CompletionRecord {
  at: string;
  path: string;
  endpoint: string;
  model: string;
  family: PromptFamily;
  shape: CompletionShape;
  context: FusedContext;
  prompt: BuiltPrompt;
  via?: 'completions' | 'chat';
  raw?: string;
  completion?: string;
  outcome: Outcome;
  error?: string;
  /** The HTTP status of a failed request (401: the key is missing or wrong); undefined when none came. */
  httpStatus?: number;
  timingsMs: Record<string, number>;
}

export interface CompletionResult {
  text: string | undefined;
  outcome: Outcome;
  record?: CompletionRecord;
}

export class CompletionService {
  private readonly backoff: Backoff;
  private client: LlmClient | undefined;
  private clientKey = '';
  private listedModel: string | undefined;
  /** Endpoints without `/v1/completions` get chat from then on. */
  private chatOnly = new Set<string>();
  last: CompletionRecord | undefined;

  constructor(backoff = new Backoff()) {
    this.backoff = backoff;
  }

  /** Milliseconds until requests resume after failures (0: ready). */
  get backoffMs(): number {
    return this.backoff.waitMs;
  }

  async complete(assembler: Pick<ContextAssembler, 'assemble'>, query: CursorQuery, settings: EndpointSettings, options: AssembleOptions, signal?: AbortSignal): Promise<CompletionResult> {
    if (!settings.endpoint) return { text: undefined, outcome: 'empty' };
    if (!this.backoff.ready) return { text: undefined, outcome: 'backing-off' };
    const started = performance.now();
    const shape = completionShape(query.prefix, query.suffix);
    const window = { contextWindow: settings.contextWindow ?? DEFAULT_CONTEXT_WINDOW, answerTokens: answerTokens(shape) };
    const context = await assembler.assemble(query, { ...options, window });
    const timingsMs: Record<string, number> = { ...context.timingsMs, assemble: performance.now() - started };
    if (signal?.aborted) return { text: undefined, outcome: 'cancelled' };

    const client = this.clientFor(settings);
    let model = settings.model;
    let t = performance.now();
    const record: CompletionRecord = {
      at: new Date().toISOString(),
      path: query.path,
      endpoint: settings.endpoint,
      model,
      family: 'chat',
      shape,
      context,
      prompt: { kind: 'completion', prompt: '', stop: [], maxTokens: 0 },
      outcome: 'failed',
      timingsMs,
    };
    try {
      if (!model) {
        this.listedModel ??= await client.firstModel(signal);
        model = this.listedModel ?? '';
        if (!model) throw new Error(`${settings.endpoint} lists no models; set cartograph.completion.model`);
        timingsMs.listModels = performance.now() - t;
      }
      record.model = model;
      // Never the whole buffer instead: that is the prompt a small window cuts from the front.
      const code = context.prompt;
      if (!code) throw new Error('the context assembler did not fit the buffer to the model window');
      const detected = settings.promptFormat === 'auto' ? detectFamily(model) : settings.promptFormat;
      record.family = this.chatOnly.has(settings.endpoint) ? 'chat' : detected;
      const promptFor = (family: PromptFamily) => buildPrompt({ family, language: query.language, prefix: context.text + code.prefix, suffix: code.suffix, shape });
      record.prompt = promptFor(record.family);
      t = performance.now();
      let generation;
      try {
        generation = await client.generate(record.prompt, model, signal);
      } catch (err) {
        if (record.prompt.kind !== 'completion' || !isMissingEndpoint(err)) throw err;
        this.chatOnly.add(settings.endpoint);
        record.family = 'chat';
        record.prompt = promptFor('chat');
        generation = await client.generate(record.prompt, model, signal);
      }
      timingsMs.llm = performance.now() - t;
      this.backoff.succeeded();
      record.via = generation.via;
      record.raw = generation.text;
      const text = trimSuffixOverlap(cutAtStop(stripFences(generation.text), record.prompt.stop).text, query.suffix);
      record.completion = text;
      record.outcome = text ? 'completed' : 'empty';
    } catch (err) {
      if (isAbort(err) || signal?.aborted) {
        record.outcome = 'cancelled';
      } else {
        record.outcome = 'failed';
        record.error = err instanceof Error ? err.message : String(err);
        record.httpStatus = httpStatusOf(err);
        this.backoff.failed();
      }
    }
    timingsMs.total = performance.now() - started;
    this.last = record;
    return { text: record.outcome === 'completed' ? record.completion : undefined, outcome: record.outcome, record };
  }

  /** Settings changed: failures of the old ones say nothing about the new (no back-off carried over). */
  settingsChanged(): void {
    this.backoff.succeeded();
    this.listedModel = undefined;
  }

  private clientFor(settings: EndpointSettings): LlmClient {
    const key = `${settings.endpoint}\u0000${settings.apiKey ?? ''}\u0000${settings.timeoutMs}`;
    if (!this.client || key !== this.clientKey) {
      this.client = new LlmClient({ baseURL: settings.endpoint, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs });
      this.clientKey = key;
      this.listedModel = undefined;
      this.backoff.succeeded();
    }
    return this.client;
  }
}
