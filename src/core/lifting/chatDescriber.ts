// The Describer over the configured OpenAI-compatible endpoint (the same client completion uses).
// Only used when the user configured an endpoint.
import { LlmClient } from '../llm/client';
import type { Describer } from './lifter';

export interface ChatEndpoint {
  baseURL: string;
  /** Empty: the first model the server lists. */
  model: string;
  apiKey?: string;
  /** Per request; a slow local model answering a short prompt should still fit. Default 30 s. */
  timeoutMs?: number;
}

export function chatDescriber(endpoint: ChatEndpoint): Describer {
  const client = new LlmClient({ baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, timeoutMs: endpoint.timeoutMs ?? 30_000 });
  let model: Promise<string> | undefined;
  const modelName = (signal?: AbortSignal) =>
    (model ??= endpoint.model
      ? Promise.resolve(endpoint.model)
      : client.firstModel(signal).then((id) => {
          if (!id) throw new Error(`${endpoint.baseURL} lists no model; set one`);
          return id;
        })).catch((err) => {
      model = undefined;
      throw err;
    });
  return {
    async describe(system, prompt, signal) {
      const messages: Array<{ role: 'system' | 'user'; content: string }> = [
        { role: 'system', content: system },
        { role: 'user', content: prompt },
      ];
      return (await client.generate({ kind: 'chat', messages, stop: ['\n\n'], maxTokens: 80 }, await modelName(signal), signal)).text;
    },
  };
}
