// Background embedding of graph nodes: after structural indexing (and after later changes) every
// searchable node whose content hash has no vector yet is embedded in small batches, with the event
// loop free between batches, and the vectors go to the store's vector column. The store keeps a
// node's vector as long as its hash is unchanged, so a warm start embeds only what changed since.
// A small file beside the store names the model that wrote the vectors: another model means none of
// them can be used.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../engine';
import { nodeText, SEARCHABLE_KINDS } from '../search/nodeText';
import type { GraphStore } from '../store/graphStore';
import { MemoryNodeVectors } from './nodeVectors';
import { messageOf } from './transformersModels';
import type { Embedder } from './types';
import { nextTurn } from '../eventLoop';

export const VECTORS_MODEL_FILE = 'vectors-model.json';

export interface EmbeddingJobOptions {
  /** Texts handed to the embedder at once (default 16); the event loop is free between batches. */
  batchSize?: number;
  /**
   * Vectors written to the store at once (default 2,048). A write costs about the same whatever its size
   * (LanceDB's merge reads the whole node table: 50-70 ms on Django), and the pass waits for it: at 256
   * Django's 17,843 vectors took 70 writes, 3-5 s of a 25-30 s pass. A crash loses at most this many.
   */
  persistEvery?: number;
  log?: (message: string) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface EmbeddingReport {
  /** Nodes embedded by this run. */
  embedded: number;
  /** Searchable nodes whose vector was already there (in memory or in the store). */
  reused: number;
  /** Vectors dropped because their node is gone. */
  removed: number;
  /** False when vectors live in memory only (no store, or one with another vector length). */
  persisted: boolean;
  cancelled: boolean;
  ms: number;
}

type EngineView = Pick<Engine, 'graph' | 'currentStore' | 'flush'>;

export class EmbeddingJob {
  readonly vectors: MemoryNodeVectors;
  private readonly batchSize: number;
  private readonly persistEvery: number;
  /** The store whose vector column holds what `vectors` holds (undefined: not loaded from or written to one yet). */
  private syncedStore: GraphStore | null | undefined;
  /** Set when the store cannot take this model's vectors: stop trying, once logged. */
  private memoryOnly = false;
  /** The model file to write once a run completes: the store held another model's vectors. */
  private markerAfterRun: string | undefined;
  /** The run under way until its vectors are in memory (it then writes them to the store behind `writing`). */
  private running: Promise<void> | undefined;
  private queued: { promise: Promise<EmbeddingReport>; signals: (AbortSignal | undefined)[] } | undefined;
  /** Vector writes to the store, one after another: a run's last write may still be going when the next run embeds. */
  private writing: Promise<void> = Promise.resolve();
  /** Callers of `settle` waiting to learn how much the next run embeds, then for its vectors to be in memory (before the store has them). */
  private readonly waiters: { planned: (toEmbed: number) => void; inMemory: () => void }[] = [];

  constructor(
    private readonly engine: EngineView,
    readonly embedder: Embedder,
    private readonly options: EmbeddingJobOptions = {},
  ) {
    this.vectors = new MemoryNodeVectors(embedder.dim);
    this.batchSize = options.batchSize ?? 16;
    this.persistEvery = options.persistEvery ?? 2048;
  }

  /**
   * Runs (as `run`) and resolves when the run's vectors are in memory (search uses them; the store
   * takes them after) or, when it has more than `most` nodes to embed, as soon as it knows it: the rest
   * embeds in the background. What is waited for depends on the repository's state, never on time, so
   * a small repository is always searched with all its vectors.
   */
  async settle(most: number, signal?: AbortSignal): Promise<void> {
    // A run still embedding may be a whole repository's: what changed meanwhile embeds after it, unwaited.
    if (this.running) {
      this.run(signal).catch(() => undefined);
      return;
    }
    let planned!: (toEmbed: number) => void;
    let inMemory!: () => void;
    const plan = new Promise<number>((resolve) => (planned = resolve));
    const embedded = new Promise<void>((resolve) => (inMemory = resolve));
    this.waiters.push({ planned, inMemory });
    const done = this.run(signal);
    const toEmbed = await Promise.race([plan, done.then(() => 0)]);
    if (toEmbed <= most) await Promise.race([embedded, done]);
  }

