// The Cartograph output channel (a LogOutputChannel: levels, timestamps) and a guard for every async
// entry point so nothing ever becomes an unhandled rejection in the extension host.
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function createLog(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Cartograph', { log: true });
  return channel;
}

export function log(): vscode.LogOutputChannel {
  return createLog();
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.stack ?? err.message : String(err);
}

/** Runs `fn`, logging (never rethrowing) what it throws; returns undefined on failure. */
export async function guard<T>(what: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    log().error(`${what} failed: ${errorText(err)}`);
    return undefined;
  }
}
