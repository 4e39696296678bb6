// RANGER's natural-language retrieval (§3.4, Algorithm 1): Monte Carlo Tree Search over the repository
// graph. Selection by UCT, expansion of the top-k unvisited neighbours ranked by a bi-encoder (k halves
// after each expansion, never below k_min), simulation = batched cross-encoder relevance as the reward
// (scaled to [0, 10]), backpropagation along the tree path, and the final score
// α·R/N + (1−α)·10·sim(query, node).
//
// Editor- and model-independent: the two scorers are injected (a transformers.js model, an HTTP
// endpoint or a model-free stand-in), and the graph is the plain graphology graph of the engine.
import type { MultiDirectedGraph } from 'graphology';
import { EDGE_KINDS, type GraphEdge, type GraphNode } from '../graph/schema';
import type { SearchHit } from './types';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

export interface MctsScorers {
  /** Bi-encoder similarity in [-1, 1] (cosine) between the query and each node, batched. */
  similarity(query: string, nodeIds: string[]): Promise<number[]>;
  /** Cross-encoder relevance of each node, batched; any real range — the search scales it to [0, 10]. */
  relevance(query: string, nodeIds: string[]): Promise<number[]>;
}

export interface MctsOptions {
  /** Maximum number of expansions (iterations of Algorithm 1); paper: 200–500. Default 200. */
  iterations?: number;
  /** First expansion's k; default ceil(N_modules / 2), N_modules = Module nodes reachable from the roots. */
  kInit?: number;
  /** Floor of k; default 20. */
  kMin?: number;
  /** UCT exploration constant; default 1 / sqrt(ln(4N)), N = number of nodes reachable from the roots. */
  c?: number;
  /** Weight of the tree value R/N in the final score; default 0.7 (paper 0.5–0.9). */
  alpha?: number;
  /** Stop once this much wall time has passed (checked before every iteration); default 1500. `Infinity` disables it. */
  timeBudgetMs?: number;
  /** Graph neighbours of a node; default {@link defaultNeighbours}. */
  neighbours?: (graph: Graph, id: string) => string[];
  /** Start nodes; default the repository root Folder `dir:.` if present, else every Module node. */
  roots?: string[];
  /**
   * How cross-encoder scores become rewards in [0, 10] (see {@link scaleScore}):
   * - 'search' (default): min-max against the range of every relevance score computed so far in this
   *   search. Values are stored raw and scaled when read (UCT, final score), so every node is always
   *   scaled against the same, current range: min-max is affine, so the scaled mean R/N is the mean of
   *   the scaled rewards and the max of a batch commutes with it. Nothing is inflated for having been
   *   scored early, and a batch of uniformly weak children stays weak.
   * - 'batch': min-max over the current batch only, stored scaled (the literal reading; note that it
   *   makes every non-constant batch's max reward exactly 10).
   */
  scaling?: 'search' | 'batch';
  /**
   * Cross-encoder calls score at most this many nodes each; fewer when the time left would not cover
   * that many at the speed measured so far (the first call of a search, unmeasured, scores at most 8).
   * Default 32.
   */
  batchSize?: number;
  /** @internal Test seam: the clock the time budget is measured with (default `Date.now`). */
  clock?: () => number;
}

export interface MctsResult {
  hits: SearchHit[];
  /** Expansions performed (each one is one iteration of Algorithm 1). */
  iterations: number;
  /** N per tree node (roots included). */
  visits: Map<string, number>;
}

const STRUCTURAL_KINDS = new Set<string>(EDGE_KINDS);

/**
 * Default neighbourhood: every in- and out-neighbour over the seven edge kinds, with two exclusions.
 * - Folders are only walked downwards: a Folder's out-edges (CONTAINS sub-folders and modules) are
 *   followed, but a Folder is never entered through an in-edge, so the search does not climb from a
 *   module back to its directory and sideways into unrelated directories (the directory tree is
 *   reached from the root, the way RANGER starts from the repository node).
 * - External nodes (library symbols) are skipped: they carry no code to score and are hubs that would
 *   connect every module that calls, say, `os.path.join`.
 * The list is deduplicated, self-loops dropped, sorted by id (determinism).
 */
export function defaultNeighbours(graph: Graph, id: string): string[] {
  const out = new Set<string>();
  const consider = (other: string, edge: GraphEdge, viaInEdge: boolean) => {
    if (other === id || !STRUCTURAL_KINDS.has(edge.kind)) return;
    const kind = graph.getNodeAttribute(other, 'kind');
    if (kind === 'External') return;
    if (viaInEdge && kind === 'Folder') return;
    out.add(other);
  };
  graph.forEachOutEdge(id, (_e, edge, _s, target) => consider(target, edge, false));
  graph.forEachInEdge(id, (_e, edge, source) => consider(source, edge, true));
  return [...out].sort(byId);
}

/**
 * Scale one cross-encoder score to [0, 10] against the range [lo, hi] (RANGER: "scaled to [0, 10]"):
 * 10·(x − lo)/(hi − lo). A degenerate range (hi == lo, e.g. a batch of one, or all equal) carries no
 * ordering information; the score is then read on its own sign: 10 if positive, else 0.
 */
