// The query snapshot (src/core/search/querySnapshot.ts) on real code (Flask): it answers exactly like
// the store it was made from (queries through graphology's graph, `show` from the graph read in place), and anything that changes what a warm start would build — an update,
// another process writing, a tsconfig, the descriptions — or damage to the file makes it unusable,
// so the caller falls back to the store.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { describeNode, findNodes } from '../../src/core/graph/describe';
import { CompactGraph, encodeGraph } from '../../src/core/graph/graphCodec';
import { NODE_KINDS } from '../../src/core/model/schema';
import { createSearcher } from '../../src/core/search';
import type { EntityIndex } from '../../src/core/search/entityIndex';
import type { LexicalIndex } from '../../src/core/search/lexical';
import { descriptionsStamp, openQuerySnapshot, restoredIndexes, saveEngineSnapshot, type QuerySnapshot } from '../../src/core/search/querySnapshot';
import { LocalRepository } from '../../src/core/service/localRepository';
import { GraphStore } from '../../src/core/store/graphStore';
import { DESCRIPTIONS_FILE, QUERY_SNAPSHOT_FILE, readStoreVersion } from '../../src/core/store/storeVersion';
import { SNAPSHOT_TOOLS, snapshotTools } from '../../src/core/tools/snapshotTools';
import { FIXTURES } from './helpers';

const QUERIES = ['Flask.run', 'dispatch_request', 'callers of _endpoint_from_view_func', 'subclasses of Scaffold', 'members of Blueprint', 'register a blueprint on the application', 'send a file to the client'];

let tmp: string;
let root: string;
let storeDir: string;

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-snapshot-'));
  root = path.join(tmp, 'flask');
  storeDir = path.join(tmp, 'store');
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), root, { recursive: true });
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const open = () => Engine.open(root, { storeDir, workers: 0 });

/** Indexes (or re-indexes) and saves a snapshot, as `cartograph index` does. */
async function indexAndSave(): Promise<void> {
  const engine = await open();
  try {
    await engine.index();
    await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir));
  } finally {
    await engine.close();
  }
}

async function snapshot(): Promise<QuerySnapshot> {
  const opened = await openQuerySnapshot(storeDir, root);
  assert.ok(opened.ok, opened.ok ? '' : opened.reason);
  return opened.snapshot;
}

async function reason(): Promise<string> {
  const opened = await openQuerySnapshot(storeDir, root);
  assert.ok(!opened.ok, 'the snapshot should not be usable');
  return opened.reason;
}

test('a snapshot holds the same graph and answers every kind of query like the store it was made from', async () => {
  assert.match(await reason(), /no query snapshot/);
  await indexAndSave();
  const snap = await snapshot();
  const engine = await open(); // a warm start from the store: today's path
  try {
    const live = engine.graph.graph;
    const frozen = snap.repo().graph;
    assert.equal(frozen.order, live.order);
    assert.equal(frozen.size, live.size);
    const edges = (graph: Pick<typeof frozen, 'forEachOutEdge' | 'forEachInEdge'>, id: string) => {
      const found: string[] = [];
      graph.forEachOutEdge(id, (_k, edge) => found.push(`out ${JSON.stringify(edge)}`));
      graph.forEachInEdge(id, (_k, edge) => found.push(`in ${JSON.stringify(edge)}`));
      return found.sort();
    };
    live.forEachNode((id, attrs) => {
      assert.deepEqual(frozen.getNodeAttributes(id), attrs, id);
      assert.equal(frozen.inDegree(id), live.inDegree(id), id);
      assert.deepEqual(edges(frozen, id), edges(live, id), id);
    });
    assert.deepEqual(frozen.nodes(), live.nodes());
    const fromStore = createSearcher(engine);
    const fromSnapshot = createSearcher({ graph: snap.repo() }, { prebuilt: snap });
    for (const q of QUERIES) {
      const [expected, actual] = [await fromStore.search(q, 10), await fromSnapshot.search(q, 10)];
      assert.equal(actual.route, expected.route, q);
      assert.ok(expected.hits.length > 0, `${q} finds something`);
      assert.deepEqual(actual.hits, expected.hits, q);
    }
  } finally {
    await engine.close();
  }
});

