// LambdaMART in plain TypeScript (no dependency, deterministic): gradient-boosted regression trees whose
// gradients are LambdaRank's (each (relevant, other) pair pulled apart in proportion to how much NDCG@10
// would change if the two swapped places), each tree fitted to them with a Newton step per leaf. The
// features are thresholds, counts, shares and ranks on very different scales; trees split them where
// they matter, with no standardisation, which is what a linear layer or a small MLP cannot do with them.
// Growth is leaf-wise over per-feature histograms of quantile bins (LightGBM's way), the larger child's
// histogram got by subtracting the smaller's from its parent's. The number of trees is chosen on the
// validation queries, as the other scorers are.
import { treeValue, type RerankerTree, type TreeWeights } from '../../src/core/search/rerank';
import { evaluate, meanNdcg, swapGains, type Group } from './learn';

export interface TreeOptions {
  /** Trees at most; the count that scores best on validation is kept. */
  trees: number;
  leaves: number;
  learningRate: number;
  /** Fewest candidates in a leaf: a split that isolates a handful of rows learns their noise. */
  minLeaf: number;
  /** L2 on the leaf values (in the Newton step's denominator). */
  l2: number;
  /** Quantile bins per feature at most. */
  bins: number;
}

/** Per feature, the split points: up to `bins - 1` quantiles of its values (distinct, ascending). */
function splitPoints(rows: number[][], feature: number, bins: number): number[] {
  const values = rows.map((x) => x[feature]).sort((a, b) => a - b);
  const points: number[] = [];
  for (let b = 1; b < bins; b++) {
    const v = values[Math.min(values.length - 1, Math.floor((b * values.length) / bins))];
    // A split point must leave something above it; the largest value never is one.
    if (v < values[values.length - 1] && (points.length === 0 || v > points[points.length - 1])) points.push(v);
  }
  return points;
}

