// The Describer over an OpenAI-compatible chat endpoint (OpenAI, Ollama, llama.cpp server, vLLM,
// LM Studio) through the `openai` package. Only used when the user configured an endpoint.
import OpenAI from 'openai';
import type { Describer } from './lifter';

export interface ChatEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Per request; a slow local model answering a short prompt should still fit. Default 30 s. */
  timeoutMs?: number;
}

export function chatDescriber(endpoint: ChatEndpoint): Describer {
  // Local servers accept any key; the client insists on one.
  const client = new OpenAI({ baseURL: endpoint.baseURL, apiKey: endpoint.apiKey || 'not-needed', timeout: endpoint.timeoutMs ?? 30_000, maxRetries: 0 });
  return {
    async describe(system, prompt, signal) {
      const response = await client.chat.completions.create(
        {
          model: endpoint.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: prompt },
          ],
          max_tokens: 80,
          temperature: 0,
        },
        { signal },
      );
      return response.choices[0]?.message?.content ?? '';
    },
  };
}
