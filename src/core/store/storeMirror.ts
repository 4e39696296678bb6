// The graph's mirror in LanceDB, as the engine keeps it: changes queued and merged while a write runs,
// and a store that fails degrading to memory-only instead of failing the graph, then recreated from the
// graph on the next change (its folder deleted under us, a disk error) without a Reindex. A store
// another process wrote meanwhile gets the whole graph rewritten, since a diff no longer applies to it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChangeSet } from '../graph/changeSet';
import type { GraphDiff, RepositoryGraph } from '../graph/repositoryGraph';
import type { GraphEdge, GraphNode } from '../model/schema';
import { GraphStore, StoreMovedError, StoreUnreadableError, type OpenStatus, type StoreDiff, type StoredFile } from './graphStore';
import { folderSize } from './folderSize';
import { errorMessage } from './storeFolder';
import type { LockHolder } from './writerLock';
import { ROOT_FILE } from './storeVersion';

export interface StoreInfo {
  dir: string | null;
  status: string;
  error?: string;
}

export interface StoreMirrorOptions {
  /** Read LanceDB's binary ahead of loading it (an editor's extension host; see EngineOptions.responsive). */
  responsive?: boolean;
  /**
   * `read`: the store is opened as it was committed, never created or repaired, and one that cannot
   * be read throws StoreUnreadableError (the CLI's stats/show/query). Default `write`.
   */
  storeMode?: 'read' | 'write';
  /** A writer that finds the committed generation damaged: rebuild it (default) or keep the graph in memory and say so (an MCP server). */
  onStoreDamage?: 'rebuild' | 'report';
  /** Who this process is, in other writers' "waiting for …" messages. */
  command?: string;
  /** Told when a write waits for another process's lock. */
  onStoreWait?: (holder: LockHolder) => void;
  log?: (message: string) => void;
}

/** What the mirror holds: the graph, and the engine's row for every file (the files table). */
export interface MirroredState {
  graph: RepositoryGraph;
  files(): StoredFile[];
}

export class StoreMirror {
  private status: string;
  private error: string | undefined;
  /** True when a store that worked has failed since (its folder deleted, a disk error): worth reopening. */
  private storeLost = false;
  private storeDir: string | null = null;
  private readonly pending = new PendingWrites();
  private flushing: Promise<void> | undefined;

  private constructor(
    private readonly root: string,
    private store: GraphStore | null,
    status: OpenStatus | null,
    private readonly state: MirroredState,
    private readonly options: StoreMirrorOptions,
  ) {
    this.status = status ? ('reason' in status ? `${status.kind} (${status.reason})` : status.kind) : 'memory only';
  }

  /** Opens the store in `storeDir` (null: memory only); a store that cannot open degrades to memory-only. */
  static async open(root: string, storeDir: string | null, state: MirroredState, options: StoreMirrorOptions): Promise<StoreMirror> {
    let store: GraphStore | null = null;
    let status: OpenStatus | null = null;
    let error: string | undefined;
    let damaged = false;
    if (storeDir !== null) {
      try {
        ({ store, status } = await GraphStore.open(storeDir, storeOptions(options)));
      } catch (err) {
        if (options.storeMode === 'read') throw err;
        error = errorMessage(err);
        damaged = err instanceof StoreUnreadableError;
        options.log?.(damaged ? `${error}; keeping the graph in memory, not touching the store (run 'cartograph index' to rebuild it)` : `graph store unavailable, continuing in memory: ${error}`);
      }
    }
    if (store && options.storeMode !== 'read') await recordRoot(store.dir, root, options.log);
    const mirror = new StoreMirror(root, store, status, state, options);
    if (error) {
      // Where the store should have been, for the messages (nothing reopens it: it never worked).
      mirror.storeDir = storeDir;
      mirror.status = damaged ? 'damaged' : 'unavailable';
      mirror.error = error;
    }
    if (status?.kind === 'rebuilt' || status?.kind === 'recovered') options.log?.(`graph store was ${status.kind}: ${status.reason}`);
    return mirror;
  }

