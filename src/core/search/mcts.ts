// RANGER's natural-language retrieval (§3.4, Algorithm 1): Monte Carlo Tree Search over the repository
// graph. Selection by UCT, expansion of the top-k unvisited neighbours ranked by a bi-encoder (k halves
// after each expansion, never below k_min), simulation = batched cross-encoder relevance as the reward
// (scaled to [0, 10]), backpropagation along the tree path, and the final score
// α·R/N + (1−α)·10·sim(query, node).
//
// Editor- and model-independent: the two scorers are injected (a transformers.js model, an HTTP
// endpoint or a model-free stand-in), and the graph is the plain graphology graph of the engine.
import type { ReadonlyGraph } from '../graph/describe';
import { EDGE_KINDS, type GraphEdge } from '../model/schema';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

export interface MctsScorers {
  /** Bi-encoder similarity in [-1, 1] (cosine) between the query and each node, batched. */
  similarity(query: string, nodeIds: string[]): Promise<number[]>;
  /** Cross-encoder relevance of each node, batched; any real range — the search scales it to [0, 10]. */
  relevance(query: string, nodeIds: string[]): Promise<number[]>;
}

export interface MctsOptions {
  /**
   * The search's budget: expansions (iterations of Algorithm 1) to run; paper: 200–500. Default 200.
   * A budget counted in iterations, not time, gives the same ranking for the same query on the same
   * graph however loaded the machine is, and runs the traversal on a large repository too.
   */
  iterations?: number;
  /** First expansion's k; default ceil(N_modules / 2), N_modules = Module nodes reachable from the roots. */
  kInit?: number;
  /** Floor of k; default 20. */
  kMin?: number;
  /** UCT exploration constant; default 1 / sqrt(ln(4N)), N = number of nodes reachable from the roots. */
  c?: number;
  /** Weight of the tree value R/N in the final score; default 0.7 (paper 0.5–0.9). */
  alpha?: number;
  /**
   * A safety cap only: stop once this much wall time has passed (checked in the setup's walk of the
   * graph, before every iteration and between cross-encoder batches), and say so (`cut`). Default
   * 1500; `Infinity` disables it.
   */
  safetyMs?: number;
  /** Graph neighbours of a node; default {@link defaultNeighbours}. */
  neighbours?: (graph: Graph, id: string) => string[];
  /**
   * The default neighbour lists made by earlier searches of this same graph, filled by this one up to
   * {@link KEPT_LISTS} lists: the caller keeps the map while the graph does not change (the root
   * folder's and the large modules' lists are otherwise made again by every query).
   */
  neighbourLists?: Map<string, string[]>;
  /**
   * What the root reaches ({@link rootCounts}), counted once per graph version by the caller that keeps
   * the version's memos; counted here on every search when absent.
   */
  rootCounts?: () => RootCounts;
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
  /** Cross-encoder calls score this many nodes each (the last of an expansion fewer). Default 32. */
  batchSize?: number;
  /** @internal Test seam: the clock the safety cap is measured with (default `Date.now`). */
  clock?: () => number;
}

export interface MctsResult {
  hits: SearchHit[];
  /** Expansions performed (each one is one iteration of Algorithm 1). */
  iterations: number;
  /** The safety cap stopped the search before its iterations were done (the ranking then depends on the machine's speed). */
  cut: boolean;
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

/** Nodes the setup's reachability walk visits between two looks at the clock. */
const CLOCK_EVERY = 256;

type Neighbours = (id: string) => string[];

export async function mctsSearch(graph: Graph, query: string, scorers: MctsScorers, options: MctsOptions = {}): Promise<MctsResult> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const cap = options.safetyMs ?? 1500;
  const overBudget = () => clock() - started >= cap;
  let roots = options.roots ?? (graph.hasNode('dir:.') ? ['dir:.'] : graph.filterNodes((_, a) => a.kind === 'Module'));
  roots = [...new Set(roots.filter((r) => graph.hasNode(r)))].sort(byId);
  const neighbours = memoized((id) => (options.neighbours ?? defaultNeighbours)(graph, id), options.neighbours ? undefined : options.neighbourLists);
  const { kInit, c } = treeParameters(graph, roots, neighbours, options, overBudget);
  const search = new TreeSearch(graph, query, scorers, roots, neighbours, { ...options, kInit, c }, overBudget);
  return search.run(options.iterations ?? 200);
}

