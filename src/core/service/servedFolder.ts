// A repository as its service holds it: the live graph, the file watcher, the changes not yet applied,
// and the query snapshot that answers while the graph loads and is saved again after changes.
//
// Read-your-writes: an agent that writes a file and asks at once must see its write. The watcher's
// raw events are recorded the moment the kernel's notification is read, before the request that
// follows the write is read from its socket (both arrive through the same poll, in the order they
// happened), and every answer first applies what was recorded. The files an answer names are then
// re-read and compared with what the graph holds; if one changed, the answer is made again.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { openQuerySnapshot } from '../search/querySnapshot';
import type { AgentTools } from '../tools/agentTools';
import type { CallState, ToolResult } from '../tools/context';
import type { ToolName } from '../tools/schemas';
import { SNAPSHOT_NOTE, SNAPSHOT_TOOLS, snapshotTools } from '../tools/snapshotTools';
import type { ToolFolder } from '../tools/workspaceTools';
import { describeHolder } from '../store/writerLock';
import { FolderWatcher } from '../workspace/folderWatcher';
import { answeredPaths } from './answers';
import { AnswerCache } from './answerCache';
import type { IndexReport } from '../engine';
import { LocalRepository } from './localRepository';
import { ModelSlot } from './modelSlot';
import type { ModelSettings } from '../models/loader';
import { Quiet } from './quiet';

/** File events are applied in batches: a checkout that rewrites 500 files is one re-index, not 500. */
const BATCH_MS = 50;
/** How long the graph stays unchanged before the query snapshot is saved again. */
const SNAPSHOT_SAVE_DELAY_MS = 10_000;
/** What the service asks itself once its graph is ready: any sentence takes the whole natural-language path. */
const WARM_UP_QUESTION = 'where is the configuration read and checked';
/** What a kernel out of file watches means for answers, and the setting that raises the limit (Linux). */
const WATCH_LIMIT_HINT = '; folders past the limit are not watched, so their changes are read at the next index (raise fs.inotify.max_user_watches)';
/** Never inside these: VCS internals, dependencies, stores. */
const NEVER_WATCHED = /[\\/](\.git|node_modules|\.cartograph)([\\/]|$)/;

export interface ServedFolderOptions {
  storeDir: string;
  followSymlinks?: boolean;
  /** Who writes the store (named to a process waiting for the writer lock). */
  command: string;
  /**
   * Search with models of the folder's own (modelSlot.ts: the default ones unless a client names
   * others): a `cartograph service` or `cartograph mcp` process. An editor's folder uses the editor's.
   */
  searchModels?: boolean;
  log: (message: string) => void;
  /**
   * A repository someone else opened on the store and indexes (the editor's engine worker), served
   * once that index is done and left open by `close`. Without it the folder opens and indexes its own.
   */
  adopted?: Promise<Indexed>;
}

export interface Indexed {
  repo: LocalRepository;
  report: IndexReport;
}

export class ServedFolder implements ToolFolder {
  readonly label: string;
  readonly repo: Promise<LocalRepository>;
  /** The models search uses when the folder has its own (`searchModels`). */
  readonly models: ModelSlot | undefined;
  /** The snapshot's tools, made on the first question asked before the graph is loaded (building them costs what the load does). */
  private early: Promise<(() => AgentTools) | undefined>;
  private live: LocalRepository | undefined;
  private readonly pending = new Set<string>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private watcher: FolderWatcher | undefined;
  private watching: Promise<void> = Promise.resolve();
  private readonly answers = new AnswerCache<unknown>();
  private snapshotStale = false;
  /** The graph version the snapshot on disk was made from (-1: not known to be any). */
  private snapshotVersion = -1;
  private saveTimer: NodeJS.Timeout | undefined;
  /** Since the last question (whenQuiet). */
  private readonly quiet = new Quiet();
  private closing = false;
  private readonly storeDir: string;
  private readonly log: (message: string) => void;

