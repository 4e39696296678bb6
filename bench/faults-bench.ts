// `npm run bench:faults -- [--kills 60] [--writer-runs 3] [--seed N] [--depths 2500,5000,10000,20000] [--json FILE]`:
// the store under faults on Flask with the built CLI (run `npm run build` first). Kill points: `index`
// killed with -9 (its whole process group) at seeded random moments of a first index, an update of
// 6 files and a query's snapshot save; after each, what `stats` sees (the previous generation, the
// new one, or a refusal) and the rows stored against a clean index of either state (rows lost beyond
// the interrupted run's own changes must be 0), then the time one `index` takes to recover. Writer
// runs: two MCP servers and two `index` runs on one folder with edits between. And extraction time
// against nesting depth (bench/faults/nesting.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startMcp } from '../test/support/mcpProcess';
import { rng } from '../test/support/rng';
import { cli, CLI, copyFlask, counts, edit, index, killedAfter, seen, storedRows } from '../test/support/storeHarness';
import { measureNesting } from './faults/nesting';

const { values } = parseArgs({
  options: { kills: { type: 'string' }, 'writer-runs': { type: 'string' }, seed: { type: 'string' }, depths: { type: 'string' }, json: { type: 'string' } },
});
const KILLS = Number(values.kills ?? 60);
const WRITER_RUNS = Number(values['writer-runs'] ?? 3);
const SEED = Number(values.seed ?? 20261128);
const DEPTHS = (values.depths ?? '2500,5000,10000,20000').split(',').map(Number);

