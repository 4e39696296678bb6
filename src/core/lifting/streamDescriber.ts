// The Describer over a chat model the user's client holds rather than an endpoint Cartograph calls:
// VS Code's language models (Copilot and others, through vscode.lm). The model streams its answer in
// pieces; the tokens each request sent and received are counted, so the user sees what the
// descriptions cost.
import type { Describer } from './lifter';

export interface StreamingChatModel {
  /** How the user knows the model ("GPT-4o"). */
  readonly name: string;
  /** Sends the instructions and the prompt; resolves to the answer's text as it streams. */
  send(system: string, prompt: string, signal?: AbortSignal): Promise<AsyncIterable<string>>;
  countTokens(text: string): Promise<number>;
}

/** What the requests so far cost, in the model's own tokens. */
export interface TokenUsage {
  requests: number;
  input: number;
  output: number;
}

export function newTokenUsage(): TokenUsage {
  return { requests: 0, input: 0, output: 0 };
}

/** Each description is one request; its cost is added to `usage` once the answer is in (or cut off). */
export function streamDescriber(model: StreamingChatModel, usage: TokenUsage): Describer {
  return {
    async describe(system, prompt, signal) {
      usage.requests++;
      usage.input += await model.countTokens(`${system}\n\n${prompt}`);
      let text = '';
      try {
        for await (const piece of await model.send(system, prompt, signal)) {
          text += piece;
          // One sentence is asked for: a model that goes on past a blank line is not read further.
          if (text.includes('\n\n') || signal?.aborted) break;
        }
      } finally {
        usage.output += text ? await model.countTokens(text) : 0;
      }
      return text.split('\n\n')[0];
    },
  };
}
