// The Describer over MCP sampling: the agent's client answers with its own model. One request per
// description, with the lifting prompt as the system prompt and no context from the client's session.
import type { Describer } from '../core/lifting/lifter';

/** What a sampling request carries and returns, as far as describing needs it (MCP `sampling/createMessage`). */
export interface SamplingParams {
  systemPrompt: string;
  messages: Array<{ role: 'user'; content: { type: 'text'; text: string } }>;
  maxTokens: number;
  includeContext: 'none';
}

export type Sample = (params: SamplingParams, signal?: AbortSignal) => Promise<{ content: unknown }>;

export function samplingParams(system: string, prompt: string): SamplingParams {
  return { systemPrompt: system, messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 80, includeContext: 'none' };
}

/** The text of a sampling result: a model answers with one text block (some clients send a list of blocks). */
export function sampledText(result: { content: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((b: { type?: string; text?: string }) => (b?.type === 'text' ? (b.text ?? '') : '')).join('');
}

/** The 2025-era protocol's sampling: the server asks the client, one request at a time. */
export function samplingDescriber(sample: Sample): Describer {
  return {
    async describe(system, prompt, signal) {
      return sampledText(await sample(samplingParams(system, prompt), signal));
    },
  };
}