test('re-indexing an unchanged folder, skipped files included, leaves the store as it was, so its snapshot stays usable', async () => {
  const skipped = path.join(root, 'not_text.py');
  fs.writeFileSync(skipped, Buffer.from([0x64, 0x65, 0x66, 0x00, 0x01, 0x02]));
  try {
    await indexAndSave();
    const before = await readStoreVersion(storeDir);
    const engine = await open();
    try {
      const report = await engine.index();
      assert.equal(report.parsed, 0);
      assert.ok(report.skipped.some((s) => s.path === 'not_text.py'), 'the binary file is skipped');
      await engine.flush();
    } finally {
      await engine.close();
    }
    assert.deepEqual(await readStoreVersion(storeDir), before);
    await snapshot();
  } finally {
    fs.rmSync(skipped);
  }
});

test('files touched with the same text keep the snapshot usable and are not read again; an edit makes it stale', async () => {
  await indexAndSave();
  const before = await readStoreVersion(storeDir);
  const file = path.join(root, 'helpers.py');
  const text = fs.readFileSync(file, 'utf8');
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(file, later, later);
  const reindex = async () => {
    const engine = await open();
    try {
      const report = await engine.index();
      await engine.flush();
      return report;
    } finally {
      await engine.close();
    }
  };
  try {
    const touched = await reindex();
    assert.equal(touched.parsed, 0, 'the same text is not parsed again');
    assert.deepEqual(await readStoreVersion(storeDir), before, 'new stats alone leave the generation as it was');
    await snapshot();
    // The new stats were stored: the next start skips the file without reading it.
    const store = await GraphStore.open(storeDir, { mode: 'read' });
    try {
      const row = (await store.store.loadFiles()).find((f) => f.path === 'helpers.py');
      assert.equal(row?.mtimeMs, fs.statSync(file).mtimeMs);
    } finally {
      await store.store.close();
    }
    fs.writeFileSync(file, `${text}\ndef touched_helper():\n    return 1\n`);
    const edited = await reindex();
    assert.equal(edited.parsed, 1);
    assert.notDeepEqual(await readStoreVersion(storeDir), before, 'an edit is new content');
    assert.match(await reason(), /store has changed/);
  } finally {
    fs.writeFileSync(file, text);
  }
});

test('a snapshot that is current is not rewritten, and embeddings leave it current; a damaged one is', async () => {
  await indexAndSave();
  const file = path.join(storeDir, QUERY_SNAPSHOT_FILE);
  const written = fs.statSync(file);
  const engine = await open();
  try {
    assert.equal((await engine.index()).parsed, 0);
    assert.equal(await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir)), 'unchanged');
    assert.equal(fs.statSync(file).mtimeMs, written.mtimeMs, 'the file was not rewritten');
    // Vectors change no node, edge or file: the snapshot still answers for the store.
    const id = engine.graph.graph.findNode((_, n) => n.kind === 'Function')!;
    await engine.currentStore!.setVectors(new Map([[id, new Float32Array(384).fill(0.5)]]));
    assert.equal(await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir)), 'unchanged');
    await snapshot();
    // A section that fails its checksum is written again.
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(file, bytes);
    assert.equal(await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir)), 'saved');
    await snapshot();
  } finally {
    await engine.close();
  }
});

