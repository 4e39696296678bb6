// Setting up a completion server (src/core/llm/connection.ts) against servers started here on
// 127.0.0.1: each way a connection fails is named for what it is.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { checkConnection, detectLocalServers, listModels } from '../../src/core/llm/connection';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
after(() => servers.forEach((s) => s.closeAllConnections?.() ?? s.close()));

async function serve(handler: Handler): Promise<{ endpoint: string; requests: { url: string; auth?: string; body: string }[] }> {
  const requests: { url: string; auth?: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      handler(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

const json = (res: http.ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};
/** An OpenAI-compatible server with `models`, streaming its answers. */
const openAi = (models: string[]): Handler => (req, body, res) => {
  if (req.url === '/v1/models') return json(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) });
  const { model } = JSON.parse(body) as { model: string };
  if (!models.includes(model)) return json(res, 404, { error: { message: `model '${model}' not found` } });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'OK' }, text: 'OK' }] })}\n\n`);
  res.end('data: [DONE]\n\n');
};

test('lists the models and checks one with a one-token streamed request, as completion will ask', async () => {
  const { endpoint, requests } = await serve(openAi(['qwen2.5-coder:1.5b', 'llama3']));
  const models = await listModels({ endpoint, timeoutMs: 2000 });
  assert.deepEqual(models, { ok: true, value: ['qwen2.5-coder:1.5b', 'llama3'] });
  const fim = await checkConnection({ endpoint, timeoutMs: 2000 }, 'qwen2.5-coder:1.5b', 'completions');
  assert.equal(fim.ok, true);
  const chat = await checkConnection({ endpoint, timeoutMs: 2000 }, 'llama3', 'chat');
  assert.equal(chat.ok, true);
  assert.deepEqual(requests.map((r) => r.url), ['/v1/models', '/v1/completions', '/v1/chat/completions']);
  assert.equal(JSON.parse(requests[1].body).max_tokens, 1);
  assert.equal(JSON.parse(requests[2].body).stream, true);
  assert.ok(requests.every((r) => r.auth === undefined), 'no key set, no Authorization header');
});

test('a refused port, a name that does not resolve and plain http spoken to https are each named', async () => {
  const { endpoint } = await serve(openAi(['m']));
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await listModels({ endpoint: `http://127.0.0.1:${port}/v1`, timeoutMs: 2000 });
  assert.equal(!refused.ok && refused.failure.kind, 'refused');
  assert.match(!refused.ok ? refused.failure.message : '', new RegExp(`nothing listens on 127\\.0\\.0\\.1:${port}`));
  const dns = await listModels({ endpoint: 'http://no-such-host.invalid/v1', timeoutMs: 5000 });
  assert.equal(!dns.ok && dns.failure.kind, 'dns', JSON.stringify(dns));
  const tls = await listModels({ endpoint: endpoint.replace('http:', 'https:'), timeoutMs: 2000 });
  assert.equal(!tls.ok && tls.failure.kind, 'tls', JSON.stringify(tls));
  const url = await listModels({ endpoint: '127.0.0.1:8080/v1', timeoutMs: 2000 });
  assert.equal(!url.ok && url.failure.kind, 'url');
});

test('401 and 403 say whether a key was sent; the key goes as a bearer token', async () => {
  const { endpoint, requests } = await serve((_req, _body, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
  const without = await listModels({ endpoint, timeoutMs: 2000 });
  assert.ok(!without.ok && without.failure.kind === 'unauthorized');
  assert.match(without.failure.message, /^401 .*no API key is set for this server: Incorrect API key provided$/);
  const withKey = await listModels({ endpoint, apiKey: 'sk-test', timeoutMs: 2000 });
  assert.ok(!withKey.ok);
  assert.match(withKey.failure.message, /the API key set for this server was refused/);
  assert.equal(requests[1].auth, 'Bearer sk-test');
  const forbidden = await serve((_req, _body, res) => json(res, 403, { error: 'forbidden' }));
  const refused = await listModels({ endpoint: forbidden.endpoint, apiKey: 'k', timeoutMs: 2000 });
  assert.ok(!refused.ok && refused.failure.kind === 'unauthorized' && refused.failure.status === 403);
});

test('a model the server does not have is a 404 naming it', async () => {
  const { endpoint } = await serve(openAi(['llama3']));
  const check = await checkConnection({ endpoint, timeoutMs: 2000 }, 'qwen2.5-coder:7b', 'completions');
  assert.ok(!check.ok && check.failure.kind === 'model');
  assert.match(check.failure.message, /no model "qwen2\.5-coder:7b".*model 'qwen2\.5-coder:7b' not found/);
});

test('a reply that is one JSON answer instead of a stream is named, not taken for silence', async () => {
  const { endpoint } = await serve((req, _body, res) => {
    if (req.url === '/v1/models') return json(res, 200, { data: [{ id: 'm' }] });
    json(res, 200, { choices: [{ message: { content: 'OK' } }] });
  });
  const check = await checkConnection({ endpoint, timeoutMs: 2000 }, 'm', 'chat');
  assert.ok(!check.ok && check.failure.kind === 'not-streamed');
  assert.match(check.failure.message, /one application\/json reply instead of a stream/);
});

test('a server that never answers times out with the time waited; a page that is not a model list is named', async () => {
  const silent = await serve(() => undefined);
  const started = Date.now();
  const timeout = await listModels({ endpoint: silent.endpoint, timeoutMs: 300 });
  assert.ok(!timeout.ok && timeout.failure.kind === 'timeout');
  assert.match(timeout.failure.message, /within 300 ms/);
  assert.ok(Date.now() - started < 2000);
  const web = await serve((_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>hello</html>');
  });
  const notOpenAi = await listModels({ endpoint: web.endpoint, timeoutMs: 2000 });
  assert.ok(!notOpenAi.ok && notOpenAi.failure.kind === 'not-openai');
  const empty = await serve((_req, _body, res) => json(res, 200, { data: [] }));
  const none = await listModels({ endpoint: empty.endpoint, timeoutMs: 2000 });
  assert.ok(!none.ok && none.failure.kind === 'no-models');
});

test('local servers are found at their default address; hosted presets are not probed', async () => {
  const { endpoint } = await serve(openAi(['m']));
  const presets = [
    { id: 'here', label: 'Here', url: endpoint },
    { id: 'gone', label: 'Gone', url: 'http://127.0.0.1:9/v1' },
    { id: 'cloud', label: 'Cloud', url: 'http://no-such-host.invalid/v1', hosted: true },
  ];
  assert.deepEqual((await detectLocalServers(presets, 1000)).map((p) => p.id), ['here']);
});
