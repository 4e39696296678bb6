// Find Where Implemented's search-as-you-type schedule: one search once the typing pauses, always for
// the last value typed; one search at a time; busy while a search is due or running.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { TypingSearch } from '../../src/extension/typingSearch';

const PAUSE = 150;

function harness(searchMs = 50) {
  const searched: string[] = [];
  const busy: boolean[] = [];
  let running = 0;
  let overlapped = false;
  const search = async (value: string) => {
    searched.push(value);
    overlapped ||= running > 0;
    running++;
    await new Promise((resolve) => setTimeout(resolve, searchMs));
    running--;
  };
  const typing = new TypingSearch(search, (b) => busy.push(b), PAUSE);
  return { typing, searched, busy, overlapped: () => overlapped };
}

test('keys faster than the pause are one search, for the last value, fired after the last key', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const h = harness();
  for (const value of ['C', 'Ca', 'Cac', 'Cach']) {
    h.typing.typed(value);
    t.mock.timers.tick(30);
  }
  assert.deepEqual(h.searched, [], 'nothing searched while the keys keep coming');
  assert.deepEqual(h.busy, [true], 'busy from the first key');
  t.mock.timers.tick(PAUSE);
  assert.deepEqual(h.searched, ['Cach']);
});

test('a key during a search waits for it, and only the latest of the values typed meanwhile is searched', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const h = harness(100);
    h.typing.typed('a');
    mock.timers.tick(PAUSE); // 'a' starts
    h.typing.typed('ab');
    mock.timers.tick(PAUSE); // 'ab' is due while 'a' still runs
    h.typing.typed('abc');
    mock.timers.tick(PAUSE); // so is 'abc': it replaces 'ab'
    for (let i = 0; i < 10; i++) {
      mock.timers.tick(100);
      await Promise.resolve();
      await Promise.resolve();
    }
    assert.deepEqual(h.searched, ['a', 'abc']);
    assert.equal(h.overlapped(), false, 'never two searches at once');
    assert.deepEqual(h.busy, [true, false], 'busy from the first key until the last answer');
  } finally {
    mock.timers.reset();
  }
});

test('an emptied box is answered at once; the echo of a value asked for is not searched again', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const h = harness();
  const initial = h.typing.now('Calculator'); // the command's initial query
  h.typing.typed('Calculator'); // VS Code reports it back as a change
  t.mock.timers.tick(PAUSE * 2);
  await initial;
  h.typing.typed('');
  assert.deepEqual(h.searched, ['Calculator', '']);
});

test('a closed picker searches nothing more', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const h = harness();
  h.typing.typed('load');
  h.typing.dispose();
  t.mock.timers.tick(PAUSE * 2);
  assert.deepEqual(h.searched, []);
});