/** The bin of value v: the first split point it does not exceed (points.length when above them all). */
function binOf(points: number[], v: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= points[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** LambdaRank's gradient and Newton weight of each candidate of one query at the current scores. */
function lambdas(scores: Float64Array, start: number, labels: number[], grad: Float64Array, hess: Float64Array): void {
  const s = Array.from(scores.subarray(start, start + labels.length));
  const gain = swapGains(s);
  for (let a = 0; a < labels.length; a++) {
    if (labels[a] !== 1) continue;
    for (let b = 0; b < labels.length; b++) {
      if (labels[b] !== 0) continue;
      const delta = Math.abs(gain[a] - gain[b]);
      if (delta === 0) continue;
      const rho = 1 / (1 + Math.exp(s[a] - s[b]));
      grad[start + a] -= rho * delta;
      grad[start + b] += rho * delta;
      const w = Math.max(rho * (1 - rho) * delta, 1e-9);
      hess[start + a] += w;
      hess[start + b] += w;
    }
  }
}

const sum = (ids: Int32Array, of: Float64Array): number => ids.reduce((s, r) => s + of[r], 0);

interface Leaf {
  rows: Int32Array;
  /** Per feature and bin: sum of gradients, of hessians, and the count (3 numbers each). */
  hist: Float64Array;
  g: number;
  h: number;
  /** Where it hangs in the tree: the parent's node index and side, -1 for the root. */
  parent: number;
  side: 'left' | 'right';
  best?: { feature: number; bin: number; gain: number };
}

/**
 * Trains on the groups that have a relevant candidate; returns the product's tree format (rerank.ts)
 * with the number of trees that scored best on `validation`, and that score after each tree.
 */
export function trainTrees(groups: Group[], validation: Group[], features: string[], options: TreeOptions): { weights: TreeWeights; curve: number[] } {
  const usable = groups.filter((g) => g.labels.includes(1) && g.labels.includes(0));
  const rows = usable.flatMap((g) => g.features);
  const starts: number[] = [];
  usable.reduce((at, g) => (starts.push(at), at + g.features.length), 0);
  const width = features.length;
  const points = Array.from({ length: width }, (_v, f) => splitPoints(rows, f, options.bins));
  const nBins = Math.max(...points.map((p) => p.length)) + 1;
  const binned = new Uint8Array(rows.length * width);
  rows.forEach((x, r) => {
    for (let f = 0; f < width; f++) binned[r * width + f] = binOf(points[f], x[f]);
  });

  const histogram = (rowIds: Int32Array, grad: Float64Array, hess: Float64Array): Float64Array => {
    const hist = new Float64Array(width * nBins * 3);
    for (const r of rowIds) {
      const g = grad[r];
      const h = hess[r];
      const base = r * width;
      for (let f = 0; f < width; f++) {
        const at = (f * nBins + binned[base + f]) * 3;
        hist[at] += g;
        hist[at + 1] += h;
        hist[at + 2]++;
      }
    }
    return hist;
  };
  const bestSplit = (leaf: Leaf): Leaf['best'] => {
    const parentScore = (leaf.g * leaf.g) / (leaf.h + options.l2);
    let best: Leaf['best'];
    for (let f = 0; f < width; f++) {
      let gl = 0;
      let hl = 0;
      let nl = 0;
      for (let b = 0; b < points[f].length; b++) {
        const at = (f * nBins + b) * 3;
        gl += leaf.hist[at];
        hl += leaf.hist[at + 1];
        nl += leaf.hist[at + 2];
        const nr = leaf.rows.length - nl;
        if (nl < options.minLeaf) continue;
        if (nr < options.minLeaf) break;
        const gr = leaf.g - gl;
        const hr = leaf.h - hl;
        const gain = (gl * gl) / (hl + options.l2) + (gr * gr) / (hr + options.l2) - parentScore;
        if (gain > (best?.gain ?? 1e-12)) best = { feature: f, bin: b, gain };
      }
    }
    return best;
  };

  const scores = new Float64Array(rows.length);
  const validationScores = validation.map((g) => new Float64Array(g.features.length));
  const trees: RerankerTree[] = [];
  const curve: number[] = [];
  const all = Int32Array.from(rows.keys());
  for (let t = 0; t < options.trees; t++) {
    const grad = new Float64Array(rows.length);
    const hess = new Float64Array(rows.length);
    usable.forEach((g, i) => lambdas(scores, starts[i], g.labels, grad, hess));
    const tree: RerankerTree = { feature: [], threshold: [], left: [], right: [], leaf: [] };
    const root: Leaf = { rows: all, hist: histogram(all, grad, hess), g: sum(all, grad), h: sum(all, hess), parent: -1, side: 'left' };
    root.best = bestSplit(root);
    const open: Leaf[] = [root];
    const done: Leaf[] = [];
    while (open.length > 0 && open.length + done.length < options.leaves) {
      // Leaf-wise: split the leaf whose best split gains most.
      open.sort((a, b) => (b.best?.gain ?? 0) - (a.best?.gain ?? 0));
      const leaf = open.shift()!;
      if (!leaf.best) {
        done.push(leaf);
        continue;
      }
      const { feature, bin } = leaf.best;
      const node = tree.feature.length;
      tree.feature.push(feature);
      tree.threshold.push(points[feature][bin]);
      tree.left.push(0);
      tree.right.push(0);
      if (leaf.parent >= 0) tree[leaf.side][leaf.parent] = node;
      const goesLeft = (r: number) => binned[r * width + feature] <= bin;
      const left = leaf.rows.filter(goesLeft);
      const right = leaf.rows.filter((r) => !goesLeft(r));
      const [small, large] = left.length <= right.length ? [left, right] : [right, left];
      const smallHist = histogram(small, grad, hess);
      const largeHist = leaf.hist.map((v, i) => v - smallHist[i]);
      for (const [ids, hist] of [[small, smallHist], [large, largeHist]] as const) {
        const child: Leaf = { rows: ids, hist, g: sum(ids, grad), h: sum(ids, hess), parent: node, side: ids === left ? 'left' : 'right' };
        child.best = bestSplit(child);
        open.push(child);
      }
    }
    // Each leaf's Newton step, shrunk by the learning rate; a leaf index i is stored as child -(i + 1).
    for (const leaf of [...done, ...open]) {
      const value = Number(((-leaf.g / (leaf.h + options.l2)) * options.learningRate).toPrecision(6));
      const index = tree.leaf.length;
      tree.leaf.push(value);
      if (leaf.parent >= 0) tree[leaf.side][leaf.parent] = -(index + 1);
      for (const r of leaf.rows) scores[r] += value;
    }
    trees.push(tree);
    validation.forEach((g, i) => g.features.forEach((x, j) => (validationScores[i][j] += treeValue(tree, x))));
    curve.push(meanNdcg(validation, validationScores));
  }
  const bestCount = curve.indexOf(Math.max(...curve)) + 1;
  const weights: TreeWeights = { features, trees: trees.slice(0, bestCount), bias: 0 };
  // What was measured is what ships: the product's scorer gives the same validation score.
  const check = evaluate(validation, weights);
  if (Math.abs(check - curve[bestCount - 1]) > 1e-9) throw new Error(`tree scorer mismatch: ${check} vs ${curve[bestCount - 1]}`);
  return { weights, curve };
}
