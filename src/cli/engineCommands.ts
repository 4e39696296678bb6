// The CLI's commands that need the engine (LanceDB, tree-sitter, the models): index, stats, describe,
// and `query`/`show` when there is no usable query snapshot. A bundle of its own (dist/cliEngine.js),
// loaded by main.ts only when one of these runs: it is most of the CLI's code, and compiling it cost
// every call ~40-60 ms that a query answered from the snapshot does not need.
import * as path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { Engine, type IndexProgress } from '../core/engine';
import { chatDescriber } from '../core/lifting/chatDescriber';
import { DescriptionCache } from '../core/lifting/descriptionCache';
import { createSearcher, type Searcher, type SearcherOptions } from '../core/search';
import { descriptionsStamp, restoredIndexes, saveEngineSnapshot } from '../core/search/querySnapshot';
import { StoreUnreadableError } from '../core/store/graphStore';
import { DESCRIPTIONS_FILE } from '../core/store/storeVersion';
import { describeHolder, type LockHolder } from '../core/store/writerLock';
import { describeRequest, indexOptionsOf, inProcessModels, USAGE, type Flags, type StoreLocation } from './flags';
import { printDescribed, printIndexed, printStats, type SnapshotSaved } from './printAnswers';
import { STDERR_TTY_ENV } from './engineProcess';
import { locateStore } from './locateStore';
import { features as featuresOf } from './featuresCommand';
import { LocalRepository } from '../core/service/localRepository';
import { ServiceHost } from '../core/service/serviceHost';
import { ServedFolder, type ServedFolderOptions } from '../core/service/servedFolder';
import { STORE_FOLDER } from '../core/store/storeVersion';
import { loadQueryModels, type QueryModels } from './models';
import type { QueryView } from './queryView';
import { version as VERSION } from '../../package.json';

export async function index(dir: string | undefined, flags: Flags): Promise<number> {
  if (!dir) {
    console.error(`cartograph index: which folder?\n\n${USAGE}`);
    return 2;
  }
  const root = path.resolve(dir);
  const storeDir = flags.store ? path.resolve(flags.store) : path.join(root, STORE_FOLDER);
  // Here once the CLI's own process found work for the engine (cli/indexWithoutEngine.ts): no service to ask.
  const given = indexOptionsOf(flags);
  const engine = await Engine.open(root, {
    storeDir,
    ...given,
    followSymlinks: flags['follow-symlinks'],
    command: 'cartograph index',
    onStoreWait: sayWaiting,
    log: (m) => console.error(`cartograph: ${m}`),
  });
  // Run in a child whose stderr is a pipe to the user's terminal (engineProcess.ts): drawn all the same.
  const terminal = process.stderr.isTTY || process.env[STDERR_TTY_ENV] === '1';
  const bar =
    !flags.json && terminal
      ? new SingleBar({ format: ' {phase} [{bar}] {value}/{total}', hideCursor: true, clearOnComplete: true, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 100 }, Presets.shades_classic)
      : undefined;
  let phase = '';
  const onProgress = (p: IndexProgress) => {
    if (!bar) return;
    if (p.phase !== phase) {
      phase = p.phase;
      if (bar.isActive) bar.stop();
      bar.start(Math.max(p.total, 1), p.done, { phase: p.phase.padEnd(7) });
    } else {
      bar.setTotal(Math.max(p.total, 1));
      bar.update(p.done);
    }
  };
  try {
    // Made before the index: a graph restored from the snapshot starts from the snapshot's indexes, which
    // then catch up with what the index changed, rather than both being built again for the new snapshot.
    const searcher = await searcherFor(engine, { descriptions: await DescriptionCache.open(descriptionsFile(engine)) });
    const report = await engine.index(onProgress);
    bar?.stop();
    const store = engine.storeInfo();
    if (store.status === 'unavailable' || store.status === 'damaged') {
      // Scripts and CI must not take an index that only lived in this process for a stored one.
      console.error(`cartograph index: the graph could not be stored in ${store.dir}: ${store.error ?? store.status}`);
      return EXIT_NOT_STORED;
    }
    // The next `query` or `show` then starts from the snapshot (on Django the lexical index's build is most of this).
    const stamp = descriptionsStamp(engine.storeInfo().dir ?? '');
    const snapshot = await saveSnapshot(engine, searcher, stamp);
    printIndexed(flags, { report, stats: engine.stats(), storeBytes: await engine.storeSize(), snapshot, options: engine.indexOptions }, given !== undefined);
    return 0;
  } finally {
    bar?.stop();
    await engine.close();
  }
}

