// The engine's front door: one object per repository that scans, parses, stitches, keeps the graph
// live through `updateFile` / `removeFile`, and mirrors everything to the LanceDB store. The CLI
// and the VS Code extension are thin callers of this class; it never imports `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nextTurn } from './eventLoop';
import { ChangeSet } from './graph/changeSet';
import { RepositoryGraph, type GraphDiff } from './graph/repositoryGraph';
import { NODE_KINDS, EDGE_KINDS, type EdgeKind, type GraphEdge, type GraphNode, type Language, type NodeKind } from './graph/schema';
import type { TsConfig } from './graph/tsconfig';
import { sha1 } from './parse/extractUtil';
import { PARSER_VERSION, type FileGraph } from './parse/fileGraph';
import { InProcessParser, OnDemandWorkerParser, WorkerParser, type ParseJob, type ParseService } from './parse/parseService';
import { languageOf } from './parse/languages';
import { GraphStore, type OpenStatus, type StoreDiff, type StoredFile } from './store/graphStore';
import { ROOT_FILE } from './store/storeVersion';
import { bundledByContent, bundledByPath, mayBeMinified, type BundledSkip } from './workspace/bundled';
import { DEFAULT_MAX_FILE_SIZE, readSourceFile, type ReadResult } from './workspace/readSource';
import { createIgnoreMatcher, scanWorkspace, type SkippedFile } from './workspace/scan';
import { readTsConfigs, tsconfigDirs, TSCONFIG_NAMES } from './workspace/tsconfigFiles';

export interface EngineOptions {
  /** Store folder; default `<root>/.cartograph`. `null` keeps everything in memory. */
  storeDir?: string | null;
  maxFileSize?: number;
  /** Index minified and vendored JavaScript too (workspace/bundled.ts; the `cartograph.indexMinified` setting). */
  includeMinified?: boolean;
  /** Extra gitignore-style patterns (the `cartograph.exclude` setting). */
  exclude?: string[];
  /** Parse worker threads for bulk indexing (default: up to 2); 0 parses in the calling thread. */
  workers?: number;
  /**
   * The calling thread must stay responsive (an editor's extension host), at some cost in latency:
   * saves and small batches parse in a worker thread too (started on demand, stopped when idle; a
   * large file's parse blocked 50-80 ms here), and the store reads LanceDB's binary ahead of
   * loading it (~0.1 s, where a cold disk cache made loading block 120-180 ms). Off for a CLI.
   */
  responsive?: boolean;
  log?: (message: string) => void;
}

export type IndexPhase = 'scan' | 'read' | 'parse' | 'resolve' | 'store';
export interface IndexProgress {
  phase: IndexPhase;
  done: number;
  total: number;
}

export interface IndexReport {
  files: number;
  parsed: number;
  reused: number;
  removed: number;
  skipped: SkippedFile[];
  /** Milliseconds per phase. */
  timings: Partial<Record<IndexPhase | 'total', number>>;
}

export interface EngineStats {
  root: string;
  files: number;
  lines: number;
  nodes: Partial<Record<NodeKind, number>>;
  edges: Partial<Record<EdgeKind, number>>;
  skipped: SkippedFile[];
  syntaxErrorFiles: number;
  imports: { internal: number; resolved: number; rate: number };
  unresolvedReferences: number;
  store: { dir: string | null; status: string; error?: string };
}

export interface UpdateTimings {
  parse: number;
  graph: number;
  resolvedFiles: number;
}

export class Engine {
  readonly graph: RepositoryGraph;
  /** Parses saves and batches too small for the bulk workers. */
  private readonly updates: ParseService;
  private readonly skipped = new Map<string, SkippedFile>();
  private readonly stored = new Map<string, StoredFile>();
  private storeStatus: string;
  private storeError: string | undefined;
  private ignore: ((relPath: string, isDir: boolean) => boolean) | undefined;
  lastUpdate: UpdateTimings = { parse: 0, graph: 0, resolvedFiles: 0 };

