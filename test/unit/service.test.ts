// The repository's service as its clients meet it, through the built CLI on a copy of Flask: the first
// query answers from the snapshot and starts the service, later ones are answered by it with the same
// hits; two agents' MCP servers share it; an edit made just before a call is in the answer; an older
// service is replaced, a killed one's socket taken over, an idle one stops by itself; `index` goes
// through it. Nothing here waits for a duration: each step waits for the state it needs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { ServiceHost } from '../../src/core/service/serviceHost';
import { FEATURES_FILE } from '../../src/core/store/storeVersion';
import { gone, helloOf, until } from '../support/serviceProbe';
import { cli, copyFlask, index, type Run } from '../support/storeHarness';
import { startMcp, type McpProcess } from '../support/mcpProcess';
import { version as VERSION } from '../../package.json';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-service-'));
// This file's services, and only they, use the service (the other suites run with it off).
delete process.env.CARTOGRAPH_NO_SERVICE;
process.env.CARTOGRAPH_SERVICE_DIR = path.join(tmp, 'sockets');
const root = copyFlask(path.join(tmp, 'flask'));
const storeDir = path.join(root, '.cartograph');

/** Polls `probe` until it returns a value; the bound only ends a test that would otherwise hang. */

const hello = () => helloOf(storeDir);

const ready = () => until('a ready service', async () => ((await hello())?.ready ? hello() : undefined));

