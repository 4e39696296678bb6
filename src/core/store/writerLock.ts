// One writer at a time per store, across processes: the editor, every agent's MCP server and each CLI
// call may open the same store, and two LanceDB writers interleaving their commits (or one compacting
// files another reads) destroyed it. Readers never take the lock: they read the last committed
// generation (generationRecord.ts), which a writer replaces only by an atomic rename.
//
// Why our own lock file rather than a package: Node has no flock(2), and the maintained npm locks
// (proper-lockfile and its kin) tell a dead holder only by a heartbeat going stale, so a writer killed
// with -9 would block every other for their whole stale period (10 s by default). The lock here is a
// file created with O_EXCL naming its holder (pid, host, a random token), whose mtime the holder
// refreshes: it is stale at once when that pid is gone on this host, and after STALE_MS without a
// heartbeat otherwise (another host on a shared folder, a reused pid). Breaking a stale lock is itself
// guarded by a short-lived second file, so two waiters that both see the same stale holder cannot
// both take over (the second re-reads the lock and finds the first's live token).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const LOCK_FILE = 'writer.lock';
/** Without a heartbeat for this long a holder is taken for dead, whatever its pid says. */
const STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** What holds it: `cartograph index`, `cartograph mcp`, the editor. */
  command: string;
  since: string;
  token: string;
}

export interface AcquireOptions {
  /** Who is asking, recorded for the others' messages. */
  command: string;
  /** Called once when the lock is busy for a moment, with its holder (to say what we wait for). */
  onWait?: (holder: LockHolder) => void;
  /** Give up after this long (default: wait as long as the holder lives). */
  timeoutMs?: number;
  /** The lock file's name in `dir` (default the store's writer lock; a service's socket has its own). */
  name?: string;
  /** A holder to take for dead although its process lives (a thread of this process that was terminated). */
  deadHolder?: (holder: LockHolder) => boolean;
}

export class LockBusyError extends Error {
  override name = 'LockBusyError';
}

export class WriterLock {
  private heartbeat: NodeJS.Timeout;
  private released = false;

  private constructor(
    private readonly file: string,
    readonly holder: LockHolder,
  ) {
    this.heartbeat = setInterval(() => {
      const now = new Date();
      fs.utimes(this.file, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Waits for the store's lock (polling, a few ms at first, up to 250 ms apart) and takes it. */
  static async acquire(dir: string, options: AcquireOptions): Promise<WriterLock> {
    const file = path.join(dir, options.name ?? LOCK_FILE);
    const holder: LockHolder = { pid: process.pid, host: os.hostname(), command: options.command, since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
    const started = Date.now();
    let told = false;
    for (let attempt = 0; ; attempt++) {
      if (await tryCreate(file, holder)) return new WriterLock(file, holder);
      const current = await readHolder(file);
      if (current && (options.deadHolder?.(current) || (await isStale(file, current)))) {
        await breakStale(file, current);
        continue;
      }
      if (current && !told && Date.now() - started >= 300) {
        told = true;
        options.onWait?.(current);
      }
      if (options.timeoutMs !== undefined && Date.now() - started > options.timeoutMs) {
        const who = current ? describeHolder(current) : 'another process';
        throw new LockBusyError(`${options.name ? `${file} is held by` : 'the graph store is being written by'} ${who}; gave up after ${options.timeoutMs} ms`);
      }
      await delay(Math.min(250, 5 * 2 ** Math.min(attempt, 6)));
    }
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    // Only our own lock is removed: one broken as stale (we hung past STALE_MS) belongs to another now.
    const current = await readHolder(this.file);
    if (current?.token === this.holder.token) await fs.rm(this.file, { force: true });
  }
}

/** The holder recorded in the store's lock file (or the lock `name`), if one is there. */
export async function currentHolder(dir: string, name = LOCK_FILE): Promise<LockHolder | undefined> {
  const file = path.join(dir, name);
  const holder = await readHolder(file);
  return holder && !(await isStale(file, holder)) ? holder : undefined;
}

export function describeHolder(holder: LockHolder): string {
  return `${holder.command} (pid ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`;
}

async function tryCreate(file: string, holder: LockHolder): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`cannot lock the graph store (${file}): ${(err as Error).message}`);
  }
  try {
    await handle.writeFile(JSON.stringify(holder));
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * The lock file's holder; a file that is there but not (yet) readable JSON is a holder that has just
 * created it and not written it: taken as live, with the file's own age deciding staleness.
 */
async function readHolder(file: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as LockHolder;
    if (typeof parsed.pid === 'number' && typeof parsed.token === 'string') return parsed;
  } catch {
    // written half-way, or by something else
  }
  return { pid: 0, host: '', command: 'an unknown process', since: '', token: `unreadable:${text.length}` };
}

async function isStale(file: string, holder: LockHolder): Promise<boolean> {
  if (holder.host === os.hostname() && holder.pid > 0 && !processAlive(holder.pid)) return true;
  try {
    return Date.now() - (await fs.stat(file)).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, run by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `stale` from the lock file if it is still the one there, under the break guard. */
async function breakStale(file: string, stale: LockHolder): Promise<void> {
  const guard = `${file}.break`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(guard, 'wx');
  } catch {
    // Another waiter is breaking it; a guard left by a process killed in these few lines expires.
    const age = await fs.stat(guard).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > 5_000) await fs.rm(guard, { force: true });
    await delay(10);
    return;
  }
  try {
    await handle.close();
    const current = await readHolder(file);
    if (current?.token === stale.token) await fs.rm(file, { force: true });
  } finally {
    await fs.rm(guard, { force: true });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
