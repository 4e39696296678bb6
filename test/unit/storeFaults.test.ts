// The store under faults, with real processes and real LanceDB on Flask: `cartograph index` killed with
// -9 at random points of a first index, an update and a query's snapshot save; writers racing on one
// folder; a disk that fills up. After each, every read-only command answers like the last committed
// generation or says the store is incomplete, and one `index` equals a clean index.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphStore } from '../../src/core/store/graphStore';
import { CLI, FIXTURES, rng } from './helpers';
import { startMcp } from './mcpProcess';

/** Kill points per scenario; three scenarios, so CI tries at least 50. */
const KILLS_PER_SCENARIO = Number(process.env.CARTOGRAPH_FAULT_KILLS ?? 17);
const SEED = Number(process.env.CARTOGRAPH_FAULT_SEED ?? 20261128);

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-faults-'));
after(() => fs.rmSync(temp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the CLI and kills it with -9 after `ms` (or lets it finish first). */
function killedAfter(args: string[], cwd: string, ms: number): Promise<{ finished: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: 'ignore' });
    let finished = true;
    const timer = setTimeout(() => {
      finished = false;
      child.kill('SIGKILL');
    }, ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ finished });
    });
  });
}

/** What a reader sees: the counts `stats --json` reports, or the kind of refusal. */
type Seen = { counts: string } | { refused: 'incomplete' | 'no-index' | 'damaged'; stderr: string };

async function seen(root: string): Promise<Seen> {
  const run = await cli(['stats', '--json'], root);
  if (run.code === 0) {
    const s = JSON.parse(run.stdout) as { files: number; nodes: Record<string, number>; edges: Record<string, number> };
    return { counts: JSON.stringify({ files: s.files, nodes: s.nodes, edges: s.edges }) };
  }
  assert.doesNotMatch(run.stderr, /panicked|RUST_BACKTRACE|at .*\.rs:\d+/, 'no Rust panic text reaches the user');
  if (run.code === 3 && /no finished index|no committed generation/.test(run.stderr)) return { refused: 'incomplete', stderr: run.stderr };
  if ((run.code === 1 && /no index found/.test(run.stderr)) || (run.code === 3 && /there is no graph store/.test(run.stderr))) return { refused: 'no-index', stderr: run.stderr };
  return { refused: 'damaged', stderr: `exit ${run.code}: ${run.stderr}` };
}

async function counts(root: string): Promise<string> {
  const s = await seen(root);
  assert.ok('counts' in s, `stats refused: ${'stderr' in s ? s.stderr : ''}`);
  return s.counts;
}

async function index(root: string): Promise<void> {
  const run = await cli(['index', root], root);
  assert.equal(run.code, 0, run.stderr);
}

function copyFlask(name: string): string {
  const root = path.join(temp, name);
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  return root;
}

