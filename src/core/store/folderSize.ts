// How much disk a folder takes (the store's size in `stats`), on its own so that the CLI's front door
// can say it without LanceDB's modules.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function folderSize(dir: string): Promise<number> {
  let total = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(full);
    else {
      try {
        total += (await fs.stat(full)).size;
      } catch {
        // Removed while we were counting.
      }
    }
  }
  return total;
}
