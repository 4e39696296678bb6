// Semantic lifting against a local OpenAI-compatible chat server (records requests, answers from a
// script, can be down): bottom-up order, members' descriptions in their class's prompt, the content-hash
// cache, search finding code by its description, the functional view's features lifted with the
// descriptions (RPG-Encoder's model path), and an unreachable endpoint ending the run quietly.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { AREA_GROUPING_SYSTEM_PROMPT, applyAreaGroups, groupAreas, groupingUnits, parseGrouping } from '../../src/core/features/areaGroups';
import { AREA_NAMING_SYSTEM_PROMPT, applyAreaNames, nameAreas } from '../../src/core/features/areaNames';
import { FeatureHierarchy } from '../../src/core/features/hierarchy';
import { coverageProblems } from '../../src/core/features/invariants';
import { createSearcher } from '../../src/core/search';
import { LocalRepository } from '../../src/core/service/localRepository';
import { chatDescriber } from '../../src/core/lifting/chatDescriber';
import { DescriptionCache } from '../../src/core/lifting/descriptionCache';
import { liftGraph, liftingCost, type Describer } from '../../src/core/lifting/lifter';
import { newTokenUsage, streamDescriber, type StreamingChatModel } from '../../src/core/lifting/streamDescriber';
import { sourceReader } from '../../src/core/lifting/source';
import { RootBoundary } from '../../src/core/workspace/readSource';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenAiTestServer } = require('../support/openaiTestServer.js');

let server: InstanceType<typeof OpenAiTestServer>;

/** Flask, Werkzeug, httpx and requests side by side: enough files for several areas. */
function realPackages(): Map<string, string> {
  const tree = new Map<string, string>();
  for (const name of ['flask', 'werkzeug', 'httpx', 'requests']) for (const [p, t] of readTree(path.join(FIXTURES, 'real', name), `${name}/`)) tree.set(p, t);
  return tree;
}
let baseURL: string;
/** The chat requests the model saw, in order. */
type Chat = { model: string; messages: { role: string; content: string }[] };
const chats = (): Chat[] => (server.requests as { path: string; body: Chat }[]).filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);

/** The scripted model: says what each node is for, in words its code never uses. */
function scriptedAnswer(body: { messages: { content: string }[] }): { text: string } {
  if (body.messages.at(-1)!.content.startsWith('Repository ')) return { text: 'Arithmetic helpers.' };
  const subject = /^\w+ (\S+) in /.exec(body.messages.at(-1)!.content)?.[1] ?? '?';
  if (subject.endsWith('Scientific.divide')) return { text: '"Performs **quotient** computation via reciprocal scaling."' };
  return { text: `Purpose of ${subject}.` };
}

before(async () => {
  server = new OpenAiTestServer();
  baseURL = await server.listen();
  server.script(scriptedAnswer);
});
after(() => server.close());