export function scaleScore(x: number, lo: number, hi: number): number {
  if (!(hi > lo)) return x > 0 ? 10 : 0;
  return Math.min(10, Math.max(0, (10 * (x - lo)) / (hi - lo)));
}

interface TreeNode {
  id: string;
  parent: TreeNode | null;
  children: TreeNode[];
  /** Sum of rewards backed up through this node (raw cross-encoder scores in 'search' scaling). */
  R: number;
  /** Visit count. */
  N: number;
  /** No unvisited neighbour left and every child exhausted: selection never goes here again. */
  exhausted: boolean;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Pairs in a search's first cross-encoder call, before its speed is known. */
const FIRST_BATCH = 8;

export async function mctsSearch(graph: Graph, query: string, scorers: MctsScorers, options: MctsOptions = {}): Promise<MctsResult> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const elapsed = () => clock() - started;
  const neighboursOf = options.neighbours ?? defaultNeighbours;
  const maxIterations = options.iterations ?? 200;
  const kMin = Math.max(1, options.kMin ?? 20);
  const alpha = options.alpha ?? 0.7;
  const budget = options.timeBudgetMs ?? 1500;
  const scaling = options.scaling ?? 'search';
  const batchSize = Math.max(1, options.batchSize ?? 32);

  let roots = options.roots ?? (graph.hasNode('dir:.') ? ['dir:.'] : graph.filterNodes((_, a) => a.kind === 'Module'));
  roots = [...new Set(roots.filter((r) => graph.hasNode(r)))].sort(byId);

  // Neighbour lists are asked for repeatedly during selection: compute each once.
  const neighbourCache = new Map<string, string[]>();
  const neighbours = (id: string): string[] => {
    let list = neighbourCache.get(id);
    if (!list) neighbourCache.set(id, (list = neighboursOf(graph, id)));
    return list;
  };

  // Paper defaults that depend on the graph: k_init = N_modules / 2 and c = 1/sqrt(ln(4N)), counted
  // over what the search can reach from its roots (a breadth-first walk, only when a default is used).
  let kInit = options.kInit;
  let c = options.c;
  if (kInit === undefined || c === undefined) {
    const seen = new Set(roots);
    const queue = [...roots];
    let modules = 0;
    for (let i = 0; i < queue.length; i++) {
      if (graph.getNodeAttribute(queue[i], 'kind') === 'Module') modules++;
      for (const n of neighbours(queue[i])) if (!seen.has(n)) (seen.add(n), queue.push(n));
    }
    kInit ??= Math.ceil(modules / 2);
    c ??= 1 / Math.sqrt(Math.log(4 * Math.max(1, seen.size)));
  }
  let k = Math.max(kMin, kInit);

  // Per-search caches: a node's similarity and relevance are computed at most once.
  const simCache = new Map<string, number>();
  const relCache = new Map<string, number>();
  let relLo = Infinity;
  let relHi = -Infinity;

  // The search tree, keyed by graph node id: a graph node joins the tree once (the first path that
  // reaches it), which turns the graph into a tree. A virtual node above the roots lets several start
  // nodes share one tree; it is not part of any path.
  const tree = new Map<string, TreeNode>();
  const top: TreeNode = { id: '', parent: null, children: [], R: 0, N: 0, exhausted: false };
  for (const r of roots) {
    const node: TreeNode = { id: r, parent: top, children: [], R: 0, N: 0, exhausted: false };
    tree.set(r, node);
    top.children.push(node);
  }
  /** The node's value R/N on the [0, 10] scale. */
  const value = (node: TreeNode): number => (scaling === 'batch' ? node.R / node.N : scaleScore(node.R / node.N, relLo, relHi));
  const unvisited = (id: string) => neighbours(id).filter((n) => !tree.has(n));

  // Step 1, selection: from the root, follow the child with the highest UCT
  //   R/N + c·sqrt(ln N_parent / N_child)
  // (a child never visited, N = 0, is taken first), until a node that still has unvisited graph
  // neighbours. Ties go to the smaller id. A node with no unvisited neighbour and no selectable child is
  // marked exhausted and the walk restarts; when the top is exhausted the tree cannot grow any more.
  const select = (): TreeNode | null => {
    for (;;) {
      if (top.exhausted) return null;
      let node = top;
      for (;;) {
        if (node !== top && unvisited(node.id).length > 0) return node;
        let best: TreeNode | null = null;
        let bestScore = -Infinity;
        for (const child of node.children) {
          if (child.exhausted) continue;
          const score = child.N === 0 ? Infinity : value(child) + c! * Math.sqrt(Math.log(Math.max(1, node.N)) / child.N);
          if (score > bestScore || (score === bestScore && best !== null && child.id < best.id)) {
            best = child;
            bestScore = score;
          }
        }
        if (!best) {
          node.exhausted = true;
          break; // restart from the top
        }
        node = best;
      }
    }
  };