  /** The LanceDB store (null while the index lives in memory). */
  get current(): GraphStore | null {
    return this.store;
  }

  /** Where the store is and whether it works. */
  info(): StoreInfo {
    return { dir: this.store?.dir ?? this.storeDir, status: this.status, error: this.error };
  }

  /** The stored per-file rows for a warm start; undefined with no store, or when reading fails (then memory-only). */
  async loadFiles(): Promise<StoredFile[] | undefined> {
    if (!this.store) return undefined;
    try {
      return await this.store.loadFiles();
    } catch (err) {
      await this.degrade(err);
      return undefined;
    }
  }

  /** Writes the whole graph (a cold build); a failure degrades to memory-only. */
  async replaceAll(nodes: GraphNode[], edges: GraphEdge[]): Promise<void> {
    await this.write(() => this.store!.replaceAll(nodes, edges, this.state.files()));
  }

  /** Marks the store's content a finished index (readers refuse an unfinished one); a failure degrades to memory-only. */
  async markComplete(): Promise<void> {
    if (this.store) await this.write(() => this.store!.markComplete());
  }

  /** After an interrupted write the store may miss rows: compare counts and rewrite it whole if so. */
  async repair(): Promise<void> {
    if (!this.store) return;
    const graph = this.state.graph.graph;
    await this.write(async () => {
      const counts = await this.store!.counts();
      if (counts.nodes === graph.order && counts.edges === graph.size) return;
      this.log(`graph store out of step (${counts.nodes} nodes, ${counts.edges} edges stored; ${graph.order}, ${graph.size} in memory): rewriting it`);
      await this.store!.replaceAll(this.allNodes(), this.allEdges(), this.state.files());
    });
  }

  /**
   * Queues a graph change for the store. Saves never wait for LanceDB: the graph is live at once,
   * and changes queued while a write runs are merged into the next one (a burst of saves, a branch
   * switch) so the store catches up in few writes. `flush()` waits for it.
   */
  persist(diff: GraphDiff, files: { upsert: StoredFile[]; remove: string[] }, change: 'content' | 'stats' = 'content'): void {
    if (!this.store && !this.storeLost) return;
    this.pending.add(diff, files, change);
    if (this.pending.empty || this.flushing) return;
    this.flushing = this.drain().finally(() => (this.flushing = undefined));
  }

