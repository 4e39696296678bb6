// A Channel's Port over a local stream socket (service clients and the service, see serviceHost.ts):
// each message is a 4-byte length and the message in V8's structured-clone format, so what crosses is
// what crosses a worker's port (typed arrays, Maps, nested objects) without a JSON round trip.
import type { Socket } from 'node:net';
import * as v8 from 'node:v8';
import type { Port } from './channel';

/** A message larger than this is a broken or foreign peer, not an answer (the biggest answers are a few MB). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export class SocketPort implements Port {
  private readonly listeners: ((message: unknown) => void)[] = [];
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  postMessage(message: unknown): void {
    if (this.socket.destroyed) return;
    const body = v8.serialize(message);
    const header = Buffer.allocUnsafe(4);
    header.writeUInt32BE(body.length, 0);
    this.socket.write(Buffer.concat([header, body]));
  }

  on(_event: 'message', listener: (message: unknown) => void): void {
    this.listeners.push(listener);
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32BE(0);
      if (length > MAX_MESSAGE_BYTES) {
        this.socket.destroy(new Error(`a message of ${length} bytes is not from a Cartograph peer`));
        return;
      }
      if (this.buffered.length < 4 + length) return;
      const body = this.buffered.subarray(4, 4 + length);
      this.buffered = this.buffered.subarray(4 + length);
      let message: unknown;
      try {
        message = v8.deserialize(body);
      } catch (err) {
        this.socket.destroy(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      for (const listener of this.listeners) listener(message);
    }
  }
}