/** A searcher for an engine just opened: from the snapshot's indexes when its graph was restored from the snapshot. */
async function searcherFor(engine: Engine, options: SearcherOptions): Promise<Searcher> {
  return createSearcher(engine, { ...options, prebuilt: await restoredIndexes(engine, options.descriptions) });
}

/** Saves the query snapshot (see querySnapshot.ts); a failure is reported and changes nothing else. */
async function saveSnapshot(engine: Engine, searcher: Searcher, descriptionsStamp: string): Promise<SnapshotSaved> {
  const started = performance.now();
  const outcome = await saveEngineSnapshot(engine, searcher, descriptionsStamp, (m) => console.error(`cartograph: ${m}`)).catch((err: unknown) => {
    console.error(`cartograph: query snapshot not saved: ${err instanceof Error ? err.message : String(err)}`);
    return 'failed' as const;
  });
  // `saved` stays true for a snapshot that was already current: it is there for the next call either way.
  return { saved: outcome !== 'failed', ...(outcome === 'unchanged' ? { unchanged: true as const } : {}), ms: Math.round(performance.now() - started) };
}

/** `index` ran, but the graph it built is not in the store (a full disk, no permission, a damaged store). */
const EXIT_NOT_STORED = 1;
/** A read-only command found the store damaged or incomplete and left it as it was. */
export const EXIT_STORE_UNREADABLE = 3;

function sayWaiting(holder: LockHolder): void {
  console.error(`cartograph: waiting for ${describeHolder(holder)} to finish writing the store…`);
}

/**
 * The engine on the store's committed generation, for commands that only read: a store that is damaged
 * or incomplete is reported (with what to run) and left untouched; the exit code to return instead.
 */
async function openForReading(found: StoreLocation, command: string): Promise<Engine | number> {
  try {
    return await Engine.open(found.root, { storeDir: found.storeDir, storeMode: 'read', command, onStoreWait: sayWaiting, log: (m) => console.error(`cartograph: ${m}`) });
  } catch (err) {
    if (!(err instanceof StoreUnreadableError)) throw err;
    const todo = err.state === 'missing' ? 'build' : err.state === 'incomplete' ? 'finish' : 'rebuild';
    console.error(`cartograph: ${err.message}.\nNothing was changed; run 'cartograph index ${found.root}' to ${todo} it.`);
    return EXIT_STORE_UNREADABLE;
  }
}

async function openExisting(flags: Flags, command: string): Promise<Engine | number> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return 1;
  }
  return openForReading(found, command);
}

export async function stats(flags: Flags): Promise<number> {
  const engine = await openExisting(flags, 'cartograph stats');
  if (typeof engine === 'number') return engine;
  try {
    const s = engine.stats();
    const storeBytes = await engine.storeSize();
    if (flags.json) console.log(JSON.stringify({ ...s, storeBytes }, null, 2));
    else printStats(s, storeBytes);
    return 0;
  } finally {
    await engine.close();
  }
}

/**
 * `query` and `show` the way they ran before the query snapshot: the engine opened from the store (a
 * warm start), both indexes built, and a snapshot saved for the next call before `work` answers.
 */