test('the agent tools a snapshot serves answer exactly as the engine does', async () => {
  await indexAndSave();
  const repo = await LocalRepository.open(root, { storeDir, workers: 0 });
  try {
    await repo.index();
    const early = snapshotTools(await snapshot(), root);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['search_code', { query: 'register a blueprint on the application', limit: 5 }],
      ['search_code', { query: 'Flask.run' }],
      ['search_code', { query: 'subclasses of Scaffold', kinds: ['Class'] }],
      ['repo_overview', {}],
      ['repo_overview', { path: 'json' }],
      // With references the graph could not resolve, listed as possible callers: the snapshot keeps them.
      ['fetch_node', { name: 'Flask.dispatch_request' }],
      ['explore_graph', { name: 'Flask.ensure_sync', direction: 'in', depth: 2 }],
      ['explore_graph', { name: 'Scaffold', direction: 'both' }],
      ['impact', { names: ['Flask.dispatch_request', 'Scaffold.route'], depth: 3 }],
    ];
    assert.deepEqual(new Set(calls.map(([name]) => name)), SNAPSHOT_TOOLS, 'every tool the snapshot serves is compared');
    for (const [name, args] of calls) {
      // The two say differently that no model is running (the engine's models are not started; the snapshot has none).
      const modelFree = (r: unknown) => JSON.parse(JSON.stringify(r).replace(/\(model-free: [^)]*\)/g, '(model-free)'));
      const [expected, actual] = [await repo.runTool(name, args), await early.run(name, args)];
      assert.ok(expected.ok && expected.text.length > 40, `${name} ${JSON.stringify(args)} answers`);
      assert.deepEqual(modelFree(actual), modelFree(expected), `${name} ${JSON.stringify(args)}`);
      if (name !== 'search_code' && name !== 'repo_overview' && args.name !== 'Scaffold') assert.match(expected.ok ? expected.text : '', /possib/i, `${name} ${JSON.stringify(args)} lists possible references`);
    }
  } finally {
    await repo.close();
  }
});

test('show from the snapshot read in place answers exactly like show from the engine, for every node', async () => {
  await indexAndSave();
  const snap = await snapshot();
  const engine = await open();
  try {
    const live = engine.graph.graph;
    const compact = snap.graph;
    assert.equal(compact.order, live.order);
    assert.equal(compact.size, live.size);
    let withEdges = 0;
    live.forEachNode((id) => {
      const expected = describeNode(live, id);
      if (expected.incoming.length > 1 && expected.outgoing.length > 1) withEdges++;
      assert.deepEqual(describeNode(compact, id), expected, id);
    });
    assert.ok(withEdges > 100, `enough nodes with several edges each way (${withEdges})`);
    // Every lookup tier: id, qualified name, Class.method suffix, plain name (ambiguous), any case, nothing.
    for (const q of ['app.py#Flask.run', 'flask.app.Flask.run', 'Flask.run', 'run', '__init__', 'FLASK', 'nothing_is_called_this']) {
      assert.deepEqual(findNodes(compact, q), findNodes(live, q), q);
    }
    assert.ok(findNodes(compact, '__init__').length > 5);
    assert.ok(!compact.hasNode('nothing_is_called_this'));
    // A table position out of range (a writer's bug a checksum cannot catch) is refused when the graph is read, not later.
    const encoded = encodeGraph(live)!;
    const lastEdgeTarget = encoded.ints.length - 3;
    const broken = (at: number, value: number) => {
      const ints = encoded.ints.slice();
      ints[at] = value;
      return () => new CompactGraph({ strings: encoded.strings, ints });
    };
    assert.throws(broken(lastEdgeTarget, live.order), /edge \d+ is damaged/);
    assert.throws(broken(2, NODE_KINDS.length), /node 0 is damaged/);
    assert.equal(broken(lastEdgeTarget, 0)().size, live.size);
  } finally {
    await engine.close();
  }
});

test('an update of the graph makes the snapshot stale; saving again makes it usable', async () => {
  await indexAndSave();
  await snapshot();
  const engine = await open();
  try {
    const file = path.join(root, 'helpers.py');
    fs.appendFileSync(file, '\n\ndef freshly_added_helper():\n    return 1\n');
    await engine.updateFile(file);
    await engine.flush();
    assert.match(await reason(), /out of date \(the store has changed since\)/);
    await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir));
  } finally {
    await engine.close();
  }
  const hits = (await createSearcher({ graph: (await snapshot()).repo() }, { prebuilt: await snapshot() }).search('freshly_added_helper')).hits;
  assert.equal(hits[0]?.id, 'helpers.py#freshly_added_helper');
});

