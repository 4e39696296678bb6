// The build-on-first-use holder of the search indexes: edits during a build reach the index, a reset
// voids a running build, a failed build is retried. Builds here finish when the test says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LazyIndex } from '../../src/core/search/lazyIndex';

class Recorder {
  readonly updated: string[] = [];
  constructor(readonly generation: number) {}
  update(ids: Iterable<string>): void {
    this.updated.push(...ids);
  }
}

/** A LazyIndex whose builds wait for `finish(n)` (n = how many builds ran so far, from 1). */
function controlled(failFirst = false) {
  const pending: Array<() => void> = [];
  let builds = 0;
  const lazy = new LazyIndex(async () => {
    const generation = ++builds;
    await new Promise<void>((resolve) => pending.push(resolve));
    if (failFirst && generation === 1) throw new Error('out of memory');
    return new Recorder(generation);
  });
  return { lazy, finish: (n: number) => pending[n - 1](), builds: () => builds };
}

test('queries during a build share it, and edits made meanwhile are read once it is done', async () => {
  const { lazy, finish, builds } = controlled();
  const a = lazy.get();
  const b = lazy.get();
  lazy.touch(['x.py#f', 'y.py#g']);
  finish(1);
  const [first, second] = await Promise.all([a, b]);
  assert.equal(first, second);
  assert.equal(builds(), 1);
  assert.deepEqual(first.updated, ['x.py#f', 'y.py#g']);
  lazy.touch(['z.py#h']);
  assert.deepEqual(first.updated, ['x.py#f', 'y.py#g', 'z.py#h'], 'a built index is updated at once');
  assert.equal(await lazy.get(), first, 'and kept');
});

test('a reset during a build voids it: the next query builds from the new graph', async () => {
  const { lazy, finish, builds } = controlled();
  const waiting = lazy.get();
  lazy.touch(['old.py#f']);
  lazy.reset();
  const next = lazy.get();
  assert.equal(builds(), 2, 'a query after the reset does not wait for the void build');
  lazy.touch(['new.py#g']);
  finish(1);
  const voided = await waiting;
  assert.equal(voided.generation, 1, 'the queries that waited still get an answer');
  assert.deepEqual(voided.updated, [], 'the void build is not brought up to date');
  finish(2);
  const fresh = await next;
  assert.equal(fresh.generation, 2);
  assert.deepEqual(fresh.updated, ['new.py#g']);
  assert.equal(await lazy.get(), fresh);
});

test('a failed build is reported to the queries that waited, and the next query tries again', async () => {
  const { lazy, finish, builds } = controlled(true);
  const failing = lazy.get();
  finish(1);
  await assert.rejects(failing, /out of memory/);
  const retry = lazy.get();
  assert.equal(builds(), 2);
  finish(2);
  assert.equal((await retry).generation, 2);
});

test('what changed before the first build is read after it (a build may restore an index saved before the change)', async () => {
  const { lazy, finish } = controlled();
  lazy.touch(['described.py#f']);
  const built = lazy.get();
  finish(1);
  assert.deepEqual((await built).updated, ['described.py#f']);
});

