// The engine's front door: one object per repository that scans, parses, stitches, keeps the graph
// live through `updateFile` / `removeFile`, and mirrors everything to the LanceDB store. The CLI
// and the VS Code extension are thin callers of this class; it never imports `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nextTurn } from './eventLoop';
import { engineStats, type EngineStats } from './engineStats';
import { RepositoryGraph, type GraphDiff } from './graph/repositoryGraph';
import type { Language } from './model/schema';
import { sha1 } from './parse/extractUtil';
import { PARSER_VERSION, type FileGraph } from './parse/fileGraph';
import { InProcessParser, OnDemandWorkerParser, WorkerParser, type ParseJob, type ParseService } from './parse/parseService';
import { languageOf } from './parse/languages';
import { openSavedGraph } from './search/querySnapshot';
import { skippedRow, storedRow } from './store/fileRows';
import type { StoredFile } from './store/graphStore';
import { fileStates, type FileState } from './store/indexRecord';
import { describeIndexOptions, givesIndexOptions, readIndexOptions, recordIndexOptions, type IndexOptions } from './store/indexOptions';
import { StoreMirror, type StoreInfo, type StoreMirrorOptions } from './store/storeMirror';
import { mayBeMinified } from './workspace/bundled';
import { sizeRefusal, type ReadResult, type RootBoundary } from './workspace/readSource';
import { scanWorkspace, type SkippedFile } from './workspace/scan';
import { SourceFiles } from './workspace/sourceFiles';
import { isProjectFile, projectConfigDirs, readProjectConfig, type ProjectConfig } from './workspace/projectConfig';

/** Fewer files than this are parsed in the calling thread: shipping a handful to workers costs more than parsing them. */
const BULK_JOBS = 32;

export type { EngineStats } from './engineStats';

export interface EngineOptions extends Pick<StoreMirrorOptions, 'storeMode' | 'onStoreDamage' | 'command' | 'onStoreWait'> {
  /** Store folder; default `<root>/.cartograph`. `null` keeps everything in memory. */
  storeDir?: string | null;
  maxFileSize?: number;
  /** Index minified and vendored JavaScript too (workspace/bundled.ts; the `cartograph.indexMinified` setting). */
  includeMinified?: boolean;
  /** Extra gitignore-style patterns (the `cartograph.exclude` setting). */
  exclude?: string[];
  /**
   * Index and read files through symlinks that lead out of the root too (the `cartograph.followSymlinks`
   * setting, `--follow-symlinks`). Off: they are skipped as 'outside-root' (readSource.ts's RootBoundary).
   */
  followSymlinks?: boolean;
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

export interface UpdateTimings {
  parse: number;
  graph: number;
  resolvedFiles: number;
}

export class Engine {
  /** Parses saves and batches too small for the bulk workers. */
  private readonly updates: ParseService;
  private readonly sources: SourceFiles;
  private readonly skipped = new Map<string, SkippedFile>();
  /** The folders the project config was last read for, as JSON (see configAfter). */
  private configDirs = '';
  lastUpdate: UpdateTimings = { parse: 0, graph: 0, resolvedFiles: 0 };
  /** How the warm start got its graph: restored as saved with the query snapshot, or resolved file by file. */
  warmStartedBy: 'restore' | 'resolve' | undefined;

  private constructor(
    readonly root: string,
    private readonly options: EngineOptions,
    readonly graph: RepositoryGraph,
    /** The engine's row of every file it took or skipped: the files table the store mirrors. */
    private readonly stored: Map<string, StoredFile>,
    private readonly mirror: StoreMirror,
  ) {
    this.updates = options.responsive ? new OnDemandWorkerParser() : new InProcessParser();
    this.sources = new SourceFiles(root, options);
  }