test('a warm start restores the graph saved with a current snapshot, and resolves every file when the store changed since', async () => {
  await indexAndSave();
  const resolved = await Engine.open(root, { storeDir: null, workers: 0 });
  await resolved.index();
  const engine = await open();
  try {
    assert.equal(engine.warmStartedBy, 'restore');
    const edges = (e: Engine) => e.graph.graph.mapEdges((id, a) => `${id}@${a.line}`).sort();
    assert.deepEqual(edges(engine), edges(resolved), 'the graph a full resolution gives');
    // An edit while no process ran: restored, then the index brings the file in, as with a resolved start.
    fs.appendFileSync(path.join(root, 'helpers.py'), '\n\ndef edited_while_closed():\n    return get_root_path(__name__)\n');
    assert.equal((await engine.index()).parsed, 1);
    assert.ok(engine.graph.graph.outNeighbors('helpers.py#edited_while_closed').includes('helpers.py#get_root_path'));
  } finally {
    await engine.close(); // no snapshot saved after the index: the store is newer than it
    await resolved.close();
  }
  const after = await open();
  try {
    assert.equal(after.warmStartedBy, 'resolve');
    assert.ok(after.graph.graph.hasNode('helpers.py#edited_while_closed'));
  } finally {
    await after.close();
  }
});

test('a restored graph\'s searcher starts from the snapshot\'s indexes, catches up with an index, and answers as a fresh build', async () => {
  await indexAndSave();
  const engine = await open();
  try {
    assert.equal(engine.warmStartedBy, 'restore');
    const saved = await restoredIndexes(engine);
    assert.ok(saved, 'the snapshot serves the restored graph');
    // What the searcher read from the snapshot (read when first needed, after the index below).
    const read: { entities?: unknown; lexical?: unknown } = {};
    const prebuilt = { version: saved.version, entities: () => (read.entities = saved.entities()) as EntityIndex, lexical: () => (read.lexical = saved.lexical()) as LexicalIndex };
    const searcher = createSearcher(engine, { prebuilt });
    fs.appendFileSync(path.join(root, 'helpers.py'), '\n\ndef caught_up_after_restore():\n    return 1\n');
    assert.equal((await engine.index()).parsed, 1);
    const indexes = await searcher.indexes();
    assert.ok(read.lexical && indexes.lexical === read.lexical, 'the snapshot\'s lexical index, not a new build');
    assert.ok(read.entities && indexes.entities === read.entities, 'the snapshot\'s entity tables, read in the saved graph\'s node order');
    const fresh = createSearcher(engine);
    for (const q of [...QUERIES, 'caught_up_after_restore']) {
      const ids = async (s: typeof searcher) => (await s.search(q, 5)).hits.map((h) => h.id);
      assert.deepEqual(await ids(searcher), await ids(fresh), q);
    }
    assert.equal((await searcher.search('caught_up_after_restore', 1)).hits[0]?.id, 'helpers.py#caught_up_after_restore');
    // Once another snapshot has replaced the one the graph came from, its sections are not read: built instead.
    const later = await restoredIndexes(engine);
    assert.equal(later, undefined, 'the graph has changed since the restore');
    await saveEngineSnapshot(engine, fresh, descriptionsStamp(storeDir));
    assert.equal(saved.entities(), undefined);
    assert.equal(saved.lexical(), undefined);
  } finally {
    await engine.close();
  }
});