  /** Resolves once every change so far is in the store. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async sizeOnDisk(): Promise<number> {
    return this.store ? this.store.sizeOnDisk() : 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store?.close();
  }

  private async drain(): Promise<void> {
    while (!this.pending.empty) {
      if (!this.store && !(await this.reopen())) {
        this.pending.take();
        return;
      }
      const diff = this.pending.take();
      // A write that fails on a store which worked (its folder deleted under us) recreates it at once:
      // the rewrite from the graph includes this change, so the save that found the loss is not lost.
      const applied = await this.write(() =>
        this.store!.apply(diff).catch((err: unknown) => {
          if (!(err instanceof StoreMovedError)) throw err;
          this.log(`${err.message}: rewriting it from this process's graph`);
          return this.store!.replaceAll(this.allNodes(), this.allEdges(), this.state.files());
        }),
      );
      if (!applied) await this.reopen();
    }
  }

  /**
   * A store that failed after working (its folder deleted under us, say) is recreated on the next
   * change and rewritten whole from the graph, so the mirror recovers without a Reindex.
   */
  private async reopen(): Promise<boolean> {
    if (!this.storeLost || !this.storeDir) return false;
    this.storeLost = false;
    try {
      const { store } = await GraphStore.open(this.storeDir, storeOptions(this.options));
      await recordRoot(store.dir, this.root, this.options.log);
      await store.replaceAll(this.allNodes(), this.allEdges(), this.state.files());
      this.store = store;
      this.status = 'recovered';
      this.error = undefined;
      this.log(`graph store recreated at ${store.dir} and rewritten from the graph`);
      return true;
    } catch (err) {
      this.log(`graph store still unavailable, continuing in memory: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  /** A failing store write must not lose the graph: log it and carry on in memory. */
  private async write(work: () => Promise<void>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (err) {
      await this.degrade(err);
      return false;
    }
  }

  private async degrade(err: unknown): Promise<void> {
    const store = this.store;
    if (store) {
      this.storeLost = true;
      this.storeDir = store.dir;
    }
    this.store = null;
    this.status = 'unavailable';
    this.error = errorMessage(err);
    void store?.close().catch(() => undefined);
    this.error = await describeWriteFailure(err, this.storeDir);
    this.log(`graph store failed, continuing in memory: ${this.error}`);
  }

  private allNodes(): GraphNode[] {
    return this.state.graph.graph.mapNodes((_, a) => a);
  }

  private allEdges(): GraphEdge[] {
    return this.state.graph.graph.mapEdges((_, a) => a);
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

function storeOptions(options: StoreMirrorOptions) {
  return { readAheadNative: options.responsive, mode: options.storeMode, onDamage: options.onStoreDamage, command: options.command, onWait: options.onStoreWait };
}

/**
 * One line for a failed store write; a full disk says what is free against what the store takes (a
 * full rewrite writes about that much again). Nothing committed is lost either way: graphStore.ts
 * rolls the tables back to the last committed generation.
 */
async function describeWriteFailure(err: unknown, dir: string | null): Promise<string> {
  const message = errorMessage(err);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (!dir || !(code === 'ENOSPC' || /no space left|ENOSPC|os error 28/i.test(message))) return message;
  const used = await folderSize(dir);
  const free = await fs.promises.statfs(dir).then((s) => s.bavail * s.bsize, () => undefined);
  return (
    `no space left on the device holding ${dir}${free === undefined ? '' : ` (${mb(free)} MB free)`}: the store takes ${mb(used)} MB and a full write ` +
    `needs about as much again; nothing committed was lost (${message})`
  );
}

function mb(bytes: number): string {
  return (bytes / (1 << 20)).toFixed(1);
}

/** The repository a store belongs to, so `--store DIR` alone is enough to reopen it. */
async function recordRoot(storeDir: string, root: string, log?: (m: string) => void): Promise<void> {
  try {
    await fs.promises.writeFile(path.join(storeDir, ROOT_FILE), `${JSON.stringify({ root })}\n`);
  } catch (err) {
    log?.(`could not record the repository root in the store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Graph and file changes waiting for the store, merged by id: the latest upsert or removal wins. A
 * write is stats-only when every change merged into it was (see StoreDiff.statsOnly).
 */
class PendingWrites {
  private readonly nodes = new ChangeSet<GraphNode>();
  private readonly edges = new ChangeSet<GraphEdge>();
  private readonly files = new ChangeSet<StoredFile>();
  private contentChanged = false;

  get empty(): boolean {
    return this.nodes.empty && this.edges.empty && this.files.empty;
  }

  add(diff: GraphDiff, files: { upsert: StoredFile[]; remove: string[] }, change: 'content' | 'stats'): void {
    const parts = [diff.nodes, diff.edges, files];
    if (change === 'content' && parts.some((part) => part.upsert.length > 0 || part.remove.length > 0)) this.contentChanged = true;
    this.nodes.merge(diff.nodes, (n) => n.id);
    this.edges.merge(diff.edges, (e) => e.id);
    this.files.merge(files, (f) => f.path);
  }

  take(): StoreDiff {
    const statsOnly = !this.contentChanged;
    this.contentChanged = false;
    return { nodes: this.nodes.take(), edges: this.edges.take(), files: this.files.take(), statsOnly };
  }
}
