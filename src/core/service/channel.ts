// Requests and replies over a worker's message port, in both directions: the editor asks the engine
// worker to index or search, and the worker asks the editor to embed or describe with the models it
// holds (API keys never leave the editor's thread). A request may carry an AbortSignal (sent on as a
// cancel message) and a progress callback; one-way events (log lines, explorer messages) need no reply.

export interface Port {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface CallContext {
  /** Aborted when the caller cancels the request. */
  signal: AbortSignal;
  progress(value: unknown): void;
}

export type Handler = (args: unknown[], context: CallContext) => unknown;

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (value: never) => void;
}

type Message =
  | { k: 'call'; id: number; method: string; args: unknown[] }
  | { k: 'cancel'; id: number }
  | { k: 'progress'; id: number; value: unknown }
  | { k: 'reply'; id: number; value?: unknown; error?: { message: string; name: string } }
  | { k: 'event'; name: string; payload: unknown };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (value: never) => void;
}

export class Channel {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly serving = new Map<number, AbortController>();
  private readonly listeners = new Map<string, (payload: never) => void>();
  private closed: Error | undefined;

  constructor(
    private readonly port: Port,
    private readonly handlers: Record<string, Handler> = {},
  ) {
    port.on('message', (message) => this.receive(message as Message));
  }

  call<T>(method: string, args: unknown[] = [], options: CallOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = () => this.port.postMessage({ k: 'cancel', id } satisfies Message);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (value) => (done(), resolve(value as T)),
        reject: (error) => (done(), reject(error)),
        onProgress: options.onProgress,
      });
      try {
        this.port.postMessage({ k: 'call', id, method, args } satisfies Message);
      } catch (err) {
        // Arguments that cannot be cloned: nothing was sent, nothing will answer.
        this.pending.delete(id);
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (signal?.aborted) onAbort();
    });
  }

  notify(name: string, payload: unknown): void {
    if (!this.closed) this.port.postMessage({ k: 'event', name, payload } satisfies Message);
  }

  on<T>(name: string, listener: (payload: T) => void): void {
    this.listeners.set(name, listener as (payload: never) => void);
  }

  /** The other side is gone: every request waiting on it fails with `error`, and so do later ones. */
  close(error: Error): void {
    if (this.closed) return;
    this.closed = error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    for (const c of this.serving.values()) c.abort();
    this.serving.clear();
  }

  private receive(message: Message): void {
    switch (message.k) {
      case 'call':
        void this.serve(message.id, message.method, message.args);
        break;
      case 'cancel':
        this.serving.get(message.id)?.abort();
        break;
      case 'progress':
        this.pending.get(message.id)?.onProgress?.(message.value as never);
        break;
      case 'reply': {
        const p = this.pending.get(message.id);
        if (!p) break;
        this.pending.delete(message.id);
        if (message.error) p.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
        else p.resolve(message.value);
        break;
      }
      case 'event':
        this.listeners.get(message.name)?.(message.payload as never);
        break;
    }
  }

  private async serve(id: number, method: string, args: unknown[]): Promise<void> {
    const controller = new AbortController();
    this.serving.set(id, controller);
    let reply: Message;
    try {
      const handler = this.handlers[method];
      if (!handler) throw new Error(`unknown request ${method}`);
      const value = await handler(args, {
        signal: controller.signal,
        progress: (v) => this.port.postMessage({ k: 'progress', id, value: v } satisfies Message),
      });
      reply = { k: 'reply', id, value };
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      reply = { k: 'reply', id, error: { message: error.message, name: error.name } };
    } finally {
      this.serving.delete(id);
    }
    if (this.closed) return;
    try {
      this.port.postMessage(reply);
    } catch (err) {
      // A value that cannot be cloned: the caller still gets an answer.
      this.port.postMessage({ k: 'reply', id, error: { message: `${method}: ${err instanceof Error ? err.message : String(err)}`, name: 'DataCloneError' } } satisfies Message);
    }
  }
}
