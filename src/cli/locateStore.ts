// Which store a command reads: --store, or the nearest `.cartograph` folder from the current directory up.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordedRoot, STORE_FOLDER } from '../core/store/storeVersion';
import type { StoreLocation } from './flags';

/** The store named by --store, or the nearest `.cartograph` folder from the current directory up. */
export function locateStore(flag: string | undefined): StoreLocation | undefined {
  if (flag) {
    const storeDir = path.resolve(flag);
    return fs.existsSync(storeDir) ? { root: recordedRoot(storeDir) ?? path.dirname(storeDir), storeDir } : undefined;
  }
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, STORE_FOLDER);
    if (fs.existsSync(candidate)) return { root: recordedRoot(candidate) ?? dir, storeDir: candidate };
    if (path.dirname(dir) === dir) return undefined;
  }
}
