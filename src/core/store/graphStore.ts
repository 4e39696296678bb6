// LanceDB mirror of the repository graph: a folder holding three tables (nodes with an optional
// embedding vector, edges, files with their per-file graphs) and a generation record naming the
// versions of the three that make up the last complete write (generationRecord.ts).
//
// What it guarantees with several processes on one folder (the editor, agents' MCP servers, CLI calls):
// - one writer at a time (writerLock.ts); a second waits, saying for whom;
// - readers never take the lock and read the committed generation, so they never see half a write;
// - a write that dies at any point (kill -9, a full disk) leaves the previous generation readable and
//   complete, and the next writer rolls the tables back to it;
// - nothing but a writer holding the lock deletes anything, and a writer rebuilds only what it cannot
//   read; a reader that finds the store damaged or incomplete says so (StoreUnreadableError).
import { folderSize } from './folderSize';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Connection, Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { SCHEMA_VERSION, type GraphEdge, type GraphNode } from '../model/schema';
import { PARSER_VERSION } from '../parse/fileGraph';
import { columnChunks, readStrings, readVectors } from './arrowColumns';
import { nextRecord, readRecord, writeRecord, type GenerationRecord } from './generationRecord';
import {
  decodeEdges,
  decodeFiles,
  decodeNodes,
  EDGES,
  edgesTable,
  FILES,
  filesTable,
  inPredicates,
  KEY_COLUMN,
  NODE_COLUMNS,
  NODES,
  nodesTable,
  TABLE_NAMES,
  type StoredFile,
  type TableName,
  vectorUpdateTable,
} from './storeTables';
import {
  createTables,
  EARLIER_INTERRUPTED_MARKER,
  errorMessage,
  exists,
  GIT_IGNORE,
  isStoreEntry,
  keepOutOfGit,
  type LanceModule,
  loadLanceInStages,
  openTables,
  type Tables,
  wipe,
} from './storeFolder';
import { nextTurn } from '../eventLoop';
import { STORE_FOLDER, type StoreVersion } from './storeVersion';
import { currentHolder, describeHolder, LOCK_FILE, WriterLock, type LockHolder } from './writerLock';

export type { StoredFile } from './storeTables';

export interface StoreDiff {
  nodes?: { upsert: GraphNode[]; remove: string[] };
  edges?: { upsert: GraphEdge[]; remove: string[] };
  files?: { upsert: StoredFile[]; remove: string[] };
  /**
   * Only files' modification times and sizes change (a file touched, or checked out again, with the
   * same text): the content is the same, and so is the generation (and the query snapshot filed under it).
   */
  statsOnly?: boolean;
}

export type OpenStatus = { kind: 'created' } | { kind: 'opened' } | { kind: 'rebuilt'; reason: string } | { kind: 'recovered'; reason: string };

export interface GraphStoreOptions {
  /** Length of the embedding vectors kept with nodes (default 384); a store with another size is rebuilt. */
  vectorDim?: number;
  /** Compact automatically after this many `apply` calls (default 50; 0 turns it off). */
  compactEvery?: number;
  /** Read LanceDB's native binary before loading it, so that loading never waits on the disk (see storeFolder.ts). */
  readAheadNative?: boolean;
  /**
   * `read`: open the committed generation and never create, repair or delete anything; a store that
   * cannot be read throws StoreUnreadableError. `write` (default): create the store when absent.
   */
  mode?: 'read' | 'write';
  /** In write mode, what to do with a committed generation that cannot be read: rebuild it (default), or throw like a reader. */
  onDamage?: 'rebuild' | 'report';
  /** Who this process is, for other writers' "waiting for …" messages (default `cartograph`). */
  command?: string;
  /** Told once per write that waits for another process's lock. */
  onWait?: (holder: LockHolder) => void;
}

/** Why a store could not be read, for a reader to say plainly; nothing in the folder was changed. */
export class StoreUnreadableError extends Error {
  constructor(
    readonly state: 'missing' | 'incomplete' | 'damaged' | 'other-version',
    message: string,
  ) {
    super(message);
  }
}

/** Another process committed since this store last read or wrote: an incremental diff no longer applies. */
export class StoreMovedError extends Error {}

const DEFAULT_VECTOR_DIM = 384;
const DEFAULT_COMPACT_EVERY = 50;

/** What a write does to the generation: new content, or the same rows (compaction, embeddings, files' stats, marking the index complete). */
type WriteKind = 'full' | 'incremental' | 'same-content';