function json(run: Run): Record<string, unknown> {
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const hitNames = (answer: Record<string, unknown>) => (answer.hits as { qname: string; path: string }[]).map((h) => `${h.qname} ${h.path}`);

before(async () => {
  await index(root);
});

after(async () => {
  await cli(['service', 'stop', '--all'], root);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the first query answers from the snapshot and starts the service; the next ones are answered by it, with the same hits', async () => {
  const first = await cli(['query', 'Flask.run', '--json'], root);
  assert.match(first.stderr, /started the service for .*flask/);
  assert.equal((json(first).index as { source: string }).source, 'snapshot');
  const service = await ready();
  assert.equal(service.version, VERSION);
  // started able to give memory back after a burst of answers (serviceHost.ts collectWhenQuiet)
  if (process.platform === 'linux') assert.ok(fs.readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').split('\0').includes('--expose-gc'));

  for (const q of ['Flask.run', 'callers of url_for']) {
    const viaService = json(await cli(['query', q, '--json'], root));
    const here = json(await cli(['query', q, '--json', '--no-service'], root));
    assert.equal((viaService.index as { source: string }).source, 'service', q);
    assert.deepEqual(hitNames(viaService), hitNames(here), q);
  }
  // Plain English: the service searches with the shipped model by default (Flask here is small enough
  // for the answer to wait for every vector), as this process does when asked for that model.
  const sentence = 'where are sessions signed and saved';
  const viaService = json(await cli(['query', sentence, '--json'], root));
  assert.match(viaService.models as string, /^embeddings cartograph-code-search-v5; (\d+) nodes embedded$/);
  const shipped = json(await cli(['query', sentence, '--json', '--no-service', '--embedding-model', 'cartograph-code-search-v5'], root));
  assert.deepEqual(hitNames(viaService), hitNames(shipped));
  const modelFree = json(await cli(['query', sentence, '--json', '--model-free'], root));
  assert.equal(modelFree.models, 'model-free: asked without models');
  assert.deepEqual(hitNames(modelFree), hitNames(json(await cli(['query', sentence, '--json', '--no-service'], root))));
  // answered without the models, which stay loaded for everyone else
  assert.match((await hello())?.search ?? '', /^embeddings cartograph-code-search-v5; \d+ nodes embedded$/);
  const shown = json(await cli(['show', 'Flask.run', '--json'], root));
  const shownHere = json(await cli(['show', 'Flask.run', '--json', '--no-service'], root));
  assert.deepEqual(shown, shownHere);
  const files = json(await cli(['query', 'files: the session cookie is not refreshed on each request', '--json'], root));
  const filesHere = json(await cli(['query', 'files: the session cookie is not refreshed on each request', '--json', '--no-service'], root));
  assert.deepEqual(
    (files.hits as { path: string }[]).map((h) => h.path),
    (filesHere.hits as { path: string }[]).map((h) => h.path),
  );
  // stats: the service's counts are the store's.
  const counted = json(await cli(['stats', '--json'], root));
  const countedHere = json(await cli(['stats', '--json', '--no-service'], root));
  assert.equal((counted.service as { pid: number }).pid, service.pid);
  assert.deepEqual([counted.files, counted.nodes, counted.edges], [countedHere.files, countedHere.nodes, countedHere.edges]);
  // Every command reached the one service.
  assert.equal((await hello())?.pid, service.pid);
  // Back to the default after --model-free: the same answer as before it.
  assert.deepEqual(hitNames(json(await cli(['query', sentence, '--json'], root))), hitNames(viaService));
  const status = await cli(['service', 'status'], root);
  assert.match(status.stdout, new RegExp(`pid ${service.pid}, Cartograph ${VERSION.replace(/\./g, '\\.')}, ready`));
  // what search runs with: the default model, every definition embedded (the sentence above waited for them)
  assert.match(status.stdout, /\n {2}search: embeddings cartograph-code-search-v5; \d+ nodes embedded\n/);
  // Every folder but the store's is watched, each with a kernel watch of its own.
  const folders = (dir: string): number => 1 + fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== '.cartograph').reduce((n, e) => n + folders(path.join(dir, e.name)), 0);
  assert.match(status.stdout, new RegExp(`\n {2}watching ${folders(root)} folders for changes\n`));
});

test('two agents share one service, and each sees an edit made the moment before its call', async () => {
  const agents: McpProcess[] = [startMcp(root), startMcp(root)];
  try {
    const names = async (agent: McpProcess, query: string) => {
      const answer = await agent.call('search_code', { query, limit: 5 });
      assert.equal(answer.isError, false, answer.text);
      assert.deepEqual(answer.structured.pendingFiles, []);
      return answer.text;
    };
    assert.match(await names(agents[0], 'Flask.run'), /app\.py/);
    assert.match(await names(agents[1], 'Flask.run'), /app\.py/);
    const service = await ready();
    assert.equal(service.clients, 2, 'both agents are connected to the one service');

    for (let i = 0; i < 5; i++) {
      const agent = agents[i % 2];
      // A new file, written and asked about with no pause.
      const created = path.join(root, `fresh_${i}.py`);
      fs.writeFileSync(created, `def brand_new_helper_${i}(x):\n    return x\n`);
      assert.match(await names(agent, `brand_new_helper_${i}`), new RegExp(`fresh_${i}\\.py`), `create ${i}`);
      // Appended to an existing file.
      fs.appendFileSync(path.join(root, 'helpers.py'), `\n\ndef appended_helper_${i}():\n    return ${i}\n`);
      assert.match(await names(agent, `appended_helper_${i}`), /helpers\.py/, `append ${i}`);
      // Renamed inside the file: the old name is gone at once.
      fs.writeFileSync(created, `def renamed_helper_${i}(x):\n    return x\n`);
      const renamed = await names(agent, `brand_new_helper_${i}`);
      assert.doesNotMatch(renamed, new RegExp(`#brand_new_helper_${i}\\b`), `rename ${i}`);
      assert.match(await names(agent, `renamed_helper_${i}`), new RegExp(`fresh_${i}\\.py`), `rename ${i}`);
      // Deleted: its function is no longer answered.
      fs.rmSync(created);
      assert.doesNotMatch(await names(agent, `renamed_helper_${i}`), new RegExp(`fresh_${i}\\.py`), `delete ${i}`);
    }
    // Files the graph never reads get no watcher of their own: a source file in a new folder beside one,
    // and one renamed into a source file's name, are seen through their folder's watcher, with no pause.
    const folder = path.join(root, 'late_pkg');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'messages.po'), 'msgid ""\n');
    fs.writeFileSync(path.join(folder, 'late.py'), 'def late_folder_helper():\n    return 1\n');
    assert.match(await names(agents[0], 'late_folder_helper'), /late_pkg\/late\.py/, 'a source file in a new folder');
    const notes = path.join(root, 'notes.txt');
    fs.writeFileSync(notes, 'def promoted_notes_helper():\n    return 2\n');
    assert.doesNotMatch(await names(agents[1], 'promoted_notes_helper'), /notes\.txt/, 'a .txt file is not indexed');
    fs.renameSync(notes, path.join(root, 'notes.py'));
    assert.match(await names(agents[1], 'promoted_notes_helper'), /notes\.py/, 'renamed into a source file');
  } finally {
    for (const agent of agents) assert.equal(await agent.close(), 0);
  }
});

