// The functional view (issue 36, model-free) on real packages (Flask, Werkzeug, httpx, requests side by
// side): features lifted from names, signatures and docstrings; every function, method and class under
// exactly one leaf area; the same code giving the same hierarchy; grounding to non-nested folders; and
// per-change evolution (re-lift by content hash, prune, route) agreeing with the invariants.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { currentHierarchy, loadHierarchy, settleHierarchy } from '../../src/core/features/featureStore';
import { filesPerFolder, groundArea } from '../../src/core/features/grounding';
import { FeatureHierarchy } from '../../src/core/features/hierarchy';
import { adjustedRandIndex, coverageProblems } from '../../src/core/features/invariants';
import { liftFeatures } from '../../src/core/features/phrases';
import { LocalRepository } from '../../src/core/service/localRepository';
import { FEATURES_FILE } from '../../src/core/store/storeVersion';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';

function realTree(): Map<string, string> {
  const tree = new Map<string, string>();
  for (const name of ['flask', 'werkzeug', 'httpx', 'requests']) for (const [p, t] of readTree(path.join(FIXTURES, 'real', name), `${name}/`)) tree.set(p, t);
  return tree;
}

test('features are verb-object phrases from the name, the signature and the docstring', async () => {
  const tree = realTree();
  const graph = await buildGraph(tree);
  const h = FeatureHierarchy.build(graph);
  assert.deepEqual(h.features('flask/app.py#Flask.run'), ['run flask', 'run application on local development']);
  assert.deepEqual(h.features('flask/app.py#Flask.__init__'), ['initialize flask']);
  assert.deepEqual(h.features('requests/sessions.py#Session.send'), ['send session', 'send preparedrequest']);
  // A method that takes only its receiver reads as a getter; a class represents its name.
  assert.deepEqual(liftFeatures({ node: { kind: 'Method', name: 'json', signature: 'def json(self)', doc: '' }, containerWords: ['response'] }), ['get json']);
  assert.deepEqual(liftFeatures({ node: { kind: 'Class', name: 'HTTPBasicAuth', signature: 'class HTTPBasicAuth(AuthBase)', doc: 'Attaches HTTP Basic Authentication to the given Request object.' }, containerWords: [] }), [
    'represent http basic auth',
    'attach http basic authentication',
  ]);
  // A docstring that does not open with a verb gives no phrase rather than "the flask object…".
  assert.deepEqual(liftFeatures({ node: { kind: 'Function', name: 'is_ip', signature: 'def is_ip(value)', doc: 'The value is an IP address.' }, containerWords: [] }), ['check is ip']);
});

test('every function, method and class is under exactly one leaf, and every area is grounded', async () => {
  const graph = await buildGraph(realTree());
  const h = FeatureHierarchy.build(graph);
  assert.deepEqual(coverageProblems(graph, h), []);
  assert.ok(h.root.children.length >= 2, 'the four packages make more than one area');
  assert.ok(h.entityCount('') > 500);
  // The areas follow the packages: most of each top-level area's files come from one package.
  for (const id of h.root.children) {
    const files = h.filesUnder(id);
    const top = Math.max(...['flask', 'werkzeug', 'httpx', 'requests'].map((p) => files.filter((f) => f.startsWith(`${p}/`)).length));
    assert.ok(top / files.length >= 0.5, `area ${id} mixes packages: ${files.join(' ')}`);
  }
});

