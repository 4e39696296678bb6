// LanceDB mirror of the repository graph: a folder holding three tables (nodes with an optional
// embedding vector, edges, files with their per-file graphs) and a meta.json that says which schema
// wrote them. It is a cache of what parsing produces, so anything wrong with it (other schema,
// other vector size, missing or damaged files) is answered by wiping it and starting empty, never
// by an error the user has to fix by deleting folders.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Connection } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { GraphEdge, GraphNode } from '../model/schema';
import { columnChunks, readStrings, readVectors } from './arrowColumns';
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
  APPLY_JOURNAL,
  createFresh,
  errorMessage,
  folderSize,
  forgetFiles,
  isStoreEntry,
  loadLanceInStages,
  readMeta,
  REPLACING_MARKER,
  type Tables,
  tryOpen,
  wipe,
} from './storeFolder';
import { nextTurn } from '../eventLoop';
import { bumpGeneration, readGeneration, readStoreVersion, type StoreVersion } from './storeVersion';

export type { StoredFile } from './storeTables';

export interface StoreDiff {
  nodes?: { upsert: GraphNode[]; remove: string[] };
  edges?: { upsert: GraphEdge[]; remove: string[] };
  files?: { upsert: StoredFile[]; remove: string[] };
}

export type OpenStatus = { kind: 'created' } | { kind: 'opened' } | { kind: 'rebuilt'; reason: string };

export interface GraphStoreOptions {
  /** Length of the embedding vectors kept with nodes (default 384); a store with another size is rebuilt. */
  vectorDim?: number;
  /** Compact automatically after this many `apply` calls (default 50; 0 turns it off). */
  compactEvery?: number;
  /** Read LanceDB's native binary before loading it, so that loading never waits on the disk (see storeFolder.ts). */
  readAheadNative?: boolean;
}

const DEFAULT_VECTOR_DIM = 384;
const DEFAULT_COMPACT_EVERY = 50;

export class GraphStore {
  readonly dir: string;
  /** Length of the vector column; shorter vectors are stored zero-padded (see EmbeddingJob). */
  readonly vectorDim: number;
  private readonly compactEvery: number;
  private db: Connection;
  private tables: Tables;
  /** Upper bound on stored non-null vectors; 0 means reads of old vectors can be skipped. */
  private vectorCount: number;
  private appliesSinceCompact = 0;
  private compactionQueued = false;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** The generation token this store last wrote or read at open (see storeVersion.ts). */
  private generation: string | undefined;

  private constructor(dir: string, db: Connection, tables: Tables, vectorDim: number, compactEvery: number, vectorCount: number) {
    this.dir = dir;
    this.db = db;
    this.tables = tables;
    this.vectorDim = vectorDim;
    this.compactEvery = compactEvery;
    this.vectorCount = vectorCount;
  }

  /**
   * Opens the store in `dir`, creating it when absent and rebuilding it (empty) when it cannot be
   * trusted. Throws only when the folder cannot be created or written, or LanceDB cannot load.
   */
  static async open(dir: string, options: GraphStoreOptions = {}): Promise<{ store: GraphStore; status: OpenStatus }> {
    const vectorDim = options.vectorDim ?? DEFAULT_VECTOR_DIM;
    if (!Number.isInteger(vectorDim) || vectorDim <= 0) throw new Error(`invalid vector dimension ${vectorDim}`);
    const compactEvery = options.compactEvery ?? DEFAULT_COMPACT_EVERY;
    const absDir = path.resolve(dir);
    try {
      await fs.mkdir(absDir, { recursive: true });
    } catch (err) {
      throw new Error(`cannot create the graph store folder ${absDir}: ${errorMessage(err)}`);
    }
    const lance = await loadLanceInStages(options.readAheadNative ?? false);

    const entries = await fs.readdir(absDir);
    if (!entries.some(isStoreEntry)) {
      const { db, tables } = await createFresh(lance, absDir, vectorDim);
      const store = new GraphStore(absDir, db, tables, vectorDim, compactEvery, 0);
      store.generation = await bumpGeneration(absDir);
      return { store, status: { kind: 'created' } };
    }
    if (!entries.some((name) => name.endsWith('.lance')) && entries.some((name) => !isStoreEntry(name)) && typeof (await readMeta(absDir)) === 'string') {
      // No tables, someone else's files and a meta.json that is not ours: a misdirected store path.
      throw new Error(`${absDir} holds other files and a meta.json that is not a Cartograph store's; not touching it`);
    }

    const opened = await tryOpen(lance, absDir, vectorDim);
    if (opened.ok) {
      const store = new GraphStore(absDir, opened.db, opened.tables, vectorDim, compactEvery, opened.vectorCount);
      store.generation = (await readGeneration(absDir)) ?? (await bumpGeneration(absDir));
      // Versions left by the applies of earlier sessions count toward the next compaction.
      store.appliesSinceCompact = Math.floor(opened.versions / 2);
      store.scheduleCompaction();
      return { store, status: { kind: 'opened' } };
    }
    await wipe(absDir);
    const { db, tables } = await createFresh(lance, absDir, vectorDim);
    const store = new GraphStore(absDir, db, tables, vectorDim, compactEvery, 0);
    store.generation = await bumpGeneration(absDir);
    return { store, status: { kind: 'rebuilt', reason: opened.reason } };
  }

