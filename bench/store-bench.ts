// Graph store benchmark on a synthetic repository of Django's size (900 files, ~40k nodes, ~150k
// edges): full write, warm-start read, single-file incremental updates, and disk growth.
// Run: npx tsx bench/store-bench.ts [--json FILE] [--applies N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GraphStore, type StoreDiff, type StoredFile } from '../src/core/store/graphStore';
import { edgeId, EDGE_KINDS, type GraphEdge, type GraphNode } from '../src/core/model/schema';
import { PARSER_VERSION, type FileGraph, type SymbolDef } from '../src/core/parse/fileGraph';

const FILES = 900;
const NODES_PER_FILE = 44; // + module → ~40k nodes
const EDGES_PER_FILE = 167; // → ~150k edges

function hash(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0').repeat(5);
}

interface FakeFile {
  file: StoredFile;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

function fakeFile(f: number, revision = 0): FakeFile {
  const filePath = `pkg${f % 30}/sub${f % 7}/module_${f}.py`;
  const moduleNode: GraphNode = {
    id: filePath,
    kind: 'Module',
    name: `module_${f}`,
    qname: `pkg${f % 30}.sub${f % 7}.module_${f}`,
    path: filePath,
    language: 'python',
    range: { startLine: 0, startCol: 0, endLine: 400, endCol: 0 },
    signature: '',
    doc: `Module ${f}: helpers for the ${f % 13} subsystem.`,
    hash: hash(`${filePath}@${revision}`),
    exported: true,
  };
  const nodes: GraphNode[] = [moduleNode];
  const symbols: SymbolDef[] = [];
  for (let s = 0; s < NODES_PER_FILE - 1; s++) {
    const cls = Math.floor(s / 8);
    const isClass = s % 8 === 0;
    const localId = isClass ? `Class${cls}` : `Class${cls}.method_${s}`;
    const range = { startLine: s * 9, startCol: isClass ? 0 : 4, endLine: s * 9 + 8, endCol: 20 };
    // A revision changes the hash of a few symbols only, as an edit would.
    const h = hash(`${filePath}#${localId}@${s < 3 ? revision : 0}`);
    const signature = isClass ? `class Class${cls}(Base${cls % 4})` : `def method_${s}(self, arg_${s}: int, *, flag: bool = False) -> str`;
    const doc = s % 3 === 0 ? `Return the ${s}th value of the thing, formatted for display.` : '';
    nodes.push({
      id: `${filePath}#${localId}`,
      kind: isClass ? 'Class' : 'Method',
      name: isClass ? `Class${cls}` : `method_${s}`,
      qname: `${moduleNode.qname}.${localId}`,
      path: filePath,
      language: 'python',
      range,
      signature,
      doc,
      hash: h,
      exported: true,
    });
    symbols.push({ localId, kind: isClass ? 'Class' : 'Method', name: localId, parent: isClass ? null : `Class${cls}`, range, signature, doc, hash: h, exported: true });
  }
  const edges: GraphEdge[] = [];
  for (let e = 0; e < EDGES_PER_FILE; e++) {
    const kind = EDGE_KINDS[e % EDGE_KINDS.length];
    const source = nodes[e % nodes.length].id;
    const other = (f * 31 + e * 17) % FILES;
    const target = `pkg${other % 30}/sub${other % 7}/module_${other}.py#Class${e % 5}.method_${(e % 7) + 1}`;
    edges.push({ id: edgeId(kind, source, target) + `|${e}`, kind, source, target, line: e * 3, owner: filePath });
  }
  const graph: FileGraph = {
    path: filePath,
    language: 'python',
    hash: moduleNode.hash,
    parserVersion: PARSER_VERSION,
    doc: moduleNode.doc,
    lines: 400,
    symbols,
    imports: [{ local: 'os', module: 'os', imported: null, line: 1, scope: null }],
    exports: [],
    refs: edges.slice(0, 20).map((e) => ({ from: null, kind: 'CALLS' as const, chain: e.target.split('#')[1].split('.'), line: e.line })),
    texts: [{ from: null, literals: `cannot read module_${f}`, comments: 'generated for the store benchmark' }],
    syntaxErrors: 0,
  };
  const file: StoredFile = {
    path: filePath,
    hash: moduleNode.hash,
    mtimeMs: 1_700_000_000_000 + f * 1000 + revision,
    size: 12_000 + f,
    language: 'python',
    parserVersion: PARSER_VERSION,
    graph,
    skipped: null,
  };
  return { file, nodes, edges };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (t: number) => `${t.toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const result = await fn();
  return [result, performance.now() - t0];
}

/** A save of file `f`: its nodes, edges and file row re-upserted (three hashes changed), one node and edge gone. */
function singleFileDiff(f: number, revision: number): StoreDiff {
  const { file, nodes, edges } = fakeFile(f, revision);
  const upsertNodes = nodes.slice(0, 20);
  const upsertEdges = edges.slice(0, 60);
  return {
    nodes: { upsert: upsertNodes, remove: [nodes[nodes.length - 1].id] },
    edges: { upsert: upsertEdges, remove: [edges[edges.length - 1].id] },
    files: { upsert: [file], remove: [] },
  };
}

async function runApplies(store: GraphStore, count: number, revisionBase: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const diff = singleFileDiff((i * 37) % FILES, revisionBase + i + 1);
    const [, t] = await timed(() => store.apply(diff));
    times.push(t);
  }
  return times;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jsonIndex = args.indexOf('--json');
  const jsonFile = jsonIndex >= 0 ? args[jsonIndex + 1] : undefined;
  const appliesIndex = args.indexOf('--applies');
  const applies = appliesIndex >= 0 ? Number(args[appliesIndex + 1]) : 200;

  const all = Array.from({ length: FILES }, (_, f) => fakeFile(f));
  const nodes = all.flatMap((x) => x.nodes);
  const edges = all.flatMap((x) => x.edges);
  const files = all.map((x) => x.file);
  const jsonBytes = files.reduce((n, f) => n + JSON.stringify(f.graph).length, 0);

  const loadBefore = os.loadavg()[0];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cartograph-store-bench-'));
  const rows: [string, string][] = [];
  const results: Record<string, number> = {};
  const record = (key: string, label: string, value: number, format: (v: number) => string) => {
    results[key] = value;
    rows.push([label, format(value)]);
  };
  try {
    const [{ store: first }, openCreate] = await timed(() => GraphStore.open(dir));
    record('openCreateMs', 'open (create)', openCreate, ms);
    const replaceTimes: number[] = [];
    for (let i = 0; i < 3; i++) replaceTimes.push((await timed(() => first.replaceAll(nodes, edges, files)))[1]);
    record('replaceAllMs', `replaceAll ${nodes.length} nodes / ${edges.length} edges / ${files.length} files (median of 3)`, percentile(replaceTimes, 50), ms);
    record('replaceAllFirstMs', 'replaceAll, first run', replaceTimes[0], ms);
    record('sizeAfterReplaceAll', 'size on disk after replaceAll', await first.sizeOnDisk(), mb);
    await first.close();

    const [{ store, status }, openTime] = await timed(() => GraphStore.open(dir));
    if (status.kind !== 'opened') throw new Error(`expected opened, got ${JSON.stringify(status)}`);
    record('openMs', 'open (existing, verified)', openTime, ms);
    const loadTimes: number[] = [];
    let loaded = await store.loadAll();
    for (let i = 0; i < 3; i++) {
      const [result, t] = await timed(() => store.loadAll());
      loaded = result;
      loadTimes.push(t);
    }
    if (loaded.nodes.length !== nodes.length || loaded.edges.length !== edges.length || loaded.files.length !== files.length) {
      throw new Error('loadAll returned the wrong row counts');
    }
    record('loadAllMs', 'loadAll (median of 3)', percentile(loadTimes, 50), ms);

    // Incremental updates, first without automatic compaction to see the raw growth of the folder.
    await store.close();
    const { store: manual } = await GraphStore.open(dir, { compactEvery: 0 });
    const applyTimes = await runApplies(manual, applies, 0);
    record('applyP50Ms', `apply single-file diff p50 (${applies} diffs, no auto-compaction)`, percentile(applyTimes, 50), ms);
    record('applyP95Ms', 'apply p95', percentile(applyTimes, 95), ms);
    record('sizeAfterApplies', `size on disk after ${applies} applies`, await manual.sizeOnDisk(), mb);
    const [, compactTime] = await timed(() => manual.compact());
    record('compactMs', 'compact', compactTime, ms);
    record('sizeAfterCompact', 'size on disk after compact', await manual.sizeOnDisk(), mb);
    await manual.close();

    // The default: a compaction queued after every 50th apply.
    const { store: auto } = await GraphStore.open(dir);
    const autoTimes = await runApplies(auto, applies, 100_000);
    record('applyAutoP50Ms', `apply p50 (${applies} diffs, default auto-compaction)`, percentile(autoTimes, 50), ms);
    record('applyAutoP95Ms', 'apply p95, default auto-compaction', percentile(autoTimes, 95), ms);
    record('applyAutoMaxMs', 'apply max (includes waiting for a compaction)', Math.max(...autoTimes), ms);
    record('sizeAfterAutoApplies', `size on disk after ${applies} more applies`, await auto.sizeOnDisk(), mb);
    const [, reloadTime] = await timed(() => auto.loadAll());
    record('loadAllAfterAppliesMs', 'loadAll after the applies', reloadTime, ms);
    const storeWithVectors = auto;

    // With embeddings present, apply also reads the old vectors of the upserted nodes.
    const vectors = new Map<string, Float32Array>();
    for (const n of nodes) vectors.set(n.id, new Float32Array(384).fill(0.5));
    const [, setVectorsTime] = await timed(() => storeWithVectors.setVectors(vectors));
    record('setVectorsMs', `setVectors for all ${nodes.length} nodes (384-d)`, setVectorsTime, ms);
    const [, compactVectorsTime] = await timed(() => storeWithVectors.compact());
    record('compactWithVectorsMs', 'compact with vectors stored', compactVectorsTime, ms);
    record('sizeWithVectors', 'size on disk with vectors, compacted', await storeWithVectors.sizeOnDisk(), mb);
    const vectorApplyTimes = await runApplies(storeWithVectors, Math.min(applies, 100), 10_000);
    record('applyWithVectorsP50Ms', `apply p50 with vectors stored (${Math.min(applies, 100)})`, percentile(vectorApplyTimes, 50), ms);
    record('applyWithVectorsP95Ms', 'apply p95 with vectors stored', percentile(vectorApplyTimes, 95), ms);
    const [, loadWithVectors] = await timed(() => storeWithVectors.loadAll());
    record('loadAllWithVectorsMs', 'loadAll with vectors stored', loadWithVectors, ms);
    const [, replaceWithVectors] = await timed(() => storeWithVectors.replaceAll(nodes, edges, files));
    record('replaceAllWithVectorsMs', 'replaceAll keeping vectors', replaceWithVectors, ms);
    await storeWithVectors.close();
    const [{ store: last }, openWithVectors] = await timed(() => GraphStore.open(dir));
    record('openWithVectorsMs', 'open (existing, with vectors)', openWithVectors, ms);
    await last.close();

    const width = Math.max(...rows.map(([label]) => label.length));
    // Other processes on a 2-core machine move these numbers a lot: say how busy it was.
    console.log(`load average before/after: ${loadBefore.toFixed(2)} / ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`);
    console.log(`graph JSON per file: ${(jsonBytes / files.length / 1024).toFixed(1)} KB on average`);
    for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value.padStart(10)}`);
    if (jsonFile) {
      const summary = { nodes: nodes.length, edges: edges.length, files: files.length, loadAverage: [loadBefore, os.loadavg()[0]], ...results };
      writeFileSync(jsonFile, JSON.stringify(summary, null, 2) + '\n');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
