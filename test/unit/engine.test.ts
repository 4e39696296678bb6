// The engine end to end on real files in temp folders: bad input never stops an index, warm starts
// re-parse only what changed (also when files changed while it was closed), the store mirrors the
// graph, and a broken store degrades to memory instead of failing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { OnDemandWorkerParser } from '../../src/core/parse/parseService';
import { GraphStore } from '../../src/core/store/graphStore';
import { FIXTURES, buildGraph, compareSnapshots, readTree, snapshot, turnsDuring } from './helpers';

const temps: string[] = [];
after(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

/** A copy of a fixture in a fresh temp folder named `name` (the folder name is the Python package name). */
function copyFixture(fixture: string, name: string): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-engine-'));
  temps.push(parent);
  const root = path.join(parent, name);
  // A store left in the fixture (the README's first command makes one) must not leak into the test.
  fs.cpSync(path.join(FIXTURES, fixture), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  return root;
}

async function expectEqualToScratch(engine: Engine, root: string): Promise<void> {
  const tree = readTree(root);
  for (const skipped of engine.stats().skipped) tree.delete(skipped.path);
  const differences = compareSnapshots(snapshot(engine.graph), snapshot(await buildGraph(tree, path.basename(root))));
  assert.deepEqual(differences, []);
}

test('bad input is skipped with a reason and never stops the index', async () => {
  const root = copyFixture('real/flask', 'flask');
  fs.writeFileSync(path.join(root, 'broken.py'), 'def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Kept:\n    pass\n');
  fs.writeFileSync(path.join(root, 'binary.py'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  fs.writeFileSync(path.join(root, 'latin1.py'), Buffer.from('name = "caf\xe9"\n', 'latin1'));
  fs.writeFileSync(path.join(root, 'huge.py'), `x = 1\n${'# padding\n'.repeat(20000)}`);
  fs.symlinkSync(root, path.join(root, 'loop'));
  fs.symlinkSync(path.join(root, 'nowhere.py'), path.join(root, 'dangling.py'));
  fs.writeFileSync(path.join(root, '.gitignore'), 'ignored_dir/\n');
  fs.mkdirSync(path.join(root, 'ignored_dir'));
  fs.writeFileSync(path.join(root, 'ignored_dir', 'secret.py'), 'def hidden(): pass\n');

  const engine = await Engine.open(root, { storeDir: null, maxFileSize: 100_000 });
  const report = await engine.index();
  const reasons = Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]));
  assert.equal(reasons['binary.py'], 'binary');
  assert.equal(reasons['latin1.py'], 'not-utf8');
  assert.equal(reasons['huge.py'], 'too-large');
  assert.equal(reasons['dangling.py'], 'dangling-symlink');
  assert.equal(reasons.loop, 'symlink-loop');
  assert.ok(!engine.graph.fileGraph('ignored_dir/secret.py'), '.gitignore is honoured');
  // Broken syntax: what tree-sitter recovered is kept.
  const broken = engine.graph.fileGraph('broken.py')!;
  assert.ok(broken.syntaxErrors > 0);
  assert.ok(engine.graph.graph.hasNode('broken.py#ok'));
  assert.ok(engine.graph.graph.hasNode('broken.py#Kept'));
  assert.ok(engine.graph.graph.hasNode('app.py#Flask'), 'the good files are all indexed');
  assert.equal(engine.stats().syntaxErrorFiles, 1);
  await engine.close();
});

test('a file that vanishes or turns binary on update leaves the graph consistent', async () => {
  const root = copyFixture('ranger-py', 'ranger');
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  fs.rmSync(path.join(root, 'base.py'));
  await engine.updateFile(path.join(root, 'base.py'));
  assert.ok(!engine.graph.graph.hasNode('base.py#Calculator'));
  fs.writeFileSync(path.join(root, 'extended.py'), Buffer.from([0, 1, 2]));
  await engine.updateFile('extended.py');
  assert.ok(!engine.graph.graph.hasNode('extended.py'));
  assert.equal(engine.stats().skipped.find((s) => s.path === 'extended.py')?.reason, 'binary');
  assert.equal(engine.graph.graph.order, 0, 'no folder or external node outlives its files');
  await engine.close();
});

