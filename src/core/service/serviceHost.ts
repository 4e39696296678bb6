// A repository's resident service: one process that owns the store (its single writer), keeps the
// graph and the search indexes warm, follows the folder, and answers every client (the CLI, each
// agent's `cartograph mcp`) over a Unix domain socket. Clients speak the Channel protocol over
// SocketPort; the first request is `hello`, whose answer lets a client of another version replace
// the service (serviceClient.ts). The service stops after `idleMs` with no client connected and no
// request, or when asked (`cartograph service stop`), saving its snapshot first.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { featuresAnswer, type FeaturesAnswer, type FeaturesRequest } from '../features/featuresAnswer';
import { chatDescriber } from '../lifting/chatDescriber';
import { Channel, type Handler } from './channel';
import { remoteDescriber } from './remoteDescriber';
import { filesAnswer, searchAnswer, showAnswer, type FilesAnswer } from './answers';
import { messageOf, ServedFolder } from './servedFolder';
import { ensureServiceDir, socketPath } from './serviceAddress';
import { SocketPort } from './socketPort';
import { connectAt } from './serviceClient';
import { currentHolder, LockBusyError, WriterLock, type LockHolder } from '../store/writerLock';
import type { NodeDescription } from '../graph/describe';
import { MODEL_FREE_ASKED } from '../search';
import { isModelFree, SAMPLE, SERVICE_PROTOCOL, type ClientDescribeRequest, type DescribeReply, type DescribeRequest, type IndexReply, type QueryReply, type QueryRequest, type ServiceHello, type StatsReply, type StopReply } from './serviceProtocol';
import { Quiet } from './quiet';

/** How long a service with no client and no request stays up. */
export const DEFAULT_IDLE_MS = 15 * 60_000;

export interface ServiceOptions {
  root: string;
  storeDir: string;
  version: string;
  followSymlinks?: boolean;
  idleMs?: number;
  /**
   * The editor that hosts the service in its engine worker (`VS Code`): the graph is the editor's, so
   * the service never stops for idleness or at a client's request, and it takes over from a
   * `cartograph service` process that holds the repository when the editor opens it.
   */
  hostedBy?: string;
  log: (message: string) => void;
}

/** How long an editor waits for a starting service (its lock taken, its socket not bound yet) before giving up. */
const TAKE_OVER_WAIT_MS = 10_000;

export class ServiceHost {
  private server: net.Server | undefined;
  private folder!: ServedFolder;
  private readonly sockets = new Set<net.Socket>();
  private readonly startedAt = Date.now();
  private requests = 0;
  private lastActivity = Date.now();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Requests being answered, and the quiet after them in which garbage is collected (collectWhenQuiet). */
  private inFlight = 0;
  private readonly quiet = new Quiet();
  private collecting = false;
  private stopping: Promise<void> | undefined;
  private lock: WriterLock | undefined;
  /** Every client's questions take turns: interleaved on the one thread, a thousand at once would all finish last. */
  private readonly questions = new Gate(2);
  readonly socket: string;
  /** Resolves when the service has stopped (asked to, idle, or its socket was taken over). */
  readonly stopped: Promise<void>;
  private resolveStopped!: () => void;

  constructor(private readonly options: ServiceOptions) {
    this.socket = socketPath(options.storeDir, ensureServiceDir());
    this.stopped = new Promise((resolve) => (this.resolveStopped = resolve));
  }

