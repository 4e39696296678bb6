// A re-index with nothing changed is told from the record of the last index, without loading the graph
// (core/unchangedIndex.ts): it must say so only where the index proper would reuse every file and write
// nothing, and send every other case (an edit, a new, deleted or touched file, a skip that no longer
// holds, a config file, other options, a store changed or damaged since) to the index.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { createSearcher } from '../../src/core/search';
import { descriptionsStamp, saveEngineSnapshot } from '../../src/core/search/querySnapshot';
import { unchangedIndex } from '../../src/core/unchangedIndex';
import { FIXTURES } from './helpers';

const temps: string[] = [];
after(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

function copyFixture(fixture: string): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-unchanged-'));
  temps.push(parent);
  const root = path.join(parent, 'ranger');
  fs.cpSync(path.join(FIXTURES, fixture), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  return root;
}

/** What `cartograph index` does: index, then save the query snapshot and the index record. */
async function indexAndSave(root: string, options: Parameters<typeof Engine.open>[1] = {}) {
  const engine = await Engine.open(root, options);
  try {
    const report = await engine.index();
    await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(path.join(root, '.cartograph')));
    return { report, stats: engine.stats() };
  } finally {
    await engine.close();
  }
}

/** Back-dated, so that a rewrite within the same millisecond still changes the mtime. */
function write(file: string, text: string | Buffer, mtime = new Date()): void {
  fs.writeFileSync(file, text);
  fs.utimesSync(file, mtime, mtime);
}

test('nothing changed: the report and the counts of an index, from the record; each change goes to the index', async () => {
  const root = copyFixture('ranger-py');
  write(path.join(root, 'blob.py'), Buffer.from([0, 159, 146, 150]));
  assert.equal(await unchangedIndex(root), undefined, 'never indexed');
  const first = await indexAndSave(root);
  const unchanged = await unchangedIndex(root);
  assert.ok(unchanged, 'indexed and saved, then nothing changed');
  assert.deepEqual(
    { ...unchanged.report, timings: {} },
    { files: 3, parsed: 0, reused: 2, removed: 0, skipped: [{ path: 'blob.py', reason: 'binary', detail: first.report.skipped[0].detail }], timings: {} },
  );
  assert.deepEqual({ ...unchanged.stats, store: undefined }, { ...first.stats, store: undefined });
  assert.equal(unchanged.stats.store.status, 'unchanged');

  const base = path.join(root, 'base.py');
  const text = fs.readFileSync(base, 'utf8');
  const cases: Array<[string, () => void, number]> = [
    ['an edited file', () => write(base, `${text}\n# edited\n`), 1],
    ['a new file', () => write(path.join(root, 'more.py'), 'def more():\n    return 1\n'), 1],
    ['a deleted file', () => fs.rmSync(path.join(root, 'more.py')), 0],
    ['a skipped file that is now text', () => write(path.join(root, 'blob.py'), 'x = 1\n'), 1],
  ];
  for (const [what, change, parsed] of cases) {
    change();
    assert.equal(await unchangedIndex(root), undefined, what);
    assert.equal((await indexAndSave(root)).report.parsed, parsed, `${what}: the index parses it`);
    assert.ok(await unchangedIndex(root), `${what}: unchanged after the index`);
  }

  // Same text, new stats (a checkout): the index records the stats without a new generation, and so must the record.
  const touched = new Date(Date.now() - 60_000);
  fs.utimesSync(base, touched, touched);
  assert.equal(await unchangedIndex(root), undefined, 'a touched file is read again by the index');
  assert.equal((await indexAndSave(root)).report.parsed, 0);
  assert.ok(await unchangedIndex(root), 'the record follows the touched file');

  assert.equal(await unchangedIndex(root, undefined, { exclude: ['extended.py'], includeMinified: false }), undefined, 'other options are the index’s to record');
});

test('a config file the graph was resolved with, changed, goes to the index', async () => {
  const root = copyFixture('ranger-ts');
  write(path.join(root, 'tsconfig.json'), '{ "compilerOptions": { "baseUrl": "." } }\n');
  await indexAndSave(root);
  assert.ok(await unchangedIndex(root));
  write(path.join(root, 'tsconfig.json'), '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }\n');
  assert.equal(await unchangedIndex(root), undefined);
});

test('a damaged store is left to the index, which rebuilds it, even when the folder is unchanged', async () => {
  const root = copyFixture('ranger-py');
  const { stats } = await indexAndSave(root);
  const data = path.join(root, '.cartograph', 'nodes.lance', 'data');
  for (const name of fs.readdirSync(data)) {
    const bytes = fs.readFileSync(path.join(data, name));
    for (let i = 64; i < bytes.length / 2; i += 3) bytes[i] ^= 0x5a;
    fs.writeFileSync(path.join(data, name), bytes);
  }
  assert.equal(await unchangedIndex(root), undefined);
  const rebuilt = await indexAndSave(root);
  assert.match(rebuilt.stats.store.status, /rebuilt/);
  assert.deepEqual(rebuilt.stats.nodes, stats.nodes);
  assert.ok(await unchangedIndex(root));
});
