// The code of a graph node, read from its file by line range: what the describer is shown.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { GraphNode } from '../model/schema';

/** A reader over files under `root`; a vanished or unreadable file gives undefined, never an error. */
export function sourceReader(root: string): (node: GraphNode) => Promise<string | undefined> {
  return async (node) => {
    if (!node.range || !node.path) return undefined;
    try {
      const lines = (await fs.readFile(path.join(root, node.path), 'utf8')).split('\n');
      return lines.slice(node.range.startLine, node.range.endLine + 1).join('\n');
    } catch {
      return undefined;
    }
  };
}