test('a symlink out of the root is not indexed, nor taken on save or outside change; followSymlinks takes it', async () => {
  const root = copyFixture('ranger-py', 'ranger');
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-outside-'));
  temps.push(outside);
  const secret = path.join(outside, 'secret.py');
  fs.writeFileSync(secret, 'def aws_secret_key():\n    return "hunter2"\n');
  fs.symlinkSync(secret, path.join(root, 'notes.py'));
  fs.symlinkSync('base.py', path.join(root, 'alias.py'));
  const reason = (engine: Engine, rel: string) => engine.stats().skipped.find((s) => s.path === rel)?.reason;

  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  assert.equal(reason(engine, 'notes.py'), 'outside-root');
  assert.ok(!engine.graph.graph.hasNode('notes.py#aws_secret_key'));
  assert.ok(engine.graph.graph.hasNode('alias.py#Calculator'), 'a link inside the root is indexed');
  // A watcher event for the link, and a save whose buffer holds the outside file's text.
  await engine.updateFile(path.join(root, 'notes.py'));
  await engine.updateFile('notes.py', fs.readFileSync(secret, 'utf8'));
  assert.ok(!engine.graph.graph.hasNode('notes.py#aws_secret_key'));
  assert.equal(reason(engine, 'notes.py'), 'outside-root');
  // An indexed file replaced by a link out of the root (a checkout), seen in a watcher batch.
  fs.rmSync(path.join(root, 'extended.py'));
  fs.symlinkSync(secret, path.join(root, 'extended.py'));
  await engine.syncPaths([path.join(root, 'extended.py')]);
  assert.ok(!engine.graph.graph.hasNode('extended.py#aws_secret_key'));
  assert.ok(!engine.graph.graph.hasNode('extended.py#Scientific'), 'its old graph is gone');
  assert.equal(reason(engine, 'extended.py'), 'outside-root');
  await engine.close();

  const following = await Engine.open(root, { storeDir: null, followSymlinks: true });
  await following.index();
  assert.ok(following.graph.graph.hasNode('notes.py#aws_secret_key'));
  assert.ok(following.graph.graph.hasNode('extended.py#aws_secret_key'));
  await following.updateFile('notes.py', 'def renamed():\n    pass\n');
  assert.ok(following.graph.graph.hasNode('notes.py#renamed'), 'a save is taken too');
  await following.close();
});

test('minified JavaScript is skipped on index, save and outside change, unless includeMinified', async () => {
  const root = copyFixture('real/abort-controller', 'abort-controller');
  const minified = fs.readFileSync(path.join(root, 'dist', 'abort-controller.umd.js'), 'utf8');
  const readable = fs.readFileSync(path.join(root, 'dist', 'abort-controller.js'), 'utf8');
  const engine = await Engine.open(root, { storeDir: null });
  const report = await engine.index();
  assert.deepEqual(report.skipped.map((s) => `${s.path}: ${s.reason}`), ['dist/abort-controller.umd.js: minified']);
  assert.ok(engine.graph.graph.hasNode('dist/abort-controller.js#AbortController'), 'the readable build is indexed');
  // An editor saves minified text over the readable file: it leaves the graph, reported as minified.
  await engine.updateFile('dist/abort-controller.js', minified);
  assert.ok(!engine.graph.fileGraph('dist/abort-controller.js'));
  assert.equal(engine.stats().skipped.find((s) => s.path === 'dist/abort-controller.js')?.reason, 'minified');
  await engine.updateFile('dist/abort-controller.js', readable);
  assert.ok(engine.graph.fileGraph('dist/abort-controller.js'), 'readable again: indexed again');
  // A checkout adds a vendored copy and a .min.js build: neither is read into the graph.
  fs.mkdirSync(path.join(root, 'vendor'));
  fs.writeFileSync(path.join(root, 'vendor', 'abort-controller.js'), readable);
  fs.writeFileSync(path.join(root, 'dist', 'abort-controller.min.js'), minified);
  await engine.syncPaths(['vendor/abort-controller.js', 'dist/abort-controller.min.js']);
  assert.deepEqual(engine.graph.filePaths(), ['dist/abort-controller.js']);
  assert.deepEqual(engine.stats().skipped.map((s) => `${s.path}: ${s.reason}`).sort(), [
    'dist/abort-controller.min.js: minified',
    'dist/abort-controller.umd.js: minified',
    'vendor/abort-controller.js: vendored',
  ]);
  await engine.close();
  const storeDir = path.join(path.dirname(root), 'store');
  const all = await Engine.open(root, { storeDir, includeMinified: true });
  assert.deepEqual((await all.index()).skipped, []);
  assert.equal(all.graph.filePaths().length, 4);
  await all.close();
  // Without options of its own an engine reads the folder as the store recorded it: minified files too.
  const recorded = await Engine.open(root, { storeDir });
  assert.deepEqual((await recorded.index()).skipped, []);
  await recorded.close();
  // Rules on again over that store: the unchanged minified file is not kept just because it is unchanged.
  const warm = await Engine.open(root, { storeDir, includeMinified: false });
  const again = await warm.index();
  assert.deepEqual(again.skipped.map((s) => s.path).sort(), ['dist/abort-controller.min.js', 'dist/abort-controller.umd.js', 'vendor/abort-controller.js']);
  assert.deepEqual(warm.graph.filePaths(), ['dist/abort-controller.js']);
  assert.equal(again.reused, 1, 'the readable file is reused unread');
  await warm.close();
});