export class GraphStore {
  readonly dir: string;
  /** Length of the vector column; shorter vectors are stored zero-padded (see EmbeddingJob). */
  readonly vectorDim: number;
  private readonly compactEvery: number;
  private db: Connection;
  private tables: Tables;
  /** Upper bound on stored non-null vectors; 0 means reads of old vectors can be skipped. */
  private vectorCount = 0;
  private appliesSinceCompact = 0;
  private compactionQueued = false;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** The committed generation this store last wrote or read (undefined: none yet). */
  private committed: GenerationRecord | undefined;
  /** A write failed and its rollback may have too: the tables may stand past the committed generation. */
  private offCommitted = false;
  private readonly command: string;
  private readonly onWait?: (holder: LockHolder) => void;

  private constructor(dir: string, db: Connection, tables: Tables, vectorDim: number, options: GraphStoreOptions) {
    this.dir = dir;
    this.db = db;
    this.tables = tables;
    this.vectorDim = vectorDim;
    this.compactEvery = options.compactEvery ?? DEFAULT_COMPACT_EVERY;
    this.command = options.command ?? 'cartograph';
    this.onWait = options.onWait;
  }

  /**
   * Opens the store in `dir`. In write mode it is created when absent and, under the writer lock,
   * adopted or rebuilt when it has no usable committed generation; in read mode nothing is touched.
   * Throws StoreUnreadableError for what a reader cannot use, and a plain Error when the folder
   * cannot be created or written, or LanceDB cannot load.
   */
  static async open(dir: string, options: GraphStoreOptions = {}): Promise<{ store: GraphStore; status: OpenStatus }> {
    const vectorDim = options.vectorDim ?? DEFAULT_VECTOR_DIM;
    if (!Number.isInteger(vectorDim) || vectorDim <= 0) throw new Error(`invalid vector dimension ${vectorDim}`);
    const absDir = path.resolve(dir);
    const mode = options.mode ?? 'write';
    if (mode === 'write') {
      try {
        // Never into a folder of someone else's that a store path was pointed at: only one made here, or
        // a repository's `.cartograph`.
        const made = await fs.mkdir(absDir, { recursive: true });
        if (made !== undefined || path.basename(absDir) === STORE_FOLDER) await keepOutOfGit(absDir);
      } catch (err) {
        throw new Error(`cannot create the graph store folder ${absDir}: ${errorMessage(err)}`);
      }
    }
    const entries = await fs.readdir(absDir).catch(() => undefined);
    if (!entries || (mode === 'read' && !entries.some(isStoreEntry))) throw new StoreUnreadableError('missing', `there is no graph store at ${absDir}`);
    const lance = await loadLanceInStages(options.readAheadNative ?? false);
    const fresh = (db: Connection, tables: Tables) => new GraphStore(absDir, db, tables, vectorDim, options);

    // The committed generation, read without the lock: what readers and an unchanged store need. A
    // writer that commits twice while this opens cleans up the versions being opened ("Not found"):
    // then the generation that superseded them is opened instead, never reported as damage.
    let committed: CommittedOpen;
    for (let attempt = 1; ; attempt++) {
      committed = await openCommitted(lance, absDir, vectorDim);
      const superseded = async (failure: string) =>
        attempt < OPEN_ATTEMPTS && VANISHED.test(failure) && (await generationMoved(absDir, committed.ok ? committed.record : committed.read));
      if (!committed.ok) {
        if (committed.state === 'damaged' && (await superseded(committed.message))) continue;
        break;
      }
      if (mode === 'read' && !committed.record.complete) {
        closeTables(committed);
        throw await unreadable(absDir, { ok: false, state: 'incomplete', message: `the graph store at ${absDir} holds no finished index yet (one is running or was interrupted)` });
      }
      const store = fresh(committed.db, committed.tables);
      try {
        await store.adoptRecord(committed.record);
        // Versions left by the applies of earlier processes count toward the next compaction.
        if (mode === 'write') store.appliesSinceCompact = Math.floor((await versionCount(committed.tables.nodes)) / 2);
      } catch (err) {
        await store.close();
        if (await superseded(errorMessage(err))) continue;
        throw err;
      }
      if (mode === 'write') store.scheduleCompaction();
      return { store, status: { kind: 'opened' } };
    }
    if (mode === 'read') throw await unreadable(absDir, committed);
    if (committed.state === 'damaged' && options.onDamage === 'report') throw new StoreUnreadableError('damaged', committed.message);
    if (committed.state === 'incomplete' && entries.includes('meta.json') && !entries.some((name) => name.endsWith('.lance')) && entries.some((name) => !isStoreEntry(name) && name !== GIT_IGNORE)) {
      // No tables, someone else's files and a meta.json that is not ours: a misdirected store path.
      throw new Error(`${absDir} holds other files and a meta.json that is not a Cartograph store's; not touching it`);
    }

    // Anything else is a writer's business, under the lock: create, adopt or rebuild.
    const lock = await WriterLock.acquire(absDir, { command: options.command ?? 'cartograph', onWait: options.onWait });
    try {
      const again = await openCommitted(lance, absDir, vectorDim);
      if (again.ok) {
        // Another writer made it usable while we waited.
        const store = fresh(again.db, again.tables);
        await store.adoptRecord(again.record);
        return { store, status: { kind: 'opened' } };
      }
      const hadTables = (await fs.readdir(absDir)).some((name) => name.endsWith('.lance'));
      if (again.state === 'incomplete' && hadTables && !(await exists(path.join(absDir, EARLIER_INTERRUPTED_MARKER)))) {
        // No usable record, but tables of our schema that read cleanly (a record lost or damaged, an
        // earlier version's store): kept, as an incomplete generation the next index checks file by file.
        const latest = await openTables(lance, absDir, vectorDim);
        if (latest.ok) {
          const store = fresh(latest.db, latest.tables);
          await store.commit(undefined, false);
          return { store, status: { kind: 'recovered', reason: `${again.message}; kept its tables, which the next index checks against the files and the graph` } };
        }
      }
      const wasStore = (await fs.readdir(absDir)).some((name) => isStoreEntry(name) && name !== LOCK_FILE);
      if (wasStore) await wipe(absDir);
      const { db, tables } = await createTables(lance, absDir, vectorDim);
      const store = fresh(db, tables);
      await store.commit(undefined, false);
      return { store, status: wasStore ? { kind: 'rebuilt', reason: again.message } : { kind: 'created' } };
    } finally {
      await lock.release();
    }
  }