test('lifting describes members before their class, caches by content hash, and search finds code by what it is for', async () => {
  const dir = path.join(FIXTURES, 'ranger-py');
  const graph = await buildGraph(readTree(dir), 'ranger');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lift-')), 'descriptions.json');
  const cache = await DescriptionCache.open(file);
  const describer = chatDescriber({ baseURL, model: 'test-model' });
  const searcher = createSearcher({ graph }, { descriptions: cache });
  assert.equal((await searcher.search('quotient reciprocal scaling', 3)).hits.length, 0, 'no code says "quotient" before lifting');

  server.requests.length = 0;
  const described: string[] = [];
  const report = await liftGraph(graph.graph, describer, cache, { sourceOf: sourceReader(new RootBoundary(dir)), onDescribed: (ids) => described.push(...ids) });
  assert.deepEqual(report, { described: 8, cached: 0, failed: 0 });
  const requests = chats();
  const subjects = requests.map((r) => /^\w+ (\S+) in /.exec(r.messages[1].content)![1]);
  assert.ok(subjects.indexOf('extended.Scientific.divide') < subjects.indexOf('extended.Scientific'), `members first: ${subjects}`);
  assert.ok(subjects.indexOf('base.Calculator.add') < subjects.indexOf('base.Calculator'));
  const classPrompt = requests[subjects.indexOf('base.Calculator')].messages[1].content;
  assert.match(classPrompt, /Members:\n- add: Purpose of base\.Calculator\.add\.\n- multiply: Purpose of base\.Calculator\.multiply\./);
  assert.match(classPrompt, /Code:\nclass Calculator:/, 'the code is read from the file by the node range');
  assert.equal(requests[0].model, 'test-model');
  assert.equal(requests[0].messages[0].role, 'system');

  searcher.invalidate(described);
  const hit = (await searcher.search('quotient reciprocal scaling', 3)).hits[0];
  assert.equal(hit?.id, 'extended.py#Scientific.divide', 'found by its (cleaned) description');

  // Saved, reopened: nothing is described twice; an edited function alone goes back to the model.
  const reopened = await DescriptionCache.open(file);
  assert.equal(reopened.get(graph.graph.getNodeAttribute('extended.py#Scientific.divide', 'hash')), 'Performs quotient computation via reciprocal scaling.');
  server.requests.length = 0;
  assert.deepEqual(await liftGraph(graph.graph, describer, reopened, { sourceOf: sourceReader(new RootBoundary(dir)) }), { described: 0, cached: 8, failed: 0 });
  assert.equal(chats().length, 0);
  const base = readTree(dir).get('base.py')!.replace('return round(value, precision)', 'return round(value, precision + 1)');
  graph.apply({ upsert: [await parse('base.py', base)] });
  await liftGraph(graph.graph, describer, reopened, { sourceOf: sourceReader(new RootBoundary(dir)) });
  assert.deepEqual(chats().map((r) => /^\w+ (\S+) in /.exec(r.messages[1].content)![1]), ['base.format_result']);
});

