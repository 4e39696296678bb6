// A client's side of a repository's service (serviceHost.ts): connect to its socket, check that it
// speaks our protocol and version (an older one is asked to stop and replaced), start one when none
// runs, and wait for it to listen.
import * as net from 'node:net';
import { Channel, type CallOptions, type Handler } from './channel';
import { listSockets, serviceDir, socketPath } from './serviceAddress';
import { SERVICE_PROTOCOL, type ServiceHello, type StopReply } from './serviceProtocol';
import { SocketPort } from './socketPort';

/** How long a started service may take to listen (a Node start and the engine's modules; seconds on a loaded machine). */
const START_WAIT_MS = 30_000;
/**
 * How often a client looks for the service it started: a connection attempt on a socket file that is
 * not there yet fails at once, so a short fixed interval costs nothing (a backoff to 250 ms answered
 * an agent's first call up to a quarter of a second after the service was listening).
 */
const START_POLL_MS = 20;

export class ServiceConnection {
  private readonly channel: Channel;
  private lost: Error | undefined;
  /** Resolves when the socket closes (the service stopped, or this side closed it). */
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: net.Socket,
    readonly hello: ServiceHello,
    channel: Channel,
    /** What this client answers when the service asks it back (the channel reads them per request). */
    private readonly handlers: Record<string, Handler> = {},
  ) {
    this.channel = channel;
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.once('close', () => {
      this.lost = new Error('the service closed the connection');
      channel.close(this.lost);
    });
  }

  get open(): boolean {
    return this.lost === undefined;
  }

  call<T>(method: string, args: unknown[] = [], options?: CallOptions): Promise<T> {
    return this.channel.call<T>(method, args, options);
  }

  /** Answers the service's `method` requests with `handler` until the returned function is called. */
  serve(method: string, handler: Handler): () => void {
    this.handlers[method] = handler;
    return () => {
      if (this.handlers[method] === handler) delete this.handlers[method];
    };
  }

  /**
   * Asks the service to stop and, when it agrees, resolves once it has closed this connection (it
   * saves its state first). A service an editor hosts refuses, and the connection stays open.
   */
  async stop(): Promise<StopReply> {
    const reply = await this.call<StopReply>('stop').catch((): StopReply => ({ stopped: true }));
    if (reply.stopped) await this.closed;
    return reply;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The service listening at `file` (its hello answered), or undefined when none does. */
export function connectAt(file: string, timeoutMs = 10_000): Promise<ServiceConnection | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    const timer = setTimeout(() => fail(), timeoutMs);
    const fail = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      const handlers: Record<string, Handler> = {};
      const channel = new Channel(new SocketPort(socket), handlers);
      channel.call<ServiceHello>('hello').then(
        (hello) => {
          clearTimeout(timer);
          socket.off('error', fail);
          socket.on('error', () => undefined);
          resolve(new ServiceConnection(socket, hello, channel, handlers));
        },
        () => fail(),
      );
      socket.once('close', () => channel.close(new Error('the service closed the connection')));
    });
  });
}

export function connectService(storeDir: string): Promise<ServiceConnection | undefined> {
  return connectAt(socketPath(storeDir));
}

/** What a client needs of a service: our protocol and version, and the same reading of the folder. */
export interface Wanted {
  version: string;
  followSymlinks: boolean;
}

export function compatible(hello: ServiceHello, wanted: Wanted): boolean {
  return hello.protocol === SERVICE_PROTOCOL && hello.version === wanted.version && hello.followSymlinks === wanted.followSymlinks;
}

export interface EnsureOptions {
  storeDir: string;
  wanted: Wanted;
  /** Starts a service process for the store (detached; it outlives the caller). */
  start: () => void;
  /** Told when an older service is replaced, or a new one started. */
  onEvent?: (what: 'replacing' | 'started' | 'hosted', hello?: ServiceHello) => void;
  waitMs?: number;
}

/**
 * A connection to the store's service of our version: the running one, else one started now (an
 * incompatible one is stopped first). Undefined when none could be started within the wait, or when
 * an editor hosts an incompatible one (it is the editor's: the caller answers without a service).
 */
export async function ensureService(options: EnsureOptions): Promise<ServiceConnection | undefined> {
  const running = await connectService(options.storeDir);
  if (running && compatible(running.hello, options.wanted)) return running;
  if (running?.hello.hostedBy) {
    options.onEvent?.('hosted', running.hello);
    running.close();
    return undefined;
  }
  if (running) {
    options.onEvent?.('replacing', running.hello);
    await running.stop();
  }
  options.start();
  const deadline = Date.now() + (options.waitMs ?? START_WAIT_MS);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
    const started = await connectService(options.storeDir);
    if (!started) continue;
    if (compatible(started.hello, options.wanted)) {
      options.onEvent?.('started', started.hello);
      return started;
    }
    // Another client (another version, other options) started its own meanwhile: not ours to use.
    started.close();
    return undefined;
  }
  return undefined;
}

/** Every service of this user that answers (sockets of services that were killed are skipped). */
export async function runningServices(dir = serviceDir()): Promise<ServiceHello[]> {
  const found = await Promise.all(listSockets(dir).map((file) => connectAt(file, 3_000)));
  return found.flatMap((c) => {
    if (!c) return [];
    c.close();
    return [c.hello];
  });
}
