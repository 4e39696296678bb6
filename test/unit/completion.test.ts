// Graph-fused completion against an OpenAI-compatible test server on 127.0.0.1: what the prompt
// carries for cursors that need cross-file definitions (the RANGER fixture and real Flask code),
// cancellation closing the HTTP request, endpoint-down behaviour and the chat fallback.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContextAssembler, DEFAULT_ASSEMBLE_OPTIONS } from '../../src/core/completion/assemble';
import { CompletionService, type EndpointSettings } from '../../src/core/completion/service';
import { describeRecord } from '../../src/core/completion/transparency';
import type { CursorQuery } from '../../src/core/completion/queryGraph';
import { Backoff } from '../../src/core/llm/backoff';
import { Engine } from '../../src/core/engine';
import { FIXTURES, buildGraph, readTree } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenAiTestServer } = require('../support/openaiTestServer.js');

const RANGER = path.join(FIXTURES, 'ranger-py');
const FLASK = path.join(FIXTURES, 'real', 'flask');

let server: InstanceType<typeof OpenAiTestServer>;
let endpoint: string;
const settings = (over: Partial<EndpointSettings> = {}): EndpointSettings => ({ endpoint, model: 'qwen2.5-coder-1.5b', timeoutMs: 5000, promptFormat: 'auto', ...over });

before(async () => {
  server = new OpenAiTestServer();
  endpoint = await server.listen();
});
after(() => server.close());

/** The buffer cut at the start of the first line containing `marker` (after its indentation). */
function cutBefore(file: string, marker: string, rel: string): CursorQuery {
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `${marker} is in ${rel}`);
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  return { path: rel, language: 'python', prefix: text.slice(0, lineStart + indent.length), suffix: text.slice(lineStart + indent.length) };
}