test('a process whose view is older than the store does not save its snapshot', async () => {
  await indexAndSave();
  const first = await open();
  const second = await open();
  try {
    const file = path.join(root, 'globals.py');
    fs.appendFileSync(file, '\nANOTHER_GLOBAL = 1\n');
    await second.updateFile(file);
    await second.flush();
    await assert.rejects(saveEngineSnapshot(first, createSearcher(first), descriptionsStamp(storeDir)), /written by another process/);
    assert.match(await reason(), /out of date/);
  } finally {
    await first.close();
    await second.close();
  }
});

test('new descriptions or an edited tsconfig make the snapshot stale', async () => {
  await indexAndSave();
  fs.writeFileSync(path.join(storeDir, DESCRIPTIONS_FILE), JSON.stringify({ descriptions: { abc: 'loads things' } }));
  assert.match(await reason(), /descriptions have changed/);
  await indexAndSave();
  await snapshot();
  // A TypeScript file makes the root a folder whose tsconfig the graph depends on.
  fs.writeFileSync(path.join(root, 'tool.ts'), 'export const x = 1;\n');
  await indexAndSave();
  await snapshot();
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.' } }));
  assert.match(await reason(), /tsconfig/);
});

test('a damaged snapshot is refused (header, graph) or fails when its index is first read, never answers', async () => {
  await indexAndSave();
  const file = path.join(storeDir, QUERY_SNAPSHOT_FILE);
  const good = fs.readFileSync(file);
  const headerEnd = good.indexOf(10);
  const header = JSON.parse(good.toString('utf8', 0, headerEnd)) as { sections: Record<string, [number, number, string]> };
  const damage = (at: number) => {
    const bad = Buffer.from(good);
    bad[at] ^= 0xff;
    fs.writeFileSync(file, bad);
  };

  fs.writeFileSync(file, good.subarray(0, headerEnd + 1 + 1000));
  assert.match(await reason(), /damaged/, 'truncated');
  fs.writeFileSync(file, Buffer.concat([Buffer.from('not a header'), good.subarray(headerEnd)]));
  assert.match(await reason(), /damaged \(header is not JSON\)/);
  damage(headerEnd + 1 + header.sections.graphStrings[0] + 10);
  assert.match(await reason(), /damaged \(query snapshot damaged \(section graphStrings\)\)/);
  damage(headerEnd + 1 + header.sections.lexical[0] + 100);
  const snap = await snapshot(); // the lexical section is only read by a query that needs it
  assert.throws(() => snap.lexical(), /query snapshot damaged \(section lexical\)/);
  fs.writeFileSync(file, good);
  await snapshot();
});

test('indexes loaded from a snapshot re-read nodes that change under them', async () => {
  await indexAndSave();
  const engine = await open(); // restored from the snapshot: its indexes load against the live graph
  const saved = await restoredIndexes(engine);
  await engine.close();
  assert.ok(saved, 'the snapshot serves the restored graph');
  const graph = engine.graph.graph;
  const entities = saved.entities()!;
  const lexical = saved.lexical()!;
  const gone = 'app.py#Flask.make_response';
  assert.ok(entities.lookup('make_response').some((m) => m.id === gone));
  assert.ok(lexical.query('convert the return value from a view function to an instance of response_class', 5).some((h) => h.id === gone));
  const added = { ...graph.getNodeAttributes(gone), id: 'app.py#Flask.assemble_reply', name: 'assemble_reply', qname: 'flask.app.Flask.assemble_reply', doc: 'Glue zebra quartz reply together.' };
  graph.dropNode(gone);
  graph.addNode(added.id, added);
  entities.update([gone, added.id]);
  lexical.update([gone, added.id]);
  assert.deepEqual(entities.lookup('make_response').map((m) => m.id), ['helpers.py#make_response']);
  assert.deepEqual(entities.lookup('Flask.assemble_reply').map((m) => m.id), [added.id]);
  assert.ok(!lexical.query('convert the return value from a view function to an instance of response_class', 20).some((h) => h.id === gone));
  assert.equal(lexical.query('zebra quartz', 5)[0]?.id, added.id);
});
