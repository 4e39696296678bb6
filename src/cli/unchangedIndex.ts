// `cartograph index` when nothing changed since the last index, answered in the CLI's own process (a
// bundle of its own, dist/cliRecord.js): the record of the last index says what the index would find
// (src/core/unchangedIndex.ts), and nothing is written. Anything else, and while the repository's
// service runs (the store's writer), goes to the engine process as before.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { socketPath } from '../core/service/serviceAddress';
import { folderSize } from '../core/store/folderSize';
import { STORE_FOLDER } from '../core/store/storeVersion';
import { unchangedIndex } from '../core/unchangedIndex';
import { indexOptionsOf, type Flags } from './flags';
import { printIndexed } from './printAnswers';
import { serviceWanted } from './service';

/** The exit code when nothing changed and that was said; undefined when the index has work (or must tell). */
export async function reportIfUnchanged(dir: string | undefined, flags: Flags): Promise<number | undefined> {
  if (!dir) return undefined;
  const root = path.resolve(dir);
  const storeDir = flags.store ? path.resolve(flags.store) : path.join(root, STORE_FOLDER);
  if (serviceWanted(flags) && fs.existsSync(socketPath(storeDir))) return undefined;
  const given = indexOptionsOf(flags);
  const unchanged = await unchangedIndex(root, storeDir, given, flags['follow-symlinks']);
  if (!unchanged) return undefined;
  const { report, stats, options } = unchanged;
  printIndexed(flags, { report, stats, storeBytes: await folderSize(storeDir), snapshot: { saved: true, unchanged: true, ms: 0 }, options }, given !== undefined);
  return 0;
}
