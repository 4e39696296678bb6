// The pure pieces behind issue 14's editor fixes: endpoint validation, the client's headers, what a
// failed request means for the user, the status bar's progress figure, the completion cache key, the
// model-download decision, the transparency document's text and Show Symbol Graph's row order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LlmClient } from '../../src/core/llm/client';
import { endpointProblem } from '../../src/core/llm/endpoint';
import { loadEndpointEmbedder } from '../../src/core/models/openaiEmbedder';
import { CompletionService, type CompletionRecord } from '../../src/core/completion/service';
import { cacheKey } from '../../src/extension/completion/cacheKey';
import { transparencyText } from '../../src/extension/completion/transparencyView';
import { downloadDecision, downloadSetting } from '../../src/extension/modelConsent';
import { completionProblem, indexPercent, offLine } from '../../src/extension/statusText';
import { symbolRows } from '../../src/extension/symbolRows';
import type { IndexState } from '../../src/extension/workspaceIndex';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenAiTestServer } = require('../support/openaiTestServer.js');

test('an endpoint needs an http(s) scheme and a host; empty means none', () => {
  assert.equal(endpointProblem(''), undefined);
  assert.equal(endpointProblem('http://127.0.0.1:8080/v1'), undefined);
  assert.equal(endpointProblem('https://api.openai.com/v1'), undefined);
  assert.match(endpointProblem('127.0.0.1:8080/v1') ?? '', /no scheme: write it as http:\/\/127\.0\.0\.1:8080\/v1/);
  assert.match(endpointProblem('localhost:11434') ?? '', /no scheme/);
  assert.match(endpointProblem('ftp://host/v1') ?? '', /only http:\/\/ and https:\/\//);
  assert.match(endpointProblem('http://') ?? '', /not a valid URL|names no host/);
});

test('the settings schema pattern agrees with the check at use', async () => {
  const pkg = require('../../package.json');
  const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
  const props = Object.assign({}, ...sections.map((s: { properties: object }) => s.properties));
  for (const key of ['cartograph.completion.endpoint', 'cartograph.embedding.endpoint']) {
    const pattern = new RegExp(props[key].pattern);
    assert.ok(props[key].patternErrorMessage, `${key} explains a rejected value`);
    for (const good of ['', 'http://127.0.0.1:8080/v1', 'https://api.openai.com/v1']) assert.ok(pattern.test(good), `${key} accepts ${good}`);
    for (const bad of ['127.0.0.1:8080/v1', 'localhost:11434', 'ftp://x/v1']) assert.ok(!pattern.test(bad), `${key} rejects ${bad}`);
  }
});

test('no Authorization header without a key; a bearer token with one', async () => {
  const server = new OpenAiTestServer();
  const url = await server.listen();
  try {
    const prompt = { kind: 'completion' as const, prompt: 'def f(', stop: [], maxTokens: 4 };
    await new LlmClient({ baseURL: url, timeoutMs: 5000 }).generate(prompt, 'm');
    assert.equal(server.requests[0].headers.authorization, undefined);
    await new LlmClient({ baseURL: url, apiKey: 'sk-test', timeoutMs: 5000 }).generate(prompt, 'm');
    assert.equal(server.requests[1].headers.authorization, 'Bearer sk-test');
  } finally {
    await server.close();
  }
});

test('a 401 is recorded with its status and reads as unauthorized, not as a connection error', async () => {
  const server = new OpenAiTestServer();
  const url = await server.listen();
  try {
    server.script({ text: '', status: 401 });
    const assembler = { assemble: async () => ({ text: '', tokens: 0, budgetTokens: 0, snippets: [], triples: [], cursor: { line: 0, enclosing: [], partialStatement: '' }, prompt: { prefix: 'x = ', suffix: '' }, timingsMs: {} }) };
    const service = new CompletionService();
    const result = await service.complete(assembler as never, { path: 'a.py', language: 'python', prefix: 'x = ', suffix: '' }, { endpoint: url, model: 'm', timeoutMs: 5000, promptFormat: 'auto' }, { budgetTokens: 0 } as never);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.record?.httpStatus, 401);
    const problem = completionProblem(url, result.record?.httpStatus, result.record?.error);
    assert.equal(problem.kind, 'unauthorized');
    assert.ok(service.backoffMs > 0, 'the failure backs off');
    service.settingsChanged();
    assert.equal(service.backoffMs, 0, 'new settings start without the old back-off');
  } finally {
    await server.close();
  }
  assert.equal(completionProblem('http://x/v1', undefined, 'Connection error.').kind, 'failing');
  assert.match((completionProblem('http://x/v1', 404, 'nope') as { message: string }).message, /404 not found/);
});

test('a refusal of a request sent without a key names the origin that needs one; with a key, the key is suspect', () => {
  const message = (status: number, keyless?: string) => (completionProblem('http://127.0.0.1:8080/v1', status, undefined, keyless) as { kind: string; message: string });
  for (const status of [401, 403]) {
    const keyless = message(status, 'http://127.0.0.1:8080');
    assert.equal(keyless.kind, 'unauthorized', 'still offers Set API Key');
    assert.match(keyless.message, /no API key is set for http:\/\/127\.0\.0\.1:8080$/);
    assert.doesNotMatch(message(status).message, /no API key is set/);
  }
  assert.match(message(401).message, /the API key is missing or wrong/);
  assert.match(message(403).message, /the API key may not use this model/);
});

