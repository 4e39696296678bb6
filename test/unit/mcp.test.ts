// `cartograph mcp` as an agent meets it: the MCP SDK's own client spawns the built CLI on a copy of
// Flask, lists the tools, calls each one, edits files on disk and sees the edits, sends bad
// arguments, deletes the store and breaks a file's syntax, and stdout carries only protocol.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { openQuerySnapshot } from '../../src/core/search/querySnapshot';
import { WriterLock } from '../../src/core/store/writerLock';
import { TOOL_NAMES } from '../../src/core/tools/schemas';
import { FIXTURES } from './helpers';
import { startMcp } from '../support/mcpProcess';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
let root: string;
let client: Client;
let stderr = '';

interface Answer {
  isError?: boolean;
  text: string;
  structured: Record<string, unknown>;
}

/** The SDK gives a server only HOME, PATH and the like: ours also gets this suite's settings (no shared service). */
function serverEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> };
  return { isError: r.isError, text: r.content.map((c) => c.text).join('\n'), structured: r.structuredContent ?? {} };
}

/**
 * Re-asks until the answer passes `ok` (file events reach the server asynchronously). The bound only
 * ends a test that would otherwise hang: a loaded machine delays events by seconds, never by 60.
 */
async function eventually(name: string, args: Record<string, unknown>, ok: (a: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await call(name, args);
    if (ok(answer) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-mcp-')), 'flask');
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'flask');
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--root', root], stderr: 'pipe', env: serverEnv() });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'cartograph-test', version: '0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});

test('lists the six graph tools with input and output schemas, read-only, and instructions that say when to use them; describe_code beside them', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES, 'describe_code'].sort());
  // describe_code writes descriptions and asks the client's model: neither read-only nor closed-world
  const describe = tools.find((t) => t.name === 'describe_code')!;
  assert.equal(describe.annotations?.readOnlyHint, false);
  assert.equal(describe.annotations?.openWorldHint, true);
  for (const tool of tools.filter((t) => t.name !== 'describe_code')) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
    assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    assert.ok((tool.description ?? '').length > 80, `${tool.name} has a description an LLM can choose by`);
  }
  assert.deepEqual(Object.keys(tools.find((t) => t.name === 'search_code')!.inputSchema.properties ?? {}).sort(), ['kinds', 'limit', 'maxTokens', 'offset', 'path', 'query']);
  assert.match(client.getInstructions() ?? '', /grep/);
});

test('describe_code tells a client without sampling how to describe with an endpoint instead', async () => {
  const answer = await call('describe_code', { maxCalls: 3 });
  assert.equal(answer.isError, true);
  assert.match(answer.text, /does not offer sampling.*cartograph describe --endpoint URL --model NAME/s);
});

