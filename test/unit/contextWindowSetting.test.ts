// `cartograph.completion.contextWindow`: read with its default and range, and what the completion
// request sends then fits it — the whole FIM prompt plus the answer's max_tokens, counted with a real
// BPE tokenizer (o200k_base), for a cursor in the middle of Flask's 2,500-line app.py.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encode } from 'gpt-tokenizer';
import { ContextAssembler, DEFAULT_ASSEMBLE_OPTIONS } from '../../src/core/completion/assemble';
import { CompletionService } from '../../src/core/completion/service';
import { DEFAULT_CONTEXT_WINDOW } from '../../src/core/completion/window';
import { completionSettingsFrom } from '../../src/extension/completion/settingsValues';
import { FIXTURES, buildGraph, readTree } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenAiTestServer } = require('../support/openaiTestServer.js');

const FLASK = path.join(FIXTURES, 'real', 'flask');
const from = (values: Record<string, unknown>) =>
  completionSettingsFrom({
    get: <T>(key: string, fallback: T) => (key in values ? (values[key] as T) : fallback),
    inspect: (key: string) => ({ globalValue: values[key] }),
  });

describe('cartograph.completion.contextWindow', () => {
  let server: InstanceType<typeof OpenAiTestServer>;
  let endpoint: string;
  before(async () => {
    server = new OpenAiTestServer();
    endpoint = await server.listen();
  });
  after(() => server.close());

  it('defaults to the planner\'s default window and is kept in its range', () => {
    assert.equal(from({}).endpoint.contextWindow, DEFAULT_CONTEXT_WINDOW);
    assert.equal(from({ 'completion.contextWindow': 32768 }).endpoint.contextWindow, 32768);
    assert.equal(from({ 'completion.contextWindow': 100 }).endpoint.contextWindow, 1024, 'below 1k only the answer would fit');
    assert.equal(from({ 'completion.contextWindow': 'big' }).endpoint.contextWindow, DEFAULT_CONTEXT_WINDOW, 'not a number: the default');
  });

  it('the request sent for a setting of 4,096 fits 4,096 real tokens with its answer; 16,384 sends more of the file', async () => {
    const assembler = new ContextAssembler(await buildGraph(readTree(FLASK), 'flask'), FLASK);
    const text = fs.readFileSync(path.join(FLASK, 'app.py'), 'utf8');
    const at = text.indexOf('    def wsgi_app(');
    const query = { path: 'app.py', language: 'python' as const, prefix: text.slice(0, at + 4), suffix: text.slice(at + 4) };
    const sent = async (contextWindow: number) => {
      const settings = from({ 'completion.endpoint': endpoint, 'completion.model': 'qwen2.5-coder-1.5b', 'completion.contextWindow': contextWindow }).endpoint;
      server.script({ text: 'def wsgi_app(self, environ, start_response):' });
      const seen = server.requests.length;
      await new CompletionService().complete(assembler, query, settings, DEFAULT_ASSEMBLE_OPTIONS);
      const body = (await server.nextRequest(seen)).body;
      return encode(body.prompt, { disallowedSpecial: new Set() }).length + body.max_tokens;
    };
    const small = await sent(4096);
    const large = await sent(16384);
    assert.ok(small <= 4096, `${small} tokens for a 4,096-token window`);
    assert.ok(large <= 16384 && large > small + 4096, `${large} tokens for 16,384 (${small} for 4,096)`);
  });
});