/**
 * Lists kept across searches at most: the ones every search starts with (the root's, the top folders',
 * the modules the seeds sit in) are made first and so kept; a long-lived service's memory stays bounded
 * however many questions walk however much of a large graph (Django's whole graph: ~18k lists).
 */
const KEPT_LISTS = 20_000;

/** Neighbour lists are asked for repeatedly (the setup's walk, selection): each is computed once per search. */
function memoized(neighboursOf: Neighbours, kept?: Map<string, string[]>): Neighbours {
  const own = new Map<string, string[]>();
  return (id) => {
    let list = kept?.get(id) ?? own.get(id);
    if (!list) {
      list = neighboursOf(id);
      if (kept && kept.size < KEPT_LISTS) kept.set(id, list);
      else own.set(id, list);
    }
    return list;
  };
}

/**
 * Paper defaults that depend on the graph: k_init = N_modules / 2 and c = 1/sqrt(ln(4N)), counted over
 * what the search can reach from its roots: from the repository root, every node but External ones
 * ({@link rootCounts}); from other roots, a breadth-first walk (only when a default is used), which
 * stops at the safety cap.
 */
function treeParameters(graph: Graph, roots: string[], neighbours: Neighbours, options: MctsOptions, overBudget: () => boolean): { kInit: number; c: number } {
  if (options.kInit !== undefined && options.c !== undefined) return { kInit: options.kInit, c: options.c };
  const fromRoot = !options.neighbours && roots.includes('dir:.') && roots.every((r) => graph.getNodeAttribute(r, 'kind') !== 'External');
  const reach = fromRoot ? (options.rootCounts ?? (() => rootCounts(graph)))() : walk(graph, roots, (id, visit) => neighbours(id).forEach(visit), overBudget);
  return { kInit: options.kInit ?? Math.ceil(reach.modules / 2), c: options.c ?? 1 / Math.sqrt(Math.log(4 * Math.max(1, reach.nodes))) };
}

export interface RootCounts {
  /** Nodes reached (roots included) and how many of them are Modules. */
  nodes: number;
  modules: number;
}

/** Breadth-first from the roots; `forEachNeighbour` may repeat a neighbour. Looks at the clock every few hundred nodes. */
function walk(graph: Graph, roots: string[], forEachNeighbour: (id: string, visit: (other: string) => void) => void, overBudget: () => boolean): RootCounts {
  const seen = new Set(roots);
  const queue = [...roots];
  const visit = (n: string) => {
    if (!seen.has(n)) (seen.add(n), queue.push(n));
  };
  let modules = 0;
  let i = 0;
  for (; i < queue.length; i++) {
    if (i % CLOCK_EVERY === CLOCK_EVERY - 1 && overBudget()) break;
    if (graph.getNodeAttribute(queue[i], 'kind') === 'Module') modules++;
    forEachNeighbour(queue[i], visit);
  }
  return { nodes: seen.size, modules };
}

/**
 * What the default neighbourhood reaches from the repository root, counted instead of walked: every
 * node but External ones, since a Folder's out-edges reach its sub-folders and modules and a module
 * contains its definitions (mcts.test checks the walk reaches exactly these on real repositories of
 * every language). Walking Django's 18k nodes took 10-20 ms, paid by the first question after each edit.
 */
export function rootCounts(graph: Graph): RootCounts {
  let nodes = 0;
  let modules = 0;
  graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'External') return;
    nodes++;
    if (attributes.kind === 'Module') modules++;
  });
  return { nodes, modules };
}

