import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { currentHolder, LOCK_FILE, WriterLock, type LockHolder } from '../../src/core/store/writerLock';

const roots: string[] = [];
after(async () => {
  for (const dir of roots) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cartograph-lock-test-'));
  roots.push(dir);
  return dir;
}

/** A child process that takes the lock, says so on stdout, and holds it until killed. */
async function holdInChild(dir: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const script = `
    const { WriterLock } = require(${JSON.stringify(path.resolve('src/core/store/writerLock.ts'))});
    WriterLock.acquire(${JSON.stringify(dir)}, { command: 'holder' }).then(() => { console.log('held'); setInterval(() => {}, 1000); });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    pid: child.pid!,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('WriterLock', () => {
  it('lets one holder in at a time and the next in when it releases', async () => {
    const dir = await tempDir();
    const order: string[] = [];
    const first = await WriterLock.acquire(dir, { command: 'first' });
    let waitedFor: LockHolder | undefined;
    const second = WriterLock.acquire(dir, { command: 'second', onWait: (h) => (waitedFor = h) }).then((lock) => {
      order.push('second');
      return lock;
    });
    // The second says whom it waits for, and cannot get in while the first holds it.
    while (!waitedFor) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(order.length, 0);
    assert.equal(waitedFor.command, 'first');
    assert.equal((await currentHolder(dir))?.command, 'first');
    order.push('first releases');
    await first.release();
    const lock = await second;
    assert.deepEqual(order, ['first releases', 'second']);
    await lock.release();
    assert.equal(await currentHolder(dir), undefined);
    await assert.rejects(fs.access(path.join(dir, LOCK_FILE)));
  });

  it('takes over at once from a holder killed with -9', async () => {
    const dir = await tempDir();
    const holder = await holdInChild(dir);
    assert.equal((await currentHolder(dir))?.pid, holder.pid);
    await assert.rejects(WriterLock.acquire(dir, { command: 'impatient', timeoutMs: 300 }), /being written by holder \(pid \d+/);
    await holder.kill();
    const lock = await WriterLock.acquire(dir, { command: 'next', timeoutMs: 30_000 });
    assert.equal((await currentHolder(dir))?.command, 'next');
    await lock.release();
  });

  it('never removes a lock that another holder took after its own was broken', async () => {
    const dir = await tempDir();
    const mine = await WriterLock.acquire(dir, { command: 'mine' });
    // As if this holder had hung past the stale period and another had taken over.
    const theirs = { ...mine.holder, command: 'theirs', token: 'someone-else' };
    await fs.writeFile(path.join(dir, LOCK_FILE), JSON.stringify(theirs));
    await mine.release();
    assert.equal((await currentHolder(dir))?.command, 'theirs');
  });

  it('serializes many contenders in one process without two holding it together', async () => {
    const dir = await tempDir();
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const lock = await WriterLock.acquire(dir, { command: `c${i}` });
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside--;
        await lock.release();
      }),
    );
    assert.equal(most, 1);
  });
});
