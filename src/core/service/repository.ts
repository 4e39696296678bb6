// What an editor asks of one repository's knowledge graph, in plain data both ways: indexing and
// updates, search, the symbol under a cursor, completion context, the explorer's session, embedding
// and lifting jobs. Nothing outside the engine reads the graph directly, so the same interface is
// served in-process (LocalRepository, the CLI and tests) or from a worker thread (WorkerRepository):
// there the graph lives in the worker's heap, and V8's major GC marking it (50-120 ms while a cold
// index builds it) pauses the worker instead of the editor.
import type { ContextAssembler, AssembleOptions, FusedContext } from '../completion/assemble';
import type { CursorQuery } from '../completion/queryGraph';
import type { EngineOptions, EngineStats, IndexProgress, IndexReport } from '../engine';
import type { HostMessage, ViewBy, WebviewMessage } from '../explorer/protocol';
import type { NodeDescription } from '../graph/describe';
import type { GraphNode } from '../model/schema';
import type { LiftReport, Describer, LiftingCost } from '../lifting/lifter';
import type { EmbeddingReport } from '../models/embeddingJob';
import type { LoadedModels } from '../models/loader';
import type { FileRanking, SearchContext } from '../search';
import type { SearchResult } from '../search/types';
import type { CallState, ToolResult } from '../tools/context';

export type { ToolResult } from '../tools/context';

/** An agent tool's answer, or the message that says what was wrong with the request. */

export type StoreInfo = EngineStats['store'];

/** The graph's totals (cheap: no walk over nodes and edges). */
export interface GraphCounts {
  nodes: number;
  edges: number;
  files: number;
}

/** A search result with the attributes of each hit's node, in the order of `result.hits`. */
export interface FoundNodes {
  result: SearchResult;
  nodes: GraphNode[];
}

/** Where a worker's repository keeps its store, and the socket it serves other clients on, if it does. */
export interface Opened {
  storeDir: string | null;
  socket?: string;
}

export interface RepositoryOptions extends Omit<EngineOptions, 'log'> {
  log?: (message: string) => void;
  /** How long after the last change a functional view edits changed is settled (default 2 s; Infinity: only when asked). */
  settleAfterMs?: number;
}

export interface Repository {
  readonly root: string;
  storeInfo(): Promise<StoreInfo>;
  index(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexReport>;
  /** A saved buffer (or the file on disk without `text`); the explorer session, if any, hears of the change. Answers the new totals. */
  updateFile(filePath: string, text?: string): Promise<GraphCounts>;
  syncPaths(filePaths: string[]): Promise<GraphCounts>;
  counts(): Promise<GraphCounts>;
  /** Indexed files (relative, `/`-separated) under `prefix`, all of them without one. */
  filePaths(prefix?: string): Promise<string[]>;
  stats(): Promise<EngineStats>;
  storeSize(): Promise<number>;
  /** Waits until what the graph holds is written to the store. */
  flush(): Promise<void>;

  node(id: string): Promise<GraphNode | undefined>;
  nodesInFile(relPath: string): Promise<GraphNode[]>;
  /** Node ids by id, qualified name or name (see `findNodes`). */
  findNodes(query: string): Promise<string[]>;
  /** The innermost node at (line, col) of `relPath` with its edges (Show Symbol Graph). */
  describeAt(relPath: string, line: number, col: number): Promise<NodeDescription | undefined>;
  /** The innermost definition on `line` (the explorer's follow-the-cursor). */
  nodeAtLine(relPath: string, line: number): Promise<string | undefined>;

  search(query: string, limit: number, context?: SearchContext): Promise<FoundNodes>;
  /** An agent tool (search_code, fetch_node, …) answered from this graph; bad input is an `error`, not a throw. */
  runTool(name: string, args: unknown, call?: CallState): Promise<ToolResult>;

  /** Issue → file localization: the files a bug report or task text concerns (`files:` queries). */
  rankFiles(question: string, limit: number): Promise<FileRanking>;
  /** Builds the search indexes ahead of the first query (the QuickPick opens before the user types). */
  prepareSearch(): Promise<void>;
  assembleContext(query: CursorQuery, options?: AssembleOptions): Promise<FusedContext>;

  /**
   * Starts (or restarts) the explorer's conversation with a webview; `send` carries the host's messages.
   * The first view goes out on the webview's `ready` message, by `viewBy` (by areas when the functional
   * hierarchy can be had: it is built here on first use; else by folders).
   */
  openExplorer(folder: string, send: (message: HostMessage) => void, viewBy: ViewBy): Promise<void>;
  /** A webview message; false when it is one the caller handles (reveal, follow, folders). */
  explorerMessage(message: WebviewMessage): Promise<boolean>;
  explorerFocus(id: string, reason: 'cursor' | 'search'): Promise<void>;
  explorerFound(id: string, path: string[]): Promise<void>;
  /** The webview went away (closed, or showing another folder): stop computing its view. */
  closeExplorer(): Promise<void>;

  /** The search models to use from now on (undefined: none), with the line that says why. */
  useModels(models: LoadedModels | undefined, status: string): Promise<void>;
  modelStatus(): Promise<string>;
  /** Embeds nodes that have no vector yet; undefined without an embedding model. */
  embed(signal?: AbortSignal): Promise<EmbeddingReport | undefined>;
  /** Describes functions and classes with the chat model behind `describer` (semantic lifting). */
  lift(describer: Describer, signal?: AbortSignal): Promise<LiftReport>;
  /** What lifting would send now (asked before a model the user pays for is used). */
  liftingCost(): Promise<LiftingCost>;

  close(): Promise<void>;
}

/** What the editor tells an engine worker about its models: enough for stand-ins that call back for the real thing. */
export interface ModelSpec {
  embedder?: { id: string; dim: number };
  reranker?: { id: string };
  status: string;
  problems: string[];
}

/** The ContextAssembler's face that completion needs: an assembler in-process, a request to a worker otherwise. */
export type ContextSource = Pick<ContextAssembler, 'assemble'>;