test('index goes through the running service, which stays the store writer', async () => {
  const service = await ready();
  const run = json(await cli(['index', root, '--json'], root));
  assert.equal((run.service as { pid: number }).pid, service.pid);
  assert.equal((await hello())?.pid, service.pid);
});

test('index with no service running: nothing changed is told from the record; an edit starts the service, which indexes it, says so and stays', async () => {
  const running = await hello();
  assert.equal((await cli(['service', 'stop'], root)).code, 0);
  if (running) await gone(running.pid);
  // The service saved its snapshot and the index record as it stopped: the folder is compared with them, and nothing starts.
  const unchanged = json(await cli(['index', root, '--json'], root));
  assert.equal((unchanged.stats as { store: { status: string } }).store.status, 'unchanged');
  assert.equal(await hello(), undefined);
  const helpers = path.join(root, 'helpers.py');
  const text = fs.readFileSync(helpers, 'utf8');
  fs.appendFileSync(helpers, '\n\ndef started_for_an_edit():\n    return 1\n');
  try {
    const edited = await cli(['index', root, '--json'], root);
    assert.match(edited.stderr, /started the service for /);
    const reply = json(edited);
    assert.equal((reply.atStart as { parsed: number }).parsed, 1, 'the start parsed the edited file');
    const service = await ready();
    assert.equal((reply.service as { pid: number }).pid, service.pid);
    const shown = JSON.parse((await cli(['show', 'started_for_an_edit', '--json'], root)).stdout) as { node: { path: string } }[];
    assert.deepEqual(shown.map((s) => s.node.path), ['helpers.py']);
  } finally {
    fs.writeFileSync(helpers, text);
  }
});

test('features is answered by the running service, which keeps the areas and writes them to the store, as its own process would answer', async () => {
  const service = await ready();
  const strip = ({ source, ms, update, ...rest }: Record<string, unknown>) => (void source, void ms, void update, rest);
  const saved = path.join(storeDir, FEATURES_FILE);
  fs.rmSync(saved, { force: true });
  const viaService = json(await cli(['features', '--json'], root));
  assert.equal(viaService.source, 'service');
  assert.ok(fs.existsSync(saved), 'the service saved the areas it built with the store');
  assert.deepEqual(strip(viaService), strip(json(await cli(['features', '--json', '--no-service'], root))));
  // A file named relative to the asking folder (not the service's), and an area by its id.
  const sub = path.join(root, 'json');
  const file = json(await cli(['features', 'tag.py', '--json'], sub));
  assert.equal(file.path, 'json/tag.py');
  assert.deepEqual(strip(file), strip(json(await cli(['features', 'tag.py', '--json', '--no-service'], sub))));
  const firstArea = (viaService.areas as { id: string }[])[0].id;
  assert.equal(((json(await cli(['features', firstArea, '--json'], root)).area as { id: string }).id), firstArea);
  const missing = await cli(['features', 'no_such_thing_anywhere'], root);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no area, indexed file or definition 'no_such_thing_anywhere'/);
  assert.equal((await hello())?.pid, service.pid);
});

test('describe is run by the running service: the key reaches the endpoint and is never printed, and its next answer finds code by what was written (it did not before)', async () => {
  const service = await ready();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenAiTestServer } = require('../support/openaiTestServer.js');
  const server = new OpenAiTestServer();
  const baseURL = await server.listen();
  server.script((body: { messages: { content: string }[] }) => ({ text: body.messages.at(-1)!.content.startsWith('Method flask.app.Flask.make_response') ? 'Performs quotient computation via reciprocal scaling.' : 'Does its job.' }));
  const chats = () => server.requests.filter((r: { path: string }) => r.path.endsWith('/chat/completions'));
  try {
    const asked = 'quotient computation via reciprocal scaling';
    assert.ok(!hitNames(json(await cli(['query', asked, '--json'], root))).some((h) => h.startsWith('flask.app.Flask.make_response ')));
    const described = await cli(['describe', '--endpoint', baseURL, '--model', 'tiny', '--json'], root, { CARTOGRAPH_API_KEY: 'sk-service-secret' });
    assert.match(described.stderr, new RegExp(`described by the repository's service \\(pid ${service.pid}\\)`));
    assert.ok((json(described).described as number) > 100);
    assert.equal(chats()[0].headers.authorization, 'Bearer sk-service-secret');
    assert.doesNotMatch(described.stdout + described.stderr + fs.readFileSync(path.join(storeDir, 'service.log'), 'utf8'), /sk-service-secret/);
    const found = json(await cli(['query', asked, '--json'], root));
    assert.equal((found.index as { source: string }).source, 'service');
    assert.ok(hitNames(found).includes('flask.app.Flask.make_response app.py'), JSON.stringify(hitNames(found)));
  } finally {
    await server.close();
  }
});

