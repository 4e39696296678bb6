// The service's "once nothing has been asked for a while" (src/core/service/quiet.ts): garbage collection
// after a burst and search preparation after a start wait for it. Timers and the clock are mocked, so
// nothing here depends on the machine's speed.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { Quiet } from '../../src/core/service/quiet';

test('work waits until no question has come for the quiet time, however often it is asked meanwhile', () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 10_000 });
  try {
    const quiet = new Quiet(1_000);
    const ran: number[] = [];
    quiet.then(() => ran.push(Date.now()));
    assert.deepEqual(ran, [10_000], 'never asked: at once');

    quiet.touch();
    quiet.then(() => ran.push(Date.now()));
    mock.timers.tick(600);
    quiet.touch(); // a question at 10,600: the quiet second starts again
    mock.timers.tick(600);
    assert.equal(ran.length, 1, 'not at 11,200: only 600 ms since the last question');
    mock.timers.tick(400);
    assert.deepEqual(ran, [10_000, 11_600]);

    quiet.touch();
    quiet.then(() => ran.push(Date.now()));
    quiet.cancel();
    mock.timers.tick(5_000);
    assert.equal(ran.length, 2, 'cancelled work never runs');
  } finally {
    mock.timers.reset();
  }
});
