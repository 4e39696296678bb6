// LanceDB and Apache Arrow load in pieces with the event loop free in between: an editor host that
// opens a workspace must not be held for the whole evaluation of both libraries at once.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { loadLance, loadLanceInStages, nativeModulePath } from '../../src/core/store/storeFolder';
import { turnsDuring } from './helpers';

test('loadLanceInStages gives the event loop back between the pieces and returns LanceDB', async () => {
  const { result: lance, turns } = await turnsDuring(() => loadLanceInStages(true));
  assert.equal(typeof lance.connect, 'function');
  assert.ok(turns >= 5, `only ${turns} turns ran while loading`);
  // Loaded once: the synchronous path returns the same module.
  assert.equal(loadLance(), lance);
});

test("nativeModulePath finds the binary LanceDB loads on this platform (read ahead so loading it never waits on the disk)", () => {
  const file = nativeModulePath();
  assert.ok(file && file.endsWith('.node') && fs.statSync(file).size > 1_000_000, String(file));
});