  constructor(
    readonly root: string,
    private readonly options: ServedFolderOptions,
  ) {
    this.label = path.basename(root);
    this.storeDir = options.storeDir;
    this.log = (m) => options.log(`${this.label}: ${m}`);
    this.early = openQuerySnapshot(this.storeDir, root).then((opened) => {
      if (opened.ok) {
        let tools: AgentTools | undefined;
        return () => (tools ??= snapshotTools(opened.snapshot, root, { followSymlinks: options.followSymlinks }));
      }
      this.log(`${opened.reason}; the first answers wait for the graph to load`);
      return undefined;
    });
    this.repo = this.open();
    if (options.searchModels) {
      this.models = new ModelSlot(this.repo, this.log);
      // Loaded and embedding as soon as the graph is ready, not at the first question.
      this.repo.then(() => this.models?.use(), () => undefined);
    }
  }

  /** Folders under a kernel watch; undefined until watching starts. */
  get watchedFolders(): number | undefined {
    return this.watcher?.folders;
  }

  private startReport: IndexReport | undefined;

  /** The check of the folder the start made, once: for the first `index` a client asks for after it. */
  takeStartReport(): IndexReport | undefined {
    const report = this.startReport;
    this.startReport = undefined;
    return report;
  }

  /** True once the graph is loaded and the folder re-checked. */
  get ready(): boolean {
    return this.live !== undefined;
  }

  private async open(): Promise<LocalRepository> {
    // The snapshot first: it answers while the store loads, and both would compete for the one thread.
    const early = await this.early;
    const { repo, report } = await (this.options.adopted ?? this.openOwn());
    // An editor's check is its own window's business, and long past when a client asks.
    if (!this.options.adopted) this.startReport = report;
    this.log(`${report.files} files ready in ${((report.timings.total ?? 0) / 1000).toFixed(2)} s (${report.parsed} parsed, ${report.reused} unchanged)`);
    this.live = repo;
    this.early = Promise.resolve(undefined);
    // A service is mostly started by a client about to ask (the CLI's first question, an agent's first
    // call): what follows waits for a quiet moment instead of holding the thread as that question comes
    // in (on Django it held the first answer 0.4 s). Then the entity index that saves update, the
    // lexical index a sentence needs, read from the snapshot in one block (~0.3 s on Django, 3 s at a
    // million lines), and one sentence searched with the models (the traversal's walk of the graph, the
    // vectors packed, the search's code compiled): the first edit and the first sentence otherwise pay them.
    this.quiet.touch();
    this.whenQuiet(async () => {
      await repo.prepareSearch();
      await this.models?.use();
      await repo.search(WARM_UP_QUESTION, 1);
    });
    // Saved once the graph has been quiet, as after an edit: at once, the save (1.5 s on Django, 8.5 s at a
    // million lines) held the answer to the question that started the service (`cartograph index` after an edit).
    if (!early || report.parsed > 0 || report.removed > 0) this.snapshotChanged();
    else this.snapshotVersion = repo.engine.graph.version;
    return repo;
  }

  private async openOwn(): Promise<Indexed> {
    // A damaged store is left for `cartograph index` to repair: a service never deletes it.
    const repo = await LocalRepository.open(this.root, {
      storeDir: this.storeDir,
      followSymlinks: this.options.followSymlinks,
      onStoreDamage: 'report',
      command: this.options.command,
      onStoreWait: (holder) => this.log(`waiting for ${describeHolder(holder)} to finish writing the store`),
      log: this.log,
    });
    return { repo, report: await repo.index() };
  }

