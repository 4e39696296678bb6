// Parsing as a service: a pool of worker threads for bulk indexing, so two cores parse at once and the
// caller's event loop stays free; for saves, in-process (no IPC: a CLI) or one on-demand worker (an
// editor host, whose thread a large file's parse would hold).
import * as os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Language } from '../model/schema';
import { extractFile } from './extract';
import type { FileGraph } from './fileGraph';
import { ParserPool, findGrammarsDir } from './parser';
import { nextTurn } from '../eventLoop';
import { startWorkerScript } from '../workerScript';

export interface ParseJob {
  path: string;
  language: Language;
  text: string;
}

/** A per-file outcome: one file that cannot be extracted never stops the others. */
export type ParseOutcome = { ok: true; graph: FileGraph } | { ok: false; path: string; error: string };

export interface ParseService {
  parse(jobs: ParseJob[], onFile?: (done: number) => void): Promise<ParseOutcome[]>;
  close(): Promise<void>;
}

export async function parseInProcess(pool: ParserPool, job: ParseJob): Promise<ParseOutcome> {
  try {
    return { ok: true, graph: await extractFile(pool, job.path, job.language, job.text) };
  } catch (error) {
    return { ok: false, path: job.path, error: error instanceof Error ? error.message : String(error) };
  }
}

export class InProcessParser implements ParseService {
  constructor(private readonly pool = new ParserPool()) {}

  async parse(jobs: ParseJob[], onFile?: (done: number) => void): Promise<ParseOutcome[]> {
    const out: ParseOutcome[] = [];
    for (const job of jobs) {
      out.push(await parseInProcess(this.pool, job));
      onFile?.(out.length);
      // Yield between files so a long batch never holds the event loop for more than one file.
      if (out.length % 8 === 0) await nextTurn();
    }
    return out;
  }

  async close(): Promise<void> {}
}

interface WorkerRequest {
  id: number;
  jobs: ParseJob[];
}
interface WorkerReply {
  id: number;
  /** JSON text: parsing it is several times cheaper for the main thread than a structured clone. */
  json: string;
}

export class WorkerParser implements ParseService {
  private readonly workers: Worker[] = [];
  private nextId = 0;
  private readonly pending = new Map<number, (outcomes: ParseOutcome[]) => void>();

  constructor(count = Math.max(1, Math.min(2, os.cpus().length))) {
    const grammarsDir = findGrammarsDir();
    for (let i = 0; i < count; i++) {
      const worker = startWorkerScript(__dirname, 'parseWorker', { workerData: { grammarsDir } });
      worker.on('message', (reply: WorkerReply) => {
        this.pending.get(reply.id)?.(JSON.parse(reply.json) as ParseOutcome[]);
        this.pending.delete(reply.id);
      });
      this.workers.push(worker);
    }
  }

  async parse(jobs: ParseJob[], onFile?: (done: number) => void): Promise<ParseOutcome[]> {
    // Small chunks keep both workers busy to the end and let progress move steadily.
    const chunks: ParseJob[][] = [];
    for (let i = 0; i < jobs.length; i += 16) chunks.push(jobs.slice(i, i + 16));
    const results: ParseOutcome[][] = new Array(chunks.length);
    let next = 0;
    let done = 0;
    const run = async (worker: Worker) => {
      while (next < chunks.length) {
        const index = next++;
        results[index] = await this.request(worker, chunks[index]);
        done += chunks[index].length;
        onFile?.(done);
      }
    };
    await Promise.all(this.workers.map(run));
    return results.flat();
  }

  private request(worker: Worker, jobs: ParseJob[]): Promise<ParseOutcome[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      this.pending.set(id, (outcomes) => {
        worker.off('error', onError);
        resolve(outcomes);
      });
      worker.postMessage({ id, jobs } satisfies WorkerRequest);
    });
  }

  /** Whether idle workers may keep the process alive (they do by default). */
  keepAlive(keep: boolean): void {
    for (const worker of this.workers) {
      if (keep) worker.ref();
      else worker.unref();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}

/**
 * One parse worker, started on first use and stopped after `idleMs` without work: for the saves and
 * completion buffers of an editor host. Parsed in the host's thread, one save of Django's
 * db/models/base.py (2,161 lines) held it 50-80 ms, and the first 250 ms (building the tree-sitter
 * queries too). The worker costs a message each way, and its start (0.3-0.6 s, off this thread) on
 * the first parse after an idle stop: ten minutes, so that a pause in typing does not make the next
 * completion wait for it.
 */
export class OnDemandWorkerParser implements ParseService {
  private pool: WorkerParser | undefined;
  private running = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = 10 * 60_000) {}

  /** Whether the worker is running (it stops `idleMs` after the last parse). */
  get started(): boolean {
    return this.pool !== undefined;
  }

  async parse(jobs: ParseJob[], onFile?: (done: number) => void): Promise<ParseOutcome[]> {
    clearTimeout(this.idleTimer);
    const pool = (this.pool ??= new WorkerParser(1));
    pool.keepAlive(true);
    this.running++;
    try {
      return await pool.parse(jobs, onFile);
    } catch (err) {
      // A worker that failed (crashed, ran out of memory) is not reused: the next save starts another.
      if (this.pool === pool) {
        this.pool = undefined;
        void pool.close();
      }
      throw err;
    } finally {
      if (--this.running === 0) {
        // Idle, neither the worker nor its timer keeps a finished process (a CLI, a test) running.
        pool.keepAlive(false);
        this.idleTimer = setTimeout(() => void this.close(), this.idleMs).unref();
      }
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}
