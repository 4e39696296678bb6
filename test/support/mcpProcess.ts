// A `cartograph mcp` server in a child process, spoken to in raw JSON-RPC over stdio, whose close
// waits for the server to finish its own shutdown (save its snapshot, write its store) however long
// that takes on a loaded machine. The SDK's client kills a server that takes over 4 s to exit, which
// turned a slow shutdown into a lost snapshot and a failed test. It speaks the 2025-era protocol
// (initialize, then requests; the server asks for samples) or 2026-07-28 (every request carries the
// client's envelope; the server asks for samples in `input_required` results, answered by a retry).
import { spawn } from 'node:child_process';
import { CLI } from './storeHarness';

export interface ToolAnswer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
  /** 2026-07-28: the `input_required` rounds before the answer, with the sampling requests of each. */
  rounds: number[];
}

export interface McpProcess {
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** Ends stdin (the client going away) and resolves with the exit code once the server has exited. */
  close(): Promise<number | null>;
  stderr(): string;
}

/** A client's model for MCP sampling: the request's params in, the answer's text out. */
export type Sampler = (params: { systemPrompt?: string; messages: Array<{ content: { text?: string } }> }) => string;

/** `sample`: the client declares sampling and answers the server's `sampling/createMessage` requests with it. */
export function startMcp(root: string, extraArgs: string[] = [], sample?: Sampler, era: '2025-06-18' | '2026-07-28' = '2025-06-18'): McpProcess {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root, ...extraArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let buffered = '';
  let nextId = 1;
  const waiting = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const message = JSON.parse(line) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
      if (message.method === 'sampling/createMessage' && message.id !== undefined) {
        const reply = sample
          ? { result: { role: 'assistant', content: { type: 'text', text: sample(message.params as Parameters<Sampler>[0]) }, model: 'scripted' } }
          : { error: { code: -32601, message: 'sampling is not supported' } };
        send({ jsonrpc: '2.0', id: message.id, ...reply });
      } else if (message.id !== undefined) waiting.get(message.id)?.(message);
    }
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const request = (method: string, params: object) =>
    new Promise<{ result?: unknown; error?: { message: string } }>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, resolve);
      exited.then((code) => reject(new Error(`the server exited (${code}) before answering ${method}: ${err}`)));
      send({ jsonrpc: '2.0', id, method, params });
    });
  const capabilities = sample ? { sampling: {} } : {};
  const clientInfo = { name: 'cartograph-test', version: '0' };
  const ready =
    era === '2026-07-28'
      ? Promise.resolve()
      : request('initialize', { protocolVersion: era, capabilities, clientInfo }).then(() => send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const envelope = era === '2026-07-28' ? { _meta: { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': clientInfo } } : {};
  type Round = { resultType?: string; inputRequests?: Record<string, { method: string; params: Parameters<Sampler>[0] }>; requestState?: string };
  return {
    async call(name, args) {
      await ready;
      const rounds: number[] = [];
      let retry = {};
      for (;;) {
        const reply = await request('tools/call', { name, arguments: args, ...envelope, ...retry });
        if (reply.error) throw new Error(`${name}: ${reply.error.message}`);
        const round = reply.result as Round;
        if (round.resultType === 'input_required') {
          // as a client's model would: each sampling request answered, then the same call again
          const requests = Object.entries(round.inputRequests ?? {});
          rounds.push(requests.length);
          const inputResponses = Object.fromEntries(requests.map(([key, r]) => [key, { role: 'assistant', content: { type: 'text', text: sample!(r.params) }, model: 'scripted' }]));
          retry = { inputResponses, ...(round.requestState ? { requestState: round.requestState } : {}) };
          continue;
        }
        const result = reply.result as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
        return { isError: Boolean(result.isError), text: result.content.map((c) => c.text).join('\n'), structured: result.structuredContent ?? {}, rounds };
      }
    },
    close() {
      child.stdin.end();
      return exited;
    },
    stderr: () => err,
  };
}