  /**
   * Everything but the vectors. open() has read every data file's key column, so a failure here
   * means damage inside a file; it rejects with "the graph store could not be read: ...".
   */
  loadAll(): Promise<{ nodes: GraphNode[]; edges: GraphEdge[]; files: StoredFile[] }> {
    return this.serialized(() =>
      this.readAll().catch((err: unknown) => {
        throw new Error(`the graph store could not be read: ${errorMessage(err)}`, { cause: err });
      }),
    );
  }

  /** Only the files table: what a warm start needs (the graph is re-stitched from the per-file graphs). */
  loadFiles(): Promise<StoredFile[]> {
    return this.serialized(async () => {
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
    return this.serialized(async () => ({ nodes: await this.tables.nodes.countRows(), edges: await this.tables.edges.countRows() }));
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
    return this.write(async () => {
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
      // Until the marker is gone the tables may hold a mix of old and new content: open() rebuilds.
      const marker = path.join(this.dir, REPLACING_MARKER);
      await fs.writeFile(marker, new Date().toISOString());
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
            .then(() => this.optimize(name));
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
      await fs.rm(marker, { force: true });
      this.vectorCount = count;
      this.appliesSinceCompact = 0;
    });
  }

  /**
   * Incremental update: in each table the removals happen before the upserts. The three tables are
   * written concurrently, which is not atomic, so the paths involved are journaled first: if the
   * process dies half-way, the next open forgets those files' stored rows, and the warm start
   * re-parses them, repairing their nodes and edges.
   */
  apply(diff: StoreDiff): Promise<void> {
    return this.write(async () => {
      const nodes = diff.nodes && (diff.nodes.upsert.length > 0 || diff.nodes.remove.length > 0) ? diff.nodes : undefined;
      const edges = diff.edges && (diff.edges.upsert.length > 0 || diff.edges.remove.length > 0) ? diff.edges : undefined;
      const files = diff.files && (diff.files.upsert.length > 0 || diff.files.remove.length > 0) ? diff.files : undefined;
      if (!nodes && !edges && !files) return;
      const touched = new Set<string>([...(files?.upsert.map((f) => f.path) ?? []), ...(files?.remove ?? [])]);
      for (const n of nodes?.upsert ?? []) if (n.path) touched.add(n.path);
      for (const e of edges?.upsert ?? []) if (e.owner) touched.add(e.owner);
      const journal = path.join(this.dir, APPLY_JOURNAL);
      if (touched.size > 0) await fs.writeFile(journal, JSON.stringify([...touched]));

      // Keyed before any write starts, so no write's failure waits unobserved behind an await.
      const edgeRows = edges && (await lastById(edges.upsert, (e) => e.id));
      const fileRows = files && (await lastById(files.upsert, (f) => f.path));
      const jobs: Promise<void>[] = [];
      if (nodes) jobs.push(this.applyNodes(nodes.upsert, nodes.remove));
      if (edges && edgeRows) jobs.push(this.upsertRows(EDGES, edgeRows, (e) => e.id, edges.remove, edgesTable));
      if (files && fileRows) jobs.push(this.upsertRows(FILES, fileRows, (f) => f.path, files.remove, filesTable));
      try {
        await settleAll(jobs);
      } catch (err) {
        // Same repair as after a crash, right away; if even that fails the journal stays for open().
        if (touched.size > 0 && (await forgetFiles(this.tables.files, [...touched]).then(() => true, () => false))) {
          await fs.rm(journal, { force: true });
        }
        throw err;
      }
      if (touched.size > 0) await fs.rm(journal, { force: true });
      this.appliesSinceCompact++;
      this.scheduleCompaction();
    });
  }

  /** Sets the embedding of existing nodes (ids not in the store are ignored). */
  setVectors(vectors: Map<string, Float32Array>): Promise<void> {
    return this.write(async () => {
      if (vectors.size === 0) return;
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
    return this.serialized(async () => {
      const out = new Map<string, Float32Array>();
      if (this.vectorCount === 0 || (ids && ids.length === 0)) return out;
      for (const [id, { vector }] of await this.readVectors(ids ?? null)) out.set(id, vector);
      return out;
    });
  }

  /** Merges small fragments and deletes superseded versions so the folder does not grow without bound. */
  compact(): Promise<void> {
    return this.write(() => this.compactNow());
  }

  /**
   * The store's version once every queued write is done, if the content is still what this store
   * wrote or read: undefined when another process has written since (or is writing), so that nothing
   * derived from this process's view is filed under a version it does not describe.
   */
  version(): Promise<StoreVersion | undefined> {
    return this.serialized(async () => {
      const version = await readStoreVersion(this.dir);
      return version && version.generation === this.generation ? version : undefined;
    });
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

  /** Every write replaces the generation token before it starts and after it ends, failed or not (see storeVersion.ts). */
  private write(job: () => Promise<void>): Promise<void> {
    return this.serialized(async () => {
      this.generation = await bumpGeneration(this.dir);
      try {
        await job();
      } finally {
        this.generation = await bumpGeneration(this.dir);
      }
    });
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

  /** Compacts fragments, brings the key index up to date and deletes every superseded version. */
  private async optimize(name: TableName): Promise<void> {
    // A second in the future so that the version just written is the only one left.
    await this.tables[name].optimize({ cleanupOlderThan: new Date(Date.now() + 1000), deleteUnverified: true });
  }

  private async compactNow(): Promise<void> {
    this.compactionQueued = false;
    await Promise.all(TABLE_NAMES.map((name) => this.optimize(name)));
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
    this.write(() => this.compactNow()).catch(() => undefined);
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