test('the status bar progress only grows across the indexer phases', () => {
  const seen: number[] = [];
  const phases: IndexState[] = [
    { kind: 'opening' },
    { kind: 'indexing', phase: 'scan', done: 0, total: 0 },
    { kind: 'indexing', phase: 'read', done: 194, total: 332 },
    { kind: 'indexing', phase: 'read', done: 332, total: 332 },
    { kind: 'indexing', phase: 'parse', done: 0, total: 80 },
    { kind: 'indexing', phase: 'parse', done: 80, total: 80 },
    { kind: 'indexing', phase: 'resolve', done: 0, total: 1 },
    { kind: 'indexing', phase: 'store', done: 0, total: 1 },
    { kind: 'indexing', phase: 'store', done: 1, total: 1 },
  ];
  for (const s of phases) seen.push(indexPercent([s])!);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `never goes back: ${seen.join(' → ')}`);
  assert.equal(seen.at(-1), 100);
  assert.equal(indexPercent([{ kind: 'ready', nodes: 1, edges: 1, files: 1 }]), undefined, 'nothing shown when every folder is ready');
  assert.equal(indexPercent([{ kind: 'indexing', phase: 'store', done: 1, total: 1 }, { kind: 'opening' }]), 50, 'folders averaged');
});

test('the completion cache key differs by endpoint, model and prompt format, not only by text', () => {
  const base = { endpoint: { endpoint: 'http://a/v1', model: 'm1', timeoutMs: 1000, promptFormat: 'auto' as 'auto' | 'chat', contextWindow: undefined as number | undefined }, assemble: { budgetTokens: 2048, mmrLambda: 0.7 } };
  const key = (over: Partial<typeof base.endpoint>) => cacheKey('file:///a.py', { ...base, endpoint: { ...base.endpoint, ...over } }, 'x = ', '');
  assert.equal(key({}), key({}));
  assert.notEqual(key({}), key({ model: 'm2' }));
  assert.notEqual(key({}), key({ endpoint: 'http://b/v1' }));
  assert.notEqual(key({}), key({ promptFormat: 'chat' }));
  assert.notEqual(key({ contextWindow: 8192 }), key({ contextWindow: 4096 }), 'another window cuts the prompt elsewhere');
});

test('model downloads: the setting wins, then the remembered answer, else ask', () => {
  assert.equal(downloadSetting(undefined), 'ask');
  assert.equal(downloadSetting('nonsense'), 'ask');
  assert.deepEqual(downloadDecision('always', 'never'), { kind: 'download' });
  assert.equal(downloadDecision('never', 'always').kind, 'skip');
  assert.deepEqual(downloadDecision('ask', undefined), { kind: 'ask' });
  assert.deepEqual(downloadDecision('ask', 'always'), { kind: 'download' });
  assert.match((downloadDecision('ask', 'never') as { why: string }).why, /chose not to download/);
  assert.match((downloadDecision('ask', 'not-now') as { why: string }).why, /Not now/);
});

test('the transparency text shows the accepted record and lists newer requests', () => {
  const record = (at: string, outcome: CompletionRecord['outcome'], error?: string): CompletionRecord => ({
    at, path: 'a.py', endpoint: 'http://a/v1', model: 'm', family: 'qwen', shape: 'line' as never, outcome, error, timingsMs: {},
    prompt: { kind: 'completion', prompt: `prompt of ${at}`, stop: [], maxTokens: 8 },
    context: { text: '', tokens: 0, budgetTokens: 0, snippets: [], triples: [], cursor: { line: 0, enclosing: [], partialStatement: '' }, timingsMs: {} } as never,
  });
  const accepted = record('t1', 'completed');
  const newer = record('t2', 'failed', '401 unauthorized');
  const text = transparencyText(accepted, true, [newer, accepted]);
  assert.match(text, /completion you last accepted/);
  assert.ok(text.includes('prompt of t1') && !text.includes('prompt of t2'), 'the accepted prompt, not the newer one');
  assert.match(text, /t2 a\.py: failed \(401 unauthorized\)/);
});

test('Show Symbol Graph folds typing uses into one last row and ranks external uses after the repository', () => {
  const edge = (kind: string, qname: string, location: string) => ({ kind, id: qname, qname, location });
  const rows = symbolRows([
    edge('USES', 'typing.Optional', '(external)'),
    edge('CALLS', 'base.Calculator.multiply', 'base.py:12'),
    edge('USES', 'typing.Any', '(external)'),
    edge('USES', 'json.loads', '(external)'),
    edge('USES', 'base.Number', 'base.py:3'),
  ]);
  const labels = rows.map((r) => ('edge' in r ? `${r.edge.kind} ${r.edge.qname}` : r.label));
  assert.deepEqual(labels, ['CALLS base.Calculator.multiply', 'USES base.Number', 'USES json.loads', 'USES Optional, Any (type annotations from typing)']);
});

test('the embedding endpoint gets no Authorization header without a key either', async () => {
  const server = new OpenAiTestServer();
  const url = await server.listen();
  try {
    // The test server answers in completion shape, so the load fails after the request was recorded.
    await loadEndpointEmbedder({ baseURL: url, model: 'embed', maxRetries: 0, timeoutMs: 5000 }).catch(() => undefined);
    assert.equal(server.requests[0]?.path, '/v1/embeddings');
    assert.equal(server.requests[0].headers.authorization, undefined);
  } finally {
    await server.close();
  }
});

test("the hover says why completion is off, one reason, never 'no endpoint set, or switched off'", () => {
  assert.match(offLine('switched off'), /^Completion: switched off \(Turn Completions On/);
  assert.match(offLine('no endpoint'), /^Completion: no server set \(Open Settings: Cartograph › Completion: Endpoint\)/);
  for (const why of ['switched off', 'no endpoint', undefined] as const) assert.doesNotMatch(offLine(why), / or /);
});
