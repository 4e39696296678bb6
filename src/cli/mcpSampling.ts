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

export function samplingDescriber(sample: Sample): Describer {
  return {
    async describe(system, prompt, signal) {
      const result = await sample({ systemPrompt: system, messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 80, includeContext: 'none' }, signal);
      // A model answers with one text block (some clients send a list of blocks).
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      return blocks.map((b: { type?: string; text?: string }) => (b?.type === 'text' ? (b.text ?? '') : '')).join('');
    },
  };
}