export async function answerFromStore(found: StoreLocation, flags: Flags, started: number, work: (view: QueryView) => Promise<number>): Promise<number> {
  const stamp = descriptionsStamp(found.storeDir);
  const engine = await openForReading(found, 'cartograph query');
  if (typeof engine === 'number') return engine;
  try {
    const descriptions = await DescriptionCache.open(descriptionsFile(engine));
    let loaded: QueryModels | undefined;
    // --mcts runs RANGER's traversal even without a model (with the lexical stand-in scorers).
    const modelFree = { status: inProcessModels(flags) };
    const searcher = await searcherFor(engine, { descriptions, models: () => loaded?.models ?? modelFree, ...(flags.mcts ? { mcts: { enabled: true } } : {}) });
    const ms = performance.now() - started;
    // Saved before answering (the process ends at the same time either way) so that --json can say so.
    const snapshot = await saveSnapshot(engine, searcher, stamp);
    return await work({
      graph: engine.graph.graph,
      searcher: () => searcher,
      loadModels: async () => (loaded = await loadQueryModels(engine, flags, Boolean(flags.json))),
      source: { source: 'store', ms: Math.round(ms), snapshotSaved: snapshot.saved },
    });
  } finally {
    await engine.close();
  }
}

/** Descriptions live with the store (regenerable, so a store rebuilt from scratch may drop them). */
function descriptionsFile(engine: Engine): string | null {
  const dir = engine.storeInfo().dir;
  return dir ? path.join(dir, DESCRIPTIONS_FILE) : null;
}

/** `cartograph describe` with no repository service running: the store's graph lifted in this process. */
export async function describe(flags: Flags): Promise<number> {
  const request = describeRequest(flags);
  if (!request) return 2;
  const engine = await openExisting(flags, 'cartograph describe');
  if (typeof engine === 'number') return engine;
  try {
    let done = 0;
    const progress = (count: number) => !flags.json && process.stderr.isTTY && process.stderr.write(`\r described ${(done += count)}`);
    const report = await LocalRepository.over(engine).lift(chatDescriber(request), undefined, request.maxCalls, progress);
    return printDescribed(report, Boolean(flags.json));
  } finally {
    await engine.close();
  }
}


/** `cartograph service run <dir>`: the repository's service in this process, until it stops (see core/service/serviceHost.ts). */
export async function serviceRun(dir: string | undefined, flags: Flags): Promise<number> {
  if (!dir) {
    console.error(`cartograph service run: which folder?\n\n${USAGE}`);
    return 2;
  }
  const root = path.resolve(dir);
  const log = (m: string) => console.error(`${new Date().toISOString()} cartograph service ${process.pid}: ${m}`);
  const host = new ServiceHost({
    root,
    storeDir: flags.store ? path.resolve(flags.store) : path.join(root, STORE_FOLDER),
    version: VERSION,
    followSymlinks: flags['follow-symlinks'],
    idleMs: Number(process.env[SERVICE_IDLE_ENV]) || undefined,
    log,
  });
  if (!(await host.listen())) {
    log(`another service already serves ${root}`);
    return 0;
  }
  log(`serving ${root} on ${host.socket}`);
  const stop = () => void host.stop();
  process.on('SIGINT', stop).on('SIGTERM', stop);
  await host.stopped;
  log('stopped');
  return 0;
}

/** Tests and benches shorten the idle time after which a service stops. */
const SERVICE_IDLE_ENV = 'CARTOGRAPH_SERVICE_IDLE_MS';

/** `cartograph features [area | path | name]`: the functional view (featuresCommand.ts). */
export async function features(target: string, flags: Flags): Promise<number> {
  const engine = await openExisting(flags, 'cartograph features');
  if (typeof engine === 'number') return engine;
  try {
    return await featuresOf(target, flags, engine, await DescriptionCache.open(descriptionsFile(engine)));
  } finally {
    await engine.close();
  }
}

/** A folder served in this process: `cartograph mcp` where the repository's service cannot run (mcp.ts). */
export function serveHere(root: string, options: ServedFolderOptions): ServedFolder {
  return new ServedFolder(root, options);
}