  /** Opens the repository at `root` and its store; a store that cannot open degrades to memory-only. */
  static async open(root: string, options: EngineOptions = {}): Promise<Engine> {
    const absRoot = path.resolve(root);
    const stat = await fs.promises.stat(absRoot).catch(() => undefined);
    if (!stat?.isDirectory()) throw new Error(`not a folder: ${absRoot}`);
    const storeDir = options.storeDir === undefined ? path.join(absRoot, '.cartograph') : options.storeDir;
    // Without options of its own, the folder is read as it was for the graph in the store.
    const recorded = storeDir !== null && !givesIndexOptions(options) ? readIndexOptions(storeDir) : undefined;
    if (recorded) {
      options = { ...options, ...recorded };
      const said = describeIndexOptions(recorded);
      if (said) options.log?.(`reading the folder with the options recorded with its store: ${said}`);
    }
    const graph = new RepositoryGraph(path.basename(absRoot));
    const stored = new Map<string, StoredFile>();
    const mirror = await StoreMirror.open(absRoot, storeDir, { graph, files: () => [...stored.values()] }, options);
    const engine = new Engine(absRoot, options, graph, stored, mirror);
    await engine.warmStart();
    return engine;
  }

  /** Rebuilds the in-memory graph from the per-file graphs in the store (no parsing). */
  private async warmStart(): Promise<void> {
    const files = await this.mirror.loadFiles();
    if (!files) return;
    const graphs: FileGraph[] = [];
    for (const file of files) {
      if (file.skipped) this.skipped.set(file.path, { path: file.path, reason: file.skipped as SkippedFile['reason'] });
      else if (file.graph && file.graph.parserVersion === PARSER_VERSION) graphs.push(file.graph);
      else continue;
      this.stored.set(file.path, file);
    }
    const config = this.loadConfig(graphs.map((g) => g.path));
    this.warmStartedBy = (await this.restoreSaved(graphs, config)) ? 'restore' : 'resolve';
    if (this.warmStartedBy === 'resolve') await this.graph.applySliced({ upsert: graphs, config });
  }

  /**
   * The graph as the query snapshot saved it, when that snapshot was made from this store as it is
   * (nothing written since) and these files: no file is resolved again (on Django, half a warm start).
   */
  private async restoreSaved(graphs: FileGraph[], config: ProjectConfig): Promise<boolean> {
    const store = this.mirror.current;
    if (!store) return false;
    const saved = await openSavedGraph(store.dir, this.root);
    if (!saved.ok || saved.config !== JSON.stringify(config)) return false;
    try {
      await this.graph.restoreSliced(graphs, config, saved.graph, saved.states);
      return true;
    } catch (err) {
      this.log(`resolving every file: the graph saved with the query snapshot does not fit the store (${err instanceof Error ? err.message : String(err)})`);
      return false;
    }
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
    // With nothing indexed yet, parse workers start (WASM compile, grammar load) while the scan and the
    // reads run. Otherwise only once the reads found enough to parse: a warm start that parses nothing
    // spent two threads' start on a 2-core machine, beside its own work.
    const workers = this.options.workers ?? 2;
    if (workers > 0 && this.stored.size === 0) this.bulk ??= new WorkerParser(workers);
    const { exclude, includeMinified, followSymlinks } = this.options;
    const scan = await scanWorkspace(this.root, { maxFileSize: this.maxFileSize, exclude, includeMinified, followSymlinks });
    this.sources.forgetIgnoreFiles();
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
      const result = await this.sources.read(entry.path, entry.absPath);
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
    if (workers > 0 && jobs.length >= BULK_JOBS) this.bulk ??= new WorkerParser(workers);
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
      config: this.loadConfig([...onDisk]),
    });
    mark('resolve', t);