  /**
   * Everything but the vectors. open() has read every data file's key column, so a failure here
   * means damage inside a file; it rejects with "the graph store could not be read: ...".
   */
  loadAll(): Promise<{ nodes: GraphNode[]; edges: GraphEdge[]; files: StoredFile[] }> {
    return this.read(() =>
      this.readAll().catch((err: unknown) => {
        throw new Error(`the graph store could not be read: ${errorMessage(err)}`, { cause: err });
      }),
    );
  }

  /** Only the files table: what a warm start needs (the graph is re-stitched from the per-file graphs). */
  loadFiles(): Promise<StoredFile[]> {
    return this.read(async () => {
      const files: StoredFile[] = [];
      try {
        await decodeFiles(await this.tables.files.query().toArrow(), files, nextTurn);
      } catch (err) {
        throw new Error(`the graph store could not be read: ${errorMessage(err)}`, { cause: err });
      }
      return files;
    });
  }

  /** Rows in the nodes and edges tables (a cheap check that the mirror is complete). */
  counts(): Promise<{ nodes: number; edges: number }> {
    return this.read(async () => ({ nodes: await this.tables.nodes.countRows(), edges: await this.tables.edges.countRows() }));
  }

  private async readAll(): Promise<{ nodes: GraphNode[]; edges: GraphEdge[]; files: StoredFile[] }> {
    // Each table is decoded as soon as its rows arrive, overlapping JS decoding with native reads.
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    const files: StoredFile[] = [];
    await Promise.all([
      this.tables.nodes.query().select(NODE_COLUMNS).toArrow().then((rows) => decodeNodes(rows, nodes)),
      this.tables.edges.query().toArrow().then((rows) => decodeEdges(rows, edges)),
      this.tables.files.query().toArrow().then((rows) => decodeFiles(rows, files)),
    ]);
    return { nodes, edges, files };
  }

