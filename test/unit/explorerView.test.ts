// The explorer's view model on real code (the Flask fixture indexed by the engine): folder/module
// level first, edges aggregated to the nearest visible ends with exact weights, expand/collapse/focus
// as minimal diffs, a hard node cap that no sequence of actions can pass, and graph updates after an
// edit arriving as view diffs that turn the old view into the new one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { Containment, type Graph } from '../../src/core/explorer/containment';
import type { Area } from '../../src/core/features/hierarchy';
import { MultiDirectedGraph } from 'graphology';
import type { GraphNode } from '../../src/core/model/schema';
import { EXTERNALS_GROUP, type HostMessage, type ViewDiff, type ViewGraph } from '../../src/core/explorer/protocol';
import { nodeAtLine, searchNodes } from '../../src/core/explorer/search';
import { ExplorerSession } from '../../src/core/explorer/session';
import { ExplorerView } from '../../src/core/explorer/viewModel';
import { createSearcher } from '../../src/core/search';
import { FIXTURES, buildGraph, rng } from './helpers';

let root: string;
let engine: Engine;
let graph: Graph;

before(async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-explorer-'));
  root = path.join(parent, 'flask');
  fs.cpSync(path.join(FIXTURES, 'real/flask'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  engine = await Engine.open(root, { storeDir: null, workers: 0 });
  await engine.index();
  graph = engine.graph.graph;
});
after(async () => {
  await engine.close();
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});

/** The view a diff produces when applied to `view` (what the webview does with it). */
function applyDiff(view: ViewGraph, diff: ViewDiff): ViewGraph {
  const nodes = new Map(view.nodes.map((n) => [n.id, n]));
  const edges = new Map(view.edges.map((e) => [e.id, e]));
  for (const id of diff.nodes.remove) nodes.delete(id);
  for (const id of diff.edges.remove) edges.delete(id);
  for (const n of diff.nodes.upsert) nodes.set(n.id, n);
  for (const e of diff.edges.upsert) edges.set(e.id, e);
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

function sorted(view: ViewGraph): ViewGraph {
  return { nodes: [...view.nodes].sort((a, b) => a.id.localeCompare(b.id)), edges: [...view.edges].sort((a, b) => a.id.localeCompare(b.id)) };
}

/** Every visible node hangs under a visible, expanded parent; no edge points outside the view. */
function assertConsistent(view: ViewGraph): void {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  for (const n of view.nodes) {
    if (n.parent === undefined) continue;
    const parent = byId.get(n.parent);
    assert.ok(parent, `${n.id}: parent ${n.parent} is visible`);
    assert.ok(parent.expanded, `${n.id}: parent ${n.parent} is expanded`);
  }
  for (const e of view.edges) assert.ok(byId.has(e.source) && byId.has(e.target), `edge ${e.id} joins visible nodes`);
}

test('the first view is the folder and module level, with every module of the repository', () => {
  const view = new ExplorerView(graph).snapshot();
  const kinds = new Set(view.nodes.map((n) => n.kind));
  assert.deepEqual([...kinds].sort(), ['Externals', 'Folder', 'Module']);
  const modules = view.nodes.filter((n) => n.kind === 'Module').map((n) => n.id).sort();
  assert.deepEqual(modules, engine.graph.filePaths().sort());
  assert.ok(view.nodes.some((n) => n.id === 'dir:json' && n.expanded), 'the json package is opened');
  const app = view.nodes.find((n) => n.id === 'app.py')!;
  assert.equal(app.expanded, false);
  assert.ok(app.children > 0 && app.descendants >= app.children);
  assertConsistent(view);
});

test('edges between collapsed modules aggregate every graph edge beneath them, with exact weights', () => {
  const view = new ExplorerView(graph).snapshot();
  // independent expectation: with all modules collapsed, a symbol is represented by its file's module
  const rep = (id: string) => {
    const n = graph.getNodeAttributes(id);
    return n.kind === 'External' ? EXTERNALS_GROUP : n.kind === 'Folder' ? id : n.path;
  };
  const expected = new Map<string, number>();
  graph.forEachEdge((_, e, s, t) => {
    const [a, b] = [rep(s), rep(t)];
    if (a === b) return;
    const id = `${e.kind}|${a}|${b}`;
    expected.set(id, (expected.get(id) ?? 0) + 1);
  });
  assert.deepEqual(new Map(view.edges.map((e) => [e.id, e.weight])), expected);
  const appToHelpers = view.edges.find((e) => e.id === 'IMPORTS|app.py|helpers.py');
  assert.ok(appToHelpers, 'app.py imports helpers.py');
});

test('expanding a module sends its definitions and re-homes its edges; collapsing undoes exactly that', () => {
  const view = new ExplorerView(graph);
  const before = view.snapshot();
  const opened = view.expand('app.py');
  assert.deepEqual(opened.nodes.remove, []);
  const added = opened.nodes.upsert.filter((n) => n.id !== 'app.py');
  assert.ok(added.some((n) => n.id === 'app.py#Flask' && n.kind === 'Class' && n.parent === 'app.py'));
  assert.ok(added.every((n) => n.parent === 'app.py'), 'only the module\'s direct children appear');
  assert.equal(opened.nodes.upsert.find((n) => n.id === 'app.py')!.expanded, true);
  const after = view.snapshot();
  assert.deepEqual(sorted(applyDiff(before, opened)), sorted(after));
  assert.ok(after.edges.some((e) => e.id === 'CONTAINS|app.py|app.py#Flask'));
  assert.ok(after.edges.some((e) => e.kind === 'INHERITS' && e.source === 'app.py#Flask' && e.target === 'scaffold.py'), 'Flask(Scaffold) points at the collapsed scaffold module');
  assertConsistent(after);

  const closed = view.collapse('app.py');
  assert.deepEqual(closed.nodes.remove.sort(), added.map((n) => n.id).sort());
  assert.deepEqual(sorted(applyDiff(after, closed)), sorted(before));
});

test('focus opens exactly the ancestors of a method', () => {
  const view = new ExplorerView(graph);
  const diff = view.focus('app.py#Flask.make_response');
  assert.ok(view.isVisible('app.py#Flask.make_response'));
  const method = diff.nodes.upsert.find((n) => n.id === 'app.py#Flask.make_response')!;
  assert.equal(method.kind, 'Method');
  assert.equal(method.line, graph.getNodeAttributes('app.py#Flask.make_response').range!.startLine);
  assert.ok(!view.isVisible('scaffold.py#Scaffold'), 'other modules stay closed');
  assertConsistent(view.snapshot());
});

test('the node cap is never passed, whatever is expanded, and a refused expansion says why', () => {
  const cap = 60;
  // pages as long as the class: the Flask class alone has more members than the budget left
  const view = new ExplorerView(graph, { cap, page: 500 });
  view.expand('app.py');
  const refused = view.expand('app.py#Flask');
  assert.ok(view.snapshot().nodes.length <= cap);
  assert.equal(refused.nodes.upsert.length, 0);
  assert.ok(!view.isVisible('app.py#Flask.make_response'));
  assert.match(view.stats().capped ?? '', /Flask has \d+ children: opening it would show more than 60 nodes/);

  const random = rng(7);
  const ids = graph.nodes();
  // with pages of 5 too, so that "+N more" nodes are opened, closed with their parents and focused past
  for (const paged of [view, new ExplorerView(graph, { cap, page: 5 })]) {
    for (let i = 0; i < 300; i++) {
      const visible = paged.snapshot().nodes;
      const r = random();
      if (r < 0.5) paged.expand(visible[Math.floor(random() * visible.length)].id);
      else if (r < 0.7) paged.collapse(visible[Math.floor(random() * visible.length)].id);
      else paged.focus(ids[Math.floor(random() * ids.length)]);
      const now = paged.snapshot();
      assert.ok(now.nodes.length <= cap, `step ${i}: ${now.nodes.length} nodes`);
      assertConsistent(now);
    }
  }
});

test('an opened class shows its most connected members a page at a time; the rest are one "+N more" node that stands in for them', () => {
  const page = 20;
  const view = new ExplorerView(graph, { page });
  view.expand('app.py');
  let before = view.snapshot();
  const opened = view.expand('app.py#Flask');
  let after = view.snapshot();
  assert.deepEqual(sorted(applyDiff(before, opened)), sorted(after));
  assertConsistent(after);
  const tree = new Containment(graph);
  const members = tree.children('app.py#Flask');
  assert.ok(members.length > 3 * page, `Flask has ${members.length} members`);
  const shown = () => view.snapshot().nodes.filter((n) => n.parent === 'app.py#Flask' && n.kind !== 'More').map((n) => n.id);
  const more = () => view.snapshot().nodes.find((n) => n.id === 'more:app.py#Flask');
  assert.equal(shown().length, page);
  assert.equal(more()?.kind, 'More');
  assert.equal(more()?.children, members.length - page);
  assert.equal(more()?.label, `+${members.length - page} more`);
  // most connected first: no member left out has more edges than one shown
  const degree = (id: string) => graph.degree(id) + tree.descendants(id);
  const hidden = members.filter((m) => !shown().includes(m));
  assert.ok(Math.min(...shown().map(degree)) >= Math.max(...hidden.map(degree)), 'the shown members are the most connected');
  // a left-out member's edges are drawn from the "+N more" node, with their exact counts
  const fromMore = new Map<string, number>();
  const hiddenSet = new Set(hidden);
  const inHidden = (id: string) => tree.has(id) && [id, ...tree.ancestors(id)].some((a) => hiddenSet.has(a));
  graph.forEachEdge((_e, edge, source, target) => {
    const rep = view.representativeOf(target);
    if (!inHidden(source) || !rep || rep === 'more:app.py#Flask') return;
    const id = `${edge.kind}|more:app.py#Flask|${rep}`;
    fromMore.set(id, (fromMore.get(id) ?? 0) + 1);
  });
  assert.ok(fromMore.size > 0);
  for (const [id, weight] of fromMore) assert.equal(after.edges.find((e) => e.id === id)?.weight, weight, id);
  assert.equal(view.representativeOf(hidden[0]), 'more:app.py#Flask');

  // opening the "+N more" adds the next page and takes nothing away
  before = after;
  const next = view.expand('more:app.py#Flask');
  after = view.snapshot();
  assert.deepEqual(next.nodes.remove, []);
  assert.deepEqual(sorted(applyDiff(before, next)), sorted(after));
  assert.equal(shown().length, 2 * page);
  assert.equal(more()?.children, members.length - 2 * page);

  // a focused member out of the pages is shown (a search never lands on the "+N more")
  const last = hidden.at(-1)!;
  view.focus(last);
  assert.ok(view.isVisible(last));
  assert.equal(more()?.children, members.length - 2 * page - 1);
  assertConsistent(view.snapshot());

  // closed and opened again: the first page
  view.collapse('app.py#Flask');
  view.expand('app.py#Flask');
  assert.equal(shown().length, page);
  assert.ok(!view.isVisible(last));
  // every page opened: no "+N more" left
  while (more()) view.expand('more:app.py#Flask');
  assert.equal(shown().length, members.length);
  assertConsistent(view.snapshot());
});

test('an edit arrives as a view diff: new and removed definitions in open modules, a change mark on closed ones', async () => {
  const view = new ExplorerView(graph);
  view.expand('app.py');
  const before = view.snapshot();
  const file = path.join(root, 'app.py');
  const original = fs.readFileSync(file, 'utf8');
  const edited = `${original.replace(/\ndef _make_timedelta\(/, '\ndef _make_timedelta_renamed(')}\n\ndef explorer_probe():\n    return _make_timedelta_renamed(1)\n`;
  assert.notEqual(edited, original);
  const graphDiff = await engine.updateFile(file, edited);
  const diff = view.update(graphDiff);
  assert.deepEqual(diff.nodes.upsert.filter((n) => n.parent === 'app.py').map((n) => n.id).sort(), ['app.py#_make_timedelta_renamed', 'app.py#explorer_probe']);
  assert.deepEqual(diff.nodes.remove, ['app.py#_make_timedelta']);
  assert.ok(diff.changed.includes('app.py'));
  assert.deepEqual(sorted(applyDiff(before, diff)), sorted(view.snapshot()));

  // the same kind of edit in a closed module sends no definitions, only the mark and new counts
  const helpers = path.join(root, 'helpers.py');
  const diff2 = view.update(await engine.updateFile(helpers, `${fs.readFileSync(helpers, 'utf8')}\n\ndef explorer_probe_two():\n    return 2\n`));
  // (the module and its folders upsert: their descendant counts grew)
  assert.deepEqual(diff2.nodes.upsert.map((n) => n.id).sort(), ['dir:.', 'helpers.py']);
  assert.equal(diff2.nodes.upsert.find((n) => n.id === 'helpers.py')!.descendants, before.nodes.find((n) => n.id === 'helpers.py')!.descendants + 1);
  assert.deepEqual(diff2.changed, ['helpers.py']);
  await engine.updateFile(file, original);
  await engine.updateFile(helpers, fs.readFileSync(helpers, 'utf8'));
});

test('search ranks exact names first and reaches nodes the view does not show', () => {
  const hits = searchNodes(graph, 'make_response');
  assert.deepEqual(hits.slice(0, 2).map((h) => h.id).sort(), ['app.py#Flask.make_response', 'helpers.py#make_response'], 'the two exact names first');
  assert.ok(hits.every((h) => h.label.includes('make_response') || h.qname.toLowerCase().includes('make_response')));
  assert.deepEqual(searchNodes(graph, '   '), []);
  const prefix = searchNodes(graph, 'make_resp');
  assert.ok(prefix.some((h) => h.id === 'app.py#Flask.make_response'));
});

test('search ranks by kind before exact case and name length: the class before a field of its name', () => {
  // Flask.config (a field, exact case, short qname) used to come first for "config"
  const ids = (q: string) => searchNodes(graph, q).map((h) => h.id);
  const config = ids('config');
  assert.equal(config[0], 'config.py#Config');
  assert.ok(config.indexOf('config.py#Config') < config.indexOf('app.py#Flask.config'));
  assert.equal(ids('Config')[0], 'config.py#Config');
  const request = searchNodes(graph, 'request');
  assert.deepEqual(request.slice(0, 2).map((h) => h.kind), ['Class', 'GlobalVariable'], 'the class, then the module-level variable');
  assert.ok(request.findIndex((h) => h.kind === 'Field') > 1, 'a field named request after both');
  assert.equal(searchNodes(graph, 'environment')[0].id, 'templating.py#Environment');
});

test('the first view opens the folders that hold the most code, within its budget', () => {
  const g: Graph = new MultiDirectedGraph({ allowSelfLoops: true });
  const node = (id: string, kind: GraphNode['kind'], name: string, path: string) =>
    g.addNode(id, { id, kind, name, qname: name, path, language: kind === 'Folder' ? '' : 'python', range: null, signature: '', doc: '', hash: '', exported: true });
  const contain = (source: string, target: string) => g.addEdgeWithKey(`CONTAINS|${source}|${target}`, source, target, { id: `CONTAINS|${source}|${target}`, kind: 'CONTAINS', source, target, line: -1, owner: '' });
  node('dir:.', 'Folder', '.', '');
  // two small folders listed first, one big one last: breadth-first order would open the small ones
  for (const [folder, files] of [['a', 2], ['b', 2], ['big', 8]] as const) {
    node(`dir:${folder}`, 'Folder', folder, folder);
    contain('dir:.', `dir:${folder}`);
    for (let i = 0; i < files; i++) {
      const file = `${folder}/m${i}.py`;
      node(file, 'Module', `m${i}.py`, file);
      contain(`dir:${folder}`, file);
      node(`${file}#f`, 'Function', 'f', file);
      contain(file, `${file}#f`);
    }
  }
  const shown = (budget: number) => new ExplorerView(g, { initialBudget: budget }).snapshot().nodes.filter((n) => n.expanded).map((n) => n.id).sort();
  assert.deepEqual(shown(12), ['dir:.', 'dir:big'], '1 + 3 + 8 = 12 nodes: the big folder, not the two small ones');
  assert.deepEqual(shown(16), ['dir:.', 'dir:a', 'dir:b', 'dir:big']);
  assert.deepEqual(shown(3), [], 'the root alone does not fit: nothing opens');
});

test('the symbol under the cursor is the innermost definition spanning the line', () => {
  const nodes = engine.graph.nodesInFile('app.py');
  const method = graph.getNodeAttributes('app.py#Flask.make_response');
  assert.equal(nodeAtLine(nodes, method.range!.startLine + 2)?.id, 'app.py#Flask.make_response');
  const flask = graph.getNodeAttributes('app.py#Flask');
  assert.equal(nodeAtLine(nodes, flask.range!.startLine)?.id, 'app.py#Flask');
  assert.equal(nodeAtLine(nodes, 0)?.id, 'app.py', 'outside any definition: the module');
});

test('a session answers the webview: full graph on ready, diffs on expand, results on search, select on focus', () => {
  const sent: HostMessage[] = [];
  const session = new ExplorerSession('flask', graph, (m) => sent.push(m));
  assert.equal(session.handle({ type: 'ready' }), true);
  assert.equal(sent[0].type, 'graph');
  session.handle({ type: 'expand', id: 'app.py' });
  assert.equal(sent[1].type, 'diff');
  session.handle({ type: 'expand', id: 'app.py' });
  assert.equal(sent.length, 2, 'expanding an open node sends nothing');
  session.handle({ type: 'search', query: 'jsonify' });
  assert.ok(sent[2].type === 'searchResults' && sent[2].hits.some((h) => h.id === 'json/__init__.py#jsonify'));
  session.handle({ type: 'focus', id: 'json/__init__.py#jsonify' });
  assert.deepEqual(sent.slice(3).map((m) => m.type), ['diff', 'select']);
  assert.equal(session.handle({ type: 'reveal', id: 'app.py', path: 'app.py', line: 0 }), false, 'reveal belongs to the editor glue');
});

test('a find-where pick opens up to the hit and its path, marks both, and selects the hit', async () => {
  const result = await createSearcher(engine).search('callers of make_response');
  const hit = result.hits.find((h) => h.id === 'app.py#Flask.finalize_request');
  assert.ok(hit?.path, JSON.stringify(result.hits));
  const sent: HostMessage[] = [];
  const session = new ExplorerSession('flask', graph, (m) => sent.push(m));
  session.found(hit.id, hit.path);
  assert.deepEqual(sent.map((m) => m.type), ['diff', 'found', 'select']);
  const found = sent[1];
  assert.ok(found.type === 'found');
  assert.deepEqual(found.path, ['app.py#Flask.make_response', 'app.py#Flask.finalize_request']);
  const diff = sent[0];
  assert.ok(diff.type === 'diff' && diff.diff.nodes.upsert.some((n) => n.id === 'app.py#Flask.make_response'));
  session.found('no#such.node', []);
  assert.equal(sent.length, 3, 'an unknown node sends nothing');
});

test('opened by areas: the functional hierarchy is the first levels (every module under its leaf area), it follows a save, and folders come back', async () => {
  const { LocalRepository } = await import('../../src/core/service/localRepository');
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-explorer-areas-')), 'flask');
  fs.cpSync(root, copy, { recursive: true });
  const repo = await LocalRepository.open(copy, { storeDir: null, workers: 0 });
  try {
    await repo.index();
    const sent: HostMessage[] = [];
    await repo.openExplorer('flask', (m) => sent.push(m), 'areas');
    await repo.explorerMessage({ type: 'ready' });
    assert.equal(sent.length, 1, 'one first view, by areas: no folder view goes out before it');
    const byAreas = sent[0];
    assert.ok(byAreas.type === 'graph' && byAreas.viewBy === 'areas');
    const nodes = new Map(byAreas.graph.nodes.map((n) => [n.id, n]));
    assert.ok(![...nodes.values()].some((n) => n.kind === 'Folder'), 'no folder level');
    const areas = [...nodes.values()].filter((n) => n.kind === 'Area');
    assert.ok(areas.length >= 2, `${areas.length} areas drawn`);
    // a module shown is shown under the leaf area whose files list it (the agent tools' explore_graph says the same)
    const modules = [...nodes.values()].filter((n) => n.kind === 'Module');
    assert.ok(modules.length > 0);
    for (const m of modules) {
      const area = await repo.runTool('explore_graph', { id: m.parent!, direction: 'out', limit: 200 });
      assert.ok(area.ok && (area.structured.rows as Array<{ id: string }>).some((r) => r.id === m.id), `${m.id} under ${m.parent}`);
    }
    // open up to Flask (its area, app.py, the class), then save a new function in app.py: the view by areas follows
    await repo.explorerFocus('app.py#Flask', 'search');
    const file = path.join(copy, 'app.py');
    const before = sent.length;
    await repo.updateFile(file, `${fs.readFileSync(file, 'utf8')}\n\ndef areas_probe():\n    return 1\n`);
    const diff = sent.slice(before).find((m) => m.type === 'diff');
    assert.ok(diff?.type === 'diff' && diff.diff.nodes.upsert.some((n) => n.id === 'app.py#areas_probe' && n.parent === 'app.py'), JSON.stringify(diff));
    await repo.explorerMessage({ type: 'setViewBy', viewBy: 'folders' });
    const back = sent.at(-1)!;
    assert.ok(back.type === 'graph' && back.viewBy === 'folders' && back.graph.nodes.some((n) => n.kind === 'Folder') && !back.graph.nodes.some((n) => n.kind === 'Area'));
    assert.equal(await repo.explorerMessage({ type: 'setViewBy', viewBy: 'areas' }), true);
    assert.ok(sent.at(-1)!.type === 'graph' && (sent.at(-1) as { viewBy: string }).viewBy === 'areas', 'and areas again');
    // a view opened by folders starts by folders
    await repo.openExplorer('flask', (m) => sent.push(m), 'folders');
    await repo.explorerMessage({ type: 'ready' });
    const byFolders = sent.at(-1)!;
    assert.ok(byFolders.type === 'graph' && byFolders.viewBy === 'folders' && byFolders.graph.nodes.some((n) => n.kind === 'Folder'));
  } finally {
    await repo.close();
  }
});

test('compiled twins are folded into their TypeScript source: not drawn, named on the source, focus lands on the source', async () => {
  const ts = 'export function flatten(x: number[]): number[] { return x; }\nexport class Box { open(): void {} }\n';
  const js = 'export function flatten(x) { return x; }\nexport class Box { open() {} }\n';
  const dts = 'export declare function flatten(x: number[]): number[];\nexport declare class Box { open(): void; }\n';
  const twins = await buildGraph(new Map([
    ['src/util.ts', ts],
    ['dist/util.js', js],
    ['dist/util.d.ts', dts],
    ['lib/util.cjs', js],
    // JavaScript of its own beside the twins: stays
    ['dist/extra.js', 'export function standalone() { return 1; }\n'],
  ]));
  const g = twins.graph;
  const tree = new Containment(g);
  assert.equal(tree.has('dist/util.js'), false);
  assert.equal(tree.has('dist/util.js#Box.open'), false);
  assert.equal(tree.has('dir:lib'), false, 'a folder of twins only is not shown');
  assert.deepEqual(tree.children('dir:dist'), ['dist/extra.js']);
  assert.deepEqual(tree.compiledTo('src/util.ts'), ['dist/util.d.ts', 'dist/util.js', 'lib/util.cjs']);
  // by areas: an area of nothing but twins is not shown
  const area = (id: string, files: string[], children: string[] = []): [string, Area] => [id, { id, name: id, terms: [], parent: id === '' ? null : '', children, files, scopes: [] }];
  const byAreas = new Containment(g, { areas: new Map([area('', [], ['1', '2']), area('1', ['src/util.ts', 'dist/extra.js']), area('2', ['dist/util.js', 'lib/util.cjs'])]) });
  assert.deepEqual([byAreas.has('area:1'), byAreas.has('area:2')], [true, false]);
  assert.deepEqual(byAreas.children('area:1'), ['dist/extra.js', 'src/util.ts']);
  const sent: HostMessage[] = [];
  const session = new ExplorerSession('twins', g, (m) => sent.push(m));
  session.handle({ type: 'ready' });
  const first = sent[0];
  assert.ok(first.type === 'graph');
  assert.ok(!first.graph.nodes.some((n) => /\.(c?js|d\.ts)$/.test(n.path) && n.path !== 'dist/extra.js'), first.graph.nodes.map((n) => n.id).join(' '));
  assert.match(first.graph.nodes.find((n) => n.id === 'src/util.ts')!.doc, /Also compiled to dist\/util\.d\.ts, dist\/util\.js, lib\/util\.cjs/);
  // the cursor in the compiled file (or a search hit there) selects the source's definition
  session.focus('dist/util.js#Box.open', 'cursor');
  assert.deepEqual(sent.at(-1), { type: 'select', id: 'src/util.ts#Box.open', reason: 'cursor' });
});
