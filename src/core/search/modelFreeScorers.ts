// Model-free stand-ins for RANGER's two encoders, so the MCTS traversal runs on every machine (no
// download, no endpoint). Both are built from one lexical pass over the query (BM25 over graph-derived
// node text, see lexical.ts), spread up the containment tree:
// - similarity (the bi-encoder's role: which neighbours to expand) is a node's own match, or what its
//   best descendant matches, slightly discounted — a folder or module whose contents answer the query
//   is worth walking into even though its own name says nothing;
// - relevance (the cross-encoder's role: the reward) is the node's own match plus a smaller share of
//   its best descendant's, so a reward favours the node itself over the container it sits in.
// They are lexical signals, not semantic ones: this is what lets MCTS follow the graph without a model,
// not a replacement for one.
import type { ReadonlyGraph } from '../graph/describe';
import type { MctsScorers } from './mcts';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

/** Edges from a container to what it holds. */
export const CONTAINMENT_KINDS = new Set(['CONTAINS', 'HAS_METHOD', 'HAS_FIELD']);

/** The node that contains `id` (module of a function, class of a method, function of a closure), if any. */
export function containerOf(graph: Graph, id: string): string | undefined {
  let container: string | undefined;
  graph.forEachInEdge(id, (_e, edge, source) => {
    if (container === undefined && CONTAINMENT_KINDS.has(edge.kind)) container = source;
  });
  return container;
}

/** What {@link containerOf} answered, for one version of the graph: the searcher keeps one while the graph does not change. */
export type ContainerMemo = Map<string, string | undefined>;

/** Containers remembered at most: a long-lived service's memory stays bounded on a large graph. */
const KEPT_CONTAINERS = 100_000;

/**
 * containerOf through `memo`: a function called from hundreds of places has hundreds of in-edges, which
 * containerOf walks for the one that holds it; a question's matches, seeds and candidates ask for the
 * same few thousand nodes' containers question after question.
 */
export function containersOf(graph: Graph, memo: ContainerMemo = new Map()): (id: string) => string | undefined {
  return (id) => {
    if (memo.has(id)) return memo.get(id);
    const container = containerOf(graph, id);
    if (memo.size < KEPT_CONTAINERS) memo.set(id, container);
    return container;
  };
}

/** How much of its best descendant's match a container is credited with when ranking expansions. */
const DESCENDANT_SIMILARITY = 0.8;
/** The share of its best descendant's match added to a container's reward. */
const DESCENDANT_RELEVANCE = 0.3;
/**
 * Matches spread up the containment tree, best first: a long query matches thousands of Django's
 * definitions (spreading 7k took 40-120 ms), and a container's best descendant is among the first.
 */
const MAX_SPREAD = 1000;

export interface LexicalScorers extends MctsScorers {
  /** A node's own lexical match in [0, 1] (0: no match). */
  own(id: string): number;
}

/** `matches`: the lexical index's scored matches for the query (scores in (0, 1]), best first. */
export function modelFreeScorers(graph: Graph, matches: SearchHit[], container = containersOf(graph)): LexicalScorers {
  const own = new Map(matches.map((m) => [m.id, m.score]));
  // Best match among each container's descendants: walk up from every match, stopping as soon as an
  // ancestor already holds a score at least as good (its own ancestors then do too).
  const below = new Map<string, number>();
  for (const { id, score } of matches.slice(0, MAX_SPREAD)) {
    let child = id;
    for (let depth = 0; depth < 32; depth++) {
      const parent = container(child);
      if (!parent || (below.get(parent) ?? 0) >= score) break;
      below.set(parent, score);
      child = parent;
    }
  }
  const ownOf = (id: string) => own.get(id) ?? 0;
  return {
    own: ownOf,
    similarity: async (_query, ids) => ids.map((id) => Math.max(ownOf(id), DESCENDANT_SIMILARITY * (below.get(id) ?? 0))),
    relevance: async (_query, ids) => ids.map((id) => ownOf(id) + DESCENDANT_RELEVANCE * (below.get(id) ?? 0)),
  };
}
