import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { edgeId, EDGE_KINDS, SCHEMA_VERSION, type GraphEdge, type GraphNode } from '../../src/core/model/schema';
import { PARSER_VERSION, type FileGraph } from '../../src/core/parse/fileGraph';
import { GraphStore, type StoreDiff, type StoredFile } from '../../src/core/store/graphStore';

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
    const metaFile = path.join(dir, 'meta.json');
    const meta = JSON.parse(await fs.readFile(metaFile, 'utf8'));
    assert.equal(meta.schemaVersion, SCHEMA_VERSION);
    assert.equal(meta.vectorDim, 384);
    await fs.writeFile(metaFile, JSON.stringify({ ...meta, schemaVersion: 0 }));
    await assertRebuiltAndUsable(dir, new RegExp(`^schema version 0 → ${SCHEMA_VERSION}$`));

    const { store, status } = await openStore(dir, { vectorDim: 16 });
    assert.deepEqual(status, { kind: 'rebuilt', reason: 'vector dimension 384 → 16' });
    await store.close();
  });

  it('rebuilds when the metadata is missing or junk', async () => {
    const dir = await closedStoreWith(fakeGraph(2, 2));
    await fs.writeFile(path.join(dir, 'meta.json'), Buffer.from([0xff, 0x00, 0x13, 0x37, 0x7b]));
    await assertRebuiltAndUsable(dir, /^store metadata unreadable: /);

    const dir2 = await closedStoreWith(fakeGraph(2, 2));
    await fs.rm(path.join(dir2, 'meta.json'));
    await assertRebuiltAndUsable(dir2, /^store metadata missing$/);

    const dir3 = await closedStoreWith(fakeGraph(2, 2));
    await fs.writeFile(path.join(dir3, 'meta.json'), JSON.stringify({ hello: 'world' }));
    await assertRebuiltAndUsable(dir3, /not a Cartograph store/);
  });

  it('rebuilds when table files are damaged', async () => {
    const graph = fakeGraph(3, 3);

    // Garbage over every data file of a table.
    const dir = await closedStoreWith(graph);
    const dataFiles = (await filesUnder(path.join(dir, 'edges.lance'))).filter((f) => f.includes(`${path.sep}data${path.sep}`));
    assert.ok(dataFiles.length > 0);
    for (const f of dataFiles) await fs.writeFile(f, 'this is not a lance file');
    await assertRebuiltAndUsable(dir, /^store unreadable: /);

    // A data file deleted.
    const dir2 = await closedStoreWith(graph);
    const nodeData = (await filesUnder(path.join(dir2, 'nodes.lance'))).filter((f) => f.includes(`${path.sep}data${path.sep}`));
    await fs.rm(nodeData[0]);
    await assertRebuiltAndUsable(dir2, /^store unreadable: /);

    // A truncated data file.
    const dir3 = await closedStoreWith(graph);
    const fileData = (await filesUnder(path.join(dir3, 'files.lance'))).filter((f) => f.includes(`${path.sep}data${path.sep}`));
    const bytes = await fs.readFile(fileData[0]);
    await fs.writeFile(fileData[0], bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assertRebuiltAndUsable(dir3, /^store unreadable: /);

    // Version manifests gone, and a manifest overwritten with junk.
    const dir4 = await closedStoreWith(graph);
    await fs.rm(path.join(dir4, 'nodes.lance', '_versions'), { recursive: true });
    await assertRebuiltAndUsable(dir4, /^store unreadable: /);
    const dir5 = await closedStoreWith(graph);
    for (const f of await filesUnder(path.join(dir5, 'files.lance', '_versions'))) await fs.writeFile(f, 'junk');
    await assertRebuiltAndUsable(dir5, /^store unreadable: /);

    // A table replaced by a plain file, and a table missing.
    const dir6 = await closedStoreWith(graph);
    await fs.rm(path.join(dir6, 'edges.lance'), { recursive: true });
    await fs.writeFile(path.join(dir6, 'edges.lance'), 'junk');
    await assertRebuiltAndUsable(dir6, /^store unreadable: /);
    const dir7 = await closedStoreWith(graph);
    await fs.rm(path.join(dir7, 'files.lance'), { recursive: true });
    await assertRebuiltAndUsable(dir7, /^store unreadable: table files is missing$/);

    // A full write that never finished.
    const dir8 = await closedStoreWith(graph);
    await fs.writeFile(path.join(dir8, 'replacing.marker'), '');
    await assertRebuiltAndUsable(dir8, /^the last full write was interrupted$/);
  });

  it('forgets the files of an interrupted apply so that a warm start re-parses them', async () => {
    const graph = fakeGraph(3, 2);
    const dir = await closedStoreWith(graph);
    await fs.writeFile(path.join(dir, 'apply.journal'), JSON.stringify(['pkg/mod_1.py', "it's/not/there.py"]));
    const { store, status } = await openStore(dir);
    assert.deepEqual(status, { kind: 'opened' });
    await assertHolds(store, { ...graph, files: graph.files.filter((f) => f.path !== 'pkg/mod_1.py') });
    await store.close();
    await assert.rejects(fs.access(path.join(dir, 'apply.journal')));

    // A journal cut short while being written means the tables were not touched yet.
    const dir2 = await closedStoreWith(graph);
    await fs.writeFile(path.join(dir2, 'apply.journal'), '["pkg/mod_');
    const second = await openStore(dir2);
    assert.deepEqual(second.status, { kind: 'opened' });
    await assertHolds(second.store, graph);
    await second.store.close();
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
    await store.compact();
    const compacted = await store.sizeOnDisk();
    assert.ok(compacted < grown, `compaction shrinks the folder (${grown} → ${compacted})`);
    assert.ok(compacted < baseline * 1.5, `compacted size ${compacted} stays close to ${baseline}`);
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
    // Compaction runs after every third apply here.
    for (let i = 0; i < 12; i++) {
      const n = node('pkg/mod_0.py', 'fn_0', { hash: `rev-${i}` });
      const diff: StoreDiff = { nodes: { upsert: [n], remove: [] } };
      await store.apply(diff);
      model = applyToModel(model, diff);
    }
    await store.loadAll();
    // Each apply leaves two versions of the nodes table (delete, add): 24 without compaction.
    const versions = (await fs.readdir(path.join(dir, 'nodes.lance', '_versions'))).filter((f) => f.endsWith('.manifest'));
    assert.ok(versions.length <= 4, `old versions cleaned up (${versions.length} left)`);
    await assertHolds(store, model);
    await store.close();
    await assert.rejects(store.apply({}), /closed/);
  });
});
