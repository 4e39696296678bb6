// The code of a graph node, read from its file by line range: what the describer is shown.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { GraphNode } from '../model/schema';
import type { RootBoundary } from '../workspace/readSource';

/**
 * A reader over files under `boundary`'s root; a vanished or unreadable file, or one through a symlink
 * out of the root (its text would go to the describer's endpoint), gives undefined, never an error.
 */
export function sourceReader(boundary: RootBoundary): (node: GraphNode) => Promise<string | undefined> {
  return async (node) => {
    if (!node.range || !node.path) return undefined;
    try {
      const real = await boundary.realPath(path.join(boundary.root, node.path));
      if (typeof real !== 'string') return undefined;
      const lines = (await fs.readFile(real, 'utf8')).split('\n');
      return lines.slice(node.range.startLine, node.range.endLine + 1).join('\n');
    } catch {
      return undefined;
    }
  };
}
