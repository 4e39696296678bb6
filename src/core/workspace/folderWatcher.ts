// A folder tree watched with one kernel watch per folder (inotify on Linux), walked once with readdir
// and no stat per file. chokidar, used before, stat'ed, lstat'ed and realpath'ed every entry and
// watched every source file on its own: on Django its first walk was about a third of a service's
// start. Each event is reported the moment the kernel's notification is read, named as the kernel names
// it (read-your-writes relies on that: see servedFolder.ts). A folder that appears is watched in turn
// and reported again once watched, so a file written in it before its watch existed is still found
// (a reported folder's files are read when the change is applied); a watched folder that disappears
// or is renamed away is unwatched (on Linux a watch follows the folder's inode, not its name).
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FolderWatcherOptions {
  /** Folders never watched nor entered (the store, VCS internals, dependencies, anything outside the root). */
  ignored(dir: string): boolean;
  /** Enter symlinked folders (each real folder once). */
  followSymlinks?: boolean;
  /** A path the kernel says changed: a file, a folder's entry, or a folder itself. */
  onChange(p: string): void;
  onError(err: Error): void;
}

/** Folders read at once during a walk: readdir waits on the disk, not on the one thread. */
const WALK_CONCURRENCY = 8;

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  /** Real paths of the folders watched, so a symlink cycle is entered once. */
  private readonly realFolders = new Set<string>();
  private closed = false;
  /** Error codes already reported: a kernel out of watches fails every folder after, said once. */
  private readonly reported = new Set<string>();
  /** Settles once the first walk has watched every folder under the root. */
  readonly ready: Promise<void>;

  constructor(
    root: string,
    private readonly options: FolderWatcherOptions,
  ) {
    this.ready = this.walk(root);
  }

  /** How many folders are watched (`cartograph service status` says it: the kernel's limit on watches is per user). */
  get folders(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Watches `top` and every folder under it: each folder is watched before it is read, so no entry made meanwhile is missed. */
  private async walk(top: string): Promise<void> {
    const pending = [top];
    const workers: Promise<void>[] = [];
    const work = async () => {
      for (let dir = pending.pop(); dir !== undefined && !this.closed; dir = pending.pop()) {
        if (!this.watch(dir)) continue;
        for (const sub of await this.subfolders(dir)) pending.push(sub);
      }
    };
    // Workers that find the stack empty stop; those still reading refill it for the loop below.
    while (pending.length > 0 && !this.closed) {
      workers.length = 0;
      for (let i = 0; i < WALK_CONCURRENCY; i++) workers.push(work());
      await Promise.all(workers);
    }
  }

  private watch(dir: string): boolean {
    if (this.watchers.has(dir)) return false;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false }, (event, name) => this.onEvent(dir, event, name));
    } catch (err) {
      this.failed(err as NodeJS.ErrnoException);
      return false;
    }
    watcher.on('error', (err) => {
      this.unwatch(dir);
      this.failed(err);
    });
    this.watchers.set(dir, watcher);
    return true;
  }

  /** The folders in `dir` to walk: not ignored; symlinked ones only when followed, each real folder once. */
  private async subfolders(dir: string): Promise<string[]> {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    const out: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (this.options.ignored(full)) continue;
      if (entry.isDirectory()) out.push(full);
      else if (entry.isSymbolicLink() && this.options.followSymlinks && (await this.isNewRealFolder(full))) out.push(full);
    }
    return out;
  }

  private async isNewRealFolder(link: string): Promise<boolean> {
    const real = await fs.promises.realpath(link).catch(() => undefined);
    const stat = real ? await fs.promises.stat(real).catch(() => undefined) : undefined;
    if (!real || !stat?.isDirectory() || this.realFolders.has(real) || this.watchers.has(real)) return false;
    this.realFolders.add(real);
    return true;
  }

  private onEvent(dir: string, event: string, name: string | Buffer | null): void {
    if (this.closed) return;
    const entry = name === null ? null : name.toString();
    // No name (some platforms, an overflowed queue): the folder itself, whose files are read again.
    const changed = entry ? path.join(dir, entry) : dir;
    this.options.onChange(changed);
    // A watch on a folder that was itself deleted or moved names the folder.
    if (entry === path.basename(dir)) this.options.onChange(dir);
    if (event === 'rename' && entry) void this.renamed(changed);
  }

  /** An entry appeared or went away: a new folder is watched and reported again; a watched one gone is unwatched. */
  private async renamed(p: string): Promise<void> {
    const stat = await (this.options.followSymlinks ? fs.promises.stat(p) : fs.promises.lstat(p)).catch(() => undefined);
    if (this.closed) return;
    if (!stat?.isDirectory()) {
      for (const dir of [...this.watchers.keys()]) if (dir === p || dir.startsWith(`${p}${path.sep}`)) this.unwatch(dir);
      return;
    }
    if (this.watchers.has(p) || this.options.ignored(p)) return;
    await this.walk(p);
    this.options.onChange(p);
  }

  /** A folder gone before it was reached (or while watched) is no error; a kernel out of watches (ENOSPC) is, once. */
  private failed(err: NodeJS.ErrnoException): void {
    const code = err.code ?? err.message;
    if (code === 'ENOENT' || code === 'EPERM' || this.reported.has(code)) return;
    this.reported.add(code);
    this.options.onError(err);
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }
}
