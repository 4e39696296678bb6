import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { edgeId, EDGE_KINDS, SCHEMA_VERSION, type GraphEdge, type GraphNode } from '../../src/core/model/schema';
import { PARSER_VERSION, type FileGraph } from '../../src/core/parse/fileGraph';
import { GENERATION_RECORD } from '../../src/core/store/generationRecord';
import { GraphStore, StoreMovedError, StoreUnreadableError, type StoreDiff, type StoredFile } from '../../src/core/store/graphStore';

// ---- test data ---------------------------------------------------------------------------------

interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  files: StoredFile[];
}

function node(filePath: string, localId: string, extra: Partial<GraphNode> = {}): GraphNode {
  return {
    id: `${filePath}#${localId}`,
    kind: 'Function',
    name: localId.split('.').pop()!,
    qname: `${filePath.replace(/\//g, '.')}.${localId}`,
    path: filePath,
    language: 'python',
    range: { startLine: 3, startCol: 4, endLine: 9, endCol: 17 },
    signature: `def ${localId}(a, b)`,
    doc: 'Adds two numbers.',
    hash: `h-${filePath}-${localId}`,
    exported: true,
    ...extra,
  };
}

function fileGraph(filePath: string, symbols: GraphNode[]): FileGraph {
  return {
    path: filePath,
    language: 'python',
    hash: `file-${filePath}`,
    parserVersion: PARSER_VERSION,
    doc: 'Module doc with "quotes" and ünïcödé',
    lines: 42,
    symbols: symbols.map((n) => ({
      localId: n.id.split('#')[1],
      kind: 'Function',
      name: n.name,
      parent: null,
      range: n.range!,
      signature: n.signature,
      doc: n.doc,
      hash: n.hash,
      exported: n.exported,
    })),
    imports: [{ local: 'os', module: 'os', imported: null, line: 0, scope: null }],
    exports: [{ exported: 'default', local: 'main' }],
    refs: [{ from: null, kind: 'CALLS', chain: ['os', 'path', 'join'], line: 7 }],
    texts: [{ from: null, literals: "can't open %s\nünïcödé", comments: 'why this is here' }],
    syntaxErrors: 0,
  };
}

function storedFile(filePath: string, symbols: GraphNode[], extra: Partial<StoredFile> = {}): StoredFile {
  return {
    path: filePath,
    hash: `file-${filePath}`,
    mtimeMs: 1_700_000_000_123.5,
    size: 4096,
    language: 'python',
    parserVersion: PARSER_VERSION,
    graph: fileGraph(filePath, symbols),
    skipped: null,
    ...extra,
  };
}

/** `fileCount` modules with `perFile` functions each, edges between them, plus a few oddities. */
function fakeGraph(fileCount: number, perFile: number): Graph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const files: StoredFile[] = [];
  for (let f = 0; f < fileCount; f++) {
    const filePath = `pkg/mod_${f}.py`;
    const mod: GraphNode = { ...node(filePath, ''), id: filePath, kind: 'Module', name: `mod_${f}`, range: null, signature: '', doc: '' };
    const symbols = Array.from({ length: perFile }, (_, i) => node(filePath, `fn_${i}`, { exported: i % 2 === 0, doc: i % 3 ? '' : 'Doc ✓' }));
    nodes.push(mod, ...symbols);
    files.push(storedFile(filePath, symbols));
    for (const s of symbols) edges.push(edge('CONTAINS', mod.id, s.id, -1, filePath));
    for (let i = 0; i < perFile; i++) {
      const target = `pkg/mod_${(f + 1) % fileCount}.py#fn_${(i * 7) % perFile}`;
      edges.push(edge(EDGE_KINDS[i % EDGE_KINDS.length], symbols[i].id, target, 10 + i, filePath));
    }
  }
  nodes.push({ ...node('', 'x'), id: 'ext:py:os.path.join', kind: 'External', name: 'join', qname: 'os.path.join', path: '', language: '', range: null, hash: '' });
  nodes.push({ ...node('pkg', 'x'), id: 'dir:pkg', kind: 'Folder', name: 'pkg', qname: 'pkg', path: 'pkg', language: '', range: null });
  edges.push(edge('CONTAINS', 'dir:pkg', 'pkg/mod_0.py', -1, ''));
  files.push({ path: 'pkg/huge.py', hash: 'big', mtimeMs: 1, size: 9_999_999, language: 'python', parserVersion: PARSER_VERSION, graph: null, skipped: 'file too large (9.5 MB)' });
  return { nodes, edges, files };
}