    t = performance.now();
    onProgress?.({ phase: 'store', done: 0, total: 1 });
    const fileRows: StoredFile[] = upserts.map((g) => storedRow(g, meta.get(g.path)));
    // Only skips that are new or have another reason: rewriting unchanged rows would change the store's
    // generation on every start and so invalidate the query snapshot made from it.
    const skipRows: StoredFile[] = [...newSkips.values()].filter((s) => this.stored.get(s.path)?.skipped !== s.reason).map((s) => skippedRow(s));
    const goneSkips = [...this.skipped.keys()].filter((p) => !newSkips.has(p));
    this.skipped.clear();
    for (const s of newSkips.values()) this.skipped.set(s.path, s);
    for (const p of [...removals, ...goneSkips]) this.stored.delete(p);
    for (const row of [...fileRows, ...touched, ...skipRows]) this.stored.set(row.path, row);
    if (coldBuild && this.mirror.current) {
      // Copying the whole graph out takes a few ms per copy on Django: a turn each, not one with the
      // stitching's last slice (a 48-63 ms block at activation in the extension host, profiled).
      await nextTurn();
      const nodes = this.graph.graph.mapNodes((_, a) => a);
      await nextTurn();
      const edges = this.graph.graph.mapEdges((_, a) => a);
      await this.mirror.replaceAll(nodes, edges);
    } else {
      this.mirror.persist(diff, { upsert: [...fileRows, ...skipRows], remove: [...removals, ...goneSkips].filter((p) => !newSkips.has(p)) });
      // Files whose text is what was indexed (touched, checked out again): their new stats, so the next
      // start skips them, in a write that leaves the generation and the query snapshot as they are.
      this.mirror.persist(emptyDiff(), { upsert: touched, remove: [] }, 'stats');
      await this.flush();
    }
    await this.mirror.repair();
    await this.mirror.markComplete();
    const store = this.mirror.current;
    if (store && this.options.storeMode !== 'read') await recordIndexOptions(store.dir, this.indexOptions, this.options.log);
    mark('store', t);
    timings.total = Math.round(performance.now() - started);
    return { files: onDisk.size, parsed: upserts.length, reused, removed: removals.length, skipped: [...newSkips.values()], timings };
  }

  /** Re-indexes one file from `text` (an editor buffer) or from disk; a file that is gone is removed. */
  updateFile(filePath: string, text?: string): Promise<GraphDiff> {
    return this.exclusive(() => this.updateFileNow(filePath, text));
  }

  private async updateFileNow(filePath: string, text?: string): Promise<GraphDiff> {
    const rel = this.sources.relative(filePath);
    if (isProjectFile(rel)) return this.syncPathsNow([filePath]);
    const language = languageOf(rel);
    if (!language || (await this.sources.isIgnored(rel))) return emptyDiff();
    let mtimeMs = 0;
    let size = 0;
    let result: ReadResult;
    if (text !== undefined) {
      // A saved buffer is the file: record the file's own stats so the next index skips it. An
      // unsaved buffer is not: mtime 0 makes the next index read the file again.
      const stat = await fs.promises.stat(path.join(this.root, rel)).catch(() => undefined);
      if (stat && stat.size === Buffer.byteLength(text)) ({ mtimeMs, size } = stat);
      // A buffer too large to parse is refused as the file would be (the size limit itself is the disk's).
      const refused = sizeRefusal(Buffer.byteLength(text), Infinity) ?? (await this.sources.refusedBuffer(rel, text));
      result = refused ? { ok: false, ...refused } : { ok: true, text, mtimeMs, size };
    } else {
      result = await this.sources.read(rel);
    }
    if (!result.ok) {
      const diff = await this.removeFileNow(rel);
      if (result.reason !== 'vanished') {
        const skip = { path: rel, reason: result.reason, detail: result.detail };
        this.skipped.set(rel, skip);
        this.stored.set(rel, skippedRow(skip));
        this.mirror.persist(emptyDiff(), { upsert: [skippedRow(skip)], remove: [] });
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
    const config = this.graph.fileGraph(rel) ? undefined : this.configAfter([...this.graph.filePaths(), rel], false);
    const diff = await this.graph.applySliced({ upsert: [outcome.graph], config });
    const graph = performance.now() - t;
    const resolvedFiles = this.graph.lastApply.resolved;
    this.skipped.delete(rel);
    const row = storedRow(outcome.graph, { mtimeMs, size });
    this.stored.set(rel, row);
    this.mirror.persist(diff, { upsert: [row], remove: [] });
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
    const rel = this.sources.relative(filePath);
    const known = this.graph.fileGraph(rel) !== undefined || this.skipped.has(rel);
    if (!known) return emptyDiff();
    const diff = await this.graph.applySliced({ remove: [rel] });
    this.skipped.delete(rel);
    this.stored.delete(rel);
    this.mirror.persist(diff, { upsert: [], remove: [rel] });
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
    const rels = [...new Set(filePaths.map((p) => this.sources.relative(p)))].sort();
    await forEachConcurrently(rels, 16, async (rel) => {
      const language = languageOf(rel);
      if (!language || (await this.sources.isIgnored(rel))) return;
      const result = await this.sources.read(rel);
      if (!result.ok) {
        if (this.graph.fileGraph(rel) || this.skipped.has(rel)) removals.push(rel);
        if (result.reason !== 'vanished') skips.push({ path: rel, reason: result.reason, detail: result.detail });
        return;
      }
      if (this.graph.fileGraph(rel)?.hash === sha1(result.text)) return;
      meta.set(rel, { mtimeMs: result.mtimeMs, size: result.size });
      jobs.push({ path: rel, language, text: result.text });
    });
    if (jobs.length >= BULK_JOBS && (this.options.workers ?? 2) > 0) this.bulk ??= new WorkerParser(this.options.workers ?? 2);
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
    const after = new Set(this.graph.filePaths());
    for (const g of upserts) after.add(g.path);
    for (const p of removals) after.delete(p);
    const config = this.configAfter(after, rels.some(isProjectFile));
    // Files read back as the graph has them (an answer's files re-checked before it is sent) change
    // nothing: applying them anyway would make a new graph version, and with it the answer made again.
    const changes = upserts.length > 0 || removals.length > 0 || config !== undefined;
    const diff = changes ? await this.graph.applySliced({ upsert: upserts, remove: removals, config }) : emptyDiff();
    const rows = upserts.map((g) => storedRow(g, meta.get(g.path)));
    for (const p of removals) {
      this.stored.delete(p);
      this.skipped.delete(p);
    }
    for (const skip of skips) {
      this.skipped.set(skip.path, skip);
      rows.push(skippedRow(skip));
    }
    for (const row of rows) this.stored.set(row.path, row);
    this.mirror.persist(diff, { upsert: rows, remove: removals.filter((p) => !skips.some((s) => s.path === p)) });
    return diff;
  }

  stats(): EngineStats {
    return engineStats(this.root, this.graph, this.skipped.values(), this.storeInfo());
  }

  /** Every file's row as the store has it, without the per-file graphs: what the index record keeps (indexRecord.ts). */
  fileStates(): FileState[] {
    return fileStates(this.stored.values());
  }

  /** How this engine reads the folder: recorded with the store after each index. */
  get indexOptions(): IndexOptions {
    const { exclude = [], maxFileSize, includeMinified = false } = this.options;
    return { exclude, includeMinified, ...(maxFileSize !== undefined ? { maxFileSize } : {}) };
  }

  /** Where the store is and whether it works, without the graph counts `stats()` walks every node for. */
  storeInfo(): StoreInfo {
    return this.mirror.info();
  }

  async storeSize(): Promise<number> {
    return this.mirror.sizeOnDisk();
  }

  /** The LanceDB mirror (null while the index lives in memory): background jobs keep their results beside the graph's (embeddings). */
  get currentStore() {
    return this.mirror.current;
  }

  /** Resolves once every change so far is in the store. */
  flush(): Promise<void> {
    return this.mirror.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    await this.bulk?.close();
    this.bulk = undefined;
    await this.updates.close();
    await this.mirror.close();
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
    if (!this.bulk || jobs.length < BULK_JOBS) return this.updates.parse(jobs, onFile);
    return this.bulk.parse(jobs, onFile);
  }

  get maxFileSize(): number {
    return this.sources.maxFileSize;
  }

  /** Where reads of this repository's files may lead: what the agent tools and the describer read through too. */
  get boundary(): RootBoundary {
    return this.sources.boundary;
  }

  private loadConfig(paths: Iterable<string>): ProjectConfig {
    const dirs = projectConfigDirs(paths);
    this.configDirs = JSON.stringify(dirs);
    return readProjectConfig(this.root, dirs);
  }

  /**
   * The project config for the files `paths` when it may have changed: a config file changed, or
   * files came or went in folders it was not read for (a new folder with its own go.mod).
   */
  private configAfter(paths: Iterable<string>, configFileChanged: boolean): ProjectConfig | undefined {
    if (configFileChanged) return this.loadConfig(paths);
    const list = [...paths];
    return JSON.stringify(projectConfigDirs(list)) === this.configDirs ? undefined : this.loadConfig(list);
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

async function forEachConcurrently<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

function emptyDiff(): GraphDiff {
  return { nodes: { upsert: [], remove: [] }, edges: { upsert: [], remove: [] } };
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error('indexing cancelled');
}