test('an unreachable endpoint ends the run after a few failures, with the reason, and never throws', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const cache = await DescriptionCache.open(null);
  const report = await liftGraph(graph.graph, chatDescriber({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', timeoutMs: 2000 }), cache, { sourceOf: async () => undefined });
  assert.equal(report.described, 0);
  assert.equal(report.failed, 3);
  assert.match(report.stopped ?? '', /failed 3 times in a row: .*(Connection|ECONNREFUSED)/i);
  assert.equal(cache.size, 0);
});

test('lifting stops when cancelled', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
  const controller = new AbortController();
  const cache = await DescriptionCache.open(null);
  let calls = 0;
  const report = await liftGraph(graph.graph, { describe: async () => (++calls === 2 && controller.abort(), 'A sentence.') }, cache, { sourceOf: async () => undefined, signal: controller.signal });
  assert.equal(report.stopped, 'cancelled');
  assert.equal(calls, 2);
});

test("the model's descriptions lift the functional view's features: only what it described is lifted again, once", async () => {
  const dir = path.join(FIXTURES, 'ranger-py');
  const graph = await buildGraph(readTree(dir), 'ranger');
  const divide = 'extended.py#Scientific.divide';
  const hierarchy = FeatureHierarchy.build(graph);
  const modelFree = hierarchy.features(divide);
  assert.ok(!modelFree.some((f) => f.includes('quotient')), `model-free: ${modelFree}`);

  const cache = await DescriptionCache.open(null);
  const said = (hash: string) => cache.get(hash);
  assert.deepEqual(Object.values(hierarchy.sync(graph, said)).filter((n) => n > 0), [], 'nothing described yet: nothing to lift again');
  const report = await liftGraph(graph.graph, chatDescriber({ baseURL, model: 'test-model' }), cache, { sourceOf: sourceReader(new RootBoundary(dir)) });
  const update = hierarchy.sync(graph, said);
  assert.equal(update.relifted, report.described, 'each described entity lifted again, nothing else');
  // The model's verb phrase comes first ("Performs **quotient** computation via reciprocal scaling." — cleaned, third person read as a verb); the name's stays.
  assert.deepEqual(hierarchy.features(divide), ['perform quotient computation via reciprocal', ...modelFree]);
  // "Purpose of …" opens with no verb: the model's sentence gives no phrase, the code's remain.
  assert.deepEqual(hierarchy.features('base.py#Calculator.add'), FeatureHierarchy.build(graph).features('base.py#Calculator.add'));
  assert.equal(hierarchy.sync(graph, said).relifted, 0, 'caught up: nothing lifted twice');
  // Saved and loaded, it knows what it was lifted with; a rebuild with the descriptions agrees.
  const reloaded = FeatureHierarchy.fromJSON(JSON.parse(JSON.stringify(hierarchy.toJSON())));
  assert.equal(reloaded.sync(graph, said).relifted, 0);
  assert.deepEqual(FeatureHierarchy.build(graph, said).features(divide), hierarchy.features(divide));
});

test('a repository lifts its features with the descriptions once they come, and search_code shows them', async () => {
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lift-features-')), 'ranger-py');
  fs.cpSync(path.join(FIXTURES, 'ranger-py'), copy, { recursive: true });
  const repo = await LocalRepository.open(copy, { storeDir: null, workers: 0 });
  try {
    await repo.index();
    assert.ok(!(await repo.featureHierarchy()).features('extended.py#Scientific.divide').some((f) => f.includes('quotient')));
    const report = await repo.lift(chatDescriber({ baseURL, model: 'test-model' }));
    const hierarchy = await repo.featureHierarchy();
    assert.equal(hierarchy.features('extended.py#Scientific.divide')[0], 'perform quotient computation via reciprocal');
    // then the upper areas (here the one a two-file folder makes: nothing to group) are named by the same model
    assert.deepEqual(report.areas, { named: 1, cached: 0, failed: 0, grouping: { grouped: 0, cached: false, failed: 0 } });
    assert.deepEqual(hierarchy.root.children.map((id) => hierarchy.areas.get(id)!.name), ['Arithmetic helpers']);
    const answer = await repo.runTool('search_code', { query: 'quotient computation', limit: 3 });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.ok(answer.text.includes('perform quotient computation via reciprocal'), answer.text);
  } finally {
    await repo.close();
  }
});

test("a chat model the client holds (VS Code's, streamed): one request per description, its tokens counted, what is left to send estimated", async () => {
  const dir = path.join(FIXTURES, 'ranger-py');
  const graph = await buildGraph(readTree(dir), 'ranger');
  const cache = await DescriptionCache.open(null);
  const sourceOf = sourceReader(new RootBoundary(dir));
  const before = await liftingCost(graph.graph, cache, sourceOf);
  assert.equal(before.entities, 8);
  const prompts: string[] = [];
  const model: StreamingChatModel = {
    name: 'Scripted',
    async send(system, prompt) {
      prompts.push(`${system}\n\n${prompt}`);
      // streamed in pieces; a model that goes on past a blank line is not read further
      return (async function* () {
        yield 'Computes ';
        yield 'the thing.\n\nAnd then a second paragraph ';
        yield 'that is never read.';
      })();
    },
    countTokens: async (text) => text.split(/\s+/).filter(Boolean).length,
  };
  const usage = newTokenUsage();
  const report = await liftGraph(graph.graph, streamDescriber(model, usage), cache, { sourceOf });
  assert.deepEqual(report, { described: 8, cached: 0, failed: 0 });
  assert.equal(cache.get(graph.graph.getNodeAttribute('extended.py#Scientific.divide', 'hash')), 'Computes the thing.');
  assert.equal(usage.requests, 8);
  assert.equal(usage.input, prompts.reduce((n, p) => n + p.split(/\s+/).filter(Boolean).length, 0), 'input tokens: what was sent, as the model counts it');
  assert.ok(usage.output > 0 && usage.output < usage.input);
  // The estimate shown before a run is about what was then sent (members' descriptions in a class's prompt come later)
  assert.ok(before.characters <= prompts.join('').length && before.characters > 0.8 * prompts.join('').length, `${before.characters} vs ${prompts.join('').length}`);
  assert.deepEqual(await liftingCost(graph.graph, cache, sourceOf), { entities: 0, characters: 0 }, 'nothing left to send');
});

test('descriptions written before the first search of a warm start are searched (the restored index predates them)', async () => {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lift-restored-')), 'ranger-py');
  fs.cpSync(path.join(FIXTURES, 'ranger-py'), root, { recursive: true });
  const first = await LocalRepository.open(root, {});
  await first.index();
  await first.saveQuerySnapshot();
  await first.close();
  // Restarted: the graph and the search indexes come from the query snapshot, saved with no descriptions.
  const repo = await LocalRepository.open(root, {});
  try {
    await repo.index();
    await repo.lift(chatDescriber({ baseURL, model: 'test-model' }));
    const answer = await repo.runTool('search_code', { query: 'quotient reciprocal scaling', limit: 3 });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.match(answer.text, /1\. Method extended\.Scientific\.divide/, answer.text);
  } finally {
    await repo.close();
  }
});

test("the functional view's upper areas are named by the model after the descriptions, once per set of files", async () => {
  const graph = await buildGraph(realPackages());
  const hierarchy = FeatureHierarchy.build(graph);
  const upper = [...hierarchy.areas.values()].filter((a) => a.id !== '' && a.id.split('.').length <= 2);
  assert.ok(upper.length >= 4, `${upper.length} upper areas`);
  const prompts: string[] = [];
  // the scripted model names an area after the first file its prompt lists
  const namer: Describer = { describe: async (system, prompt) => (prompts.push(system), `"Handling of ${/\n- (\S+)/.exec(prompt)![1]}."`) };
  const names = new Map<string, string>();
  const store = { get: (key: string) => names.get(key), set: (key: string, name: string) => void names.set(key, name) };
  const report = await nameAreas(hierarchy, namer, store);
  assert.deepEqual(report, { named: upper.length, cached: 0, failed: 0 });
  assert.ok(prompts.every((p) => p === AREA_NAMING_SYSTEM_PROMPT));
  const first = upper[0];
  assert.equal(hierarchy.areas.get(first.id)!.name, `Handling of ${hierarchy.filesUnder(first.id)[0]}`, 'quotes and the period cleaned off');
  // asked again: nothing is sent; a hierarchy built again gets the names back for the same files
  assert.deepEqual(await nameAreas(hierarchy, namer, store), { named: 0, cached: upper.length, failed: 0 });
  assert.equal(prompts.length, upper.length);
  const rebuilt = FeatureHierarchy.build(graph);
  assert.notEqual(rebuilt.areas.get(first.id)!.name, hierarchy.areas.get(first.id)!.name);
  assert.equal(applyAreaNames(rebuilt, store.get), upper.length);
  assert.deepEqual([...rebuilt.areas.values()].map((a) => a.name), [...hierarchy.areas.values()].map((a) => a.name));
  // a budget stops it, and says so
  const fresh = FeatureHierarchy.build(graph);
  assert.deepEqual(await nameAreas(fresh, namer, { get: () => undefined, set: () => undefined }, { maxCalls: 2 }), { named: 2, cached: 0, failed: 0, stopped: 'call budget of 2 reached' });
});

test("with a model, the view's parts are grouped into top-level areas it names, once; a view built again gets the grouping back", async () => {
  const graph = await buildGraph(realPackages());
  const hierarchy = FeatureHierarchy.build(graph);
  const units = groupingUnits(hierarchy);
  assert.ok(units.length >= 4, `${units.length} parts`);
  const unitFiles = units.map((u) => hierarchy.filesUnder(u.id));
  const leafSets = (h: FeatureHierarchy) => [...h.areas.values()].filter((a) => a.children.length === 0).map((a) => a.files.join(' ')).sort();
  const leavesBefore = leafSets(hierarchy);
  const versionBefore = hierarchy.version;
  const prompts: string[] = [];
  // the scripted model groups the parts by the package of their first folder, as a chat model writes
  // it: a preamble, markdown bullets, bold names
  const byPackage = new Map<string, number[]>();
  const grouper: Describer = {
    describe: async (system, prompt) => {
      prompts.push(system);
      byPackage.clear();
      for (const m of prompt.matchAll(/^P(\d+): \d+ files in (\w+)/gm)) byPackage.set(m[2], [...(byPackage.get(m[2]) ?? []), Number(m[1])]);
      return ['Here are the functional areas:', ...[...byPackage].map(([pkg, parts]) => `- **The ${pkg} package**: ${parts.map((n) => `P${n}`).join(', ')}`)].join('\n');
    },
  };
  const kept = new Map<string, string>();
  const store = { get: (key: string) => kept.get(key), set: (key: string, text: string) => void kept.set(key, text) };
  const report = await groupAreas(hierarchy, grouper, store);
  assert.deepEqual(prompts, [AREA_GROUPING_SYSTEM_PROMPT]);
  assert.ok(byPackage.size >= 3, [...byPackage.keys()].join(', '));
  assert.deepEqual(report, { grouped: byPackage.size, cached: false, failed: 0 });
  // each top-level area is the model's group: its name, and the files of the parts it listed
  const topNames = () => hierarchy.root.children.map((id) => hierarchy.areas.get(id)!.name).sort();
  assert.deepEqual(topNames(), [...byPackage.keys()].map((pkg) => `The ${pkg} package`).sort());
  for (const id of hierarchy.root.children) {
    const pkg = /The (\w+) package/.exec(hierarchy.areas.get(id)!.name)![1];
    assert.deepEqual(hierarchy.filesUnder(id), byPackage.get(pkg)!.flatMap((n) => unitFiles[n - 1]).sort());
  }
  // every file under exactly one leaf, every area grounded; the leaves themselves as built
  assert.deepEqual(coverageProblems(graph, hierarchy), []);
  assert.deepEqual(leafSets(hierarchy), leavesBefore);
  assert.ok(hierarchy.grouped && hierarchy.version > versionBefore);
  // saved and loaded as grouped; not asked again
  assert.deepEqual(FeatureHierarchy.fromJSON(JSON.parse(JSON.stringify(hierarchy.toJSON()))).toJSON(), hierarchy.toJSON());
  assert.deepEqual(await groupAreas(hierarchy, grouper, store), { grouped: 0, cached: false, failed: 0 });
  assert.equal(prompts.length, 1);
  // naming does not ask again for the top-level areas the model just named
  const namer: Describer = { describe: async (system) => (prompts.push(system), 'Some part') };
  const named = await nameAreas(hierarchy, namer, store);
  assert.ok(named.cached >= byPackage.size, JSON.stringify(named));
  assert.deepEqual(topNames(), [...byPackage.keys()].map((pkg) => `The ${pkg} package`).sort());
  // a view built again from the same code gets the grouping (and its names) back without a request
  const rebuilt = FeatureHierarchy.build(graph);
  assert.ok(applyAreaGroups(rebuilt, store.get));
  applyAreaNames(rebuilt, store.get);
  assert.deepEqual(rebuilt.toJSON().areas, hierarchy.toJSON().areas);
  assert.deepEqual(await groupAreas(FeatureHierarchy.build(graph), grouper, store), { grouped: byPackage.size, cached: true, failed: 0 });
  assert.equal(prompts.filter((p) => p === AREA_GROUPING_SYSTEM_PROMPT).length, 1);

  // an answer that is no grouping changes nothing
  const none = { get: () => undefined, set: () => undefined };
  const untouched = FeatureHierarchy.build(graph);
  const json = JSON.stringify(untouched.toJSON());
  assert.deepEqual(await groupAreas(untouched, { describe: async () => 'I would group them by package.' }, none), { grouped: 0, cached: false, failed: 1 });
  assert.equal(JSON.stringify(untouched.toJSON()), json);
  // a grouping that names a part twice or leaves one out is refused before anything changes
  const ids = groupingUnits(untouched).map((u) => u.id);
  assert.throws(() => untouched.regroup([{ name: 'Twice', units: [ids[0], ids[0]] }, { name: 'Rest', units: ids.slice(1) }]), /twice/);
  assert.throws(() => untouched.regroup([{ name: 'Some', units: ids.slice(1) }]), /leave .* out/);
  assert.equal(JSON.stringify(untouched.toJSON()), json);
  // a part named twice stays in its first group; one left out joins the group of its former siblings,
  // or stands alone under its own name; one group is no grouping
  const area = (id: string) => ({ id, name: `area ${id}`, terms: [], parent: id.includes('.') ? id.split('.')[0] : '', children: [], files: [], scopes: [] });
  const synthetic = [area('1.1'), area('1.2'), area('1.3'), area('2'), area('3')];
  assert.deepEqual(parseGrouping('Core: P1, P2\n2. Rest: P4, P2, P9', synthetic), [
    { name: 'Core', units: ['1.1', '1.2', '1.3'] },
    { name: 'Rest', units: ['2'] },
    { name: 'area 3', units: ['3'] },
  ]);
  assert.equal(parseGrouping('Everything: P1, P2, P3, P4, P5', synthetic), undefined);
});