/** Edits that change the graph: functions added to a few modules, one module removed, one added. */
function edit(root: string): () => void {
  const changed = ['helpers.py', 'json/__init__.py', 'cli.py', 'sessions.py', 'views.py'];
  const originals = new Map(changed.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
  const removed = fs.readFileSync(path.join(root, 'signals.py'), 'utf8');
  for (const f of changed) fs.appendFileSync(path.join(root, f), `\n\ndef fault_probe_${f.replace(/\W/g, '_')}(x):\n    return helpers_probe(x)\n`);
  fs.rmSync(path.join(root, 'signals.py'));
  fs.writeFileSync(path.join(root, 'added_module.py'), 'from .helpers import get_root_path\n\n\ndef added(x):\n    return get_root_path(x)\n');
  return () => {
    for (const [f, text] of originals) fs.writeFileSync(path.join(root, f), text);
    fs.writeFileSync(path.join(root, 'signals.py'), removed);
    fs.rmSync(path.join(root, 'added_module.py'));
  };
}

describe('the store under kill -9, racing writers and a full disk', () => {
  let cleanA: string;
  let cleanB: string;
  let firstIndexMs: number;
  let updateMs: number;

  before(async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
    // The counts of clean indexes of state A (Flask) and state B (Flask edited), and how long each run takes.
    const reference = copyFlask('reference');
    let t = performance.now();
    await index(reference);
    firstIndexMs = performance.now() - t;
    cleanA = await counts(reference);
    const revert = edit(reference);
    t = performance.now();
    await index(reference);
    updateMs = performance.now() - t;
    fs.rmSync(path.join(reference, '.cartograph'), { recursive: true });
    await index(reference);
    cleanB = await counts(reference);
    revert();
    assert.notEqual(cleanA, cleanB, 'the edits change the graph');
  });

  it(`a first index killed at ${KILLS_PER_SCENARIO} random points leaves nothing a reader takes for an index, and one index repairs it`, async () => {
    const random = rng(SEED);
    const root = copyFlask('first');
    for (let i = 0; i < KILLS_PER_SCENARIO; i++) {
      fs.rmSync(path.join(root, '.cartograph'), { recursive: true, force: true });
      const at = Math.round(random() * firstIndexMs * 1.1);
      const { finished } = await killedAfter(['index', root], root, at);
      const after = await seen(root);
      if ('counts' in after) assert.equal(after.counts, cleanA, `killed at ${at} ms: a reader sees either the finished index or a refusal`);
      else assert.notEqual(after.refused, 'damaged', `killed at ${at} ms: ${after.stderr}`);
      if (finished) assert.ok('counts' in after);
      await index(root);
      assert.equal(await counts(root), cleanA, `after the kill at ${at} ms, one index equals a clean one`);
    }
  });

  it(`an update killed at ${KILLS_PER_SCENARIO} random points leaves the previous or the new generation, and one index repairs it`, async () => {
    const random = rng(SEED + 1);
    const root = copyFlask('update');
    await index(root);
    let revert: (() => void) | undefined;
    for (let i = 0; i < KILLS_PER_SCENARIO; i++) {
      // Alternately A → B and B → A, so that every run has 50-odd rows per table to change.
      const before = revert ? cleanB : cleanA;
      if (revert) {
        revert();
        revert = undefined;
      } else {
        revert = edit(root);
      }
      const expected = revert ? cleanB : cleanA;
      const at = Math.round(random() * updateMs * 1.1);
      await killedAfter(['index', root], root, at);
      const after = await seen(root);
      assert.ok('counts' in after, `killed at ${at} ms, the last committed generation is readable: ${'stderr' in after ? after.stderr : ''}`);
      assert.ok(after.counts === before || after.counts === expected, `killed at ${at} ms: a reader sees the previous or the new generation, nothing in between`);
      await index(root);
      assert.equal(await counts(root), expected, `after the kill at ${at} ms, one index equals a clean one`);
    }
    revert?.();
  });

  it(`a query killed at ${KILLS_PER_SCENARIO} random points while saving its snapshot never leaves a snapshot that answers wrong`, async () => {
    const random = rng(SEED + 2);
    const root = copyFlask('snapshot');
    await index(root);
    const snapshot = path.join(root, '.cartograph', 'query-snapshot.bin');
    const expected = await cli(['show', 'Flask.run', '--json'], root);
    assert.equal(expected.code, 0, expected.stderr);
    for (let i = 0; i < KILLS_PER_SCENARIO; i++) {
      fs.rmSync(snapshot, { force: true });
      // Without a snapshot, `query` loads the store and saves a new one before it answers.
      await killedAfter(['query', 'register a blueprint'], root, Math.round(random() * updateMs * 1.5));
      const show = await cli(['show', 'Flask.run', '--json'], root);
      assert.equal(show.code, 0, show.stderr);
      assert.deepEqual(JSON.parse(show.stdout), JSON.parse(expected.stdout));
      assert.equal(await counts(root), cleanA);
    }
  });

  it('two MCP servers and two index runs on one folder, with edits between, store exactly what a clean index stores', async () => {
    const root = copyFlask('writers');
    const servers = [startMcp(root), startMcp(root)];
    try {
      // Each answers once it has loaded (or built) the graph and written it.
      for (const server of servers) assert.match((await server.call('search_code', { query: 'Flask.run' })).text, /Flask\.run/);
      for (const run of await Promise.all([cli(['index', root], root), cli(['index', root], root)])) assert.equal(run.code, 0, run.stderr);
      const revert = edit(root);
      for (const run of await Promise.all([cli(['index', root], root), cli(['index', root], root)])) assert.equal(run.code, 0, run.stderr);
      // A call applies the file events the server has seen; the servers then write what they applied.
      for (const server of servers) await server.call('repo_overview', { maxTokens: 200 });
      for (const server of servers) assert.equal(await server.close(), 0, server.stderr());
      assert.equal(await counts(root), cleanB);
      const stored = await storedRows(path.join(root, '.cartograph'));
      const reference = copyFlask('writers-reference');
      edit(reference);
      await index(reference);
      assert.deepEqual(stored, await storedRows(path.join(reference, '.cartograph')), 'no row lost or stored twice');
      revert();
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

/** Rows per table and whether any key is stored twice. */
async function storedRows(storeDir: string): Promise<{ nodes: number; edges: number; files: number; repeated: number }> {
  const { store } = await GraphStore.open(storeDir, { mode: 'read' });
  try {
    const all = await store.loadAll();
    const keys = [...all.nodes.map((n) => n.id), ...all.edges.map((e) => `edge ${e.id}`), ...all.files.map((f) => `file ${f.path}`)];
    return { nodes: all.nodes.length, edges: all.edges.length, files: all.files.length, repeated: keys.length - new Set(keys).size };
  } finally {
    await store.close();
  }
}