  /**
   * Replaces the whole content (a full index). Vectors of nodes whose id and hash are unchanged are
   * carried over, since embeddings are the one thing here that is expensive to recompute.
   */
  replaceAll(allNodes: GraphNode[], allEdges: GraphEdge[], allFiles: StoredFile[]): Promise<void> {
    return this.write('full', async (cutoffs) => {
      // Keys stay unique whatever the caller passes (the last row wins), as they do in apply.
      const nodes = await lastById(allNodes, (n) => n.id);
      const edges = await lastById(allEdges, (e) => e.id);
      const files = await lastById(allFiles, (f) => f.path);
      let vectors: (Float32Array | null)[] | null = null;
      let count = 0;
      if (this.vectorCount > 0) {
        const kept = await this.readVectors(null);
        vectors = nodes.map((n) => {
          const old = kept.get(n.id);
          if (old && old.hash === n.hash) {
            count++;
            return old.vector;
          }
          return null;
        });
      }
      // Until the generation is committed readers see the old content, and a crash rolls back to it.
      // Each table is written as soon as it is encoded, so native writes overlap the JS encoding of
      // the next table. Deleting everything only drops fragments from the manifest; `add` with mode
      // 'overwrite' would instead take the schema of the data, which may lack the vector column.
      const jobs: Promise<unknown>[] = [];
      let encodeError: unknown;
      try {
        const deleted = new Map(TABLE_NAMES.map((name) => [name, this.tables[name].delete('true')] as const));
        jobs.push(...deleted.values());
        // Slices are added one by one: LanceDB turns each into Arrow IPC on this thread, so one
        // add of everything would hold the event loop for the whole serialization.
        const write = (name: TableName, slices: ArrowTable[]) =>
          deleted
            .get(name)!
            .then(async () => {
              for (const slice of slices) await this.tables[name].add(slice);
            })
            // Compacts the slices into few files, drops the old version's files and indexes the new rows.
            .then(async () => this.optimize(name, (await cutoffs())[name]));
        // Encoded in slices with the event loop free in between: an editor host stays responsive. Sizes
        // keep a slice under ~10 ms on Django (1,000 node rows cost as much as 2,500 edge rows).
        jobs.push(write(EDGES, await encodeInSlices(edges, 2_500, (rows) => edgesTable(rows))));
        jobs.push(write(NODES, await encodeInSlices(nodes, 1_000, (rows, at) => nodesTable(rows, vectors && vectors.slice(at, at + rows.length), this.vectorDim, vectors !== null))));
        // Per-file graphs are JSON strings as large as the file's definitions: sliced by source size
        // (a proxy known before encoding, 128 KB), so one slice never holds several of the largest modules.
        jobs.push(write(FILES, await encodeInSlices(files, 25, (rows) => filesTable(rows), { weight: (f) => f.size, budget: 128 * 1024 })));
      } catch (err) {
        encodeError = err;
      }
      // Never leave a write running unobserved, even when encoding failed half-way.
      await settleAll(jobs);
      if (encodeError) throw encodeError;
      this.vectorCount = count;
      this.appliesSinceCompact = 0;
    });
  }

  /**
   * Incremental update: in each table the removals happen before the upserts, and the three tables
   * are committed as one generation. Throws StoreMovedError, writing nothing, when another process
   * has committed since this store last read or wrote: the diff was made against content that is no
   * longer there (the caller rewrites the whole graph instead).
   */
  apply(diff: StoreDiff): Promise<void> {
    const nodes = diff.nodes && (diff.nodes.upsert.length > 0 || diff.nodes.remove.length > 0) ? diff.nodes : undefined;
    const edges = diff.edges && (diff.edges.upsert.length > 0 || diff.edges.remove.length > 0) ? diff.edges : undefined;
    const files = diff.files && (diff.files.upsert.length > 0 || diff.files.remove.length > 0) ? diff.files : undefined;
    if (!nodes && !edges && !files) return this.serialized(async () => undefined);
    return this.write(diff.statsOnly ? 'same-content' : 'incremental', async () => {
      // Keyed before any write starts, so no write's failure waits unobserved behind an await.
      const edgeRows = edges && (await lastById(edges.upsert, (e) => e.id));
      const fileRows = files && (await lastById(files.upsert, (f) => f.path));
      const jobs: Promise<void>[] = [];
      if (nodes) jobs.push(this.applyNodes(nodes.upsert, nodes.remove));
      if (edges && edgeRows) jobs.push(this.upsertRows(EDGES, edgeRows, (e) => e.id, edges.remove, edgesTable));
      if (files && fileRows) jobs.push(this.upsertRows(FILES, fileRows, (f) => f.path, files.remove, filesTable));
      await settleAll(jobs);
      this.appliesSinceCompact++;
    }).then(() => this.scheduleCompaction());
  }

