// The agent tools answered from a query snapshot (search/querySnapshot.ts): what `cartograph mcp`
// serves while its engine warms up. Loading the store and re-stitching every file takes seconds on a
// large repository; the snapshot holds the graph and both search indexes as they were saved and opens
// in a few hundred milliseconds. Its answers describe the repository as of that save, so the server
// says so in each one until the engine has checked the folder for changes made since.
import * as path from 'node:path';
import { loadHierarchy } from '../features/featureStore';
import type { FeatureHierarchy } from '../features/hierarchy';
import { folderId, type GraphNode } from '../model/schema';
import { createSearcher } from '../search';
import type { QuerySnapshot } from '../search/querySnapshot';
import { RootBoundary } from '../workspace/readSource';
import { AgentTools } from './agentTools';
import { ToolError, diskText, type ToolGraph } from './context';
import { gitDiff } from './diff';
import type { ToolName } from './schemas';

/**
 * The tools a snapshot answers in full: all but edit_context, which parses the code around the cursor
 * against the live graph. fetch_node, explore_graph and impact list the references the graph could not
 * resolve as possible callers and users: the snapshot keeps them (it keeps no per-file graphs).
 */
export const SNAPSHOT_TOOLS: ReadonlySet<ToolName> = new Set<ToolName>(['search_code', 'repo_overview', 'fetch_node', 'explore_graph', 'impact']);

/** `read`: how files are read for source (the engine's options of the same names). */
export function snapshotTools(snapshot: QuerySnapshot, root: string, read: { maxFileSize?: number; followSymlinks?: boolean } = {}): AgentTools {
  const repo = snapshot.repo();
  const graph = repo.graph; // read in place: graphology is never built for these answers
  // The snapshot keeps no per-file graphs: a file's nodes are found by their path, once.
  let byFile: Map<string, GraphNode[]> | undefined;
  const files = (): Map<string, GraphNode[]> => {
    if (byFile) return byFile;
    byFile = new Map();
    graph.forEachNode((_, node) => {
      if (!node.path || node.kind === 'Folder') return;
      let nodes = byFile!.get(node.path);
      if (!nodes) byFile!.set(node.path, (nodes = []));
      nodes.push(node);
    });
    return byFile;
  };
  const frozen: ToolGraph = {
    graph,
    version: 0,
    rootName: graph.hasNode(folderId('')) ? graph.getNodeAttribute(folderId(''), 'name') : path.basename(root),
    // Not kept in a snapshot: what the tools read of them (unresolved references) it keeps apart.
    fileGraph: () => undefined,
    filePaths: () => [...files().keys()],
    nodesInFile: (p) => files().get(p) ?? [],
  };
  const searcher = createSearcher({ graph: repo }, { prebuilt: { version: snapshot.version, entities: snapshot.entities, lexical: snapshot.lexical } });
  // The functional view as last saved beside the snapshot (the engine saves it when it changes), read once it is there.
  let features: FeatureHierarchy | undefined;
  return new AgentTools({
    root,
    graph: frozen,
    search: (query, limit, context) => searcher.search(query, limit, context),
    assemble: () => Promise.reject(new ToolError('edit_context needs the live graph, which is still loading')),
    readText: diskText(new RootBoundary(root, read.followSymlinks), read.maxFileSize),
    gitDiff: () => gitDiff(root),
    // Never built here: the engine builds it when asked about areas, and saves it.
    features: async () => (features ??= await loadHierarchy(snapshot.storeDir)),
    savedUnresolved: () => snapshot.unresolved(),
  });
}

/** What an answer from the snapshot says about itself (CallState.indexing). */
export const SNAPSHOT_NOTE = 'answered from the index as last saved; re-checking the folder for changes made since';
