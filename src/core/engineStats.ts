// What `cartograph stats` and Show Index Status report of an index: counts by kind, lines, files with
// syntax errors, generated files, how many imports resolved, what was skipped and the store's state.
import type { RepositoryGraph } from './graph/repositoryGraph';
import { EDGE_KINDS, NODE_KINDS, type EdgeKind, type NodeKind } from './model/schema';
import type { StoreInfo } from './store/storeMirror';
import type { SkippedFile } from './workspace/scan';

export interface EngineStats {
  root: string;
  files: number;
  lines: number;
  nodes: Partial<Record<NodeKind, number>>;
  edges: Partial<Record<EdgeKind, number>>;
  skipped: SkippedFile[];
  syntaxErrorFiles: number;
  /** Files that say they are generated (Go's `// Code generated … DO NOT EDIT.`): indexed, and flagged here. */
  generatedFiles: string[];
  imports: { internal: number; resolved: number; rate: number };
  unresolvedReferences: number;
  store: StoreInfo;
}

/** What an index found in the graph itself: the stats but for the root, the skips and the store's state. */
export type GraphCounts = Omit<EngineStats, 'root' | 'skipped' | 'store'>;

/** Walks every node and edge: for a report, not for a status line (the store's state alone is `StoreMirror.info`). */
export function engineStats(root: string, repo: RepositoryGraph, skipped: Iterable<SkippedFile>, store: StoreInfo): EngineStats {
  return statsWith(root, graphCounts(repo), skipped, store);
}

export function statsWith(root: string, counts: GraphCounts, skipped: Iterable<SkippedFile>, store: StoreInfo): EngineStats {
  return { root, ...counts, skipped: [...skipped].sort((a, b) => (a.path < b.path ? -1 : 1)), store };
}

export function graphCounts(repo: RepositoryGraph): GraphCounts {
  const nodes: EngineStats['nodes'] = {};
  const edges: EngineStats['edges'] = {};
  for (const kind of NODE_KINDS) nodes[kind] = 0;
  for (const kind of EDGE_KINDS) edges[kind] = 0;
  repo.graph.forEachNode((_, a) => (nodes[a.kind] = (nodes[a.kind] ?? 0) + 1));
  repo.graph.forEachEdge((_, a) => (edges[a.kind] = (edges[a.kind] ?? 0) + 1));
  let lines = 0;
  let syntaxErrorFiles = 0;
  const generatedFiles: string[] = [];
  for (const p of repo.filePaths()) {
    const g = repo.fileGraph(p)!;
    lines += g.lines;
    if (g.syntaxErrors > 0) syntaxErrorFiles++;
    if (g.generated) generatedFiles.push(p);
  }
  const imports = repo.importStats();
  return {
    files: repo.filePaths().length,
    lines,
    nodes,
    edges,
    syntaxErrorFiles,
    generatedFiles: generatedFiles.sort(),
    imports: { internal: imports.internal, resolved: imports.resolved, rate: imports.internal ? imports.resolved / imports.internal : 1 },
    unresolvedReferences: repo.unresolvedReferences(),
  };
}
