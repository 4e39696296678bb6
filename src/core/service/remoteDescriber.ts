// A describer whose model is at the other end of a channel: the editor's chat model (the repository
// worker asks the extension host) or an agent's own model (the service asks the agent's connection,
// which samples it over MCP).
import type { Describer } from '../lifting/lifter';
import type { Channel } from './channel';

/** Each prompt is a `method` call with [system, prompt], answered with the model's text. */
export function remoteDescriber(channel: Channel, method: string, concurrency?: number): Describer {
  return { describe: (system, prompt, signal) => channel.call<string>(method, [system, prompt], { signal }), concurrency };
}
