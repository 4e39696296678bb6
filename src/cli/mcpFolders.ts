// The folders `cartograph mcp` serves and their stores, checked by the CLI's front door (main.ts),
// which starts their services before the MCP half (mcp.ts) loads: the two processes start side by side.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoreLocation } from './flags';
import { STORE_FOLDER } from '../core/store/storeVersion';

/** Each root (default: the current folder) with its store (`--store` for a single root, else `<root>/.cartograph`), or why not. */
export function mcpFolders(dirs: string[], store: string | undefined): StoreLocation[] | string {
  const roots = dirs.length > 0 ? dirs : [process.cwd()];
  const notFolder = roots.find((dir) => !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory());
  if (notFolder !== undefined) return `${notFolder} is not a folder`;
  if (store && roots.length > 1) return '--store names one store; with several roots each keeps its own <root>/.cartograph';
  return roots.map((dir) => {
    const root = path.resolve(dir);
    return { root, storeDir: store ? path.resolve(store) : path.join(root, STORE_FOLDER) };
  });
}
