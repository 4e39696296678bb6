// Source text of repository files for snippets and code windows. The graph keeps structure, not
// text; files are read from disk once and re-read when the graph's hash for them changes. Never
// through a symlink out of the root (readSource.ts's RootBoundary): the graph may hold a file that
// became one since it was indexed, or one indexed by a run that followed such links.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RepositoryGraph } from '../graph/repositoryGraph';
import type { RootBoundary } from '../workspace/readSource';

interface Cached {
  hash: string;
  lines: string[];
}

export class SourceFiles {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly boundary: RootBoundary,
    private readonly graph: RepositoryGraph,
  ) {}

  /** The file's lines as the graph knows it, or undefined when it is not indexed or cannot be read. */
  lines(rel: string): string[] | undefined {
    const hash = this.graph.fileGraph(rel)?.hash;
    if (hash === undefined) return undefined;
    const hit = this.cache.get(rel);
    if (hit && hit.hash === hash) return hit.lines;
    let text: string;
    try {
      const real = this.boundary.realPathSync(path.join(this.boundary.root, rel));
      if (typeof real !== 'string') return undefined;
      text = fs.readFileSync(real, 'utf8');
    } catch {
      return undefined;
    }
    const lines = text.split('\n');
    this.cache.set(rel, { hash, lines });
    return lines;
  }

  /** Async warm-up of many files (the window index reads the whole repository once). */
  async preload(rels: string[]): Promise<void> {
    for (const rel of rels) {
      const hash = this.graph.fileGraph(rel)?.hash;
      if (hash === undefined || this.cache.get(rel)?.hash === hash) continue;
      const text = await this.boundary
        .realPath(path.join(this.boundary.root, rel))
        .then((real) => (typeof real === 'string' ? fs.promises.readFile(real, 'utf8') : undefined))
        .catch(() => undefined);
      if (text !== undefined) this.cache.set(rel, { hash, lines: text.split('\n') });
    }
  }
}