  // How many (query, node) pairs the next cross-encoder call may score: as many as the time left
  // covers at the last call's speed, at most `batchSize`; at least one for an expansion's first call
  // (an expansion without children is wasted), none once the budget is spent.
  let msPerPair: number | undefined;
  const relevanceBatch = (leftMs: number, firstOfExpansion: boolean): number => {
    if (msPerPair === undefined) return Math.min(batchSize, FIRST_BATCH);
    const affordable = msPerPair > 0 ? Math.floor(leftMs / msPerPair) : batchSize;
    return Math.min(batchSize, Math.max(firstOfExpansion ? 1 : 0, affordable));
  };

  let iterations = 0;
  // An iteration starts only while the time left covers at least one cross-encoder pair.
  while (iterations < maxIterations && elapsed() + (msPerPair ?? 0) < budget) {
    const leaf = select();
    if (!leaf) break;

    // Step 2, expansion: rank the unvisited neighbours by bi-encoder similarity to the query (one
    // batched call for those not yet scored) and add the top k as children; k then halves, floored at k_min.
    const candidates = unvisited(leaf.id);
    const missingSim = candidates.filter((id) => !simCache.has(id));
    if (missingSim.length > 0) {
      const sims = await scorers.similarity(query, missingSim);
      missingSim.forEach((id, i) => simCache.set(id, sims[i] ?? 0));
    }
    const chosen = candidates
      .sort((a, b) => simCache.get(b)! - simCache.get(a)! || byId(a, b))
      .slice(0, k);
    k = Math.max(kMin, Math.floor(k / 2));

    // Step 3, simulation: one batched cross-encoder call over the new children, the scores scaled to
    // [0, 10] (see `scaling`). Each child starts with its own score as its value (R = score, N = 1: its
    // simulation is its first visit). The expansion's reward is the MAX of the children's scores: RANGER's
    // reward is the cross-encoder score, and a branch is worth returning to when its best new node is
    // relevant ("find where X is implemented" wants one node; a mean would punish a class for having
    // many unrelated methods next to the right one).
    // Scored in batches sized to the time left (relevanceBatch): a cross-encoder on a laptop CPU scores
    // tens of pairs per second, and the first expansions of a large repository hold hundreds of
    // children, so a fixed batch of 32 could overrun the budget by a second. Children not scored when
    // the budget runs out are left out of the tree.
    const missingRel = chosen.filter((id) => !relCache.has(id));
    for (let at = 0; at < missingRel.length; ) {
      const size = relevanceBatch(budget - elapsed(), at === 0);
      if (size === 0) break;
      const batch = missingRel.slice(at, at + size);
      const callStarted = clock();
      const rels = await scorers.relevance(query, batch);
      msPerPair = (clock() - callStarted) / batch.length;
      batch.forEach((id, i) => relCache.set(id, rels[i] ?? 0));
      at += batch.length;
    }
    const children = chosen.filter((id) => relCache.has(id));
    const raw = children.map((id) => relCache.get(id)!);
    relLo = Math.min(relLo, ...raw);
    relHi = Math.max(relHi, ...raw);
    const batchLo = Math.min(...raw);
    const batchHi = Math.max(...raw);
    // 'search': store raw scores (scaled when read); 'batch': store them scaled against this batch.
    const stored = raw.map((x) => (scaling === 'batch' ? scaleScore(x, batchLo, batchHi) : x));
    const reward = Math.max(...stored);
    children.forEach((id, i) => {
      const child: TreeNode = { id, parent: leaf, children: [], R: stored[i], N: 1, exhausted: false };
      tree.set(id, child);
      leaf.children.push(child);
    });

    // Step 4, backpropagation: the reward is added to R, and 1 to N, of the expanded node and of
    // every node above it up to the root (and the virtual top, whose N feeds the roots' UCT).
    for (let node: TreeNode | null = leaf; node; node = node.parent) {
      node.R += reward;
      node.N += 1;
    }
    iterations++;
  }

  // Final score (Algorithm 1, last step): α·R/N + (1−α)·10·sim(query, node), over every node the tree
  // holds except the start nodes, Folders and Externals. Every such node was a ranked candidate, so its
  // similarity is cached; the path is the tree path from its root.
  const rootSet = new Set(roots);
  const hits: SearchHit[] = [];
  const visits = new Map<string, number>();
  for (const [id, node] of tree) {
    visits.set(id, node.N);
    if (rootSet.has(id) || node.N === 0) continue;
    const kind = graph.getNodeAttribute(id, 'kind');
    if (kind === 'Folder' || kind === 'External') continue;
    const path: string[] = [];
    for (let n: TreeNode | null = node; n && n !== top; n = n.parent) path.push(n.id);
    path.reverse();
    const score = alpha * value(node) + (1 - alpha) * 10 * (simCache.get(id) ?? 0);
    hits.push({ id, score, via: 'mcts', path });
  }
  hits.sort((a, b) => b.score - a.score || byId(a.id, b.id));
  return { hits, iterations, visits };
}