  /** Sets the embedding of existing nodes (ids not in the store are ignored). */
  setVectors(vectors: Map<string, Float32Array>): Promise<void> {
    if (vectors.size === 0) return this.serialized(async () => undefined);
    // Embeddings change no node, edge or file: the generation token (and the query snapshot filed under it) stays.
    return this.write('same-content', async () => {
      const ids = [...vectors.keys()];
      const values = ids.map((id) => vectors.get(id)!);
      for (const v of values) {
        if (v.length !== this.vectorDim) throw new Error(`vector of length ${v.length} where the store expects ${this.vectorDim}`);
      }
      const result = await this.tables.nodes
        .mergeInsert('id')
        .whenMatchedUpdateAll()
        .execute(vectorUpdateTable(ids, values, this.vectorDim));
      this.vectorCount += result.numUpdatedRows;
    });
  }

  /** Stored embeddings by node id (all of them when `ids` is omitted); nodes without one are absent. */
  loadVectors(ids?: string[]): Promise<Map<string, Float32Array>> {
    return this.read(async () => {
      const out = new Map<string, Float32Array>();
      if (this.vectorCount === 0 || (ids && ids.length === 0)) return out;
      for (const [id, { vector }] of await this.readVectors(ids ?? null)) out.set(id, vector);
      return out;
    });
  }

  /** Merges small fragments and deletes superseded versions so the folder does not grow without bound. */
  compact(): Promise<void> {
    return this.write('same-content', (cutoffs) => this.compactNow(cutoffs));
  }

  /**
   * Marks the committed generation as a finished index of the repository (the engine calls it when an
   * index completes): until then readers are told the store is incomplete.
   */
  markComplete(): Promise<void> {
    return this.committed?.complete ? this.serialized(async () => undefined) : this.write('same-content', async () => undefined, true);
  }

  /**
   * The store's version once every queued write is done, if the content is still what this store
   * wrote or read: undefined when another process has written since (or is writing), so that nothing
   * derived from this process's view is filed under a version it does not describe.
   */
  version(): Promise<StoreVersion | undefined> {
    return this.serialized(async () => {
      const read = await readRecord(this.dir);
      const mine = this.committed;
      return read.ok && mine && read.record.complete && read.record.generation === mine.generation ? { generation: mine.generation } : undefined;
    });
  }

  /** Whether the committed generation this store reads is a finished index (see markComplete). */
  get complete(): boolean {
    return this.committed?.complete ?? false;
  }