  /**
   * Takes the repository's socket lock: true when this service may serve it. A service another process
   * holds is left alone (false), except by an editor, which asks a `cartograph service` process to stop
   * and takes its place; a service another editor hosts is never taken over.
   */
  async claim(): Promise<boolean> {
    const deadline = Date.now() + TAKE_OVER_WAIT_MS;
    const dir = path.dirname(this.socket);
    const name = `${path.basename(this.socket)}.lock`;
    let orphan: string | undefined;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      try {
        const deadHolder = (holder: LockHolder) => holder.token === orphan;
        this.lock = await WriterLock.acquire(dir, { command: this.options.hostedBy ?? 'cartograph service', name, timeoutMs: 0, deadHolder });
        return true;
      } catch (err) {
        if (!(err instanceof LockBusyError)) throw err;
      }
      if (!this.options.hostedBy || Date.now() > deadline) return false;
      const running = await connectAt(this.socket, 5_000);
      if (running?.hello.hostedBy) {
        running.close();
        return false;
      }
      if (running) {
        this.options.log(`taking over from the service of Cartograph ${running.hello.version} (pid ${running.hello.pid})`);
        await running.stop();
        continue;
      }
      // Held by this process and not listening: the editor's engine worker that held it was terminated
      // (its process lives on, so the lock would only go stale after its heartbeat's timeout).
      const holder = await currentHolder(dir, name);
      if (holder?.pid === process.pid && holder.command === this.options.hostedBy) orphan = holder.token;
      // Else its lock taken, its socket not bound yet: a service starting.
      else await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /**
   * Listens on the repository's socket, serving `folder` (by default one this service opens); false
   * when another live service holds it (or is starting).
   */
  async listen(folder?: ServedFolder): Promise<boolean> {
    if (!this.lock && !(await this.claim())) return false;
    // The graph is opened only by the lock's holder: a service that gives way has loaded nothing.
    const options = this.options;
    this.folder = folder ?? new ServedFolder(options.root, { storeDir: options.storeDir, followSymlinks: options.followSymlinks, command: 'cartograph service', searchModels: true, log: options.log });
    this.folder.repo.catch((err) => options.log(`cannot open ${options.root}: ${messageOf(err)}`));
    const server = net.createServer((socket) => this.accept(socket));
    await bind(server, this.socket);
    fs.chmodSync(this.socket, 0o600);
    this.server = server;
    this.folder.startWatching();
    const idleMs = this.options.hostedBy ? Infinity : (this.options.idleMs ?? DEFAULT_IDLE_MS);
    this.idleTimer = setInterval(() => {
      if (this.sockets.size === 0 && Date.now() - this.lastActivity >= idleMs) {
        this.options.log(`no client for ${Math.round(idleMs / 1000)} s: stopping`);
        void this.stop();
        return;
      }
      // A socket file removed (a /tmp cleaner) leaves no way in; a repository deleted, nothing to serve.
      const gone = [this.socket, this.options.root].find((p) => !fs.existsSync(p));
      if (gone) {
        this.options.log(`${gone} is gone: stopping`);
        void this.stop();
      }
    }, Math.min(idleMs, 30_000));
    return true;
  }

  /**
   * A burst of answers (an agent's thousand calls) leaves garbage V8 collects only under pressure: the
   * memory stays taken from the machine while the service idles for minutes. Once no request has been
   * in flight for a quiet second, one full collection gives it back. Only where the process exposes `gc`
   * (`cartograph service` is started with --expose-gc; an editor's worker is not).
   */
  private collectWhenQuiet(): void {
    const gc = (globalThis as { gc?: () => void }).gc;
    this.quiet.touch();
    if (!gc || this.collecting) return;
    this.collecting = true;
    this.quiet.then(() => {
      this.collecting = false;
      if (this.inFlight === 0) gc();
    });
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    this.lastActivity = Date.now();
    // the handlers may ask this client back (its model, for describeByClient)
    const channel: Channel = new Channel(new SocketPort(socket), this.handlers(() => channel));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.lastActivity = Date.now();
      channel.close(new Error('the client went away'));
    });
  }

  private handlers(client: () => Channel): Record<string, Handler> {
    const counted = (handler: Handler): Handler => async (args, context) => {
      this.requests++;
      this.inFlight++;
      this.lastActivity = Date.now();
      try {
        return await handler(args, context);
      } finally {
        this.inFlight--;
        this.lastActivity = Date.now();
        this.collectWhenQuiet();
      }
    };
    const asked = (handler: (args: unknown[]) => Promise<unknown>) => counted((args) => this.questions.run(() => handler(args)));
    return {
      hello: counted(() => this.hello()),
      query: asked(([request]) => this.query(request as QueryRequest)),
      show: asked(([query]) => this.show(query as string)),
      files: asked(([question, limit]) => this.files(question as string, limit as number)),
      tool: asked(([name, args]) => this.folder.run(name as string, (args ?? {}) as Record<string, unknown>)),
      index: counted(() => this.index()),
      // Not a question: minutes of chat requests must not hold one of the two turns answers take.
      describe: counted(([request]) => this.describe(request as DescribeRequest)),
      describeByClient: counted(([request], context) => this.describeByClient(client(), request as ClientDescribeRequest, context.signal)),
      stats: asked(() => this.stats()),
      features: asked(([request]) => this.features(request as FeaturesRequest)),
      stop: async (): Promise<StopReply> => {
        const editor = this.options.hostedBy;
        if (editor) return { stopped: false, reason: `${editor} (pid ${process.pid}) hosts it and holds the graph; it stops when the folder is closed there` };
        // Answered first: the client waits for the socket to close to know the service is gone.
        setImmediate(() => void this.stop());
        return { stopped: true };
      },
    };
  }

  private async hello(): Promise<ServiceHello> {
    const search = this.folder.ready ? await (await this.folder.repo).modelStatus() : undefined;
    return {
      protocol: SERVICE_PROTOCOL,
      version: this.options.version,
      pid: process.pid,
      root: this.options.root,
      storeDir: this.options.storeDir,
      followSymlinks: Boolean(this.options.followSymlinks),
      ...(this.options.hostedBy ? { hostedBy: this.options.hostedBy } : {}),
      ready: this.folder.ready,
      startedAt: this.startedAt,
      // The asking connection is not counted: status shows the others.
      clients: this.sockets.size - 1,
      requests: this.requests,
      rssBytes: process.memoryUsage().rss,
      ...(this.folder.watchedFolders !== undefined ? { watchedFolders: this.folder.watchedFolders } : {}),
      ...(search ? { search } : {}),
    };
  }

  private async query(request: QueryRequest): Promise<QueryReply> {
    const started = performance.now();
    const repo = await this.folder.repo;
    await this.folder.state();
    // `--model-free` is answered without the models, which stay loaded for the other clients (the
    // default's vectors would otherwise be read back from the store at the next default question).
    const modelFree = isModelFree(request.models);
    if (!modelFree) await this.folder.modelsFor(repo, request.text, request.models);
    const answer = await this.folder.checked(
      async () => searchAnswer(repo.engine.graph.graph, (await repo.search(request.text, request.limit, { modelFree })).result),
      (a) => a.hits,
    );
    // Models serve natural-language questions only (names and structural questions never use them).
    const models = answer.route === 'natural-language' ? { models: modelFree ? MODEL_FREE_ASKED : await repo.modelStatus() } : {};
    return { ...answer, ...models, index: { source: 'service', ms: Math.round(performance.now() - started) } };
  }

  private async show(query: string): Promise<NodeDescription[]> {
    const repo = await this.folder.repo;
    await this.folder.state();
    return this.folder.checked(async () => showAnswer(repo.engine.graph.graph, query), (d) => d.map((x) => x.node));
  }

  private async files(question: string, limit: number): Promise<FilesAnswer> {
    const repo = await this.folder.repo;
    await this.folder.state();
    return this.folder.checked(async () => filesAnswer(repo.engine.graph.graph, await repo.rankFiles(question, limit)), (a) => a.hits);
  }

  private async stats(): Promise<StatsReply> {
    const repo = await this.folder.repo;
    await this.folder.state();
    return { stats: await repo.stats(), storeBytes: await repo.storeSize() };
  }

  /** The functional view, kept current here (and saved with the store by this, its one writer). */
  private async features(request: FeaturesRequest): Promise<FeaturesAnswer> {
    const repo = await this.folder.repo;
    await this.folder.state();
    const started = performance.now();
    const hierarchy = await repo.featureHierarchy();
    return featuresAnswer(hierarchy, repo.engine.graph.graph, repo.engine.root, request, { source: 'service', ms: Math.round(performance.now() - started) });
  }

  /** `cartograph describe` while the service runs: what it describes is searched from the next answer on. */
  private async describe(request: DescribeRequest): Promise<DescribeReply> {
    const repo = await this.folder.repo;
    await this.folder.state();
    return repo.lift(chatDescriber(request), undefined, request.maxCalls);
  }

  /** An agent's `describe_code`: described with its own model, asked through its connection for each function or class. */
  private async describeByClient(client: Channel, request: ClientDescribeRequest, signal: AbortSignal): Promise<DescribeReply> {
    const repo = await this.folder.repo;
    await this.folder.state();
    return repo.lift(remoteDescriber(client, SAMPLE, request.concurrency), signal, request.maxCalls);
  }

  /** `cartograph index` while the service runs: the service is the store's writer, so it re-checks the folder. */
  private async index(): Promise<IndexReply> {
    const repo = await this.folder.repo;
    await this.folder.state();
    const atStart = this.folder.takeStartReport();
    const report = await repo.index();
    await repo.flush();
    return { report, ...(atStart ? { atStart } : {}), stats: await repo.stats(), storeBytes: await repo.storeSize() };
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      clearInterval(this.idleTimer);
      this.quiet.cancel();
      // No new clients from here; the connected ones are let go only once the store is written and the
      // socket's lock released, so that a client that waits for its connection to close (to start a
      // successor) finds the way clear.
      const server = this.server;
      const closed = server && new Promise<void>((resolve) => server.close(() => resolve()));
      await this.folder?.close().catch((err) => this.options.log(`closing: ${messageOf(err)}`));
      await this.lock?.release();
      for (const s of this.sockets) s.destroy();
      await closed;
      this.resolveStopped();
    })();
    return this.stopping;
  }
}

/** At most `max` pieces of work under way; the others wait in the order they came. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Binds `server` to `file`. A socket file left by a service that was killed refuses connections: it is
 * removed first. Only the holder of the socket's lock gets here, so no other service can be binding
 * the same path (an unlink of a stale file could otherwise remove a fresh one).
 */
async function bind(server: net.Server, file: string): Promise<void> {
  const live = await connectAt(file, 5_000);
  if (live) live.close();
  else fs.rmSync(file, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