test("index's options are recorded with the store: the service reads the folder the same way, the same options go through it, --reset-options reads all of it again", async () => {
  assert.equal((await cli(['service', 'stop'], root)).code, 0);
  const excluded = json(await cli(['index', root, '--exclude', 'json/**', '--json'], root));
  assert.deepEqual(excluded.options, { exclude: ['json/**'], includeMinified: false });
  const inJson = (answer: Record<string, unknown>) => hitNames(answer).filter((h) => h.endsWith(' json/tag.py'));
  // the first query answers from the snapshot and starts a service, which re-checks the folder: json/ stays out
  await cli(['query', 'TaggedJSONSerializer', '--json'], root);
  const service = await ready();
  assert.deepEqual(inJson(json(await cli(['query', 'TaggedJSONSerializer', '--json'], root))), []);
  assert.equal((json(await cli(['stats', '--json'], root)).service as { pid: number }).pid, service.pid);
  // the same options again: the running service indexes, as it reads the folder that way already
  const again = json(await cli(['index', root, '--exclude', 'json/**', '--json'], root));
  assert.equal((again.service as { pid: number }).pid, service.pid);
  // back to the defaults: the service is stopped, the folder indexed whole, and the next service reads it whole
  const reset = await cli(['index', root, '--reset-options', '--json'], root);
  assert.match(reset.stderr, /stopping the service .* to index with these options/);
  assert.deepEqual(json(reset).options, { exclude: [], includeMinified: false });
  await gone(service.pid);
  await cli(['query', 'TaggedJSONSerializer', '--json'], root);
  await ready();
  assert.deepEqual(inJson(json(await cli(['query', 'TaggedJSONSerializer', '--json'], root))), ['flask.json.tag.TaggedJSONSerializer json/tag.py']);
});

test('a service of another version is replaced; a killed one is succeeded; stop and idle stop it', async () => {
  const current = await ready();
  assert.equal((await cli(['service', 'stop'], root)).code, 0);
  await gone(current.pid);
  assert.equal(await hello(), undefined);

  // An older service holding the socket (here, in this process) is asked to stop by a newer client.
  const old = new ServiceHost({ root, storeDir, version: '0.0.0-old', log: () => undefined });
  assert.ok(await old.listen());
  assert.equal((await hello())?.version, '0.0.0-old');
  const replaced = await cli(['query', 'files: url building', '--json'], root);
  assert.match(replaced.stderr, /replacing the service of Cartograph 0\.0\.0-old/);
  assert.equal(json(replaced).mode, 'files');
  await old.stopped;
  const successor = await ready();
  assert.equal(successor.version, VERSION);

  // Killed with -9: its socket file stays behind, refusing connections; the next client starts another.
  process.kill(successor.pid, 'SIGKILL');
  await gone(successor.pid);
  const after = await cli(['query', 'files: url building', '--json'], root);
  assert.equal(json(after).mode, 'files');
  const third = await ready();
  assert.notEqual(third.pid, successor.pid);

  // Idle: with no client, a service started with a short idle time stops by itself.
  assert.equal((await cli(['service', 'stop'], root)).code, 0);
  await gone(third.pid);
  process.env.CARTOGRAPH_SERVICE_IDLE_MS = '500';
  try {
    await cli(['query', 'files: url building'], root);
    const idle = await ready();
    await gone(idle.pid);
  } finally {
    delete process.env.CARTOGRAPH_SERVICE_IDLE_MS;
  }
});