function edge(kind: GraphEdge['kind'], source: string, target: string, line: number, owner: string): GraphEdge {
  return { id: edgeId(kind, source, target), kind, source, target, line, owner };
}

const byKey = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
function sorted(g: Graph): Graph {
  return {
    nodes: [...g.nodes].sort(byKey((n) => n.id)),
    edges: [...g.edges].sort(byKey((e) => e.id)),
    files: [...g.files].sort(byKey((f) => f.path)),
  };
}

/** What the store should hold after `diff`: the same semantics, on plain maps. */
function applyToModel(g: Graph, diff: StoreDiff): Graph {
  const step = <T>(rows: T[], key: (x: T) => string, part?: { upsert: T[]; remove: string[] }) => {
    const map = new Map(rows.map((r) => [key(r), r]));
    for (const k of part?.remove ?? []) map.delete(k);
    for (const r of part?.upsert ?? []) map.set(key(r), r);
    return [...map.values()];
  };
  return {
    nodes: step(g.nodes, (n) => n.id, diff.nodes),
    edges: step(g.edges, (e) => e.id, diff.edges),
    files: step(g.files, (f) => f.path, diff.files),
  };
}

async function assertHolds(store: GraphStore, expected: Graph): Promise<void> {
  const actual = await store.loadAll();
  assert.deepEqual(sorted(actual), sorted(expected));
}

// ---- harness -------------------------------------------------------------------------------------

