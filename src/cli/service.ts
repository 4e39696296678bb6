// The CLI as a client of the repository's service (core/service/serviceHost.ts): reach the running
// one, start one in the background on first use (and say so), and `cartograph service status|stop`.
// `CARTOGRAPH_NO_SERVICE=1` or --no-service keeps every command in its own process, as before.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureService, connectService, compatible, runningServices, connectAt, type ServiceConnection, type Wanted } from '../core/service/serviceClient';
import { socketPath } from '../core/service/serviceAddress';
import type { ServiceHello } from '../core/service/serviceProtocol';
import type { Flags, StoreLocation } from './flags';
import { locateStore } from './locateStore';
import { nativeLibraryEnv } from './engineProcess';
import { version as VERSION } from '../../package.json';

export const NO_SERVICE_ENV = 'CARTOGRAPH_NO_SERVICE';
/** The service's log, beside the store it owns. */
export const SERVICE_LOG = 'service.log';

export function serviceWanted(flags: Flags, env: NodeJS.ProcessEnv = process.env): boolean {
  return !flags['no-service'] && env[NO_SERVICE_ENV] !== '1';
}

/** The service this command needs: of this version, reading the folder as the flags say. */
export function wantedBy(flags: Flags): Wanted {
  return { version: VERSION, followSymlinks: Boolean(flags['follow-symlinks']) };
}

/** Starts `cartograph service run` for the store, detached: it outlives this command. */
function startServiceProcess(found: StoreLocation, flags: Flags): number | undefined {
  let log: number | 'ignore' = 'ignore';
  try {
    log = fs.openSync(path.join(found.storeDir, SERVICE_LOG), 'a');
  } catch {
    // A store folder we cannot write to: the service says why in its answers, with no log.
  }
  // --expose-gc: the service gives memory back after a burst of answers (serviceHost.ts collectWhenQuiet).
  const execArgv = process.execArgv.includes('--expose-gc') ? process.execArgv : ['--expose-gc', ...process.execArgv];
  const args = [...execArgv, process.argv[1], 'service', 'run', found.root, '--store', found.storeDir, ...(flags['follow-symlinks'] ? ['--follow-symlinks'] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env: { ...process.env, ...nativeLibraryEnv() } });
  child.on('error', () => undefined);
  child.unref();
  if (typeof log === 'number') fs.closeSync(log);
  return child.pid;
}

function sayStarted(found: StoreLocation, pid: number | undefined): void {
  console.error(
    `cartograph: started the service for ${found.root}${pid ? ` (pid ${pid})` : ''}: it keeps the graph warm for the next commands and agents, ` +
      `and stops after 15 minutes unused ('cartograph service stop' stops it now)`,
  );
}

/**
 * Starts the store's service when not even its socket is there (none runs), without waiting for
 * anything: a caller about to load its bundle then loads it while the service starts, and joins that
 * service (reachService's `join`). True when one was started.
 */
export function startServiceIfAbsent(found: StoreLocation, flags: Flags): boolean {
  if (!serviceWanted(flags) || fs.existsSync(socketPath(found.storeDir))) return false;
  sayStarted(found, startServiceProcess(found, flags));
  return true;
}

/**
 * The store's service, or undefined. `wait`: start one if none runs (or replace one of another
 * version) and wait for it, for a question the snapshot cannot answer; `background`: start one for
 * the next commands and return at once; `join`: wait for the one `background` started.
 */
export async function reachService(found: StoreLocation, flags: Flags, mode: 'wait' | 'background' | 'join'): Promise<ServiceConnection | undefined> {
  if (!serviceWanted(flags)) return undefined;
  const running = await connectService(found.storeDir);
  if (running && compatible(running.hello, wantedBy(flags))) return running;
  if (mode === 'background' && !running) {
    sayStarted(found, startServiceProcess(found, flags));
    return undefined;
  }
  running?.close();
  return ensureService({
    storeDir: found.storeDir,
    wanted: wantedBy(flags),
    // `join`: this command started it in the background already (and said so); only wait for it.
    start: () => void (mode === 'join' && !running ? undefined : startServiceProcess(found, flags)),
    onEvent: (what, hello) => {
      if (what === 'started' && mode === 'join') return;
      if (what === 'hosted') console.error(`cartograph: ${hello?.hostedBy} (pid ${hello?.pid}) serves this repository with Cartograph ${hello?.version}${hello?.followSymlinks === Boolean(flags['follow-symlinks']) ? '' : ` ${hello?.followSymlinks ? 'following' : 'not following'} symlinks`}; answering here, without it`);
      else if (what === 'replacing') console.error(`cartograph: replacing the service of Cartograph ${hello?.version}${hello?.followSymlinks === Boolean(flags['follow-symlinks']) ? '' : `, ${hello?.followSymlinks ? 'following' : 'not following'} symlinks,`} (pid ${hello?.pid}) with one of this version and these options`);
      else sayStarted(found, hello?.pid);
    },
  }).catch(() => undefined);
}

/** `cartograph service status|stop [--all]`. */
export async function serviceCommand(args: string[], flags: Flags & { all?: boolean }): Promise<number> {
  const [sub] = args;
  if (sub !== 'status' && sub !== 'stop') {
    console.error("cartograph service: 'status' or 'stop' (add --all for every repository's)");
    return 2;
  }
  let services: ServiceHello[];
  if (flags.all) {
    services = await runningServices();
  } else {
    const found = locateStore(flags.store);
    if (!found) {
      console.error(`cartograph service: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}`);
      return 1;
    }
    const one = await connectService(found.storeDir);
    one?.close();
    services = one ? [one.hello] : [];
  }
  if (sub === 'status') {
    if (flags.json) console.log(JSON.stringify(services, null, 2));
    else if (services.length === 0) console.log('No service is running.');
    for (const s of flags.json ? [] : services) {
      const up = Math.round((Date.now() - s.startedAt) / 1000);
      console.log(
        `${s.root}: pid ${s.pid}${s.hostedBy ? ` (${s.hostedBy})` : ''}, Cartograph ${s.version}${s.version === VERSION ? '' : ` (this CLI is ${VERSION})`}, ${s.ready ? 'ready' : 'loading'}, ` +
          `up ${up} s, ${s.clients} client(s) connected, ${s.requests} requests, ${(s.rssBytes / 1024 / 1024).toFixed(0)} MB`,
      );
      if (s.search) console.log(`  search: ${s.search}`);
      if (s.watchedFolders !== undefined) console.log(`  watching ${s.watchedFolders} folders for changes`);
    }
    return 0;
  }
  let refused = 0;
  for (const s of services) {
    const connection = await connectAt(socketPath(s.storeDir));
    const reply = await connection?.stop();
    if (reply && !reply.stopped) {
      refused++;
      connection?.close();
      console.log(`Left the service for ${s.root} running: ${reply.reason}.`);
    } else console.log(`Stopped the service for ${s.root} (pid ${s.pid}).`);
  }
  if (services.length === 0) console.log('No service is running.');
  return refused > 0 && !flags.all ? 1 : 0;
}