test('each tool answers from the graph, naming path:line', async () => {
  const out = await call('explore_graph', { name: 'Flask.run', direction: 'out' });
  assert.ok(!out.isError, out.text);
  assert.match(out.text, /CALLS\s+flask\.helpers\.get_debug_flag\s+helpers\.py:\d+/);

  // Plain English is searched as the editor and the CLI's service search it: with the shipped model (once the graph is loaded).
  const search = await eventually('search_code', { query: 'register a blueprint on the application', limit: 5 }, (a) => /embeddings cartograph-code-search-v5/.test(a.text));
  assert.match(search.text, /^natural-language: .*embeddings cartograph-code-search-v5; \d+ nodes embedded/m);
  assert.match(search.text, /flask\.app\.Flask\.register_blueprint\s+app\.py:\d+/);
  const hits = search.structured.hits as Array<{ id: string; location: string; foundBy: string }>;
  assert.ok(hits.length > 0 && hits.every((h) => h.id && /:\d+$/.test(h.location) && h.foundBy));

  const fetched = await call('fetch_node', { id: 'app.py#Flask.run', maxLines: 400 });
  assert.match(fetched.text, /in Class flask\.app\.Flask/);
  assert.match(fetched.text, /→ CALLS \d+: /);
  assert.match((fetched.structured.source as { text: string }).text, /^ {4}def run\(/);

  const ambiguous = await call('fetch_node', { name: 'register' });
  assert.equal(ambiguous.structured.ambiguous, true);
  assert.ok((ambiguous.structured.candidates as unknown[]).length >= 2);

  const map = await call('repo_overview', { maxTokens: 800 });
  assert.match(map.text, /class Flask\(Scaffold\)\s+:\d+/);
  assert.ok((map.structured.tokens as number) <= 800);

  const context = await call('edit_context', { path: 'app.py', line: 1100, maxTokens: 600 });
  assert.ok(!context.isError, context.text);
  assert.match(context.text, /Context for app\.py:1100 \(inside Flask\.run < Flask\)/);

  const impact = await call('impact', { names: ['get_debug_flag'], depth: 1 });
  assert.match(impact.text, /1 {2}Method flask\.app\.Flask\.run {2}app\.py:\d+ {3}via ← CALLS flask\.app\.Flask\.run/);
});

test('an edit on disk is visible to the next calls, and impact maps the git diff onto definitions', async () => {
  const helpers = path.join(root, 'helpers.py');
  fs.appendFileSync(helpers, '\n\ndef debug_banner():\n    """Say whether debug is on."""\n    return "debug" if get_debug_flag() else "quiet"\n');
  const callers = await eventually('explore_graph', { name: 'get_debug_flag', direction: 'in', edgeKinds: ['CALLS'] }, (a) => a.text.includes('debug_banner'));
  assert.match(callers.text, /← CALLS\s+flask\.helpers\.debug_banner\s+helpers\.py:\d+/);
  const impact = await call('impact', { diff: 'git' });
  assert.match(impact.text, /\* Function flask\.helpers\.debug_banner {2}helpers\.py:\d+/);

  execFileSync('git', ['checkout', '-q', 'helpers.py'], { cwd: root });
  const gone = await eventually('search_code', { query: 'debug_banner' }, (a) => !/helpers\.debug_banner/.test(a.text));
  assert.doesNotMatch(gone.text, /helpers\.debug_banner/);
  fs.writeFileSync(path.join(root, 'banner.py'), 'from .helpers import get_debug_flag\n\n\ndef banner():\n    return get_debug_flag()\n');
  const added = await eventually('explore_graph', { name: 'get_debug_flag', direction: 'in', edgeKinds: ['CALLS'] }, (a) => a.text.includes('banner.py'));
  assert.match(added.text, /← CALLS\s+flask\.banner\.banner\s+banner\.py:5/);
  fs.rmSync(path.join(root, 'banner.py'));
  const removed = await eventually('explore_graph', { name: 'get_debug_flag', direction: 'in', edgeKinds: ['CALLS'] }, (a) => !a.text.includes('banner.py'));
  assert.doesNotMatch(removed.text, /banner\.py/);
});

test('bad arguments give a tool error with a message, and the server goes on answering', async () => {
  for (const [name, args, message] of [
    ['search_code', { query: 5 }, /query/],
    ['search_code', { query: 'x', limit: 1e9 }, /limit/],
    ['fetch_node', { id: 'no/such.py#Thing' }, /no node with id/],
    ['fetch_node', {}, /exactly one of id or name/],
    ['explore_graph', { name: 'Flask.run', depth: 9 }, /depth/],
    ['edit_context', { path: '../../../etc/passwd', line: 1 }, /outside the indexed folder/],
    ['repo_overview', { path: 'no/such/folder' }, /no indexed file/],
    ['impact', {}, /ids, names or diff/],
  ] as const) {
    const answer = await call(name, args);
    assert.equal(answer.isError, true, `${name} ${JSON.stringify(args)}: ${answer.text}`);
    assert.match(answer.text, message);
  }
  assert.ok(!(await call('fetch_node', { name: 'Flask' })).isError);
});

test('survives a deleted store folder and a file with broken syntax', async () => {
  // Deleted between two of the server's writes (holding the writer lock, as another writer would), and
  // moved away first: removing files one by one while the server writes would race it.
  const store = path.join(root, '.cartograph');
  const lock = await WriterLock.acquire(store, { command: 'the test' });
  fs.renameSync(store, `${store}.gone`);
  await lock.release();
  fs.rmSync(`${store}.gone`, { recursive: true, force: true });
  fs.writeFileSync(path.join(root, 'broken.py'), 'def still_fine():\n    return 1\n\n\ndef half_written(x:\n    return x +\n');
  const found = await eventually('search_code', { query: 'still_fine' }, (a) => a.text.includes('broken.py'));
  assert.match(found.text, /broken\.still_fine {2}broken\.py:1/);
  assert.ok(!(await call('repo_overview', {})).isError);
  assert.doesNotMatch(stderr, /failed:/);
});

test('stdout carries only JSON-RPC messages, logs go to stderr', async () => {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'Flask.run' } } });
  const deadline = Date.now() + 30_000;
  while (!out.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  const lines = out.trim().split('\n');
  assert.ok(lines.length >= 2, out);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0', line);
  assert.match(err, /files ready/);
});