const tempRoots: string[] = [];
after(async () => {
  for (const dir of tempRoots) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cartograph-store-test-'));
  tempRoots.push(dir);
  return path.join(dir, 'store');
}

async function openStore(dir: string, options?: { vectorDim?: number; compactEvery?: number }) {
  return GraphStore.open(dir, options);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const vec = (dim: number, seed: number) => Float32Array.from({ length: dim }, (_, i) => seed + i / 10);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

/** A fresh store holding a small graph, closed; returns its folder and content. */
async function closedStoreWith(graph: Graph): Promise<string> {
  const dir = await tempDir();
  const { store } = await openStore(dir);
  await store.replaceAll(graph.nodes, graph.edges, graph.files);
  await store.close();
  return dir;
}

/** Every file under `dir` with its size and modification time: what a reader must leave as it found it. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const file of await filesUnder(dir)) {
    const stat = await fs.stat(file);
    out.push(`${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`);
  }
  return out.sort();
}

async function assertRebuiltAndUsable(dir: string, reasonPattern: RegExp): Promise<void> {
  const { store, status } = await openStore(dir);
  try {
    assert.equal(status.kind, 'rebuilt');
    assert.match((status as { reason: string }).reason, reasonPattern);
    assert.deepEqual(await store.loadAll(), { nodes: [], edges: [], files: [] });
    const g = fakeGraph(2, 3);
    await store.replaceAll(g.nodes, g.edges, g.files);
    await assertHolds(store, g);
  } finally {
    await store.close();
  }
  const again = await openStore(dir);
  assert.equal(again.status.kind, 'opened');
  await again.store.close();
}

// ---- tests ---------------------------------------------------------------------------------------

describe('GraphStore', () => {
  it('round-trips a full write through close and reopen', async () => {
    const dir = await tempDir();
    const g = fakeGraph(12, 6);
    const first = await openStore(dir);
    assert.deepEqual(first.status, { kind: 'created' });
    await first.store.replaceAll(g.nodes, g.edges, g.files);
    await first.store.close();

    const second = await openStore(dir);
    assert.deepEqual(second.status, { kind: 'opened' });
    const loaded = await second.store.loadAll();
    assert.deepEqual(sorted(loaded), sorted(g));
    const folder = loaded.nodes.find((n) => n.id === 'dir:pkg')!;
    assert.equal(folder.range, null);
    assert.equal(loaded.files.find((f) => f.path === 'pkg/huge.py')!.graph, null);
    assert.equal(loaded.files.find((f) => f.path === 'pkg/huge.py')!.skipped, 'file too large (9.5 MB)');

    // A second full write replaces rather than adds.
    const smaller = fakeGraph(3, 2);
    await second.store.replaceAll(smaller.nodes, smaller.edges, smaller.files);
    await assertHolds(second.store, smaller);
    await second.store.replaceAll([], [], []);
    assert.deepEqual(await second.store.loadAll(), { nodes: [], edges: [], files: [] });
    await second.store.close();
  });

  it('applies removals and upserts to every table', async () => {
    const dir = await tempDir();
    let model = fakeGraph(5, 4);
    const { store } = await openStore(dir);
    await store.replaceAll(model.nodes, model.edges, model.files);

    const changed = node('pkg/mod_1.py', 'fn_0', { hash: 'new-hash', signature: 'def fn_0(a, b, c)', range: null });
    const added = node('pkg/mod_1.py', 'fn_new');
    const diff: StoreDiff = {
      nodes: { upsert: [changed, added], remove: ['pkg/mod_1.py#fn_3', 'pkg/mod_1.py#fn_0', 'no-such-id'] },
      edges: {
        upsert: [edge('CALLS', added.id, changed.id, 5, 'pkg/mod_1.py'), { ...model.edges[0], line: 99 }],
        remove: [model.edges[1].id, model.edges[2].id],
      },
      files: { upsert: [storedFile('pkg/mod_1.py', [changed, added], { hash: 'v2' }), storedFile('pkg/new.py', [])], remove: ['pkg/mod_4.py'] },
    };
    await store.apply(diff);
    model = applyToModel(model, diff);
    await assertHolds(store, model);

    // Only some tables, empty parts, and a duplicate id in one upsert (the last one wins).
    const dup1 = node('pkg/mod_2.py', 'fn_1', { doc: 'first' });
    const dup2 = node('pkg/mod_2.py', 'fn_1', { doc: 'second' });
    const diff2: StoreDiff = { nodes: { upsert: [dup1, dup2], remove: [] }, edges: { upsert: [], remove: [] } };
    await store.apply(diff2);
    model = applyToModel(model, diff2);
    await assertHolds(store, model);
    await store.apply({});
    await store.close();

    const reopened = await openStore(dir);
    await assertHolds(reopened.store, model);
    await reopened.store.close();
  });

  it('serializes concurrent writes in call order', async () => {
    const dir = await tempDir();
    let model = fakeGraph(4, 3);
    const { store } = await openStore(dir);
    const writes: Promise<void>[] = [store.replaceAll(model.nodes, model.edges, model.files)];
    for (let i = 0; i < 12; i++) {
      const n = node(`pkg/mod_${i % 4}.py`, 'fn_1', { hash: `rev-${i}`, doc: `revision ${i}` });
      const diff: StoreDiff = {
        nodes: { upsert: [n], remove: i % 3 === 0 ? [`pkg/mod_${i % 4}.py#fn_2`] : [] },
        files: { upsert: [storedFile(`pkg/mod_${i % 4}.py`, [n], { hash: `rev-${i}` })], remove: [] },
      };
      writes.push(store.apply(diff));
      model = applyToModel(model, diff);
    }
    const loading = store.loadAll();
    await Promise.all(writes);
    assert.deepEqual(sorted(await loading), sorted(model));
    await store.close();
  });

  it('keeps a vector while the node hash is unchanged and clears it when it changes', async () => {
    const dir = await tempDir();
    const dim = 8;
    const g = fakeGraph(3, 3);
    const { store } = await openStore(dir, { vectorDim: dim });
    await store.replaceAll(g.nodes, g.edges, g.files);
    assert.equal((await store.loadVectors()).size, 0);

    const a = 'pkg/mod_0.py#fn_0';
    const b = 'pkg/mod_0.py#fn_1';
    const c = 'pkg/mod_1.py#fn_2';
    await store.setVectors(new Map([[a, vec(dim, 1)], [b, vec(dim, 2)], [c, vec(dim, 3)], ['not-a-node', vec(dim, 4)]]));
    let vectors = await store.loadVectors();
    assert.deepEqual([...vectors.keys()].sort(), [a, b, c]);
    assert.deepEqual(vectors.get(b), vec(dim, 2));
    await assert.rejects(store.setVectors(new Map([[a, vec(dim + 1, 0)]])), /length 9 .* expects 8/);

    const nodeA = g.nodes.find((n) => n.id === a)!;
    const nodeB = g.nodes.find((n) => n.id === b)!;
    await store.apply({
      nodes: { upsert: [{ ...nodeA, doc: 'same hash, new doc' }, { ...nodeB, hash: 'changed' }], remove: [] },
    });
    vectors = await store.loadVectors([a, b, c]);
    assert.deepEqual(vectors.get(a), vec(dim, 1));
    assert.equal(vectors.has(b), false);
    assert.deepEqual(vectors.get(c), vec(dim, 3));
    const loadedA = (await store.loadAll()).nodes.find((n) => n.id === a)!;
    assert.equal(loadedA.doc, 'same hash, new doc');

    // A full rewrite keeps the vectors of unchanged nodes too.
    const rewritten = g.nodes.map((n) => (n.id === c ? { ...n, hash: 'c-changed' } : n));
    await store.replaceAll(rewritten, g.edges, g.files);
    vectors = await store.loadVectors();
    assert.deepEqual([...vectors.keys()], [a]);
    await store.close();

    const reopened = await openStore(dir, { vectorDim: dim });
    assert.equal(reopened.status.kind, 'opened');
    assert.deepEqual(await reopened.store.loadVectors(), new Map([[a, vec(dim, 1)]]));
    await reopened.store.close();
  });

  it('quotes awkward ids in SQL predicates', async () => {
    const dir = await tempDir();
    const awkward = [
      "a.py#O'Brien",
      "a.py#''",
      "a.py#'",
      'a.py#back\\slash',
      "a.py#back\\'quote",
      'a.py#"double"',
      'a.py#ünïcödé.函数',
      'a.py#emoji🙂',
      'a.py#percent%_like',
      "a.py#x') OR ('1'='1",
      'a.py#semi; DROP TABLE nodes',
      'a.py#new\nline',
    ];
    const nodes = awkward.map((id) => ({ ...node('a.py', 'x'), id }));
    const edges = awkward.map((id, i) => edge('CALLS', id, awkward[(i + 1) % awkward.length], i, "dir/it's.py"));
    const files = [storedFile("dir/it's.py", []), storedFile('dir/back\\slash.py', []), storedFile('dir/ünï.py', [])];
    let model: Graph = { nodes: [...nodes, node('a.py', 'plain')], edges, files };
    const { store } = await openStore(dir);
    await store.replaceAll(model.nodes, model.edges, model.files);
    await assertHolds(store, model);

    const diff: StoreDiff = {
      nodes: { upsert: [{ ...nodes[0], doc: "it's updated" }, { ...nodes[3], doc: 'also' }], remove: awkward.slice(4, 9) },
      edges: { upsert: [{ ...edges[1], line: 77 }], remove: edges.slice(5, 10).map((e) => e.id) },
      files: { upsert: [{ ...files[0], hash: 'v2' }], remove: ['dir/back\\slash.py', 'dir/ünï.py'] },
    };
    await store.apply(diff);
    model = applyToModel(model, diff);
    await assertHolds(store, model);
    // The injection-looking id removed only itself.
    assert.ok((await store.loadAll()).nodes.some((n) => n.id === 'a.py#plain'));

    await store.setVectors(new Map([[nodes[0].id, vec(384, 1)], [nodes[3].id, vec(384, 2)]]));
    await store.apply({ nodes: { upsert: [nodes[0], { ...nodes[3], hash: 'changed' }], remove: [] } });
    assert.deepEqual([...(await store.loadVectors(awkward)).keys()], [nodes[0].id]);
    await store.close();
  });

  it('rebuilds a store written with another schema version or vector size', async () => {
    const dir = await closedStoreWith(fakeGraph(2, 2));
    const recordFile = path.join(dir, GENERATION_RECORD);
    const record = JSON.parse(await fs.readFile(recordFile, 'utf8'));
    assert.equal(record.schemaVersion, SCHEMA_VERSION);
    assert.equal(record.vectorDim, 384);
    await fs.writeFile(recordFile, JSON.stringify({ ...record, schemaVersion: 0 }));
    await assert.rejects(GraphStore.open(dir, { mode: 'read' }), (err: unknown) => err instanceof StoreUnreadableError && err.state === 'other-version');
    await assertRebuiltAndUsable(dir, new RegExp(`another version of Cartograph \\(schema version 0, this Cartograph reads ${SCHEMA_VERSION}\\)$`));

    const { store, status } = await openStore(dir, { vectorDim: 16 });
    assert.equal(status.kind, 'rebuilt');
    assert.match((status as { reason: string }).reason, /vector size 384, 16 wanted/);
    await store.close();
  });

  it('keeps the tables when the generation record is missing or junk, and a reader says the store is incomplete', async () => {
    for (const damage of [
      (file: string) => fs.rm(file),
      (file: string) => fs.writeFile(file, Buffer.from([0xff, 0x00, 0x13, 0x37, 0x7b])),
      (file: string) => fs.writeFile(file, JSON.stringify({ hello: 'world' })),
    ]) {
      const graph = fakeGraph(2, 2);
      const dir = await closedStoreWith(graph);
      await damage(path.join(dir, GENERATION_RECORD));
      const before = await listing(dir);
      await assert.rejects(GraphStore.open(dir, { mode: 'read' }), (err: unknown) => err instanceof StoreUnreadableError && err.state === 'incomplete');
      assert.deepEqual(await listing(dir), before, 'a reader changes nothing');

      const { store, status } = await openStore(dir);
      assert.equal(status.kind, 'recovered');
      assert.equal(store.complete, false);
      await assertHolds(store, graph);
      await store.markComplete();
      await store.close();
      const reader = await GraphStore.open(dir, { mode: 'read' });
      await assertHolds(reader.store, graph);
      await reader.store.close();
    }
  });

  it('rebuilds when table files are damaged, and a reader reports the damage without touching the folder', async () => {
    const graph = fakeGraph(3, 3);
    const dataOf = async (dir: string, table: string) => (await filesUnder(path.join(dir, table))).filter((f) => f.includes(`${path.sep}data${path.sep}`));
    const damages: Array<[string, (dir: string) => Promise<void>]> = [
      ['garbage over every data file of a table', async (dir) => {
        for (const f of await dataOf(dir, 'edges.lance')) await fs.writeFile(f, 'this is not a lance file');
      }],
      // Every data file of the table: some may belong only to versions before the committed one.
      ['data files deleted', async (dir) => {
        for (const f of await dataOf(dir, 'nodes.lance')) await fs.rm(f);
      }],
      ['truncated data files', async (dir) => {
        for (const file of await dataOf(dir, 'files.lance')) {
          const bytes = await fs.readFile(file);
          await fs.writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
        }
      }],
      ['version manifests gone', async (dir) => fs.rm(path.join(dir, 'nodes.lance', '_versions'), { recursive: true })],
      ['manifests overwritten with junk', async (dir) => {
        for (const f of await filesUnder(path.join(dir, 'files.lance', '_versions'))) await fs.writeFile(f, 'junk');
      }],
      ['a table replaced by a plain file', async (dir) => {
        await fs.rm(path.join(dir, 'edges.lance'), { recursive: true });
        await fs.writeFile(path.join(dir, 'edges.lance'), 'junk');
      }],
      ['a table missing', async (dir) => fs.rm(path.join(dir, 'files.lance'), { recursive: true })],
    ];
    for (const [what, damage] of damages) {
      const dir = await closedStoreWith(graph);
      await damage(dir);
      const before = await listing(dir);
      await assert.rejects(GraphStore.open(dir, { mode: 'read' }), (err: unknown) => err instanceof StoreUnreadableError && err.state === 'damaged' && /is damaged: table /.test(err.message), what);
      await assert.rejects(GraphStore.open(dir, { onDamage: 'report' }), StoreUnreadableError, what);
      assert.deepEqual(await listing(dir), before, `${what}: nothing was deleted`);
      await assertRebuiltAndUsable(dir, /is damaged: table /);
    }
  });

  it('rolls back what a writer that died wrote after the committed generation', async () => {
    const graph = fakeGraph(3, 2);
    const dir = await closedStoreWith(graph);
    // A writer killed half-way: one table has a version past the record, the others do not.
    const lance = await import('@lancedb/lancedb');
    const db = await lance.connect(dir);
    const nodes = await db.openTable('nodes');
    await nodes.delete("path = 'pkg/mod_1.py'");
    nodes.close();
    db.close();

    const reader = await GraphStore.open(dir, { mode: 'read' });
    await assertHolds(reader.store, graph);

    const { store, status } = await openStore(dir);
    assert.deepEqual(status, { kind: 'opened' });
    const n = node('pkg/mod_2.py', 'fn_9');
    const diff: StoreDiff = { nodes: { upsert: [n], remove: [] } };
    await store.apply(diff);
    await assertHolds(store, applyToModel(graph, diff));
    // The reader that opened before the write answers from its generation until it reads again, then from the new one.
    await assertHolds(reader.store, applyToModel(graph, diff));
    await reader.store.close();
    await store.close();
  });

  it('refuses an incremental write on top of another process\'s commit, and takes a full one', async () => {
    const graph = fakeGraph(2, 2);
    const dir = await closedStoreWith(graph);
    const a = (await openStore(dir)).store;
    const b = (await openStore(dir)).store;
    const fromA: StoreDiff = { nodes: { upsert: [node('pkg/mod_0.py', 'fn_a')], remove: [] } };
    await a.apply(fromA);
    await assert.rejects(b.apply({ nodes: { upsert: [node('pkg/mod_0.py', 'fn_b')], remove: [] } }), StoreMovedError);
    await assertHolds(b, applyToModel(graph, fromA));
    const whole = fakeGraph(3, 1);
    await b.replaceAll(whole.nodes, whole.edges, whole.files);
    await assertHolds(a, whole);
    await a.close();
    await b.close();
  });

  it('opens and reads while another writer keeps committing and cleaning up old versions: never a failure, never "damaged"', async () => {
    // The writer's cleanups delete versions that an open is listing or checking out; an open must then
    // take the generation that superseded them. Many writes, each opener round read and checked.
    const a = fakeGraph(6, 4);
    const b = fakeGraph(5, 4);
    const dir = await closedStoreWith(a);
    const { store: writer } = await openStore(dir);
    let writing = true;
    const writes = (async () => {
      for (let i = 0; i < 40; i++) await (i % 2 ? writer.replaceAll(a.nodes, a.edges, a.files) : writer.replaceAll(b.nodes, b.edges, b.files));
      writing = false;
    })();
    const failures: string[] = [];
    let opens = 0;
    const counts = new Set([a, b].map((g) => `${g.nodes.length}/${g.edges.length}/${g.files.length}`));
    // And a reader opened before the writes, as a server keeps one: each read moves it to the newest generation.
    const { store: longLived } = await GraphStore.open(dir, { mode: 'read', compactEvery: 0 });
    while (writing) {
      try {
        const read = await longLived.loadAll();
        assert.ok(counts.has(`${read.nodes.length}/${read.edges.length}/${read.files.length}`), 'a whole generation is read');
      } catch (err) {
        failures.push(`long-lived: ${(err as Error).message}`);
      }
      for (const mode of ['write', 'read'] as const) {
        try {
          const { store } = await GraphStore.open(dir, { mode, compactEvery: 0 });
          const read = await store.loadAll();
          await store.close();
          assert.ok(counts.has(`${read.nodes.length}/${read.edges.length}/${read.files.length}`), 'a whole generation is read');
          opens++;
        } catch (err) {
          failures.push(`${mode}: ${(err as Error).message}`);
        }
      }
    }
    await writes;
    await writer.close();
    await longLived.close();
    assert.deepEqual(failures, []);
    assert.ok(opens >= 10, `opened ${opens} times while the writer wrote`);
  });

  it('ignores stray files in a healthy store and never wipes a folder that is not a store', async () => {
    const graph = fakeGraph(2, 2);
    const dir = await closedStoreWith(graph);
    await fs.writeFile(path.join(dir, 'notes.txt'), 'stray');
    const reopened = await openStore(dir);
    assert.equal(reopened.status.kind, 'opened');
    await assertHolds(reopened.store, graph);
    await reopened.store.close();

    const foreign = await tempDir();
    await fs.mkdir(foreign, { recursive: true });
    await fs.writeFile(path.join(foreign, 'precious.txt'), 'keep me');
    const { store, status } = await openStore(foreign);
    assert.deepEqual(status, { kind: 'created' });
    await store.close();
    assert.equal(await fs.readFile(path.join(foreign, 'precious.txt'), 'utf8'), 'keep me');
    // A folder that was there already is not told to hide itself from git; one the store makes is.
    await assert.rejects(fs.access(path.join(foreign, '.gitignore')));
    const made = path.join(await tempDir(), 'made-here');
    const madeStore = await openStore(made);
    assert.deepEqual(madeStore.status, { kind: 'created' });
    await madeStore.store.close();
    assert.match(await fs.readFile(path.join(made, '.gitignore'), 'utf8'), /^\*$/m);

    // Someone's project folder with its own meta.json: refused rather than overwritten.
    const project = await tempDir();
    await fs.mkdir(project, { recursive: true });
    await fs.writeFile(path.join(project, 'meta.json'), '{"name": "my-app"}');
    await fs.writeFile(path.join(project, 'index.js'), 'main()');
    await assert.rejects(openStore(project), /not a Cartograph store's/);
    assert.equal(await fs.readFile(path.join(project, 'meta.json'), 'utf8'), '{"name": "my-app"}');
    assert.deepEqual((await fs.readdir(project)).sort(), ['index.js', 'meta.json']);
  });

  it('throws a clear error when the folder cannot be created', async () => {
    const root = await tempDir();
    await fs.mkdir(path.dirname(root), { recursive: true });
    await fs.writeFile(root, 'a file where the folder should be');
    await assert.rejects(openStore(path.join(root, 'store')), /cannot create the graph store folder/);
  });

  it('compacts without losing data and keeps the folder from growing', async () => {
    const dir = await tempDir();
    let model = fakeGraph(20, 5);
    const { store } = await openStore(dir, { compactEvery: 0 });
    await store.replaceAll(model.nodes, model.edges, model.files);
    await store.setVectors(new Map([['pkg/mod_3.py#fn_1', vec(384, 7)]]));
    await store.compact();
    const baseline = await store.sizeOnDisk();
    for (let i = 0; i < 40; i++) {
      const filePath = `pkg/mod_${i % 20}.py`;
      const n = node(filePath, `fn_${i % 5}`, { hash: `rev-${i}` });
      const diff: StoreDiff = {
        nodes: { upsert: [n], remove: [] },
        edges: { upsert: [edge('USES', n.id, `pkg/mod_${(i + 3) % 20}.py`, i, filePath)], remove: [] },
        files: { upsert: [storedFile(filePath, [n], { hash: `rev-${i}` })], remove: [] },
      };
      await store.apply(diff);
      model = applyToModel(model, diff);
    }
    const grown = await store.sizeOnDisk();
    assert.ok(grown > baseline, 'applies add versions');
    // Cleanup keeps the committed generation (a reader's) and what was written in the second before it.
    const touchAll = async (hash: string) => {
      const n = node('pkg/mod_0.py', 'fn_0', { hash });
      const diff: StoreDiff = {
        nodes: { upsert: [n], remove: [] },
        edges: { upsert: [edge('USES', n.id, 'pkg/mod_1.py', 1, 'pkg/mod_0.py')], remove: [] },
        files: { upsert: [storedFile('pkg/mod_0.py', [n], { hash })], remove: [] },
      };
      await store.apply(diff);
      model = applyToModel(model, diff);
    };
    await delay(1_100);
    await touchAll('first');
    await store.compact();
    const compacted = await store.sizeOnDisk();
    assert.ok(compacted < grown, `compaction shrinks the folder (${grown} → ${compacted})`);
    // The generation committed before that compaction keeps its files until the next one.
    await delay(1_100);
    await touchAll('second');
    await store.compact();
    const settled = await store.sizeOnDisk();
    // At most the compacted tables and the files of the generation before them.
    assert.ok(settled < baseline * 2, `compacted size ${settled} stays within two copies of ${baseline}`);
    await assertHolds(store, model);
    assert.deepEqual([...(await store.loadVectors()).keys()], ['pkg/mod_3.py#fn_1']);
    await store.close();

    const reopened = await openStore(dir);
    assert.equal(reopened.status.kind, 'opened');
    await assertHolds(reopened.store, model);
    await reopened.store.close();
  });

  it('compacts on its own after enough applies', async () => {
    const dir = await tempDir();
    let model = fakeGraph(4, 2);
    const { store } = await openStore(dir, { compactEvery: 3 });
    await store.replaceAll(model.nodes, model.edges, model.files);
    // Compaction runs after every third apply here; it keeps what was written in the second
    // before the committed generation (which a reader may be on), so the first burst ages first.
    const applyOnce = async (i: number) => {
      const n = node('pkg/mod_0.py', 'fn_0', { hash: `rev-${i}` });
      const diff: StoreDiff = { nodes: { upsert: [n], remove: [] } };
      await store.apply(diff);
      model = applyToModel(model, diff);
    };
    for (let i = 0; i < 5; i++) await applyOnce(i);
    await delay(1_100);
    await applyOnce(5);
    await store.loadAll();
    // Each apply leaves two versions of the nodes table (delete, add): 13 without compaction.
    const versions = (await fs.readdir(path.join(dir, 'nodes.lance', '_versions'))).filter((f) => f.endsWith('.manifest'));
    assert.ok(versions.length <= 6, `old versions cleaned up (${versions.length} left)`);
    await assertHolds(store, model);
    await store.close();
    await assert.rejects(store.apply({}), /closed/);
  });
});