/** The state of one search: the tree, the scorers' caches and the range of rewards. */
class TreeSearch {
  private readonly tree = new Map<string, TreeNode>();
  /**
   * The search tree, keyed by graph node id: a graph node joins the tree once (the first path that
   * reaches it), which turns the graph into a tree. A virtual node above the roots lets several start
   * nodes share one tree; it is not part of any path.
   */
  private readonly top: TreeNode = { id: '', parent: null, children: [], R: 0, N: 0, exhausted: false };
  /** Per-search caches: a node's similarity and relevance are computed at most once. */
  private readonly simCache = new Map<string, number>();
  private readonly relCache = new Map<string, number>();
  /** Per tree node, where in its neighbour list to look for an unvisited one next ({@link hasUnvisited}). */
  private readonly unvisitedFrom = new Map<string, number>();
  private relLo = Infinity;
  private relHi = -Infinity;
  private k: number;
  /** The safety cap stopped an expansion or the loop. */
  private cut = false;
  private readonly kMin: number;
  private readonly scaling: 'search' | 'batch';
  private readonly batchSize: number;

  constructor(
    private readonly graph: Graph,
    private readonly query: string,
    private readonly scorers: MctsScorers,
    private readonly roots: string[],
    private readonly neighbours: Neighbours,
    private readonly options: MctsOptions & { kInit: number; c: number },
    private readonly overCap: () => boolean,
  ) {
    this.kMin = Math.max(1, options.kMin ?? 20);
    this.k = Math.max(this.kMin, options.kInit);
    this.scaling = options.scaling ?? 'search';
    this.batchSize = Math.max(1, options.batchSize ?? 32);
    for (const r of roots) {
      const node: TreeNode = { id: r, parent: this.top, children: [], R: 0, N: 0, exhausted: false };
      this.tree.set(r, node);
      this.top.children.push(node);
    }
  }

  async run(maxIterations: number): Promise<MctsResult> {
    let iterations = 0;
    while (iterations < maxIterations && !this.cut) {
      if (this.overCap()) {
        this.cut = true;
        break;
      }
      const leaf = this.select();
      if (!leaf) break;
      const chosen = await this.expand(leaf);
      const reward = await this.simulate(leaf, chosen);
      this.backpropagate(leaf, reward);
      iterations++;
    }
    return { hits: this.hits(), iterations, cut: this.cut, visits: new Map([...this.tree].map(([id, node]) => [id, node.N])) };
  }

  /** The node's value R/N on the [0, 10] scale. */
  private value(node: TreeNode): number {
    return this.scaling === 'batch' ? node.R / node.N : scaleScore(node.R / node.N, this.relLo, this.relHi);
  }

  private unvisited(id: string): string[] {
    return this.neighbours(id).filter((n) => !this.tree.has(n));
  }

  /**
   * Whether `id` has a neighbour not in the tree yet. Asked for every node on every selection path:
   * a node only ever joins the tree, so the neighbours before the first one found unvisited stay
   * visited and the next look starts there (a hub's list is read once per search, not per iteration).
   */
  private hasUnvisited(id: string): boolean {
    const list = this.neighbours(id);
    let at = this.unvisitedFrom.get(id) ?? 0;
    while (at < list.length && this.tree.has(list[at])) at++;
    this.unvisitedFrom.set(id, at);
    return at < list.length;
  }

  /**
   * Step 1, selection: from the root, follow the child with the highest UCT
   *   R/N + c·sqrt(ln N_parent / N_child)
   * (a child never visited, N = 0, is taken first), until a node that still has unvisited graph
   * neighbours. Ties go to the smaller id. A node with no unvisited neighbour and no selectable child is
   * marked exhausted and the walk restarts; when the top is exhausted the tree cannot grow any more.
   */
  private select(): TreeNode | null {
    while (!this.top.exhausted) {
      let node = this.top;
      for (;;) {
        if (node !== this.top && this.hasUnvisited(node.id)) return node;
        const best = this.bestChild(node);
        if (!best) {
          node.exhausted = true;
          break; // restart from the top
        }
        node = best;
      }
    }
    return null;
  }

