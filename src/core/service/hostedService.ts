// The repository's service hosted by an editor: VS Code's engine worker holds the folder's graph
// anyway, so it serves the CLI and every agent's `cartograph mcp` from that graph (serviceHost.ts)
// instead of each starting a process that would index the same repository again. The editor claims
// the repository's socket before it opens the store: a `cartograph service` process that holds it is
// asked to stop first (it saves its snapshot and lets go of the store), so the store keeps one writer.
// A repository another editor window already serves is left to it: this one keeps a private store.
import type { IndexReport } from '../engine';
import type { LocalRepository } from './localRepository';
import { ServedFolder, type Indexed } from './servedFolder';
import { ServiceHost } from './serviceHost';

/** What the editor asks of its worker to share a folder's graph. */
export interface ShareOptions {
  /** The repository's shared store, where the CLI and agents look (`<root>/.cartograph`). */
  storeDir: string;
  /** The editor's Cartograph version: a CLI of another version answers without this service. */
  version: string;
  /** The editor's name, shown to clients (`cartograph service status`). */
  hostedBy: string;
  followSymlinks?: boolean;
}

export class HostedService {
  private settle!: { resolve: (value: Indexed) => void; reject: (err: unknown) => void };
  private readonly indexed: Promise<Indexed>;
  private settled = false;

  private constructor(
    private readonly host: ServiceHost,
    private readonly root: string,
    private readonly options: ShareOptions,
    private readonly log: (message: string) => void,
  ) {
    this.indexed = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // A failure is the editor's to report; the service's requests fail with it.
    this.indexed.catch(() => undefined);
  }

  /** The repository's service claimed for this editor, or undefined when another editor serves it. */
  static async claim(root: string, options: ShareOptions, log: (message: string) => void): Promise<HostedService | undefined> {
    const host = new ServiceHost({ root, storeDir: options.storeDir, version: options.version, hostedBy: options.hostedBy, followSymlinks: options.followSymlinks, log });
    return (await host.claim()) ? new HostedService(host, root, options, log) : undefined;
  }

  get socket(): string {
    return this.host.socket;
  }

  /** Listens; clients' questions wait for the editor's first index (the query snapshot answers meanwhile). */
  async serve(): Promise<void> {
    const folder = new ServedFolder(this.root, {
      storeDir: this.options.storeDir,
      followSymlinks: this.options.followSymlinks,
      command: this.options.hostedBy,
      log: this.log,
      adopted: this.indexed,
    });
    await this.host.listen(folder);
  }

  /** The editor's index finished: the service answers from its graph from now on. */
  indexedWith(repo: LocalRepository, report: IndexReport): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.resolve({ repo, report });
  }

  /** The editor's first index failed: so do the service's requests, until the editor re-opens the folder. */
  indexFailed(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.reject(err);
  }

  /** Stops serving (saving the query snapshot) and lets go of the socket; the repository stays open. */
  stop(): Promise<void> {
    this.indexFailed(new Error('the editor closed the folder'));
    return this.host.stop();
  }
}