describe('completion: the prompt carries the cross-file definition and the triple linking it', () => {
  it('RANGER fixture: a new function using Calculator gets its methods and the CALLS triple, in Qwen FIM form', async () => {
    const assembler = new ContextAssembler(await buildGraph(readTree(RANGER), 'ranger-py'), RANGER);
    const text = fs.readFileSync(path.join(RANGER, 'extended.py'), 'utf8');
    const query: CursorQuery = { path: 'extended.py', language: 'python', prefix: `${text}\n\ndef triple_sum(a, b, c):\n    calc = Calculator()\n    return calc.`, suffix: '\n' };
    server.script({ text: 'add(calc.add(a, b), c)\n\n\ndef other():' });
    const seen = server.requests.length;
    const result = await new CompletionService().complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS);
    const request = await server.nextRequest(seen);
    assert.equal(request.path, '/v1/completions');
    const prompt: string = request.body.prompt;
    assert.ok(prompt.startsWith('<|fim_prefix|>') && prompt.includes('<|fim_suffix|>') && prompt.endsWith('<|fim_middle|>'), 'Qwen2.5-Coder FIM tokens');
    assert.ok(prompt.includes('def add(self, a, b) -> float'), 'the definition of Calculator.add is in the prompt');
    assert.ok(prompt.includes('# extended.py: triple_sum CALLS base.py: Calculator'), 'the triple linking the new function to Calculator');
    // `class Scientific(Calculator)` is in the buffer itself: a triple restating it would only spend budget.
    assert.ok(!prompt.includes('# extended.py: Scientific INHERITS base.py: Calculator'), 'no triple restating another part of the buffer');
    assert.ok(prompt.indexOf('# Repository context') < prompt.indexOf('def triple_sum'), 'context precedes the code being written');
    // multi-line shape stops at the next top-level definition; the answer is cut there
    assert.equal(result.outcome, 'completed');
    assert.equal(result.text, 'add(calc.add(a, b), c)');
  });

  it('real Flask: before `defaults["DEBUG"] = get_debug_flag()` the prompt holds helpers.get_debug_flag and the triple from the enclosing method', async () => {
    const assembler = new ContextAssembler(await buildGraph(readTree(FLASK), 'flask'), FLASK);
    const query = cutBefore(path.join(FLASK, 'app.py'), 'defaults["DEBUG"] = get_debug_flag()', 'app.py');
    const context = await assembler.assemble(query, DEFAULT_ASSEMBLE_OPTIONS);
    assert.ok(context.tokens <= DEFAULT_ASSEMBLE_OPTIONS.budgetTokens, `within budget (${context.tokens})`);
    assert.ok(context.snippets.some((s) => s.covers.includes('helpers.py#get_debug_flag')), 'get_debug_flag is covered');
    assert.match(context.text, /def get_debug_flag\(\) -> bool/);
    // the enclosing method calls it further down (the suffix is part of the buffer the query graph parses)
    assert.ok(context.triples.includes('app.py: Flask.make_config CALLS helpers.py: get_debug_flag() -> bool'), context.triples.join('\n'));
    assert.ok(context.triples.includes('app.py: Flask INHERITS scaffold.py: Scaffold'), 'the enclosing class inherits a class of another file');
    const scaffold = context.snippets.find((s) => s.title === 'scaffold.py: Scaffold');
    assert.ok(scaffold && scaffold.code.includes('def get(self, rule: str'), 'base-class methods (self.get …) are in the skeleton');
    // a smaller budget keeps fewer tokens, never more
    const small = await assembler.assemble(query, { ...DEFAULT_ASSEMBLE_OPTIONS, budgetTokens: 512 });
    assert.ok(small.tokens <= 512 && small.snippets.length < context.snippets.length);
  });

  it("real Flask: the buffer parsed in the engine's parse worker (the extension's path) gives the same context", async () => {
    const engine = await Engine.open(FLASK, { storeDir: null, responsive: true });
    try {
      await engine.index();
      const query = cutBefore(path.join(FLASK, 'app.py'), 'defaults["DEBUG"] = get_debug_flag()', 'app.py');
      const here = await new ContextAssembler(engine.graph, FLASK).assemble(query, DEFAULT_ASSEMBLE_OPTIONS);
      const inWorker = await new ContextAssembler(engine.graph, FLASK, (p, l, t) => engine.parseBuffer(p, l, t)).assemble(query, DEFAULT_ASSEMBLE_OPTIONS);
      assert.ok(here.triples.length > 0);
      assert.deepEqual(inWorker.triples, here.triples);
      assert.equal(inWorker.text, here.text);
    } finally {
      await engine.close();
    }
  });

  it('the transparency record shows the triples, the prompt and per-stage timings', async () => {
    const assembler = new ContextAssembler(await buildGraph(readTree(RANGER), 'ranger-py'), RANGER);
    const service = new CompletionService();
    server.script({ text: 'Calculator()' });
    await service.complete(assembler, { path: 'extended.py', language: 'python', prefix: 'from base import Calculator\n\ndef make():\n    calc = Calculator()\n    return calc.', suffix: '' }, settings(), DEFAULT_ASSEMBLE_OPTIONS);
    assert.ok(service.last);
    const shown = describeRecord(service.last);
    for (const stage of ['queryGraph', 'structural', 'semantic', 'rank', 'llm', 'total']) assert.match(shown, new RegExp(`- ${stage}: \\d+\\.\\d ms`));
    assert.ok(shown.includes('extended.py: make CALLS base.py: Calculator'), shown);
    assert.ok(!shown.includes('extended.py IMPORTS base.py: Calculator'), 'the import two lines above the cursor is not restated');
    assert.ok(shown.includes(service.last.prompt.kind === 'completion' ? service.last.prompt.prompt : ''));
    assert.match(shown, /outcome: completed/);
    assert.match(shown, /line 5 in make; statement being typed: `return calc.`/);
  });
});

