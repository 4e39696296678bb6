// Setting up a completion server: the usual ones and where they listen, which of those answer on this
// machine, the models a server lists, and a test that makes one tiny request and says exactly what
// failed (the name did not resolve, nothing listens, TLS, the key, the model, a reply that was not
// streamed, no answer in time). Plain `fetch`, not the `openai` client: its "Connection error" hides
// which of these it was.
import { endpointProblem } from './endpoint';

export interface Preset {
  id: string;
  label: string;
  /** The server's OpenAI-compatible base URL as it is installed by default. */
  url: string;
  /** A hosted service: runs elsewhere and needs an API key. */
  hosted?: boolean;
}

export const PRESETS: readonly Preset[] = [
  { id: 'ollama', label: 'Ollama', url: 'http://127.0.0.1:11434/v1' },
  { id: 'llamacpp', label: 'llama.cpp server', url: 'http://127.0.0.1:8080/v1' },
  { id: 'lmstudio', label: 'LM Studio', url: 'http://127.0.0.1:1234/v1' },
  { id: 'vllm', label: 'vLLM', url: 'http://127.0.0.1:8000/v1' },
  { id: 'openai', label: 'OpenAI', url: 'https://api.openai.com/v1', hosted: true },
];

/** Why a request did not get an answer it could use; `status` for an HTTP refusal. */
export type Failure =
  | { kind: 'url' | 'dns' | 'refused' | 'tls' | 'timeout' | 'network' | 'not-openai' | 'not-streamed' | 'no-models'; message: string }
  | { kind: 'unauthorized' | 'model' | 'http'; status: number; message: string };

export interface Target {
  /** The base URL, e.g. http://127.0.0.1:11434/v1. */
  endpoint: string;
  apiKey?: string;
  timeoutMs: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** The ids of the models the server lists (GET /models), in its order. */
export async function listModels(target: Target): Promise<Outcome<string[]>> {
  const answer = await request(target, 'models', { method: 'GET' });
  if (!answer.ok) return answer;
  const { response } = answer.value;
  const body = await response.text();
  let ids: unknown;
  try {
    ids = (JSON.parse(body) as { data?: { id?: unknown }[] }).data?.map((m) => m.id);
  } catch {
    ids = undefined;
  }
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    return fail('not-openai', `${url(target, 'models')} answered, but not with an OpenAI-compatible model list: is this the server's /v1 address?`);
  }
  if (ids.length === 0) return fail('no-models', `${target.endpoint} lists no models: load or pull one on the server first`);
  return { ok: true, value: ids as string[] };
}

/** Which of `presets` on this machine answer at their default address (a short wait each, all at once). */
export async function detectLocalServers(presets: readonly Preset[] = PRESETS, timeoutMs = 800): Promise<Preset[]> {
  const answers = await Promise.all(presets.filter((p) => !p.hosted).map(async (p) => ((await listModels({ endpoint: p.url, timeoutMs })).ok ? p : undefined)));
  return answers.filter((p): p is Preset => p !== undefined);
}

export interface ConnectionCheck {
  /** The model asked, and how: `chat` or `completions` (fill-in-the-middle prompts). */
  model: string;
  via: 'chat' | 'completions';
  /** From sending the request to the first streamed piece of the answer. */
  firstChunkMs: number;
}

/**
 * One tiny streamed request (one token) to `model` as completion will send it. Every way it can fail
 * has its own Failure: a server that sends the whole answer as one JSON reply is one (completion
 * reads a stream, and such a server looks silent to it).
 */