  private constructor(
    readonly root: string,
    private readonly options: EngineOptions,
    private store: GraphStore | null,
    status: OpenStatus | null,
  ) {
    this.graph = new RepositoryGraph(path.basename(root));
    this.updates = options.responsive ? new OnDemandWorkerParser() : new InProcessParser();
    this.storeStatus = status ? (status.kind === 'rebuilt' ? `rebuilt (${status.reason})` : status.kind) : 'memory only';
  }

  /** Opens the repository at `root` and its store; a store that cannot open degrades to memory-only. */
  static async open(root: string, options: EngineOptions = {}): Promise<Engine> {
    const absRoot = path.resolve(root);
    const stat = await fs.promises.stat(absRoot).catch(() => undefined);
    if (!stat?.isDirectory()) throw new Error(`not a folder: ${absRoot}`);
    const storeDir = options.storeDir === undefined ? path.join(absRoot, '.cartograph') : options.storeDir;
    let store: GraphStore | null = null;
    let status: OpenStatus | null = null;
    let error: string | undefined;
    if (storeDir !== null) {
      try {
        ({ store, status } = await GraphStore.open(storeDir, { readAheadNative: options.responsive }));
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        options.log?.(`graph store unavailable, continuing in memory: ${error}`);
      }
    }
    if (store) await recordRoot(store.dir, absRoot, options.log);
    const engine = new Engine(absRoot, options, store, status);
    if (error) {
      engine.storeStatus = 'unavailable';
      engine.storeError = error;
    }
    if (status?.kind === 'rebuilt') options.log?.(`graph store was rebuilt: ${status.reason}`);
    await engine.warmStart();
    return engine;
  }

  /** Rebuilds the in-memory graph from the per-file graphs in the store (no parsing). */
  private async warmStart(): Promise<void> {
    if (!this.store) return;
    let files: StoredFile[];
    try {
      files = await this.store.loadFiles();
    } catch (err) {
      this.degradeStore(err);
      return;
    }
    const graphs: FileGraph[] = [];
    for (const file of files) {
      if (file.skipped) this.skipped.set(file.path, { path: file.path, reason: file.skipped as SkippedFile['reason'] });
      else if (file.graph && file.graph.parserVersion === PARSER_VERSION) graphs.push(file.graph);
      else continue;
      this.stored.set(file.path, file);
    }
    await this.graph.applySliced({ upsert: graphs, tsconfigs: this.loadTsConfigs(graphs.map((g) => g.path)) });
  }