test('the same code gives the same hierarchy, and it survives a save and a load', async () => {
  const a = FeatureHierarchy.build(await buildGraph(realTree()));
  const b = FeatureHierarchy.build(await buildGraph(realTree()));
  assert.deepEqual(a.toJSON(), b.toJSON());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-features-'));
  try {
    const graph = await buildGraph(realTree());
    const built = await currentHierarchy(graph, dir);
    assert.equal(built.source, 'built');
    const again = await currentHierarchy(graph, dir);
    assert.equal(again.source, 'loaded');
    assert.deepEqual(again.hierarchy.toJSON(), a.toJSON());
    assert.deepEqual((await loadHierarchy(dir))!.toJSON(), a.toJSON());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the adjusted Rand index: 1 for the same partition under other names, 0 or below for unrelated ones', () => {
  const a = new Map([['x', '1'], ['y', '1'], ['z', '2'], ['w', '2']]);
  assert.equal(adjustedRandIndex(a, new Map([['x', 'b'], ['y', 'b'], ['z', 'a'], ['w', 'a']])), 1);
  assert.ok(adjustedRandIndex(a, new Map([['x', 'a'], ['y', 'b'], ['z', 'a'], ['w', 'b']])) <= 0);
  // Worked by hand (Hubert & Arabie): pairs together in both 1, rows 4, columns 3, of 15 pairs: (1 − 0.8) / (3.5 − 0.8).
  const u = new Map([['1', 'a'], ['2', 'a'], ['3', 'a'], ['4', 'b'], ['5', 'b'], ['6', 'c']]);
  const v = new Map([['1', 'x'], ['2', 'x'], ['3', 'y'], ['4', 'y'], ['5', 'z'], ['6', 'z']]);
  assert.ok(Math.abs(adjustedRandIndex(u, v) - 0.2 / 2.7) < 1e-9, String(adjustedRandIndex(u, v)));
});

test('grounding: the non-nested folders where the area branches or dominates', () => {
  const repo = filesPerFolder(['a/x/1.py', 'a/x/2.py', 'a/y/1.py', 'a/y/2.py', 'a/z/1.py', 'b/1.py', 'b/c/2.py', 'setup.py']);
  // One branch: down to where it is.
  assert.deepEqual(groundArea(['a/x/1.py', 'a/x/2.py'], repo), ['a/x']);
  // Two of a/'s three folders: a/ holds 4 of its 5 files, a majority, so a/ itself.
  assert.deepEqual(groundArea(['a/x/1.py', 'a/x/2.py', 'a/y/1.py', 'a/y/2.py'], repo), ['a']);
  // Files in two places that share only the root, which the area does not dominate: both, not the root.
  assert.deepEqual(groundArea(['a/z/1.py', 'b/c/2.py'], repo), ['a/z', 'b/c']);
  // A file directly in a folder grounds the area there.
  assert.deepEqual(groundArea(['b/1.py', 'b/c/2.py'], repo), ['b']);
  assert.deepEqual(groundArea(['setup.py', 'b/1.py'], repo), ['']);
});

test('evolution: re-lift by content hash, re-route on drift, prune emptied areas, route new files', async () => {
  const tree = realTree();
  const graph = await buildGraph(tree);
  const h = FeatureHierarchy.build(graph);
  const apply = async (changes: { upsert?: Array<[string, string]>; remove?: string[] }) => {
    const upsert = await Promise.all((changes.upsert ?? []).map(([p, t]) => parse(p, t)));
    graph.apply({ upsert, remove: changes.remove });
    return h.update(graph, [...(changes.upsert ?? []).map(([p]) => p), ...(changes.remove ?? [])]);
  };

  // A body edit changes one function's hash: that function alone is lifted again, and the file stays put.
  const helpers = 'flask/helpers.py';
  const leaf = h.leafOf(helpers);
  const edited = tree.get(helpers)!.replace('def get_debug_flag() -> bool:\n', 'def get_debug_flag() -> bool:\n    marker = 1\n');
  assert.notEqual(edited, tree.get(helpers));
  let report = await apply({ upsert: [[helpers, edited]] });
  assert.equal(report.relifted, 1);
  assert.equal(report.reused, h.entitiesOf(helpers).length - 1);
  assert.equal(report.rerouted, 0);
  assert.equal(h.leafOf(helpers), leaf);

  // Deleting every file of a leaf removes their entities and prunes the leaf.
  const victim = h.areas.get(h.leafOf('werkzeug/datastructures.py')!)!;
  assert.ok(!victim.files.some((f) => f.startsWith('requests/')), 'the routing check below needs requests/ kept');
  const entities = victim.files.reduce((n, f) => n + h.entitiesOf(f).length, 0);
  report = await apply({ remove: victim.files });
  assert.equal(report.removedEntities, entities);
  assert.ok(report.pruned >= 1);
  assert.equal(h.areas.has(victim.id), false);

  // A new file is routed top-down to a leaf: a copy of requests' sessions lands with requests' code.
  report = await apply({ upsert: [['requests/sessions_copy.py', tree.get('requests/sessions.py')!]] });
  assert.equal(report.addedFiles, 1);
  assert.equal(h.leafOf('requests/sessions_copy.py'), h.leafOf('requests/sessions.py'));

  // A file whose content becomes another's drifts and is routed again.
  const moved = 'flask/signals.py';
  report = await apply({ upsert: [[moved, tree.get('httpx/_client.py')!]] });
  assert.equal(report.rerouted, 1);

  assert.deepEqual(coverageProblems(graph, h), []);
  // What is kept on disk reloads to the same hierarchy, and a loaded one catches up with nothing to do.
  const reloaded = FeatureHierarchy.fromJSON(JSON.parse(JSON.stringify(h.toJSON())));
  assert.deepEqual(reloaded.toJSON(), h.toJSON());
  assert.deepEqual(Object.values(reloaded.sync(graph)).filter((n) => n > 0), []);
});

test('settled after edits, the view is a build\'s whatever the order of the edits; a view a model grouped keeps evolving', async () => {
  const tree = realTree();
  const edits: Array<[string, string | undefined]> = [
    ['requests/sessions_copy.py', tree.get('requests/sessions.py')],
    ['flask/signals.py', tree.get('httpx/_client.py')],
    ['werkzeug/datastructures.py', undefined],
    ['httpx/_auth_extra.py', tree.get('requests/auth.py')],
  ];
  const replay = async (order: typeof edits) => {
    const graph = await buildGraph(tree);
    const h = FeatureHierarchy.build(graph);
    for (const [p, text] of order) {
      graph.apply(text === undefined ? { upsert: [], remove: [p] } : { upsert: [await parse(p, text)] });
      h.update(graph, [p]);
    }
    return { graph, h };
  };
  const forward = await replay(edits);
  const backward = await replay([...edits].reverse());
  assert.equal(forward.h.settled, false);
  const rebuilt = FeatureHierarchy.build(forward.graph).toJSON();
  for (const { graph, h } of [forward, backward]) {
    const version = h.version;
    assert.notEqual(settleHierarchy(h, graph), undefined);
    assert.ok(h.version > version, 'what is derived from the view (its search) refreshes');
    assert.deepEqual(h.toJSON(), rebuilt);
    assert.deepEqual(coverageProblems(graph, h), []);
    assert.equal(settleHierarchy(h, graph), undefined, 'nothing left to settle');
  }
  // grouped by a model: a build would lose the grouping where parts moved, so routing goes on
  const grouped = await replay([]);
  grouped.h.regroup([{ name: 'Everything', units: grouped.h.root.children }]);
  grouped.graph.apply({ upsert: [await parse('flask/extra.py', tree.get('flask/helpers.py')!)] });
  grouped.h.update(grouped.graph, ['flask/extra.py']);
  assert.equal(settleHierarchy(grouped.h, grouped.graph), undefined);
  assert.equal(grouped.h.root.children.length, 1);
});

test('the agent tools walk and search the functional view, and it follows a save', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-features-tools-'));
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), dir, { recursive: true });
  // settled when the test asks (settleFeatures), not on a timer the test would race
  const repo = await LocalRepository.open(dir, { storeDir: path.join(dir, '.cartograph'), settleAfterMs: Infinity });
  const ok = (result: Awaited<ReturnType<typeof repo.runTool>>) => {
    assert.ok(result.ok, result.ok ? '' : result.error);
    return result;
  };
  try {
    await repo.index();
    // A search does not wait for a first build: it shows features once something has asked about areas.
    const before = ok(await repo.runTool('search_code', { query: 'register error handler function' }));
    assert.equal(before.structured.featureAreas, undefined);
    assert.ok(!fs.existsSync(path.join(dir, '.cartograph', FEATURES_FILE)));
    const overview = ok(await repo.runTool('repo_overview', { byArea: true }));
    assert.ok(fs.existsSync(path.join(dir, '.cartograph', FEATURES_FILE)));
    const areas = overview.structured.areas as Array<{ id: string; files: number }>;
    assert.ok(areas.length >= 2, overview.text);
    assert.equal(areas.filter((a) => !a.id.includes('.')).reduce((n, a) => n + a.files, 0), 22, 'the top-level areas hold every file once');

    const run = ok(await repo.runTool('explore_graph', { id: 'app.py#Flask.run' }));
    const leaf = (run.structured.areas as string[]).at(-1)!;
    assert.ok(run.text.includes(`(area:${leaf})`), run.text);
    const walked = ok(await repo.runTool('explore_graph', { id: `area:${leaf}`, direction: 'out', depth: 2, limit: 200 }));
    assert.match(walked.text, /→ FILE +app\.py/);
    assert.match(walked.text, /→ METHOD +\S+\.app\.Flask\.run {2}app\.py:\d+ — run flask; run application on local development/);
    const missing = await repo.runTool('explore_graph', { id: 'area:99.99' });
    assert.ok(!missing.ok && missing.error.startsWith('no area "99.99"'));

    // A behavioural phrase finds definitions by their features, each hit says what it does.
    const found = ok(await repo.runTool('search_code', { query: 'register error handler function' }));
    assert.match(found.text, /does: /);
    assert.ok((found.structured.featureAreas as unknown[]).length > 0, found.text);

    // A new file saved is routed into an area (the view is caught up from the graph) and saved with it.
    fs.writeFileSync(path.join(dir, 'sessions_extra.py'), fs.readFileSync(path.join(dir, 'sessions.py'), 'utf8'));
    await repo.updateFile(path.join(dir, 'sessions_extra.py'));
    const extra = ok(await repo.runTool('explore_graph', { id: 'sessions_extra.py' }));
    assert.match(extra.text, /in area /);
    const saved = (await loadHierarchy(path.join(dir, '.cartograph')))!;
    assert.equal(saved.leafOf('sessions_extra.py'), saved.leafOf('sessions.py'));
    assert.equal(saved.settled, false);
    // Once the edits pause it is settled to what a build gives, and saved so.
    assert.equal(await repo.settleFeatures(), true);
    const settled = (await loadHierarchy(path.join(dir, '.cartograph')))!;
    assert.deepEqual(settled.toJSON(), FeatureHierarchy.build(repo.engine.graph).toJSON());
    assert.equal(await repo.settleFeatures(), false, 'nothing left to settle');
  } finally {
    await repo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
