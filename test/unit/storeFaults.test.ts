// The store under faults, with real processes and real LanceDB on Flask: `cartograph index` killed with
// -9 at random points of a first index, an update and a query's snapshot save; writers racing on one
// folder; a disk that fills up. After each, every read-only command answers like the last committed
// generation or says the store is incomplete, and one `index` equals a clean index.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startMcp } from '../support/mcpProcess';
import { cli, CLI, copyFlask as copyFlaskTo, counts, edit, FLASK, index, killedAfter, seen, storedRows, type Run } from '../support/storeHarness';
import { rng } from './helpers';

/** Kill points per scenario; three scenarios, so CI tries at least 50. */
const KILLS_PER_SCENARIO = Number(process.env.CARTOGRAPH_FAULT_KILLS ?? 17);
const SEED = Number(process.env.CARTOGRAPH_FAULT_SEED ?? 20261128);

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-faults-'));
after(() => fs.rmSync(temp, { recursive: true, force: true }));
const copyFlask = (name: string) => copyFlaskTo(path.join(temp, name));

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

  it('a damaged data file, manifest, generation record or snapshot: readers say so, exit non-zero and delete nothing', async () => {
    const root = copyFlask('damaged');
    await index(root);
    const store = path.join(root, '.cartograph');
    const filesUnder = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const listing = () => filesUnder(store).map((f) => `${path.relative(store, f)} ${fs.statSync(f).size}`).sort().join('\n');
    const pristine = path.join(temp, 'damaged-pristine');
    fs.cpSync(store, pristine, { recursive: true });
    const damages: Array<[string, () => void]> = [
      ['bytes flipped inside the data files', () => {
        for (const f of filesUnder(path.join(store, 'nodes.lance', 'data'))) {
          const bytes = fs.readFileSync(f);
          for (let i = 64; i < bytes.length / 2; i += 3) bytes[i] ^= 0x5a;
          fs.writeFileSync(f, bytes);
        }
      }],
      ['the committed manifest deleted', () => {
        const record = JSON.parse(fs.readFileSync(path.join(store, 'generation.json'), 'utf8'));
        // LanceDB names a manifest by u64::MAX minus its version, so the newest sorts first.
        fs.rmSync(path.join(store, 'edges.lance', '_versions', `${2n ** 64n - 1n - BigInt(record.tables.edges)}.manifest`));
      }],
      ['the generation record deleted', () => fs.rmSync(path.join(store, 'generation.json'))],
    ];
    for (const [what, damage] of damages) {
      damage();
      fs.rmSync(path.join(store, 'query-snapshot.bin'), { force: true });
      const before = listing();
      for (const args of [['stats'], ['show', 'Flask.run'], ['query', 'register a blueprint']]) {
        const run = await cli(args, root);
        assert.equal(run.code, 3, `${what}, ${args[0]}: ${run.stderr}`);
        assert.match(run.stderr, /the graph store at .* (is damaged|has no committed generation|its generation record)[^]*run 'cartograph index .*' to/, `${what}, ${args[0]}`);
        assert.doesNotMatch(run.stderr, /panicked|RUST_BACKTRACE|\.rs:\d+/, `${what}, ${args[0]}: no Rust panic text`);
      }
      assert.equal(listing(), before, `${what}: the readers deleted nothing`);
      await index(root);
      assert.equal(await counts(root), cleanA, `${what}: one index repairs it`);
      fs.rmSync(store, { recursive: true });
      fs.cpSync(pristine, store, { recursive: true });
    }
    // A damaged snapshot is only a cache: the answer comes from the store, which is intact.
    const snapshot = path.join(store, 'query-snapshot.bin');
    const bytes = fs.readFileSync(snapshot);
    bytes.fill(0x20, bytes.length - 4096);
    fs.writeFileSync(snapshot, bytes);
    const show = await cli(['query', 'register a blueprint', '--json'], root);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stderr, /query snapshot damaged/);
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

  it('a full disk during a first index, an update and a snapshot save, and a read-only store, keep the last generation and say what failed', async (t) => {
    const disk = path.join(temp, 'small-disk');
    fs.mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (err) {
      t.skip(`a small tmpfs cannot be mounted here (${(err as Error).message.split('\n')[0]}): the full-disk checks need root`);
      return;
    }
    const resize = (size: string) => execFileSync('mount', ['-o', `remount,size=${size}`, disk]);
    const root = path.join(disk, 'flask');
    const noPanic = (run: Run) => assert.doesNotMatch(run.stderr, /panicked|Unhandled|\n\s+at /, run.stderr);
    try {
      // The sources fit; the store does not.
      fs.cpSync(FLASK, root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
      let run = await cli(['index', root], root);
      noPanic(run);
      assert.equal(run.code, 1, 'index fails when nothing could be stored');
      assert.match(run.stderr, /no space left on the device holding .* \([\d.]+ MB free\): the store takes [\d.]+ MB and a full write needs about as much again/);
      const refused = await seen(root);
      assert.ok('refused' in refused && refused.refused !== 'damaged', 'a reader refuses the unfinished store');

      resize('16m');
      await index(root);
      assert.equal(await counts(root), cleanA);

      // Full again: the update fails and the previous generation stays whole.
      const filler = path.join(disk, 'filler');
      const fill = () => {
        const { bavail, bsize } = fs.statfsSync(disk);
        fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 16 * 1024)));
      };
      fill();
      const revert = edit(root);
      run = await cli(['index', root], root);
      noPanic(run);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /no space left/);
      assert.equal(await counts(root), cleanA, 'the last committed generation is intact');
      fs.rmSync(filler);
      await index(root);
      assert.equal(await counts(root), cleanB);

      // A store that cannot be written at all (a read-only mount) fails the same way.
      revert();
      resize('16m,ro');
      run = await cli(['index', root], root);
      noPanic(run);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /the graph could not be stored in .*: .*read-only file system/i);
      assert.equal(await counts(root), cleanB, 'the last committed generation is intact');
      resize('16m,rw');
      await index(root);
      assert.equal(await counts(root), cleanA);

      // A snapshot that cannot be saved is said, and the answer still comes from the store.
      fs.rmSync(path.join(root, '.cartograph', 'query-snapshot.bin'));
      fill();
      run = await cli(['show', 'Flask.run'], root);
      noPanic(run);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Flask\.run/);
      assert.match(run.stderr, /query snapshot not saved/);
      fs.rmSync(filler);
    } finally {
      execFileSync('umount', [disk]);
    }
  });
});
