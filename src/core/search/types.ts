// The retrieval contract shared by the router, the CLI `query` command, the VS Code command and the
// benchmarks: ranked nodes with scores, and how each was found.
import type { EdgeKind } from '../model/schema';

/** How a query was understood: a code entity (looked up in the graph), a structural question, or prose. */
export type Route = 'entity' | 'structural' | 'natural-language';

/** How a hit was found. */
export type Via = 'lookup' | 'structural' | 'lexical' | 'vector' | 'mcts';

export interface SearchHit {
  id: string;
  score: number;
  via: Via;
  /** For structural and MCTS hits: the node ids that led here, from the start. */
  path?: string[];
  /**
   * Zero-based line, in the hit's own file, of the site that relates it to the question's subject
   * (the call in a caller, the base list of a subclass): where the user wants to land, not the
   * hit's definition.
   */
  siteLine?: number;
  /** For structural hits: the kind of the edge that relates it (a caller that reads a property or applies a decorator is USES, not CALLS). */
  edge?: EdgeKind;
  /** The compiled files built from the hit's TypeScript file (`v3/types.cjs`, …): their copies of it are folded into this hit. */
  compiledTo?: string[];
}

export interface SearchResult {
  query: string;
  route: Route;
  /** Why the router chose this route, for people and tests. */
  reason: string;
  hits: SearchHit[];
  /** How many hits there were before the limit cut them, where that is known (structural questions). */
  total?: number;
  /** Per step of the query; `indexBuild` is the time it waited for an index to be built first. */
  timingsMs: Record<string, number>;
}