describe('completion: cancellation, failures and fallback', () => {
  let assembler: ContextAssembler;
  before(async () => {
    assembler = new ContextAssembler(await buildGraph(readTree(RANGER), 'ranger-py'), RANGER);
  });
  const query: CursorQuery = { path: 'extended.py', language: 'python', prefix: 'from base import Calculator\n\nx = Calculator().', suffix: '' };

  it('aborting the signal closes the HTTP request (the server sees the socket close) and yields nothing', async () => {
    server.script({ stall: true });
    const seen = server.requests.length;
    const controller = new AbortController();
    const pending = new CompletionService().complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS, controller.signal);
    const request = await server.nextRequest(seen);
    controller.abort();
    await server.whenClosed(request);
    const result = await pending;
    assert.equal(result.outcome, 'cancelled');
    assert.equal(result.text, undefined);
  });

  it('aborting in the middle of a stream yields no partial completion and closes the request', async () => {
    server.script({ text: 'calc.add(1, 2)', chunkSize: 3, stallAfterChunks: 1 });
    const seen = server.requests.length;
    const controller = new AbortController();
    const service = new CompletionService();
    const pending = service.complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS, controller.signal);
    const request = await server.nextRequest(seen);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await server.whenClosed(request);
    const result = await pending;
    assert.equal(result.outcome, 'cancelled');
    assert.equal(result.text, undefined);
    assert.equal(service.backoffMs, 0, 'a cancellation is not a failure');
  });

  it('a slow server times out: no completion, then back-off', async () => {
    server.script({ stall: true });
    const service = new CompletionService();
    const result = await service.complete(assembler, query, settings({ timeoutMs: 300 }), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(result.outcome, 'failed');
    assert.ok(service.backoffMs > 0);
  });

  it('a stream that stalls halfway fails at the timeout like a silent server', async () => {
    server.script({ text: 'calc.add(1, 2)', chunkSize: 2, stallAfterChunks: 2 });
    const service = new CompletionService();
    const started = Date.now();
    const result = await service.complete(assembler, query, settings({ timeoutMs: 400 }), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(result.outcome, 'failed');
    assert.match(result.record!.error!, /no complete answer within 400 ms/);
    assert.ok(Date.now() - started < 3000);
    assert.ok(service.backoffMs > 0);
  });

  it('endpoint down: no completion, no throw, one request per back-off interval, reset by a success', async () => {
    let now = 0;
    const service = new CompletionService(new Backoff(1000, 60000, () => now));
    const down = await new Promise<string>((resolve) => {
      const s = require('node:net').createServer().listen(0, '127.0.0.1', () => {
        const port = s.address().port;
        s.close(() => resolve(`http://127.0.0.1:${port}/v1`));
      });
    });
    const first = await service.complete(assembler, query, settings({ endpoint: down }), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(first.outcome, 'failed');
    assert.equal(first.text, undefined);
    assert.match(first.record!.error!, /connect|Connection/i);
    const second = await service.complete(assembler, query, settings({ endpoint: down }), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(second.outcome, 'backing-off', 'no request while backing off');
    now += 1001;
    assert.equal((await service.complete(assembler, query, settings({ endpoint: down }), DEFAULT_ASSEMBLE_OPTIONS)).outcome, 'failed');
    assert.equal(service.backoffMs, 2000, 'the interval doubles');
    now += 2001;
    server.script({ text: 'add(1, 2)' });
    // the same service against a live server (a new endpoint starts a new client)
    const ok = await service.complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(ok.outcome, 'completed');
    assert.equal(service.backoffMs, 0);
  });

  it('HTTP 500 counts as a failure and backs off', async () => {
    server.script({ status: 500 });
    const service = new CompletionService();
    const result = await service.complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(result.outcome, 'failed');
    assert.ok(service.backoffMs > 0);
  });

  it('a server without /v1/completions gets chat messages instead, and keeps getting them', async () => {
    server.script({ status: 404 }, { text: '```python\nadd(1, 2)\n```' });
    const seen = server.requests.length;
    const service = new CompletionService();
    const result = await service.complete(assembler, query, settings(), DEFAULT_ASSEMBLE_OPTIONS);
    assert.deepEqual(server.requests.slice(seen).map((r: { path: string }) => r.path), ['/v1/completions', '/v1/chat/completions']);
    assert.equal(result.text, 'add(1, 2)', 'markdown fences stripped');
    const chat = server.requests.at(-1).body;
    assert.match(chat.messages[1].content, /<CURSOR>/);
    assert.ok(chat.messages[1].content.includes('# Repository context for extended.py'));
  });

  it('no endpoint configured: no request at all', async () => {
    const seen = server.requests.length;
    const result = await new CompletionService().complete(assembler, query, settings({ endpoint: '' }), DEFAULT_ASSEMBLE_OPTIONS);
    assert.equal(result.outcome, 'empty');
    assert.equal(server.requests.length, seen);
  });

  it('an empty model setting uses the first model the server lists', async () => {
    server.models = ['deepseek-coder-1.3b-base'];
    server.script({ text: 'add(1, 2)' });
    const seen = server.requests.length;
    await new CompletionService().complete(assembler, query, settings({ model: '' }), DEFAULT_ASSEMBLE_OPTIONS);
    const request = await server.nextRequest(seen);
    assert.equal(request.body.model, 'deepseek-coder-1.3b-base');
    assert.ok(request.body.prompt.startsWith('<｜fim▁begin｜>'), 'DeepSeek FIM template chosen from the listed model');
    server.models = ['qwen2.5-coder-1.5b'];
  });
});
