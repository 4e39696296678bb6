// Parse workers must give way to the editor's thread: on Linux they run at a lower priority (nice),
// the thread that started them does not. Read from /proc, where Linux keeps a nice value per thread.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { WorkerParser } from '../../src/core/parse/parseService';

/** Nice value of every thread of this process, by thread id. */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, nice is field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(Number(tid), Number(fields[16]));
  }
  return nices;
}

test('parse workers run below the priority of the thread that started them (Linux)', { skip: process.platform !== 'linux' }, async () => {
  const before = threadNices();
  const parser = new WorkerParser(2);
  try {
    const outcomes = await parser.parse([{ path: 'a.py', language: 'python', text: 'def f():\n    return 1\n' }, { path: 'b.py', language: 'python', text: 'class C:\n    pass\n' }]);
    assert.equal(outcomes.filter((o) => o.ok).length, 2);
    // Both files may go to the first worker while the second is still booting: a worker thread is at
    // the starting thread's priority until its first line runs, so wait (up to 5 s) for both to lower themselves.
    const newThreads = () => [...threadNices()].filter(([tid]) => !before.has(tid));
    for (const until = Date.now() + 5_000; newThreads().filter(([, nice]) => nice >= 10).length < 2 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    const after = threadNices();
    const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice >= 10);
    // Each worker's JS thread, plus whatever threads it started after lowering itself.
    assert.ok(lowered.length >= 2, `threads started for the workers: ${JSON.stringify([...after].filter(([tid]) => !before.has(tid)))}`);
    assert.equal(after.get(process.pid), before.get(process.pid), 'the main thread keeps its priority');
  } finally {
    await parser.close();
  }
});