  /** Bytes used by the store folder. */
  async sizeOnDisk(): Promise<number> {
    await this.queue;
    return folderSize(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    for (const name of TABLE_NAMES) this.tables[name].close();
    this.db.close();
  }

  // ---- internals ---------------------------------------------------------------------------------

  /**
   * One write as one generation, under the writer lock: the tables are brought to their latest
   * version (rolled back to the committed generation if a writer died after writing some of them),
   * the job writes, and the new generation is committed by replacing the record. A job that fails
   * rolls its tables back, so the committed generation stays the store's content either way.
   * `cutoffs()` gives each table's oldest version that cleanups must keep (the committed one a reader
   * may be reading): asked for only by the jobs that optimize, since listing every table's versions
   * would otherwise cost each save. `complete` marks the new generation a finished index.
   */
  private write(kind: WriteKind, job: (cutoffs: () => Promise<Record<TableName, Date>>) => Promise<void>, complete?: boolean): Promise<void> {
    return this.serialized(async () => {
      const lock = await WriterLock.acquire(this.dir, { command: this.command, onWait: this.onWait });
      let base: GenerationRecord | undefined;
      try {
        const read = await readRecord(this.dir);
        base = read.ok ? read.record : undefined;
        if (kind !== 'full' && base?.generation !== this.committed?.generation) {
          throw new StoreMovedError(`the graph store was written by another process since this one ${this.committed ? 'read it' : 'opened it'}`);
        }
        await this.toLatest(base);
        let cutoffs: Promise<Record<TableName, Date>> | undefined;
        await job(() => (cutoffs ??= this.cleanupCutoffs(base)));
        await this.commit(base, complete ?? (kind === 'full' || (base?.complete ?? false)), kind === 'same-content');
      } catch (err) {
        if (!(err instanceof StoreMovedError)) {
          this.offCommitted = true;
          await this.rollBack(base).catch(() => undefined);
        }
        throw err;
      } finally {
        await lock.release();
      }
    });
  }

  /** Writes the generation record for the tables' current versions, on top of `base`. */
  private async commit(base: GenerationRecord | undefined, complete: boolean, sameContent = false): Promise<void> {
    const versions = {} as Record<TableName, number>;
    for (const name of TABLE_NAMES) versions[name] = await this.tables[name].version();
    const record = nextRecord(base ?? { schemaVersion: SCHEMA_VERSION, parserVersion: PARSER_VERSION, vectorDim: this.vectorDim }, versions, complete, sameContent);
    await writeRecord(this.dir, record);
    this.committed = record;
    this.offCommitted = false;
  }

  /** Takes `record` as what this store has read (at open, or after another process committed). */
  private async adoptRecord(record: GenerationRecord): Promise<void> {
    this.committed = record;
    this.vectorCount = await this.tables.nodes.countRows('vector IS NOT NULL');
  }

  /** Moves each table to its latest version, first undoing versions written after the committed generation. */
  private async toLatest(base: GenerationRecord | undefined): Promise<void> {
    for (const name of TABLE_NAMES) {
      const table = this.tables[name];
      await table.checkoutLatest();
      if (base && (await table.version()) !== base.tables[name]) {
        await table.checkout(base.tables[name]);
        await table.restore();
      }
    }
    if (base && base.generation !== this.committed?.generation) await this.adoptRecord(base);
  }

  /** After a failed write: the tables back at the committed generation (or left for the next writer to roll back). */
  private async rollBack(base: GenerationRecord | undefined): Promise<void> {
    const read = await readRecord(this.dir);
    const committed = read.ok ? read.record : base;
    if (committed) await this.toLatest(committed);
  }

  /**
   * Per table, the date before which cleanup may delete versions: a second before the committed
   * version's own (LanceDB turns the date into an age, measured again on its side), so the
   * generation readers are on survives this write.
   */
  private async cleanupCutoffs(base: GenerationRecord | undefined): Promise<Record<TableName, Date>> {
    const cutoffs = {} as Record<TableName, Date>;
    for (const name of TABLE_NAMES) {
      let keepFrom = Date.now();
      if (base) {
        const version = (await this.tables[name].listVersions()).find((v) => v.version === base.tables[name]);
        if (version) keepFrom = Math.min(keepFrom, version.timestamp.getTime());
      }
      cutoffs[name] = new Date(keepFrom - 1_000);
    }
    return cutoffs;
  }

  /**
   * Reads see the committed generation: when another process has committed since, the tables are
   * checked out at its versions first. A checkout or read whose files a writer's cleanup removed
   * under it (the generation it was reading was superseded twice meanwhile) is tried again on the new one.
   */
  private read<T>(job: () => Promise<T>): Promise<T> {
    return this.serialized(() =>
      whileFilesVanish(async () => {
        await this.refresh();
        return job();
      }),
    );
  }

  private async refresh(): Promise<void> {
    const read = await readRecord(this.dir);
    if (!read.ok) return;
    const current = !this.offCommitted && read.record.generation === this.committed?.generation && sameTables(read.record, this.committed);
    if (current) return;
    for (const name of TABLE_NAMES) await this.tables[name].checkout(read.record.tables[name]);
    this.offCommitted = false;
    await this.adoptRecord(read.record);
  }

  /**
   * Runs reads and writes one at a time, in call order; a failure does not block what follows.
   * Reads are serialized too, for two reasons: they never see a half-applied update, and LanceDB
   * gives no protection to a query whose files an optimize of the same table prunes under it
   * (seen here as "Not found: .../data/*.lance" from a loadAll racing a compaction).
   */
  private serialized<T>(job: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the graph store is closed'));
    const run = this.queue.then(job);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Compacts fragments and brings the key index up to date, then deletes versions older than `cutoff`.
   * Two calls, because LanceDB measures the cutoff from when its cleanup starts, after the compaction
   * (which takes seconds on a large table): in one call the committed version could fall before it.
   * Unverified files (left by writers that died) may go too: only the lock's holder gets here.
   */
  private async optimize(name: TableName, cutoff: Date): Promise<void> {
    await this.tables[name].optimize({ cleanupOlderThan: new Date(0) });
    await this.tables[name].optimize({ cleanupOlderThan: cutoff, deleteUnverified: true });
  }

  private async compactNow(cutoffs: () => Promise<Record<TableName, Date>>): Promise<void> {
    this.compactionQueued = false;
    const keepFrom = await cutoffs();
    await Promise.all(TABLE_NAMES.map((name) => this.optimize(name, keepFrom[name])));
    this.appliesSinceCompact = 0;
    if (this.vectorCount > 0) this.vectorCount = await this.tables.nodes.countRows('vector IS NOT NULL');
  }

  /**
   * Every apply leaves a version, a deletion file and a small unindexed fragment per table behind,
   * and each later apply pays for them (a delete scans the unindexed fragments, a commit writes the
   * ever longer fragment list): measured here, ~0.2 ms more per apply for each one not compacted.
   * Compaction rewrites the tables (0.3-1 s on a Django-sized graph), so it runs every
   * `compactEvery` applies, queued behind the apply that reached the count: the caller of that
   * apply does not wait for it, the next write or read does.
   */
  private scheduleCompaction(): void {
    if (this.compactEvery <= 0 || this.appliesSinceCompact < this.compactEvery || this.compactionQueued) return;
    this.compactionQueued = true;
    this.write('same-content', (cutoffs) => this.compactNow(cutoffs)).catch(() => undefined);
  }

  private async applyNodes(upsertAll: GraphNode[], remove: string[]): Promise<void> {
    const upsert = await lastById(upsertAll, (n) => n.id);
    let vectors: (Float32Array | null)[] | null = null;
    if (this.vectorCount > 0 && upsert.length > 0) {
      const old = await this.readVectors(upsert.map((n) => n.id));
      vectors = upsert.map((n) => {
        const o = old.get(n.id);
        return o && o.hash === n.hash ? o.vector : null;
      });
      this.vectorCount -= old.size - vectors.filter((v) => v !== null).length;
    }
    await this.upsertRows(NODES, upsert, (n) => n.id, remove, (rows) => nodesTable(rows, vectors, this.vectorDim));
  }

  /** Deletes `remove` and the keys of `upsert` in one commit, then appends `upsert` in another. */
  private async upsertRows<T>(
    name: TableName,
    upsert: readonly T[],
    keyOf: (row: T) => string,
    remove: string[],
    encode: (rows: readonly T[]) => ArrowTable,
  ): Promise<void> {
    const table = this.tables[name];
    const keys = new Set(remove);
    for (const row of upsert) keys.add(keyOf(row));
    if (keys.size > 0) {
      const predicates = inPredicates(KEY_COLUMN[name], [...keys]);
      await table.delete(predicates.length === 1 ? predicates[0] : predicates.map((p) => `(${p})`).join(' OR '));
    }
    if (upsert.length > 0) await table.add(encode(upsert));
  }

  /** id → {hash, vector} of stored nodes with a vector; `ids` null means all of them. */
  private async readVectors(ids: string[] | null): Promise<Map<string, { hash: string; vector: Float32Array }>> {
    const out = new Map<string, { hash: string; vector: Float32Array }>();
    const filters = ids === null ? [''] : inPredicates('id', ids);
    for (const filter of filters) {
      let query = this.tables.nodes.query().select(['id', 'hash', 'vector']);
      query = query.where(filter ? `vector IS NOT NULL AND (${filter})` : 'vector IS NOT NULL');
      const rows = await query.toArrow();
      const id = readStrings(columnChunks(rows, 'id'), '');
      const hash = readStrings(columnChunks(rows, 'hash'), '');
      const vector = readVectors(columnChunks(rows, 'vector'));
      for (let i = 0; i < id.length; i++) {
        const v = vector[i];
        if (v) out.set(id[i], { hash: hash[i], vector: v });
      }
    }
    return out;
  }
}

/**
 * The rows with unique keys, the last occurrence winning; `rows` itself when there are no repeats.
 * A whole graph's rows take 10+ ms to key, so the event loop gets a turn every 10,000 rows.
 */
async function lastById<T>(rows: readonly T[], key: (row: T) => string): Promise<readonly T[]> {
  if (rows.length < 2) return rows;
  const byKey = new Map<string, T>();
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % 10_000 === 0) await nextTurn();
    byKey.set(key(rows[i]), rows[i]);
  }
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/** Waits for every job, then rethrows the first failure (so no write is left running unobserved). */
async function settleAll(jobs: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Encodes rows slice by slice into Arrow tables, giving the event loop back between slices. A slice
 * holds at most `size` rows and, with `limit`, at most `limit.budget` of summed weight (at least one row).
 */
async function encodeInSlices<T>(
  rows: readonly T[],
  size: number,
  encode: (slice: readonly T[], at: number) => ArrowTable,
  limit?: { weight: (row: T) => number; budget: number },
): Promise<ArrowTable[]> {
  const tables: ArrowTable[] = [];
  let at = 0;
  do {
    const end = sliceEnd(rows, at, size, limit);
    if (tables.length > 0) await nextTurn();
    tables.push(encode(rows.slice(at, end), at));
    at = end;
  } while (at < rows.length);
  return tables;
}

/** Where the slice starting at `at` ends: `size` rows, fewer when their weight passes the budget (never none). */
function sliceEnd<T>(rows: readonly T[], at: number, size: number, limit?: { weight: (row: T) => number; budget: number }): number {
  const end = Math.min(rows.length, at + size);
  if (!limit) return end;
  let total = 0;
  for (let i = at; i < end; i++) {
    total += limit.weight(rows[i]);
    if (total > limit.budget && i > at) return i;
  }
  return end;
}

function sameTables(a: GenerationRecord, b: GenerationRecord): boolean {
  return TABLE_NAMES.every((name) => a.tables[name] === b.tables[name]);
}

type CommittedOpen =
  | { ok: true; db: Connection; tables: Tables; record: GenerationRecord }
  | { ok: false; state: StoreUnreadableError['state']; message: string; read?: GenerationRecord };

/** Opens of the committed generation tried while writers keep superseding it, before its failure stands. */
const OPEN_ATTEMPTS = 4;

function closeTables(opened: Extract<CommittedOpen, { ok: true }>): void {
  for (const table of Object.values(opened.tables)) table.close();
  opened.db.close();
}

/** Whether the committed generation is no longer `read` (another process committed since it was read). */
async function generationMoved(dir: string, read: GenerationRecord | undefined): Promise<boolean> {
  const now = await readRecord(dir);
  return read !== undefined && now.ok && (now.record.generation !== read.generation || !sameTables(now.record, read));
}

/** LanceDB's error for a file a writer's cleanup deleted while it was being read. */
const VANISHED = /not found/i;

/** `job` tried again (OPEN_ATTEMPTS in all) while it fails on files a writer's cleanup deleted under it. */
async function whileFilesVanish<T>(job: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await job();
    } catch (err) {
      if (attempt >= OPEN_ATTEMPTS || !VANISHED.test(errorMessage(err))) throw err;
    }
  }
}