  private bestChild(node: TreeNode): TreeNode | null {
    let best: TreeNode | null = null;
    let bestScore = -Infinity;
    for (const child of node.children) {
      if (child.exhausted) continue;
      const score = child.N === 0 ? Infinity : this.value(child) + this.options.c * Math.sqrt(Math.log(Math.max(1, node.N)) / child.N);
      if (score > bestScore || (score === bestScore && best !== null && child.id < best.id)) {
        best = child;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * Step 2, expansion: rank the unvisited neighbours by bi-encoder similarity to the query (one
   * batched call for those not yet scored) and take the top k; k then halves, floored at k_min.
   */
  private async expand(leaf: TreeNode): Promise<string[]> {
    const candidates = this.unvisited(leaf.id);
    const missing = candidates.filter((id) => !this.simCache.has(id));
    if (missing.length > 0) {
      const sims = await this.scorers.similarity(this.query, missing);
      missing.forEach((id, i) => this.simCache.set(id, sims[i] ?? 0));
    }
    const chosen = candidates.sort((a, b) => this.simCache.get(b)! - this.simCache.get(a)! || byId(a, b)).slice(0, this.k);
    this.k = Math.max(this.kMin, Math.floor(this.k / 2));
    return chosen;
  }

  /**
   * Step 3, simulation: batched cross-encoder calls over the chosen children, the scores scaled to
   * [0, 10] (see `scaling`). Each child starts with its own score as its value (R = score, N = 1: its
   * simulation is its first visit). The expansion's reward is the MAX of the children's scores: RANGER's
   * reward is the cross-encoder score, and a branch is worth returning to when its best new node is
   * relevant ("find where X is implemented" wants one node; a mean would punish a class for having
   * many unrelated methods next to the right one).
   * Scored in batches of a fixed size, whatever the scorer's speed, so that the tree does not depend on
   * it. Only the safety cap stops an expansion half-way (the first batch always runs: an expansion
   * without children is wasted); children not scored then are left out of the tree.
   */
  private async simulate(leaf: TreeNode, chosen: string[]): Promise<number> {
    const missing = chosen.filter((id) => !this.relCache.has(id));
    for (let at = 0; at < missing.length; at += this.batchSize) {
      if (at > 0 && this.overCap()) {
        this.cut = true;
        break;
      }
      const batch = missing.slice(at, at + this.batchSize);
      const rels = await this.scorers.relevance(this.query, batch);
      batch.forEach((id, i) => this.relCache.set(id, rels[i] ?? 0));
    }
    const children = chosen.filter((id) => this.relCache.has(id));
    const raw = children.map((id) => this.relCache.get(id)!);
    this.relLo = Math.min(this.relLo, ...raw);
    this.relHi = Math.max(this.relHi, ...raw);
    const batchLo = Math.min(...raw);
    const batchHi = Math.max(...raw);
    // 'search': store raw scores (scaled when read); 'batch': store them scaled against this batch.
    const stored = raw.map((x) => (this.scaling === 'batch' ? scaleScore(x, batchLo, batchHi) : x));
    children.forEach((id, i) => {
      const child: TreeNode = { id, parent: leaf, children: [], R: stored[i], N: 1, exhausted: false };
      this.tree.set(id, child);
      leaf.children.push(child);
    });
    return Math.max(...stored);
  }

  /**
   * Step 4, backpropagation: the reward is added to R, and 1 to N, of the expanded node and of every
   * node above it up to the root (and the virtual top, whose N feeds the roots' UCT).
   */
  private backpropagate(leaf: TreeNode, reward: number): void {
    for (let node: TreeNode | null = leaf; node; node = node.parent) {
      node.R += reward;
      node.N += 1;
    }
  }

  /**
   * Final score (Algorithm 1, last step): α·R/N + (1−α)·10·sim(query, node), over every node the tree
   * holds except the start nodes, Folders and Externals. Every such node was a ranked candidate, so its
   * similarity is cached; the path is the tree path from its root.
   */
  private hits(): SearchHit[] {
    const alpha = this.options.alpha ?? 0.7;
    const rootSet = new Set(this.roots);
    const hits: SearchHit[] = [];
    for (const [id, node] of this.tree) {
      if (rootSet.has(id) || node.N === 0) continue;
      const kind = this.graph.getNodeAttribute(id, 'kind');
      if (kind === 'Folder' || kind === 'External') continue;
      const path: string[] = [];
      for (let n: TreeNode | null = node; n && n !== this.top; n = n.parent) path.push(n.id);
      path.reverse();
      const score = alpha * this.value(node) + (1 - alpha) * 10 * (this.simCache.get(id) ?? 0);
      hits.push({ id, score, via: 'mcts', path });
    }
    return hits.sort((a, b) => b.score - a.score || byId(a.id, b.id));
  }
}