  /** Saves the snapshot once the graph has been quiet for `delayMs`: a burst of edits is one save. */
  private snapshotChanged(delayMs = SNAPSHOT_SAVE_DELAY_MS): void {
    this.snapshotStale = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.saveSnapshot(), delayMs);
    this.saveTimer.unref();
  }

  /** `evenIfCurrent`: a snapshot still current is checked (cheap) and its index record brought up to date. */
  private saveSnapshot(evenIfCurrent = false): Promise<void> {
    clearTimeout(this.saveTimer);
    if ((!this.snapshotStale && !evenIfCurrent) || !this.live) return this.flushing;
    const repo = this.live;
    this.snapshotStale = false;
    this.flushing = this.flushing.then(async () => {
      const version = repo.engine.graph.version;
      await repo.saveQuerySnapshot().then(
        () => (this.snapshotVersion = version),
        (err: unknown) => this.log(`query snapshot not saved: ${messageOf(err)}`),
      );
    });
    return this.flushing;
  }

  private ignored(p: string): boolean {
    const store = this.storeDir;
    return p === store || p.startsWith(`${store}${path.sep}`) || NEVER_WATCHED.test(p) || path.relative(this.root, p).startsWith('..');
  }

  startWatching(): void {
    // A watch per folder, every folder: a source file created anywhere, or renamed from a name the graph
    // never reads (a `.txt`), is seen through its folder's watch. Events are recorded as the kernel names
    // them, before the request that follows a write is read (see the top of this file).
    const changed = (p: string) => {
      if (this.ignored(p)) return;
      this.pending.add(p);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), BATCH_MS);
    };
    this.watcher = new FolderWatcher(this.root, {
      ignored: (p) => this.ignored(p),
      followSymlinks: this.options.followSymlinks,
      onChange: changed,
      onError: (err) => this.log(`file watcher: ${messageOf(err)}${(err as NodeJS.ErrnoException).code === 'ENOSPC' ? WATCH_LIMIT_HINT : ''}`),
    });
    // Until the first walk has reached a folder, a write in it goes unseen.
    this.watching = this.watcher.ready;
  }

  /** Applies every file event seen so far (and waits for one already being applied). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      try {
        const repo = await this.repo;
        const before = repo.engine.graph.version;
        await repo.syncPaths(await this.expand(repo, batch));
        if (repo.engine.graph.version !== before) this.snapshotChanged();
      } catch (err) {
        this.log(`re-indexing ${batch.length} changed paths failed: ${messageOf(err)}`);
        for (const p of batch) this.pending.add(p);
      }
    });
    return this.flushing;
  }

  /**
   * The files behind changed paths: a folder's files (a folder created or moved in whole brings its
   * files with it), and for a path that is gone, what the graph holds under it.
   */
  private async expand(repo: LocalRepository, paths: string[]): Promise<string[]> {
    const files = new Set<string>();
    for (const p of paths) {
      const stat = await fsp.stat(p).catch(() => undefined);
      if (stat?.isDirectory()) {
        for (const f of await this.filesUnder(p)) files.add(f);
        continue;
      }
      files.add(p);
      if (!stat) for (const rel of await repo.filePaths(`${path.relative(this.root, p).split(path.sep).join('/')}/`)) files.add(path.join(this.root, rel));
    }
    return [...files];
  }

  private async filesUnder(dir: string): Promise<string[]> {
    const out: string[] = [];
    const stack = [dir];
    while (stack.length > 0) {
      const current = stack.pop()!;
      const entries = await fsp.readdir(current, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const full = path.join(current, e.name);
        if (this.ignored(full)) continue;
        if (e.isDirectory()) stack.push(full);
        else out.push(full);
      }
    }
    return out;
  }

  async state(): Promise<CallState> {
    await this.watching;
    // A request and the notification of the write made before it can be read in the same turn of the
    // event loop, the request first: the rest of the turn's events are taken before the batch is.
    await new Promise((resolve) => setImmediate(resolve));
    await this.flush();
    // Events that arrive while a batch is applied (a write's second notification, a new folder reported
    // again once watched): applied too (cheap when nothing changed), so that pending means pending.
    for (let round = 0; round < 3 && this.pending.size > 0; round++) await this.flush();
    return { pending: [...this.pending].map((p) => path.relative(this.root, p)) };
  }

  /**
   * A tool's answer. While the graph loads, from the snapshot as last saved, which the answer says,
   * without waiting for the watcher's first walk of the folder (seconds on a large one) — unless a
   * change has been seen already: then, like every answer after, on the live graph once the folder's
   * pending changes are applied (state).
   */
  async run(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (!this.live && SNAPSHOT_TOOLS.has(name as ToolName) && this.pending.size === 0) {
      const early = await this.early;
      // A refusal from the snapshot is not given: "no such definition" may only mean it was added since
      // (or the folder is indexed with other options now); the live graph answers that.
      const answer = early && !this.live && this.pending.size === 0 ? await early().run(name, args, { pending: [], indexing: SNAPSHOT_NOTE }) : undefined;
      if (answer?.ok) return answer;
    }
    const call = await this.state();
    const repo = await this.repo;
    if (name === 'search_code') await this.modelsFor(repo, String(args.query ?? ''));
    const store = await repo.storeInfo();
    const problem = store.status === 'damaged' || store.status === 'unavailable' ? store.error : undefined;
    const state = problem ? { ...call, storeProblem: problem } : call;
    // An answer that names pending files says so, and is not kept.
    // The models' status is in the key: an answer made while the repository was being embedded is not kept past it;
    // so is the descriptions' version: one made before code was described (describe, describe_code) is not kept past that.
    const models = this.models ? await repo.modelStatus() : '';
    const key = call.pending.length === 0 ? `${name}\u0000${JSON.stringify(args)}\u0000${problem ?? ''}\u0000${models}\u0000${repo.descriptionsVersion}` : undefined;
    return this.checked(() => repo.runTool(name, args, state), (result) => (result.ok ? result.structured : undefined), key);
  }

  /**
   * The folder's models loaded (`settings`, else its default) and the changed code embedded, when
   * `query` is a sentence: names and structural questions never use them, so they never wait for a
   * load (on Django the first name asked after a start waited 0.4 s for it).
   */
  async modelsFor(repo: LocalRepository, query: string, settings?: ModelSettings): Promise<void> {
    if (this.models && (await repo.asksInWords(query))) await this.models.use(settings);
  }

  /**
   * Makes an answer (or takes the one made for `key` on this graph version), then re-reads the files
   * it names: one changed since the graph last read it (a write whose event has not arrived) is
   * applied and the answer made again, once.
   */
  async checked<T>(answer: () => Promise<T>, named: (value: T) => unknown, key?: string): Promise<T> {
    this.quiet.touch();
    const repo = this.live;
    const cached = key !== undefined && repo ? (this.answers.get(key, repo.engine.graph.version) as T | undefined) : undefined;
    let value = cached ?? (await answer());
    if (!repo) return value;
    const paths = [...answeredPaths(named(value))].map((rel) => path.join(this.root, rel));
    const before = repo.engine.graph.version;
    if (paths.length > 0) await repo.syncPaths(paths);
    if (repo.engine.graph.version !== before) {
      this.snapshotChanged();
      value = await answer();
    }
    if (key !== undefined) this.answers.set(key, repo.engine.graph.version, value);
    return value;
  }

  /** Runs `work` once no question has been asked for a while (it blocks the thread a while). */
  private whenQuiet(work: () => Promise<void>): void {
    this.quiet.then(() => {
      if (!this.closing) work().catch((err: unknown) => this.log(`preparing search: ${messageOf(err)}`));
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.quiet.cancel();
    clearTimeout(this.timer);
    this.watcher?.close();
    if (this.models) await this.live?.stopEmbedding();
    await this.models?.close();
    // Changes this folder did not apply itself (an editor's saves, in a repository it adopted) count too.
    if (this.live && this.live.engine.graph.version !== this.snapshotVersion) this.snapshotStale = true;
    // Even a current snapshot: the index record beside it is brought up to the store's files, which the
    // vectors just written changed, so that the next `cartograph index` with nothing changed is told from it.
    await this.saveSnapshot(true);
    if (!this.options.adopted) await (await this.repo.catch(() => undefined))?.close();
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