export async function checkConnection(target: Target, model: string, via: 'chat' | 'completions'): Promise<Outcome<ConnectionCheck>> {
  const body = via === 'chat'
    ? { model, messages: [{ role: 'user', content: 'Say OK.' }], max_tokens: 1, stream: true }
    : { model, prompt: 'def ', max_tokens: 1, stream: true };
  const started = Date.now();
  const answer = await request(target, via === 'chat' ? 'chat/completions' : 'completions', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }, model);
  if (!answer.ok) return answer;
  const { response } = answer.value;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    await response.body?.cancel().catch(() => undefined);
    return fail('not-streamed', `${url(target, via === 'chat' ? 'chat/completions' : 'completions')} answered with one ${type.split(';')[0] || 'untyped'} reply instead of a stream: the server (or a proxy before it) ignores "stream": true, and completion reads streamed answers only`);
  }
  const reader = response.body?.getReader();
  const first = await reader?.read().catch(() => undefined);
  await reader?.cancel().catch(() => undefined);
  if (!first || first.done) return fail('not-streamed', 'the stream ended before any answer arrived');
  return { ok: true, value: { model, via, firstChunkMs: Date.now() - started } };
}

interface Answered {
  response: Response;
}

/** One request; any answer but a 2xx is a Failure that says which. */
async function request(target: Target, path: string, init: RequestInit, model?: string): Promise<Outcome<Answered>> {
  const problem = endpointProblem(target.endpoint);
  if (problem || !target.endpoint.trim()) return fail('url', problem ?? 'no server address is set');
  const address = url(target, path);
  const signal = AbortSignal.timeout(target.timeoutMs);
  let response: Response;
  try {
    response = await fetch(address, { ...init, signal, headers: { ...(init.headers as Record<string, string>), ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}) } });
  } catch (error) {
    return { ok: false, failure: networkFailure(error, address, target) };
  }
  if (response.ok) return { ok: true, value: { response } };
  const detail = (await response.text().catch(() => '')).slice(0, 300).trim();
  const said = detail ? `: ${serverMessage(detail)}` : '';
  if (response.status === 401 || response.status === 403) {
    const key = target.apiKey ? 'the API key set for this server was refused' : 'no API key is set for this server';
    return { ok: false, failure: { kind: 'unauthorized', status: response.status, message: `${response.status} ${response.statusText} from ${address}: ${key}${said}` } };
  }
  if (response.status === 404 && model !== undefined) {
    return { ok: false, failure: { kind: 'model', status: 404, message: `404 from ${address}: the server has no model "${model}" (or no such route)${said}` } };
  }
  if (response.status === 404) return { ok: false, failure: { kind: 'http', status: 404, message: `404 from ${address}: nothing there; OpenAI-compatible addresses usually end in /v1${said}` } };
  return { ok: false, failure: { kind: 'http', status: response.status, message: `${response.status} ${response.statusText} from ${address}${said}` } };
}

function url(target: Target, path: string): string {
  return `${target.endpoint.trim().replace(/\/+$/, '')}/${path}`;
}

/** An error body's own message when it is OpenAI-shaped JSON ({error: {message}}), else its text. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    if (message) return message;
  } catch {
    // not JSON: the text itself
  }
  return body.replace(/\s+/g, ' ');
}

/** fetch's "fetch failed" carries the reason in its cause (a Node system error code). */
function networkFailure(error: unknown, address: string, target: Target): Failure {
  const { hostname, host } = new URL(address);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return { kind: 'timeout', message: `no answer from ${host} within ${target.timeoutMs} ms (a model being loaded can take longer: try again)` };
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return { kind: 'dns', message: `no host named ${hostname} could be found (DNS ${code})` };
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: `nothing listens on ${host} (connection refused): is the server running, on this port?` };
  if (/CERT|SSL|TLS|EPROTO|ERR_SSL/i.test(code) || /SSL|TLS|certificate/i.test(cause?.message ?? '')) {
    return { kind: 'tls', message: `TLS failed with ${host}: ${cause?.message ?? code}${/wrong version number|packet length/i.test(cause?.message ?? '') ? ' (the server speaks plain http: write http://)' : ''}` };
  }
  return { kind: 'network', message: `could not reach ${host}: ${cause?.message ?? (error instanceof Error ? error.message : String(error))}${code ? ` (${code})` : ''}` };
}

function fail<T>(kind: 'url' | 'not-openai' | 'not-streamed' | 'no-models', message: string): Outcome<T> {
  return { ok: false, failure: { kind, message } };
}