test('responsive: saves parse in a worker thread: the event loop keeps turning and the graph is right', async () => {
  const root = copyFixture('real/flask', 'flask');
  const engine = await Engine.open(root, { storeDir: null, responsive: true });
  await engine.index();
  const file = path.join(root, 'app.py'); // 2,548 lines
  const text = `${fs.readFileSync(file, 'utf8')}\n\ndef added_by_a_save():\n    return 1\n`;
  fs.writeFileSync(file, text);
  const { turns } = await turnsDuring(() => engine.updateFile(file, text));
  // Parsed in this thread, the whole file is one turn; in the worker, this thread spins meanwhile.
  assert.ok(turns >= 5, `only ${turns} event-loop turns during the save`);
  assert.ok(engine.graph.graph.hasNode('app.py#added_by_a_save'));
  await expectEqualToScratch(engine, root);
  await engine.close();
});

test('the on-demand parse worker stops when idle and starts again for the next save', async () => {
  const parser = new OnDemandWorkerParser(50);
  const job = { path: 'm.py', language: 'python' as const, text: 'def f():\n    return 1\n' };
  const [first] = await parser.parse([job]);
  assert.ok(first.ok && first.graph.symbols.some((s) => s.name === 'f'));
  assert.ok(parser.started);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(!parser.started, 'stopped after 50 ms idle');
  const [again] = await parser.parse([job]);
  assert.ok(again.ok);
  await parser.close();
});

test('warm start re-parses only files changed while closed, and equals a fresh build', async () => {
  const root = copyFixture('real/flask', 'flask');
  const storeDir = path.join(root, '.cartograph');
  let engine = await Engine.open(root);
  const cold = await engine.index();
  assert.equal(cold.parsed, 22);
  // Edits through the engine are persisted.
  const helpers = path.join(root, 'helpers.py');
  fs.writeFileSync(helpers, `${fs.readFileSync(helpers, 'utf8')}\n\ndef added_while_open():\n    return get_debug_flag()\n`);
  await engine.updateFile(helpers);
  await engine.close();

  // While closed: one file edited, one deleted, one added.
  fs.appendFileSync(path.join(root, 'views.py'), '\n\ndef added_while_closed():\n    return View()\n');
  fs.rmSync(path.join(root, 'signals.py'));
  fs.writeFileSync(path.join(root, 'extra.py'), 'from .app import Flask\n\nclass Custom(Flask):\n    pass\n');

  engine = await Engine.open(root);
  assert.ok(engine.graph.graph.hasNode('helpers.py#added_while_open'), 'the graph comes back from the store before any scan');
  const warm = await engine.index();
  assert.equal(warm.parsed, 2, 'views.py and extra.py');
  assert.equal(warm.removed, 1);
  assert.ok(engine.graph.graph.hasNode('views.py#added_while_closed'));
  assert.ok(engine.graph.graph.hasEdge('INHERITS|extra.py#Custom|app.py#Flask'));
  await expectEqualToScratch(engine, root);
  await engine.close();

  // The store mirrors the graph: its nodes and edges are the graph's.
  const { store } = await GraphStore.open(storeDir);
  const stored = await store.loadAll();
  await store.close();
  engine = await Engine.open(root);
  await engine.index();
  assert.deepEqual(new Set(stored.nodes.map((n) => n.id)), new Set(engine.graph.graph.nodes()));
  assert.deepEqual(new Set(stored.edges.map((e) => e.id)), new Set(engine.graph.graph.edges()));
  await engine.close();
});

test('a corrupt store is rebuilt and the index still completes', async () => {
  const root = copyFixture('ranger-py', 'ranger');
  let engine = await Engine.open(root);
  await engine.index();
  await engine.close();
  const storeDir = path.join(root, '.cartograph');
  for (const entry of fs.readdirSync(storeDir)) {
    const p = path.join(storeDir, entry);
    if (fs.statSync(p).isDirectory()) fs.rmSync(p, { recursive: true });
    else fs.writeFileSync(p, 'garbage');
  }
  const logs: string[] = [];
  engine = await Engine.open(root, { log: (m) => logs.push(m) });
  const report = await engine.index();
  assert.equal(report.parsed, 2);
  assert.ok(engine.graph.graph.hasNode('extended.py#Scientific'));
  assert.match(engine.stats().store.status, /rebuilt/);
  assert.ok(logs.some((l) => /rebuilt/.test(l)));
  await engine.close();
});