test('a restarted server answers from the snapshot its predecessor saved, saying so until it has re-checked the folder', async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-mcp-restart-')), 'flask');
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), dir, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  const serve = async () => {
    const server = startMcp(dir);
    const ask = (query: string) => server.call('search_code', { query });
    return { c: server, ask };
  };
  try {
    const first = await serve();
    assert.match((await first.ask('Flask.run')).text, /flask\.app\.Flask\.run/);
    fs.appendFileSync(path.join(dir, 'helpers.py'), '\n\ndef snapshot_probe():\n    return 1\n');
    const deadline = Date.now() + 60_000;
    while (!(await first.ask('snapshot_probe')).text.includes('helpers.snapshot_probe') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await first.c.close(); // the server saves the snapshot of what it served before it exits (waited for, however long)

    const saved = await openQuerySnapshot(path.join(dir, '.cartograph'), dir);
    assert.ok(saved.ok, saved.ok ? '' : saved.reason);
    assert.ok(saved.snapshot.graph.hasNode('helpers.py#snapshot_probe'), 'the snapshot has the edit the first server applied');

    const second = await serve();
    const answer = await second.ask('snapshot_probe');
    assert.match(answer.text, /flask\.helpers\.snapshot_probe {2}helpers\.py:\d+/);
    // Answered by the snapshot (the usual case: the store takes longer to load) or by the engine, never unlabelled.
    if (answer.structured.indexing !== undefined) assert.match(String(answer.structured.indexing), /index as last saved/);
    await second.c.close();
  } finally {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});

test('a symlink out of the folder is not served, its target not read; with --follow-symlinks it is', async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-mcp-links-'));
  const repo = path.join(parent, 'repo');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(parent, 'outside'));
  fs.writeFileSync(path.join(parent, 'outside', 'secret.py'), 'def leaked_credentials():\n    return "hunter2"\n');
  fs.writeFileSync(path.join(repo, 'own.py'), 'def own_function():\n    return 1\n');
  fs.symlinkSync(path.join(parent, 'outside', 'secret.py'), path.join(repo, 'notes.py'));
  const serve = async (...flags: string[]) => {
    const c = new Client({ name: 'cartograph-test-links', version: '0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--root', repo, ...flags], stderr: 'pipe', env: serverEnv() }));
    const ask = async (name: string, args: Record<string, unknown>) => {
      const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      return { isError: r.isError, text: r.content.map((x) => x.text).join('\n') };
    };
    return { c, ask };
  };
  try {
    const guarded = await serve();
    // fetch_node waits for the folder's first index, so these answer from the scanned graph.
    const own = await guarded.ask('fetch_node', { id: 'own.py', source: true });
    assert.match(own.text, /return 1/);
    for (const target of [{ id: 'notes.py', source: true }, { name: 'leaked_credentials' }]) {
      const refused = await guarded.ask('fetch_node', target);
      assert.equal(refused.isError, true, refused.text);
      assert.doesNotMatch(refused.text, /hunter2/);
    }
    assert.doesNotMatch((await guarded.ask('search_code', { query: 'hunter2 leaked_credentials' })).text, /notes\.py|hunter2/);
    await guarded.c.close();

    const following = await serve('--follow-symlinks');
    const followed = await following.ask('fetch_node', { id: 'notes.py', source: true });
    assert.ok(!followed.isError, followed.text);
    assert.match(followed.text, /return "hunter2"/);
    await following.c.close();
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
});
