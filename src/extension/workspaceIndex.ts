// One repository (an engine and what reads its graph) per workspace folder: open (warm start from the
// store), index in the background with cancellable progress, stay live on saves and watcher batches.
// Every call goes through one queue so a save never races a full index or a re-open.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexProgress, IndexReport } from '../core/engine';
import { languageOf } from '../core/parse/languages';
import { isGraphInput } from '../core/workspace/projectConfig';
import { LocalRepository } from '../core/service/localRepository';
import type { GraphCounts, Repository, RepositoryOptions } from '../core/service/repository';
import { WorkerRepository } from '../core/service/workerRepository';
import { errorText, log } from './log';
import { readSettings, type CartographSettings } from './settings';
import type { ShareOptions } from '../core/service/hostedService';
import { STORE_FOLDER } from '../core/store/storeVersion';
import { version as EXTENSION_VERSION } from '../../package.json';

export type IndexState =
  | { kind: 'opening' }
  | { kind: 'indexing'; done: number; total: number; phase: string }
  | { kind: 'ready'; nodes: number; edges: number; files: number }
  | { kind: 'error'; message: string };

export class WorkspaceIndex implements vscode.Disposable {
  repository: Repository | undefined;
  state: IndexState = { kind: 'opening' };
  lastReport: IndexReport | undefined;
  /** A store problem already surfaced to the user (once per problem). */
  storeProblem: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private cancel: vscode.CancellationTokenSource | undefined;
  private disposed = false;
  private readonly stateEmitter = new vscode.EventEmitter<WorkspaceIndex>();
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly updateEmitter = new vscode.EventEmitter<WorkspaceIndex>();
  /** Fires after a save or a watcher batch reached the graph. */
  readonly onDidUpdate = this.updateEmitter.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly storageRoot: vscode.Uri | undefined,
  ) {}

  get root(): string {
    return this.folder.uri.fsPath;
  }

  /**
   * This window's own store, `<storageUri>/<sha1(folder path) first 12>` (undefined without a workspace
   * storage: memory only): used when the folder's graph is not shared, or another window serves it.
   */
  get storeDir(): string | undefined {
    if (!this.storageRoot) return undefined;
    const hash = crypto.createHash('sha1').update(this.root).digest('hex').slice(0, 12);
    return path.join(this.storageRoot.fsPath, `${path.basename(this.root).replace(/[^\w.-]/g, '_')}-${hash}`);
  }

  contains(filePath: string): boolean {
    const rel = path.relative(this.root, filePath);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }

  /** Resolves when every queued engine operation has finished. */
  async idle(): Promise<void> {
    let current: Promise<unknown>;
    do {
      current = this.queue;
      await current.catch(() => undefined);
    } while (current !== this.queue);
  }

  private enqueue<T>(what: string, task: () => Promise<T>): Promise<T | undefined> {
    const run = this.queue.then(async () => {
      if (this.disposed) return undefined;
      try {
        return await task();
      } catch (err) {
        log().error(`[${this.folder.name}] ${what} failed: ${errorText(err)}`);
        return undefined;
      }
    });
    this.queue = run;
    return run;
  }

  private setState(state: IndexState): void {
    this.state = state;
    this.stateEmitter.fire(this);
  }

  /** Opens the engine if needed (or again after `reopen`), then indexes with progress. */
  start(options: { reopen?: boolean } = {}): Promise<void> {
    this.cancel?.cancel();
    return this.enqueue('index', async () => {
      if (options.reopen || !this.repository) await this.open(options.reopen === true);
      await this.runIndex();
    }) as Promise<void>;
  }

  private async open(fresh: boolean): Promise<void> {
    this.setState({ kind: 'opening' });
    const previous = this.repository;
    this.repository = undefined;
    const settings = readSettings(this.folder);
    // A Reindex re-opens the engine in the worker thread it already has.
    const reuse = settings.engineWorker && previous instanceof WorkerRepository ? previous : undefined;
    if (previous && !reuse) await previous.close().catch((err) => log().warn(`[${this.folder.name}] closing the engine: ${errorText(err)}`));
    const storeDir = this.storeDir;
    const share = this.shareOptions(settings);
    const openWith = (dir: string | null, worker?: WorkerRepository) => {
      const options: RepositoryOptions = {
        storeDir: dir,
        exclude: settings.exclude,
        maxFileSize: settings.maxFileSize,
        includeMinified: settings.indexMinified,
        followSymlinks: settings.followSymlinks,
        log: (m) => log().info(`[${this.folder.name}] ${m}`),
      };
      if (settings.engineWorker) return WorkerRepository.open(this.root, options, worker, share).then((r) => this.watchWorker(r));
      // The extension host's thread is the editor's: saves parse in a worker, LanceDB loads without blocking.
      return LocalRepository.open(this.root, { ...options, responsive: true });
    };
    let repository: Repository = await openWith(storeDir ?? null, reuse);
    let status = await repository.storeInfo();
    // The shared store when this window serves the folder, else its own.
    const usedDir = repository instanceof WorkerRepository ? repository.opened.storeDir : storeDir;
    if (fresh && usedDir && status.status === 'unavailable') {
      // An explicit Reindex on a store that will not open: start that store over.
      log().warn(`[${this.folder.name}] store unavailable (${status.error}); deleting ${usedDir} and starting over`);
      const again = repository instanceof WorkerRepository ? repository : undefined;
      if (!again) await repository.close().catch(() => undefined);
      else await again.closeEngine();
      await fs.promises.rm(usedDir, { recursive: true, force: true }).catch((err) => log().warn(errorText(err)));
      repository = await openWith(storeDir ?? null, again);
      status = await repository.storeInfo();
    }
    this.sayWhoIsServed(repository, share);
    this.repository = repository;
    this.storeProblem = status.status === 'unavailable' ? status.error ?? 'the graph store could not open' : undefined;
    if (this.storeProblem) {
      const problem = this.storeProblem;
      log().error(`[${this.folder.name}] graph store unavailable, the index lives in memory only: ${problem}`);
      void vscode.window
        .showWarningMessage(`Cartograph: the index store for ${this.folder.name} could not open; working in memory.`, 'Reindex', 'Show Log')
        .then((choice) => {
          if (choice === 'Reindex') void vscode.commands.executeCommand('cartograph.reindex');
          else if (choice === 'Show Log') log().show(true);
        }, () => undefined);
    } else {
      log().info(`[${this.folder.name}] store: ${status.dir ?? 'memory only'} (${status.status})`);
    }
  }

  /**
   * Sharing the folder's graph with the CLI and agents: the store in `<root>/.cartograph` (where they
   * look) and the repository's service in the engine worker. Only for folders on this machine's disk.
   */
  private shareOptions(settings: CartographSettings): ShareOptions | undefined {
    if (!settings.shareIndex || !settings.engineWorker || this.folder.uri.scheme !== 'file') return undefined;
    return { storeDir: path.join(this.root, STORE_FOLDER), version: EXTENSION_VERSION, hostedBy: vscode.env.appName, followSymlinks: settings.followSymlinks };
  }

  private sayWhoIsServed(repository: Repository, share: ShareOptions | undefined): void {
    if (!share || !(repository instanceof WorkerRepository)) return;
    if (repository.opened.socket) log().info(`[${this.folder.name}] serving the cartograph CLI and agents (cartograph mcp) from this window's graph on ${repository.opened.socket}`);
    else log().info(`[${this.folder.name}] another editor window serves this folder to the CLI and agents; this window keeps its own index in ${repository.opened.storeDir ?? 'memory'}`);
  }

  /** A worker that dies leaves no graph behind: say so, and offer Reindex (a new worker, a warm start). */
  private watchWorker(repository: WorkerRepository): WorkerRepository {
    repository.onStopped((error) => {
      if (this.repository !== repository || this.disposed) return;
      log().error(`[${this.folder.name}] ${error.message}`);
      this.setState({ kind: 'error', message: `${error.message} (run Cartograph: Reindex Workspace)` });
      void vscode.window.showErrorMessage(`Cartograph: the engine for ${this.folder.name} stopped.`, 'Reindex', 'Show Log').then((choice) => {
        if (choice === 'Reindex') void vscode.commands.executeCommand('cartograph.reindex');
        else if (choice === 'Show Log') log().show(true);
      }, () => undefined);
    });
    return repository;
  }

  private async runIndex(): Promise<void> {
    const repository = this.repository;
    if (!repository) return;
    const cancel = new vscode.CancellationTokenSource();
    this.cancel = cancel;
    const abort = new AbortController();
    cancel.token.onCancellationRequested(() => abort.abort());
    this.setState({ kind: 'indexing', done: 0, total: 0, phase: 'scan' });
    const started = performance.now();
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Cartograph: indexing ${this.folder.name}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => cancel.cancel());
          let last = 0;
          let lastPct = 0;
          const onProgress = (p: IndexProgress) => {
            const now = performance.now();
            if (now - last < 100 && p.done !== p.total) return;
            last = now;
            this.setState({ kind: 'indexing', done: p.done, total: p.total, phase: p.phase });
            const pct = p.total ? Math.round((p.done / p.total) * 100) : 0;
            progress.report({ message: `${p.phase} ${p.done}/${p.total}`, increment: p.phase === 'parse' ? Math.max(0, pct - lastPct) : undefined });
            if (p.phase === 'parse') lastPct = pct;
          };
          this.lastReport = await repository.index(onProgress, abort.signal);
        },
      );
      const ready = { kind: 'ready' as const, ...(await repository.counts()) };
      const r = this.lastReport!;
      log().info(
        `[${this.folder.name}] ready in ${Math.round(performance.now() - started)} ms: ${r.files} files (${r.parsed} parsed, ${r.reused} reused, ${r.removed} removed, ${r.skipped.length} skipped), ${ready.nodes} nodes, ${ready.edges} edges; phases ${JSON.stringify(r.timings)}`,
      );
      this.setState(ready);
    } catch (err) {
      if (abort.signal.aborted) {
        log().info(`[${this.folder.name}] indexing cancelled`);
        this.setState({ kind: 'error', message: 'indexing cancelled (run Cartograph: Reindex Workspace)' });
      } else {
        log().error(`[${this.folder.name}] indexing failed: ${errorText(err)}`);
        this.setState({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
      }
    } finally {
      if (this.cancel === cancel) this.cancel = undefined;
      cancel.dispose();
    }
  }

  /** A save in the editor: the buffer's text goes straight to the engine (a config file: re-read from disk). */
  onSaved(document: vscode.TextDocument): void {
    const file = document.uri.fsPath;
    if (!isGraphInput(file)) return;
    const text = document.getText();
    void this.enqueue(`update ${file}`, async () => {
      if (!this.repository) return;
      this.refreshCounts(await this.repository.updateFile(file, text));
      this.updateEmitter.fire(this);
    });
  }

  /**
   * A debounced watcher batch: one engine update for all of it. Paths that are not source files are
   * folders (created, moved or deleted as a whole): a folder that exists contributes the source files
   * under it, a folder that is gone the indexed files that were under it.
   */
  syncPaths(paths: string[]): void {
    void this.enqueue(`sync ${paths.length} paths`, async () => {
      if (!this.repository) return;
      const t = performance.now();
      const files = new Set<string>();
      for (const p of paths) {
        if (isGraphInput(p)) files.add(p);
        else for (const f of await this.filesUnder(p)) files.add(f);
      }
      if (files.size === 0) return;
      const counts = await this.repository.syncPaths([...files]);
      log().debug(`[${this.folder.name}] synced ${files.size} files (${paths.length} watched paths) in ${Math.round(performance.now() - t)} ms`);
      this.refreshCounts(counts);
      this.updateEmitter.fire(this);
    });
  }

  private async filesUnder(dir: string): Promise<string[]> {
    const stat = await fs.promises.stat(dir).catch(() => undefined);
    if (stat?.isDirectory()) {
      const entries = await fs.promises.readdir(dir, { recursive: true }).catch(() => [] as string[]);
      return entries
        .filter((e) => languageOf(e) && !/(^|[\\/])(node_modules|\.git)([\\/]|$)/.test(e))
        .map((e) => path.join(dir, e));
    }
    if (stat || !this.repository) return [];
    const prefix = path.relative(this.root, dir).split(path.sep).join('/') + '/';
    return (await this.repository.filePaths(prefix)).map((f) => path.join(this.root, f));
  }

  private refreshCounts(counts: GraphCounts): void {
    if (this.state.kind === 'ready') this.setState({ kind: 'ready', ...counts });
  }

  async dispose(): Promise<void> {
    this.cancel?.cancel();
    await this.idle();
    this.disposed = true;
    const repository = this.repository;
    this.repository = undefined;
    await repository?.close().catch((err) => log().warn(`[${this.folder.name}] close: ${errorText(err)}`));
    this.stateEmitter.dispose();
    this.updateEmitter.dispose();
  }
}
