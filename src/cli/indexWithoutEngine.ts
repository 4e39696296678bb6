// `cartograph index` where the engine is not needed in this process (a bundle of its own,
// dist/cliIndex.js, loaded before the engine's): through the repository's service, the store's writer
// while it runs (started here for a folder indexed before); else, when nothing changed since the last
// index, its record says what the index would find (src/core/unchangedIndex.ts) and nothing is written.
// Anything else is the engine process's: the first index, other options, a store to check or repair.
import * as path from 'node:path';
import { compatible, connectService, type ServiceConnection } from '../core/service/serviceClient';
import type { IndexReply } from '../core/service/serviceProtocol';
import { folderSize } from '../core/store/folderSize';
import { DEFAULT_INDEX_OPTIONS, readIndexOptions, sameIndexOptions } from '../core/store/indexOptions';
import { readIndexRecord } from '../core/store/indexRecord';
import { STORE_FOLDER } from '../core/store/storeVersion';
import { unchangedIndex } from '../core/unchangedIndex';
import { indexOptionsOf, type Flags, type StoreLocation } from './flags';
import { printIndexed, printStats } from './printAnswers';
import { reachService, serviceWanted, wantedBy } from './service';

/** The exit code when the index was done or found unneeded here; undefined when it is the engine process's to do. */
export async function indexWithoutEngine(dir: string | undefined, flags: Flags): Promise<number | undefined> {
  if (!dir) return undefined;
  const root = path.resolve(dir);
  const found = { root, storeDir: flags.store ? path.resolve(flags.store) : path.join(root, STORE_FOLDER) };
  const given = indexOptionsOf(flags);
  // The service reads the folder with the options recorded with the store: others need an index of their own.
  const ownOptions = given !== undefined && !sameIndexOptions(given, readIndexOptions(found.storeDir) ?? DEFAULT_INDEX_OPTIONS);
  const running = serviceWanted(flags) ? await connectService(found.storeDir) : undefined;
  if (running) return indexThroughService(running, found, flags, ownOptions, false);
  const unchanged = await unchangedIndex(root, found.storeDir, given, flags['follow-symlinks']);
  if (unchanged) {
    const { report, stats, options } = unchanged;
    printIndexed(flags, { report, stats, storeBytes: await folderSize(found.storeDir), snapshot: { saved: true, unchanged: true, ms: 0 }, options }, given !== undefined);
    return 0;
  }
  // Changes in a folder indexed before, read as recorded: its service warm-starts from the store,
  // re-checks the folder and stays for the next commands (a million lines with one file edited: 5.8 s,
  // where the engine's process took 13.2 s, the whole snapshot written again before the exit). Not for a
  // store changed since its record (damage included), which the engine's process opens, checks and repairs.
  if (!serviceWanted(flags) || ownOptions || !(await readIndexRecord(found.storeDir, root))) return undefined;
  const started = await reachService(found, flags, 'wait');
  return started ? indexThroughService(started, found, flags, false, true) : undefined;
}

/** An editor's service is not ours to stop: say who holds the store and what to do there. Exit 1. */
function editorHolds(service: ServiceConnection, wanted: string): number {
  console.error(
    `cartograph: ${service.hello.hostedBy} (pid ${service.hello.pid}) holds the graph of ${service.hello.root} and is its store's writer; ` +
      `to ${wanted}, change its Cartograph settings and run "Cartograph: Reindex Workspace" there, or close the folder in ${service.hello.hostedBy} first`,
  );
  service.close();
  return 1;
}

/**
 * The store's writer is its service while one runs: `index` asks it to re-check the folder (the
 * exit code), rather than write beside it. Options that change what is indexed are the service's
 * own from its start: with others (`ownOptions`), the service is stopped and the index runs in the engine's
 * process (undefined). `startedHere`: the service's own check as it started was this command's work, and is said.
 */
async function indexThroughService(service: ServiceConnection, found: StoreLocation, flags: Flags, ownOptions: boolean, startedHere: boolean): Promise<number | undefined> {
  if (ownOptions || !compatible(service.hello, wantedBy(flags))) {
    const wanted = ownOptions ? 'these options' : "this version's reading of the folder";
    if (service.hello.hostedBy) return editorHolds(service, `index with ${wanted}`);
    console.error(`cartograph: stopping the service for ${found.root} (pid ${service.hello.pid}) to index with ${wanted}`);
    await service.stop();
    return undefined;
  }
  try {
    const reply = await service.call<IndexReply>('index');
    const { report, stats: s, storeBytes } = reply;
    const atStart = startedHere ? reply.atStart : undefined;
    if (s.store.status === 'unavailable' || s.store.status === 'damaged') {
      // A service never repairs a store (an agent's call must not wipe it): `index` does, here.
      if (service.hello.hostedBy) return editorHolds(service, 'rebuild the store');
      console.error(`cartograph: the service cannot use the store (${s.store.error ?? s.store.status}); stopping it and rebuilding the store here`);
      await service.stop();
      return undefined;
    }
    if (flags.json) console.log(JSON.stringify({ report, ...(atStart ? { atStart } : {}), stats: s, storeBytes, service: { pid: service.hello.pid } }, null, 2));
    else {
      if (atStart) console.log(`Checked ${atStart.files} files as the service started, in ${(atStart.timings.total! / 1000).toFixed(2)} s: ${atStart.parsed} parsed, ${atStart.reused} unchanged, ${atStart.removed} removed.`);
      console.log(`Indexed ${report.files} files in ${(report.timings.total! / 1000).toFixed(2)} s by the repository's service (pid ${service.hello.pid}): ${report.parsed} parsed, ${report.reused} unchanged, ${report.removed} removed, ${report.skipped.length} skipped.`);
      printStats(s, storeBytes);
    }
    return 0;
  } finally {
    service.close();
  }
}