test('an unusable store folder degrades to an in-memory index with a message', async () => {
  const root = copyFixture('ranger-py', 'ranger');
  const blocker = path.join(root, 'not-a-folder');
  fs.writeFileSync(blocker, 'a file where the store folder should go');
  const logs: string[] = [];
  const engine = await Engine.open(root, { storeDir: path.join(blocker, 'store'), log: (m) => logs.push(m) });
  await engine.index();
  assert.ok(engine.graph.graph.hasNode('base.py#Calculator'));
  assert.equal(engine.stats().store.status, 'unavailable');
  assert.ok(logs.some((l) => /continuing in memory/.test(l)));
  await engine.close();
});

test('syncPaths applies a batch of outside changes (a branch switch) as one update', async () => {
  const root = copyFixture('real/flask', 'flask');
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  fs.appendFileSync(path.join(root, 'views.py'), '\n\ndef switched():\n    return View()\n');
  fs.rmSync(path.join(root, 'signals.py'));
  fs.writeFileSync(path.join(root, 'fresh.py'), 'from .views import switched\n');
  fs.writeFileSync(path.join(root, 'logging.py'), Buffer.from([0, 0, 0]));
  const untouched = path.join(root, 'config.py');
  await engine.syncPaths(['views.py', 'signals.py', 'fresh.py', 'logging.py', untouched, 'README.txt']);
  assert.equal(engine.graph.lastApply.resolved > 0, true);
  assert.ok(engine.graph.graph.hasEdge('IMPORTS|fresh.py|views.py#switched'));
  assert.ok(!engine.graph.fileGraph('signals.py'));
  assert.equal(engine.stats().skipped.find((s) => s.path === 'logging.py')?.reason, 'binary');
  await expectEqualToScratch(engine, root);
  await engine.close();
});

test('syncPaths over files the graph already has as they are keeps the graph version (an answer re-checks its files)', async () => {
  const root = copyFixture('real/flask', 'flask');
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  const before = engine.graph.version;
  await engine.syncPaths(['views.py', 'app.py', 'README.txt']);
  assert.equal(engine.graph.version, before);
  fs.appendFileSync(path.join(root, 'views.py'), '\n\ndef later():\n    return 1\n');
  await engine.syncPaths(['views.py', 'app.py']);
  assert.equal(engine.graph.version, before + 1);
  assert.ok(engine.graph.graph.hasNode('views.py#later'));
  await engine.close();
});

test('a store folder deleted while running is recreated by the first save after, whole', async () => {
  const root = copyFixture('ranger-py', 'ranger');
  const storeDir = path.join(root, '.cartograph');
  const logs: string[] = [];
  const engine = await Engine.open(root, { log: (m) => logs.push(m) });
  await engine.index();
  fs.rmSync(storeDir, { recursive: true, force: true });
  const base = path.join(root, 'base.py');
  fs.appendFileSync(base, '\n\ndef after_delete():\n    return 1\n');
  await engine.updateFile(base);
  await engine.flush();
  assert.notEqual(engine.stats().store.status, 'unavailable', logs.join('\n'));
  assert.equal(engine.stats().store.dir, storeDir);
  assert.ok(logs.some((l) => /recreated/.test(l)), logs.join('\n'));
  await engine.close();
  const { store } = await GraphStore.open(storeDir);
  const stored = await store.loadAll();
  await store.close();
  const reopened = await Engine.open(root, { storeDir: null });
  await reopened.index();
  assert.deepEqual(new Set(stored.nodes.map((n) => n.id)), new Set(reopened.graph.graph.nodes()));
  assert.deepEqual(new Set(stored.edges.map((e) => e.id)), new Set(reopened.graph.graph.edges()));
  assert.ok(stored.nodes.some((n) => n.id === 'base.py#after_delete'), 'the save that found the loss is in the store');
  await reopened.close();
});

test('a generated Go file is indexed and reported as generated', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-engine-'));
  temps.push(root);
  fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/pill\n\ngo 1.19\n');
  fs.writeFileSync(path.join(root, 'pill.go'), 'package pill\n\n// Pill is a kind of pill.\ntype Pill int\n');
  // stringer's header, as `go generate` writes it (https://go.dev/s/generatedcode)
  fs.writeFileSync(path.join(root, 'pill_string.go'), '// Code generated by "stringer -type=Pill"; DO NOT EDIT.\n\npackage pill\n\nfunc (i Pill) String() string { return "pill" }\n');
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  const stats = engine.stats();
  assert.deepEqual(stats.generatedFiles, ['pill_string.go']);
  assert.ok(engine.graph.graph.hasNode('pill_string.go#Pill.String'), 'indexed all the same');
  await engine.close();
});