  /** Brings graph and store in line with the files on disk; only changed files are read and parsed. */
  index(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexReport> {
    return this.exclusive(() => this.indexNow(onProgress, signal));
  }

  private async indexNow(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexReport> {
    const started = performance.now();
    const timings: IndexReport['timings'] = {};
    const mark = (phase: IndexPhase, since: number) => (timings[phase] = Math.round(performance.now() - since));
    let t = performance.now();
    onProgress?.({ phase: 'scan', done: 0, total: 0 });
    // Parse workers start (WASM compile, grammar load) while the scan and the reads run.
    if ((this.options.workers ?? 2) > 0) this.bulk ??= new WorkerParser(this.options.workers ?? 2);
    const scan = await scanWorkspace(this.root, { maxFileSize: this.maxFileSize, exclude: this.options.exclude, includeMinified: this.options.includeMinified });
    this.ignore = undefined;
    mark('scan', t);

    t = performance.now();
    const onDisk = new Set(scan.files.map((f) => f.path));
    const jobs: ParseJob[] = [];
    const meta = new Map<string, { mtimeMs: number; size: number }>();
    const newSkips = new Map<string, SkippedFile>(scan.skipped.map((s) => [s.path, s]));
    const touched: StoredFile[] = [];
    let reused = 0;
    let read = 0;
    // Reads run a few at a time: the disk (or a network file system) answers faster in parallel.
    await forEachConcurrently(scan.files, 16, async (entry) => {
      throwIfAborted(signal);
      const previous = this.stored.get(entry.path);
      const known = previous && !previous.skipped && this.graph.fileGraph(entry.path);
      const minifiedBefore = known && !this.options.includeMinified && mayBeMinified(entry.path, entry.size, known.lines);
      if (known && previous.mtimeMs === entry.mtimeMs && previous.size === entry.size && !minifiedBefore) {
        reused++;
        return;
      }
      const result = await this.readSource(entry.path, entry.absPath);
      onProgress?.({ phase: 'read', done: ++read, total: scan.files.length });
      if (!result.ok) {
        newSkips.set(entry.path, { path: entry.path, reason: result.reason, detail: result.detail });
        return;
      }
      meta.set(entry.path, { mtimeMs: result.mtimeMs, size: result.size });
      if (known && known.hash === sha1(result.text)) {
        reused++;
        touched.push({ ...previous, mtimeMs: result.mtimeMs, size: result.size });
        return;
      }
      jobs.push({ path: entry.path, language: entry.language, text: result.text });
    });
    jobs.sort((a, b) => (a.path < b.path ? -1 : 1));
    mark('read', t);

    t = performance.now();
    let parsed;
    try {
      parsed = await this.parseMany(jobs, (done) => onProgress?.({ phase: 'parse', done, total: jobs.length }));
    } finally {
      // Idle workers hold a parser each; saves parse in-process, so they go until the next full index.
      await this.bulk?.close();
      this.bulk = undefined;
    }
    throwIfAborted(signal);
    mark('parse', t);

    t = performance.now();
    onProgress?.({ phase: 'resolve', done: 0, total: 1 });
    const upserts: FileGraph[] = [];
    for (const outcome of parsed) {
      if (outcome.ok) upserts.push(outcome.graph);
      else newSkips.set(outcome.path, { path: outcome.path, reason: 'parse-error', detail: outcome.error });
    }
    const removals = this.graph.filePaths().filter((p) => !onDisk.has(p) || newSkips.has(p));
    const coldBuild = this.graph.filePaths().length === 0;
    const diff = await this.graph.applySliced({
      upsert: upserts,
      remove: removals,
      tsconfigs: this.loadTsConfigs([...onDisk]),
    });
    mark('resolve', t);

    t = performance.now();
    onProgress?.({ phase: 'store', done: 0, total: 1 });
    const fileRows: StoredFile[] = [...upserts.map((g) => this.storedRow(g, meta.get(g.path))), ...touched];
    // Only skips that are new or have another reason: rewriting unchanged rows would change the store's
    // generation on every start and so invalidate the query snapshot made from it.
    const skipRows: StoredFile[] = [...newSkips.values()].filter((s) => this.stored.get(s.path)?.skipped !== s.reason).map((s) => skippedRow(s));
    const goneSkips = [...this.skipped.keys()].filter((p) => !newSkips.has(p));
    this.skipped.clear();
    for (const s of newSkips.values()) this.skipped.set(s.path, s);
    for (const p of [...removals, ...goneSkips]) this.stored.delete(p);
    for (const row of [...fileRows, ...skipRows]) this.stored.set(row.path, row);
    if (coldBuild && this.store) {
      // Copying the whole graph out takes a few ms per copy on Django: a turn each, not one with the
      // stitching's last slice (a 48-63 ms block at activation in the extension host, profiled).
      await nextTurn();
      const nodes = this.allNodes();
      await nextTurn();
      const edges = this.allEdges();
      await this.writeStore(() => this.store!.replaceAll(nodes, edges, [...this.stored.values()]));
    } else {
      this.persist(diff, { upsert: [...fileRows, ...skipRows], remove: [...removals, ...goneSkips].filter((p) => !newSkips.has(p)) });
      await this.flush();
    }
    await this.repairMirror();
    mark('store', t);
    timings.total = Math.round(performance.now() - started);
    return { files: onDisk.size, parsed: upserts.length, reused, removed: removals.length, skipped: [...newSkips.values()], timings };
  }

  /** Re-indexes one file from `text` (an editor buffer) or from disk; a file that is gone is removed. */
  updateFile(filePath: string, text?: string): Promise<GraphDiff> {
    return this.exclusive(() => this.updateFileNow(filePath, text));
  }

  private async updateFileNow(filePath: string, text?: string): Promise<GraphDiff> {
    const rel = this.relative(filePath);
    const language = languageOf(rel);
    if (!language || (await this.isIgnored(rel))) return emptyDiff();
    let mtimeMs = 0;
    let size = 0;
    let result: ReadResult;
    if (text !== undefined) {
      // A saved buffer is the file: record the file's own stats so the next index skips it. An
      // unsaved buffer is not: mtime 0 makes the next index read the file again.
      const stat = await fs.promises.stat(path.join(this.root, rel)).catch(() => undefined);
      if (stat && stat.size === Buffer.byteLength(text)) ({ mtimeMs, size } = stat);
      const bundled = this.bundled(rel, text);
      result = bundled ? { ok: false, ...bundled } : { ok: true, text, mtimeMs, size };
    } else {
      result = await this.readSource(rel);
    }
    if (!result.ok) {
      const diff = await this.removeFileNow(rel);
      if (result.reason !== 'vanished') {
        const skip = { path: rel, reason: result.reason, detail: result.detail };
        this.skipped.set(rel, skip);
        this.stored.set(rel, skippedRow(skip));
        this.persist(emptyDiff(), { upsert: [skippedRow(skip)], remove: [] });
      }
      return diff;
    }
    ({ text, mtimeMs, size } = result);
    let t = performance.now();
    const outcome = (await this.updates.parse([{ path: rel, language, text }]))[0];
    const parse = performance.now() - t;
    if (!outcome.ok) {
      this.log(`could not extract ${rel}: ${outcome.error}`);
      return emptyDiff();
    }
    t = performance.now();
    const tsconfigs = [...TSCONFIG_NAMES, 'package.json'].some((n) => rel.endsWith(n)) ? this.loadTsConfigs(this.graph.filePaths()) : undefined;
    const diff = await this.graph.applySliced({ upsert: [outcome.graph], tsconfigs });
    const graph = performance.now() - t;
    const resolvedFiles = this.graph.lastApply.resolved;
    this.skipped.delete(rel);
    const row = this.storedRow(outcome.graph, { mtimeMs, size });
    this.stored.set(rel, row);
    this.persist(diff, { upsert: [row], remove: [] });
    this.lastUpdate = { parse, graph, resolvedFiles };
    return diff;
  }

  /**
   * The per-file graph of an editor buffer, parsed where saves are (a worker in an editor host) and
   * not added to the graph: completion's query graph.
   */
  async parseBuffer(relPath: string, language: Language, text: string): Promise<FileGraph> {
    const outcome = (await this.updates.parse([{ path: relPath, language, text }]))[0];
    if (!outcome.ok) throw new Error(`could not extract ${relPath}: ${outcome.error}`);
    return outcome.graph;
  }

  removeFile(filePath: string): Promise<GraphDiff> {
    return this.exclusive(() => this.removeFileNow(filePath));
  }

  private async removeFileNow(filePath: string): Promise<GraphDiff> {
    const rel = this.relative(filePath);
    const known = this.graph.fileGraph(rel) !== undefined || this.skipped.has(rel);
    if (!known) return emptyDiff();
    const diff = await this.graph.applySliced({ remove: [rel] });
    this.skipped.delete(rel);
    this.stored.delete(rel);
    this.persist(diff, { upsert: [], remove: [rel] });
    return diff;
  }

  /**
   * Brings many paths in line with the disk in one graph update (a watcher batch: a branch switch,
   * a code generator). Each path is re-read: present files are re-parsed (in workers when many),
   * gone ones removed, unchanged ones left alone.
   */
  syncPaths(filePaths: string[]): Promise<GraphDiff> {
    return this.exclusive(() => this.syncPathsNow(filePaths));
  }

  private async syncPathsNow(filePaths: string[]): Promise<GraphDiff> {
    const jobs: ParseJob[] = [];
    const meta = new Map<string, { mtimeMs: number; size: number }>();
    const removals: string[] = [];
    const skips: SkippedFile[] = [];
    const rels = [...new Set(filePaths.map((p) => this.relative(p)))].sort();
    await forEachConcurrently(rels, 16, async (rel) => {
      const language = languageOf(rel);
      if (!language || (await this.isIgnored(rel))) return;
      const result = await this.readSource(rel);
      if (!result.ok) {
        if (this.graph.fileGraph(rel) || this.skipped.has(rel)) removals.push(rel);
        if (result.reason !== 'vanished') skips.push({ path: rel, reason: result.reason, detail: result.detail });
        return;
      }
      if (this.graph.fileGraph(rel)?.hash === sha1(result.text)) return;
      meta.set(rel, { mtimeMs: result.mtimeMs, size: result.size });
      jobs.push({ path: rel, language, text: result.text });
    });
    if (jobs.length >= 32 && (this.options.workers ?? 2) > 0) this.bulk ??= new WorkerParser(this.options.workers ?? 2);
    let outcomes;
    try {
      outcomes = await this.parseMany(jobs.sort((a, b) => (a.path < b.path ? -1 : 1)), () => undefined);
    } finally {
      await this.bulk?.close();
      this.bulk = undefined;
    }
    const upserts: FileGraph[] = [];
    for (const outcome of outcomes) {
      if (outcome.ok) upserts.push(outcome.graph);
      else skips.push({ path: outcome.path, reason: 'parse-error', detail: outcome.error });
    }
    for (const skip of skips) if (this.graph.fileGraph(skip.path) && !removals.includes(skip.path)) removals.push(skip.path);
    const tsconfigs = rels.some((r) => TSCONFIG_NAMES.some((n) => r.endsWith(n))) ? this.loadTsConfigs(this.graph.filePaths()) : undefined;
    const diff = await this.graph.applySliced({ upsert: upserts, remove: removals, tsconfigs });
    const rows = upserts.map((g) => this.storedRow(g, meta.get(g.path)));
    for (const p of removals) {
      this.stored.delete(p);
      this.skipped.delete(p);
    }
    for (const skip of skips) {
      this.skipped.set(skip.path, skip);
      rows.push(skippedRow(skip));
    }
    for (const row of rows) this.stored.set(row.path, row);
    this.persist(diff, { upsert: rows, remove: removals.filter((p) => !skips.some((s) => s.path === p)) });
    return diff;
  }

  stats(): EngineStats {
    const nodes: EngineStats['nodes'] = {};
    const edges: EngineStats['edges'] = {};
    for (const kind of NODE_KINDS) nodes[kind] = 0;
    for (const kind of EDGE_KINDS) edges[kind] = 0;
    this.graph.graph.forEachNode((_, a) => (nodes[a.kind] = (nodes[a.kind] ?? 0) + 1));
    this.graph.graph.forEachEdge((_, a) => (edges[a.kind] = (edges[a.kind] ?? 0) + 1));
    let lines = 0;
    let syntaxErrorFiles = 0;
    for (const p of this.graph.filePaths()) {
      const g = this.graph.fileGraph(p)!;
      lines += g.lines;
      if (g.syntaxErrors > 0) syntaxErrorFiles++;
    }
    const imports = this.graph.importStats();
    return {
      root: this.root,
      files: this.graph.filePaths().length,
      lines,
      nodes,
      edges,
      skipped: [...this.skipped.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
      syntaxErrorFiles,
      imports: { internal: imports.internal, resolved: imports.resolved, rate: imports.internal ? imports.resolved / imports.internal : 1 },
      unresolvedReferences: this.graph.unresolvedReferences(),
      store: this.storeInfo(),
    };
  }

  /** Where the store is and whether it works, without the graph counts `stats()` walks every node for. */
  storeInfo(): EngineStats['store'] {
    return { dir: this.store?.dir ?? this.storeDir, status: this.storeStatus, error: this.storeError };
  }

  async storeSize(): Promise<number> {
    return this.store ? this.store.sizeOnDisk() : 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.bulk?.close();
    this.bulk = undefined;
    await this.updates.close();
    await this.store?.close();
  }

  // ---- internals -------------------------------------------------------------------------------

  private queue: Promise<unknown> = Promise.resolve();

  /** Graph changes run one at a time (a save during a full index waits for it): each sees a settled graph. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private bulk: ParseService | undefined;

  private async parseMany(jobs: ParseJob[], onFile: (done: number) => void) {
    // Shipping a handful of files to workers costs more than parsing them here.
    if (!this.bulk || jobs.length < 32) return this.updates.parse(jobs, onFile);
    return this.bulk.parse(jobs, onFile);
  }

  get maxFileSize(): number {
    return this.options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  }

  private relative(filePath: string): string {
    const rel = path.isAbsolute(filePath) ? path.relative(this.root, filePath) : filePath;
    return rel.split(path.sep).join('/');
  }

  /** A source file as the graph takes it: readable text, and not minified or vendored JavaScript unless asked for. */
  private async readSource(rel: string, absPath = path.join(this.root, rel)): Promise<ReadResult> {
    const byPath = this.options.includeMinified ? undefined : bundledByPath(rel);
    if (byPath) return { ok: false, ...byPath };
    const result = await readSourceFile(absPath, this.maxFileSize);
    const byContent = result.ok && !this.options.includeMinified ? bundledByContent(rel, result.text) : undefined;
    return byContent ? { ok: false, ...byContent } : result;
  }

  /** Why an editor buffer's text is not taken (minified or vendored JavaScript), if it is not. */
  private bundled(rel: string, text: string): BundledSkip | undefined {
    return this.options.includeMinified ? undefined : (bundledByPath(rel) ?? bundledByContent(rel, text));
  }

  private async isIgnored(rel: string): Promise<boolean> {
    this.ignore ??= await createIgnoreMatcher(this.root, this.options.exclude);
    return this.ignore(rel, false);
  }

  private storedRow(graph: FileGraph, meta?: { mtimeMs: number; size: number }): StoredFile {
    return {
      path: graph.path,
      hash: graph.hash,
      mtimeMs: meta?.mtimeMs ?? 0,
      size: meta?.size ?? 0,
      language: graph.language,
      parserVersion: PARSER_VERSION,
      graph,
      skipped: null,
    };
  }

  private loadTsConfigs(paths: string[]): TsConfig[] {
    return readTsConfigs(this.root, tsconfigDirs(paths));
  }

  private allNodes() {
    return this.graph.graph.mapNodes((_, a) => a);
  }

  private allEdges() {
    return this.graph.graph.mapEdges((_, a) => a);
  }

  /** After an interrupted write the store may miss rows: compare counts and rewrite it whole if so. */
  private async repairMirror(): Promise<void> {
    if (!this.store) return;
    await this.writeStore(async () => {
      const counts = await this.store!.counts();
      if (counts.nodes === this.graph.graph.order && counts.edges === this.graph.graph.size) return;
      this.log(`graph store out of step (${counts.nodes} nodes, ${counts.edges} edges stored; ${this.graph.graph.order}, ${this.graph.graph.size} in memory): rewriting it`);
      await this.store!.replaceAll(this.allNodes(), this.allEdges(), [...this.stored.values()]);
    });
  }

  /**
   * Queues a graph change for the store. Saves never wait for LanceDB: the graph is live at once,
   * and changes queued while a write runs are merged into the next one (a burst of saves, a branch
   * switch) so the store catches up in few writes. `flush()` waits for it.
   */
  private persist(diff: GraphDiff, files: { upsert: StoredFile[]; remove: string[] }): void {
    if (!this.store && !this.storeLost) return;
    this.pending.add(diff, files);
    if (this.pending.empty || this.flushing) return;
    this.flushing = this.drain().finally(() => (this.flushing = undefined));
  }

  private readonly pending = new PendingWrites();
  private flushing: Promise<void> | undefined;

  private async drain(): Promise<void> {
    while (!this.pending.empty) {
      if (!this.store && !(await this.reopenStore())) {
        this.pending.take();
        return;
      }
      const diff = this.pending.take();
      // A write that fails on a store which worked (its folder deleted under us) recreates it at once:
      // the rewrite from the graph includes this change, so the save that found the loss is not lost.
      if (!(await this.writeStore(() => this.store!.apply(diff)))) await this.reopenStore();
    }
  }

  /** True when a store that worked has failed since (its folder deleted, a disk error): worth reopening. */
  private storeLost = false;
  private storeDir: string | null = null;

  /**
   * A store that failed after working (its folder deleted under us, say) is recreated on the next
   * change and rewritten whole from the graph, so the mirror recovers without a Reindex.
   */
  private async reopenStore(): Promise<boolean> {
    if (!this.storeLost || !this.storeDir) return false;
    this.storeLost = false;
    try {
      const { store } = await GraphStore.open(this.storeDir, { readAheadNative: this.options.responsive });
      await recordRoot(store.dir, this.root, this.options.log);
      await store.replaceAll(this.allNodes(), this.allEdges(), [...this.stored.values()]);
      this.store = store;
      this.storeStatus = 'recovered';
      this.storeError = undefined;
      this.log(`graph store recreated at ${store.dir} and rewritten from the graph`);
      return true;
    } catch (err) {
      this.log(`graph store still unavailable, continuing in memory: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  /** The LanceDB mirror (null while the index lives in memory): background jobs keep their results beside the graph's (embeddings). */
  get currentStore(): GraphStore | null {
    return this.store;
  }

  /** Resolves once every change so far is in the store. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** A failing store write must not lose the graph: log it and carry on in memory. */
  private async writeStore(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (err) {
      this.degradeStore(err);
      return false;
    }
  }

  private degradeStore(err: unknown): void {
    this.storeError = err instanceof Error ? err.message : String(err);
    this.storeStatus = 'unavailable';
    this.log(`graph store failed, continuing in memory: ${this.storeError}`);
    const store = this.store;
    if (store) {
      this.storeLost = true;
      this.storeDir = store.dir;
    }
    this.store = null;
    void store?.close().catch(() => undefined);
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

/** The repository a store belongs to, so `--store DIR` alone is enough to reopen it. */
async function recordRoot(storeDir: string, root: string, log?: (m: string) => void): Promise<void> {
  try {
    await fs.promises.writeFile(path.join(storeDir, ROOT_FILE), `${JSON.stringify({ root })}\n`);
  } catch (err) {
    log?.(`could not record the repository root in the store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function forEachConcurrently<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/** Graph and file changes waiting for the store, merged by id: the latest upsert or removal wins. */
class PendingWrites {
  private readonly nodes = new ChangeSet<GraphNode>();
  private readonly edges = new ChangeSet<GraphEdge>();
  private readonly files = new ChangeSet<StoredFile>();

  get empty(): boolean {
    return this.nodes.empty && this.edges.empty && this.files.empty;
  }

  add(diff: GraphDiff, files: { upsert: StoredFile[]; remove: string[] }): void {
    this.nodes.merge(diff.nodes, (n) => n.id);
    this.edges.merge(diff.edges, (e) => e.id);
    this.files.merge(files, (f) => f.path);
  }

  take(): StoreDiff {
    return { nodes: this.nodes.take(), edges: this.edges.take(), files: this.files.take() };
  }
}

function emptyDiff(): GraphDiff {
  return { nodes: { upsert: [], remove: [] }, edges: { upsert: [], remove: [] } };
}

function skippedRow(skip: SkippedFile): StoredFile {
  return { path: skip.path, hash: '', mtimeMs: 0, size: 0, language: '', parserVersion: PARSER_VERSION, graph: null, skipped: skip.reason };
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error('indexing cancelled');
}