  /** Resolves once no run is under way or queued (a cancelled one included) and every vector write is done. */
  async idle(): Promise<void> {
    for (;;) {
      const pending = this.queued?.promise ?? this.running;
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const writing = this.writing;
      await writing.catch(() => undefined);
      if (writing === this.writing && !this.running && !this.queued) return;
    }
  }

  /**
   * Embeds what is missing. Runs one at a time: a call during a run queues one more run (calls
   * meanwhile share it), since the graph may have changed after the running one collected its work.
   */
  run(signal?: AbortSignal): Promise<EmbeddingReport> {
    if (!this.running) {
      let inMemory!: () => void;
      const running = new Promise<void>((resolve) => (inMemory = resolve));
      // The next run may start once this one's vectors are in memory: its own writes queue behind these.
      const embedded = () => {
        if (this.running === running) this.running = undefined;
        inMemory();
      };
      this.running = running;
      return this.runNow(signal, embedded).finally(embedded);
    }
    if (this.queued) {
      this.queued.signals.push(signal);
      return this.queued.promise;
    }
    const signals = [signal];
    const promise = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        // Cancelled only when every caller waiting on it cancelled.
        const all = signals.every((s) => s?.aborted) ? AbortSignal.abort() : undefined;
        return this.run(all);
      });
    this.queued = { promise, signals };
    return promise;
  }

  private async runNow(signal: AbortSignal | undefined, inMemory: () => void): Promise<EmbeddingReport> {
    const started = performance.now();
    // Embedding needs the graph only; the store is waited for where it is read or written (its rows
    // must be there for their vectors): an edit's vector is searched with before the edit is written.
    const current = () => (this.memoryOnly ? null : this.engine.currentStore);
    if (current() !== this.syncedStore) {
      await this.writing.catch(() => undefined);
      await this.engine.flush();
    }
    let store = current();
    if (store !== this.syncedStore) store = await this.adopt(store);

    const graph = this.engine.graph.graph;
    const todo: { id: string; hash: string; text: string }[] = [];
    let reused = 0;
    graph.forEachNode((id, node) => {
      if (!SEARCHABLE_KINDS.has(node.kind)) return;
      if (this.vectors.hashOf(id) === node.hash) reused++;
      else todo.push({ id, hash: node.hash, text: nodeText(graph, id) });
    });
    const waiting = this.waiters.splice(0);
    for (const { planned } of waiting) planned(todo.length);
    // Batches of similar lengths: a batch is padded to its longest text (on Flask this doubled throughput).
    todo.sort((a, b) => a.text.length - b.text.length);
    let removed = 0;
    for (const id of [...this.vectors.ids()]) {
      if (!graph.hasNode(id)) {
        this.vectors.delete(id);
        removed++;
      }
    }

    let embedded = 0;
    let unsaved = new Map<string, Float32Array>();
    const save = () => {
      const vectors = unsaved;
      unsaved = new Map();
      this.writing = this.writing.catch(() => undefined).then(async () => {
        // A store that refused an earlier run's write (persist) is not asked again.
        if (!store || this.memoryOnly || vectors.size === 0) return;
        await this.engine.flush();
        store = await this.persist(store, vectors);
      });
      return this.writing;
    };
    try {
      for (let at = 0; at < todo.length; at += this.batchSize) {
        if (signal?.aborted) break;
        const batch = todo.slice(at, at + this.batchSize).filter(({ id }) => graph.hasNode(id));
        const vectors = await this.embedder.embed(batch.map((item) => item.text));
        batch.forEach(({ id, hash }, i) => {
          // The node may have changed while its batch was embedded: that vector is stale already.
          if (!graph.hasNode(id) || graph.getNodeAttributes(id).hash !== hash) return;
          this.vectors.set(id, hash, vectors[i]);
          unsaved.set(id, vectors[i]);
          embedded++;
        });
        if (unsaved.size >= this.persistEvery) await save();
        this.options.onProgress?.(Math.min(at + this.batchSize, todo.length), todo.length);
        // Whatever else waits on the event loop (a save, a query) runs between two batches.
        await nextTurn();
      }
    } finally {
      for (const waiter of waiting) waiter.inMemory();
      inMemory();
      // Also when the embedder failed mid-run (an endpoint went down): what was computed is kept.
      await save();
    }
    const cancelled = signal?.aborted ?? false;
    if (store && this.markerAfterRun && !cancelled) {
      await writeModelFile(this.markerAfterRun, this.embedder);
      this.markerAfterRun = undefined;
    }
    return { embedded, reused, removed, persisted: store !== null, cancelled, ms: Math.round(performance.now() - started) };
  }

  /**
   * Starts using a (new) store: its vectors are taken when this model wrote them, and what is in
   * memory is written to it. Returns the store to write to, or null to keep vectors in memory only.
   */
  private async adopt(store: GraphStore | null): Promise<GraphStore | null> {
    this.syncedStore = store;
    this.markerAfterRun = undefined;
    if (!store) return null;
    const marker = path.join(store.dir, VECTORS_MODEL_FILE);
    const recorded = await readModelFile(marker);
    const stored = await store.loadVectors();
    if (recorded?.model === this.embedder.id && recorded.dim === this.embedder.dim) {
      // The store dropped the vectors of nodes whose hash changed (flush above), so the rest match the graph.
      const graph = this.engine.graph.graph;
      for (const [id, vector] of stored) {
        if (graph.hasNode(id) && !this.vectors.hashOf(id)) this.vectors.set(id, graph.getNodeAttributes(id).hash, vector.length > this.embedder.dim ? vector.slice(0, this.embedder.dim) : vector);
      }
    } else if (stored.size > 0) {
      // Another model's vectors: not used, and the marker names this model only once a complete run
      // has overwritten every one of them.
      this.options.log?.(`stored embeddings are from ${recorded?.model ?? 'an unknown model'}: recomputing them with ${this.embedder.id}`);
      this.markerAfterRun = marker;
    } else {
      await writeModelFile(marker, this.embedder);
    }
    const missing = new Map<string, Float32Array>();
    for (const id of this.vectors.ids()) if (!stored.has(id) || this.markerAfterRun) missing.set(id, this.vectors.get(id)!);
    return this.persist(store, missing);
  }

  /** Writes vectors; a store that refuses them (longer than its vector column, closed) leaves them in memory. */
  private async persist(store: GraphStore, vectors: Map<string, Float32Array>): Promise<GraphStore | null> {
    if (vectors.size === 0) return store;
    try {
      await store.setVectors(padded(vectors, store.vectorDim));
      return store;
    } catch (err) {
      this.options.log?.(`embeddings kept in memory only: the store did not take them (${messageOf(err)})`);
      this.memoryOnly = true;
      return null;
    }
  }
}

/**
 * Vectors shorter than the store's column zero-padded to it (a 256-d model, such as the first shipped one, in the
 * 384-wide column): dot products and norms are unchanged, and reading back keeps the model's first
 * `dim`. Longer ones are left as they are, for the store to refuse.
 */
function padded(vectors: Map<string, Float32Array>, dim: number): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  for (const [id, vector] of vectors) {
    if (vector.length >= dim) out.set(id, vector);
    else {
      const wide = new Float32Array(dim);
      wide.set(vector);
      out.set(id, wide);
    }
  }
  return out;
}

async function readModelFile(file: string): Promise<{ model: string; dim: number } | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { model?: unknown; dim?: unknown };
    return typeof parsed.model === 'string' && typeof parsed.dim === 'number' ? { model: parsed.model, dim: parsed.dim } : undefined;
  } catch {
    return undefined;
  }
}

function writeModelFile(file: string, embedder: Embedder): Promise<void> {
  return fs.writeFile(file, JSON.stringify({ model: embedder.id, dim: embedder.dim }));
}