test("describe_code on MCP 2026-07-28: the samples go in rounds of input_required results, several at once, within a client's round limit", async () => {
  const fresh = copyFlask(path.join(tmp, 'rounds', 'flask'));
  await index(fresh);
  const prompts: string[] = [];
  const agent = startMcp(fresh, [], (params) => (prompts.push(params.messages[0].content.text ?? ''), prompts.length === 1 ? 'Tends the quokka enclosure.' : 'Does its job.'), '2026-07-28');
  const refused = startMcp(fresh, [], undefined, '2026-07-28');
  try {
    // a client that declares no sampling on its requests is told what to do instead
    const no = await refused.call('describe_code', { maxCalls: 3 });
    assert.ok(no.isError && /does not offer sampling/.test(no.text), no.text);
    const first = await agent.call('describe_code', { maxCalls: 20 });
    assert.equal(first.isError, false, first.text);
    assert.match(first.text, /flask: 20 described, 0 described before/);
    assert.equal(prompts.length, 20);
    assert.equal(first.rounds.reduce((a, b) => a + b, 0), 20, `rounds ${first.rounds}`);
    assert.ok(first.rounds.every((n) => n >= 1 && n <= 8) && first.rounds.some((n) => n > 1), `several samples a round, at most eight: ${first.rounds}`);
    const found = await agent.call('search_code', { query: 'quokka enclosure', limit: 3 });
    const subject = /^\w+ (\S+) in /.exec(prompts[0])![1];
    assert.match(found.text, new RegExp(`id=\\S+#${subject.split('.').slice(2).join('\\.')}\\b`), found.text);
    // a big call stops after eight rounds with what it described (the next call goes on from there)
    const big = await agent.call('describe_code', { maxCalls: 500 });
    assert.equal(big.rounds.length, 8, `rounds ${big.rounds}`);
    const described = Number(/flask: (\d+) described, \d+ described before/.exec(big.text)?.[1]);
    assert.ok(described >= 8 && described <= 64, big.text);
    assert.match(big.text, /stopped: .*at most 8 rounds a call: call it again to go on/);
    assert.equal(new Set(prompts).size, prompts.length, 'nothing asked twice');
  } finally {
    await refused.close();
    await agent.close();
  }
});

test("an agent's describe_code is lifted by the service with the agent's own model (MCP sampling), and searched at once", async () => {
  // a copy of its own: the describe test above described this suite's Flask already
  const fresh = copyFlask(path.join(tmp, 'sampled', 'flask'));
  await index(fresh);
  const prompts: Array<{ system: string; prompt: string }> = [];
  const agent = startMcp(fresh, [], (params) => {
    prompts.push({ system: params.systemPrompt ?? '', prompt: params.messages[0].content.text ?? '' });
    return prompts.length === 1 ? 'Tends the quokka enclosure.' : 'Does its job.';
  });
  try {
    // asked before anything is described, once the service searches with its model and every vector
    // (so the model's status, part of what an answer is kept by, is the same for the asking after)
    await agent.call('search_code', { query: 'Flask', limit: 1 });
    await until('the service embedded the folder', async () => /nodes embedded$/.test((await helloOf(path.join(fresh, '.cartograph')))?.search ?? '') || undefined);
    const before = (await agent.call('search_code', { query: 'quokka enclosure', limit: 3 })).text;
    const first = await agent.call('describe_code', { maxCalls: 5 });
    assert.equal(first.isError, false, first.text);
    assert.match(first.text, /flask: 5 described, 0 described before/);
    assert.equal(prompts.length, 5, 'one sampling request per description, within maxCalls');
    assert.match(prompts[0].system, /^You describe code/);
    const subject = /^\w+ (\S+) in (\S+)/.exec(prompts[0].prompt)!;
    // among the first three on the default (model) path: the reranker reads a description as the node's own comment
    const found = await agent.call('search_code', { query: 'quokka enclosure', limit: 3 });
    const described = new RegExp(`id=\\S+#${subject[1].split('.').slice(2).join('\\.')}\\b`);
    assert.match(found.text, described, found.text);
    assert.doesNotMatch(before, described, 'not found before it was described (the answer kept from then is not returned)');
    // described before: not sent again; the next five are
    const second = await agent.call('describe_code', { maxCalls: 5 });
    assert.match(second.text, /flask: 5 described, 5 described before/);
    assert.equal(prompts.length, 10);
    assert.equal(new Set(prompts.map((p) => p.prompt)).size, 10);
    const service = await until('its service', async () => ((await helloOf(path.join(fresh, '.cartograph')))?.ready ? helloOf(path.join(fresh, '.cartograph')) : undefined));
    assert.equal(service.root, fresh, 'a service runs for the folder (the agent started it)');
    assert.match(agent.stderr(), /^(?![\s\S]*served in this process)/, 'the agent went through the service');
  } finally {
    await agent.close();
  }
});