type Scenario = 'first index' | 'update' | 'snapshot save';
interface KillResult {
  scenario: Scenario;
  atMs: number;
  /** What a reader saw right after the kill. */
  seen: 'previous' | 'new' | 'refused' | 'wrong';
  rowsLost: number;
  recoveryMs: number;
  recovered: boolean;
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('build first: npm run build');
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-bench-faults-'));
  try {
    // Clean references: counts and stored rows of state A (Flask) and B (Flask edited), and run times.
    const reference = copyFlask(path.join(temp, 'reference'));
    let t = performance.now();
    await index(reference);
    const firstMs = performance.now() - t;
    const a = { counts: await counts(reference), rows: await storedRows(path.join(reference, '.cartograph')) };
    const revert = edit(reference);
    t = performance.now();
    await index(reference);
    const updateMs = performance.now() - t;
    fs.rmSync(path.join(reference, '.cartograph'), { recursive: true });
    await index(reference);
    const b = { counts: await counts(reference), rows: await storedRows(path.join(reference, '.cartograph')) };
    revert();

    const random = rng(SEED);
    const kills: KillResult[] = [];
    const root = copyFlask(path.join(temp, 'faults'));
    let undo: (() => void) | undefined;
    for (let i = 0; i < KILLS; i++) {
      const scenario: Scenario = (['first index', 'update', 'snapshot save'] as const)[i % 3];
      const previous = scenario === 'first index' ? undefined : undo ? b : a;
      let expected = undo ? b : a;
      let args = ['index', root];
      if (scenario === 'first index') fs.rmSync(path.join(root, '.cartograph'), { recursive: true, force: true });
      if (scenario === 'update') {
        if (undo) {
          undo();
          undo = undefined;
        } else {
          undo = edit(root);
        }
        expected = undo ? b : a;
      }
      if (scenario === 'snapshot save') {
        fs.rmSync(path.join(root, '.cartograph', 'query-snapshot.bin'), { force: true });
        args = ['query', 'register a blueprint'];
      }
      const atMs = Math.round(random() * (scenario === 'first index' ? firstMs : updateMs) * 1.1);
      await killedAfter(args, root, atMs);
      const after = await seen(root);
      let outcome: KillResult['seen'] = 'refused';
      let rowsLost = 0;
      if ('counts' in after) {
        const rows = await storedRows(path.join(root, '.cartograph'));
        const match = [previous, expected].find((state) => state && state.counts === after.counts && sameRows(state.rows, rows));
        outcome = !match ? 'wrong' : match === expected && expected !== previous ? 'new' : 'previous';
        // Rows missing against the nearer of the two states the run moved between.
        rowsLost = Math.min(...[previous, expected].filter((s) => s !== undefined).map((s) => missing(s.rows, rows)));
      } else if (after.refused === 'damaged') {
        outcome = 'wrong';
      }
      t = performance.now();
      await index(root);
      const recoveryMs = performance.now() - t;
      kills.push({ scenario, atMs, seen: outcome, rowsLost, recoveryMs: Math.round(recoveryMs), recovered: (await counts(root)) === expected.counts });
    }
    undo?.();

    const writers: Array<{ run: number; ms: number; equalsClean: boolean; repeatedRows: number }> = [];
    for (let run = 0; run < WRITER_RUNS; run++) {
      const dir = copyFlask(path.join(temp, `writers-${run}`));
      t = performance.now();
      const servers = [startMcp(dir), startMcp(dir)];
      for (const server of servers) await server.call('search_code', { query: 'Flask.run' });
      await Promise.all([cli(['index', dir], dir), cli(['index', dir], dir)]);
      edit(dir);
      await Promise.all([cli(['index', dir], dir), cli(['index', dir], dir)]);
      for (const server of servers) await server.call('repo_overview', { maxTokens: 200 });
      for (const server of servers) await server.close();
      const rows = await storedRows(path.join(dir, '.cartograph'));
      writers.push({ run, ms: Math.round(performance.now() - t), equalsClean: (await counts(dir)) === b.counts && sameRows(rows, b.rows), repeatedRows: rows.repeated });
    }

    const nesting = await measureNesting(DEPTHS);
    report(kills, writers, nesting);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

type Rows = Awaited<ReturnType<typeof storedRows>>;

function sameRows(x: Rows, y: Rows): boolean {
  return x.nodes === y.nodes && x.edges === y.edges && x.files === y.files && x.repeated === y.repeated;
}

function missing(expected: Rows, actual: Rows): number {
  return Math.max(0, expected.nodes - actual.nodes) + Math.max(0, expected.edges - actual.edges) + Math.max(0, expected.files - actual.files);
}

function report(kills: KillResult[], writers: Array<{ run: number; ms: number; equalsClean: boolean; repeatedRows: number }>, nesting: Awaited<ReturnType<typeof measureNesting>>): void {
  console.log('\nKill points (kill -9 of the process group at a seeded random moment)\n');
  console.log('| scenario | kill points | reader saw previous / new / refused / wrong | rows lost | recovered by one index | recovery p50 / max (ms) |');
  console.log('|---|---:|---|---:|---:|---|');
  const scenarios = [...new Set(kills.map((k) => k.scenario))];
  for (const scenario of [...scenarios, 'all' as const]) {
    const rows = kills.filter((k) => scenario === 'all' || k.scenario === scenario);
    const count = (s: KillResult['seen']) => rows.filter((k) => k.seen === s).length;
    const times = rows.map((k) => k.recoveryMs).sort((x, y) => x - y);
    console.log(
      `| ${scenario} | ${rows.length} | ${count('previous')} / ${count('new')} / ${count('refused')} / ${count('wrong')} | ${rows.reduce((n, k) => n + k.rowsLost, 0)} | ` +
        `${rows.filter((k) => k.recovered).length}/${rows.length} | ${times[Math.floor(times.length / 2)]} / ${times.at(-1)} |`,
    );
  }
  console.log('\nConcurrent writers (two MCP servers + two index runs, edits between)\n');
  console.log('| run | time (ms) | store equals a clean index | rows stored twice |');
  console.log('|---:|---:|---|---:|');
  for (const w of writers) console.log(`| ${w.run + 1} | ${w.ms} | ${w.equalsClean ? 'yes' : 'NO'} | ${w.repeatedRows} |`);
  console.log('\nExtraction against nesting depth (one file, index to memory)\n');
  console.log('| language | depth | bytes | ms |');
  console.log('|---|---:|---:|---:|');
  for (const n of nesting) console.log(`| ${n.language} | ${n.depth} | ${n.bytes} | ${n.ms} |`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, seed: SEED, kills, writers, nesting }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