/** The table's versions. Listing reads every version's manifest, and a cleanup may delete an old one between the listing and its read. */
function versionCount(table: Table): Promise<number> {
  return whileFilesVanish(async () => (await table.listVersions()).length);
}

/** The tables at the committed generation, or why they cannot be had (nothing is written). */
async function openCommitted(lance: LanceModule, dir: string, vectorDim: number): Promise<CommittedOpen> {
  const read = await readRecord(dir);
  if (!read.ok) return { ok: false, state: 'incomplete', message: `the graph store at ${dir}: ${read.reason}` };
  const record = read.record;
  if (record.schemaVersion !== SCHEMA_VERSION || record.vectorDim !== vectorDim) {
    const what = record.schemaVersion !== SCHEMA_VERSION ? `schema version ${record.schemaVersion}, this Cartograph reads ${SCHEMA_VERSION}` : `vector size ${record.vectorDim}, ${vectorDim} wanted`;
    return { ok: false, state: 'other-version', message: `the graph store at ${dir} was written by another version of Cartograph (${what})` };
  }
  const opened = await openTables(lance, dir, vectorDim, record.tables);
  if (!opened.ok) return { ok: false, state: 'damaged', message: `the graph store at ${dir} is damaged: ${opened.reason}`, read: record };
  return { ok: true, db: opened.db, tables: opened.tables, record };
}

/** The reader's error for a store it cannot use, naming a writer that is at work on it. */
async function unreadable(dir: string, failed: Extract<CommittedOpen, { ok: false }>): Promise<StoreUnreadableError> {
  const holder = await currentHolder(dir);
  const busy = holder ? ` (${describeHolder(holder)} is writing it now)` : '';
  return new StoreUnreadableError(failed.state, `${failed.message}${busy}`);
}
