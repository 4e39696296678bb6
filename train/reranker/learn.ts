// Learning to rank, in plain TypeScript (no dependency, deterministic for a seed): RankNet's pairwise
// logistic loss (the relevant candidate of a query against each other candidate of that query), each
// query weighing the same, over a linear scorer or one tanh hidden layer, with Adam and a little L2.
// The scorer is the product's own (`rerankerScore` in src/core/search/rerank.ts), so what is trained
// is exactly what runs.
import { rerankerScore, type NeuralWeights, type RerankerWeights } from '../../src/core/search/rerank';
// mulberry32: two runs draw the same initial weights and batches.
import { rng as seeded } from '../../test/support/rng';

/** A query's candidates: feature rows and 0/1 labels (the relevant function), plus relevance keys for NDCG. */
export interface Group {
  features: number[][];
  labels: number[];
  keys: string[];
}

export interface TrainOptions {
  /**
   * 'ranknet': every (relevant, other) pair counts the same. 'lambdarank': each pair's gradient is
   * weighted by how much NDCG@10 would change if the two swapped places in the current order, so
   * that the training spends itself on the top of the list, where the metric (and a user) looks.
   */
  loss?: 'ranknet' | 'lambdarank';
  hidden: number;
  epochs: number;
  learningRate: number;
  l2: number;
  batch: number;
  seed: number;
}


/** Per-feature mean and standard deviation over every candidate (a constant feature gets std 1). */
export function standardisation(groups: Group[], width: number): { mean: number[]; std: number[] } {
  const mean = new Array(width).fill(0);
  const sq = new Array(width).fill(0);
  let n = 0;
  for (const g of groups)
    for (const x of g.features) {
      n++;
      for (let i = 0; i < width; i++) {
        mean[i] += x[i];
        sq[i] += x[i] * x[i];
      }
    }
  const m = mean.map((s) => s / Math.max(1, n));
  const std = sq.map((s, i) => Math.sqrt(Math.max(0, s / Math.max(1, n) - m[i] * m[i])));
  return { mean: m, std: std.map((s) => (s > 1e-9 ? s : 1)) };
}

/** Parameters as one flat vector (for Adam), with views in the shape of RerankerWeights. */
class Params {
  readonly flat: Float64Array;
  constructor(
    readonly width: number,
    readonly hidden: number,
  ) {
    this.flat = new Float64Array(hidden > 0 ? hidden * width + hidden + hidden + 1 : width + 1);
  }
  weights(norm: { mean: number[]; std: number[] }, features: string[]): NeuralWeights {
    const f = Array.from(this.flat, (v) => Number(v.toPrecision(6)));
    if (this.hidden === 0) return { features, ...norm, output: f.slice(0, this.width), bias: f[this.width] };
    const h = this.hidden;
    const w = this.width;
    return {
      features,
      ...norm,
      hidden: { weights: Array.from({ length: h }, (_v, j) => f.slice(j * w, (j + 1) * w)), bias: f.slice(h * w, h * w + h) },
      output: f.slice(h * w + h, h * w + 2 * h),
      bias: f[h * w + 2 * h],
    };
  }
}

/** Score of one standardised row and the gradient of that score with respect to every parameter (added into `grad` times `scale`). */
function forward(p: Params, z: number[], grad?: Float64Array, scale = 0): number {
  const { width: w, hidden: h, flat } = p;
  if (h === 0) {
    let s = flat[w];
    for (let i = 0; i < w; i++) s += flat[i] * z[i];
    if (grad) {
      for (let i = 0; i < w; i++) grad[i] += scale * z[i];
      grad[w] += scale;
    }
    return s;
  }
  const act = new Array(h);
  let s = flat[h * w + 2 * h];
  for (let j = 0; j < h; j++) {
    let a = flat[h * w + j];
    for (let i = 0; i < w; i++) a += flat[j * w + i] * z[i];
    act[j] = Math.tanh(a);
    s += flat[h * w + h + j] * act[j];
  }
  if (grad) {
    for (let j = 0; j < h; j++) {
      const out = flat[h * w + h + j];
      grad[h * w + h + j] += scale * act[j];
      const back = scale * out * (1 - act[j] * act[j]);
      for (let i = 0; i < w; i++) grad[j * w + i] += back * z[i];
      grad[h * w + j] += back;
    }
    grad[h * w + 2 * h] += scale;
  }
  return s;
}

/** Trains on the groups that have a relevant candidate; returns the product's weight format. */
export function train(groups: Group[], features: string[], options: TrainOptions): NeuralWeights {
  const width = features.length;
  const norm = standardisation(groups, width);
  const usable = groups.filter((g) => g.labels.includes(1) && g.labels.includes(0));
  const standardised = usable.map((g) => ({ z: g.features.map((x) => x.map((v, i) => (v - norm.mean[i]) / norm.std[i])), labels: g.labels }));
  const random = seeded(options.seed);
  const p = new Params(width, options.hidden);
  // Small random start for a hidden layer (tanh needs asymmetry); a linear model starts at zero.
  if (options.hidden > 0) for (let i = 0; i < p.flat.length; i++) p.flat[i] = (random() - 0.5) * 0.2;
  const m = new Float64Array(p.flat.length);
  const v = new Float64Array(p.flat.length);
  let step = 0;
  const order = standardised.map((_g, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let start = 0; start < order.length; start += options.batch) {
      const grad = new Float64Array(p.flat.length);
      const batch = order.slice(start, start + options.batch);
      for (const gi of batch) {
        const g = standardised[gi];
        const scores = g.z.map((z) => forward(p, z));
        // dLoss/dScore per candidate for RankNet: each (relevant, other) pair adds -sigmoid(-(s_pos - s_neg)) to the relevant one and the opposite to the other.
        const dScore = new Array(scores.length).fill(0);
        const positives = g.labels.flatMap((l, i) => (l === 1 ? [i] : []));
        const negatives = g.labels.flatMap((l, i) => (l === 0 ? [i] : []));
        const pairs = positives.length * negatives.length;
        const gain = options.loss === 'lambdarank' ? swapGains(scores) : undefined;
        for (const a of positives)
          for (const b of negatives) {
            const weight = gain ? Math.abs(gain[a] - gain[b]) : 1 / pairs;
            if (weight === 0) continue;
            const d = weight / (1 + Math.exp(scores[a] - scores[b]));
            dScore[a] -= d;
            dScore[b] += d;
          }
        g.z.forEach((z, i) => dScore[i] !== 0 && forward(p, z, grad, dScore[i] / batch.length));
      }
      step++;
      const b1 = 0.9;
      const b2 = 0.999;
      for (let i = 0; i < grad.length; i++) {
        const gr = grad[i] + options.l2 * p.flat[i];
        m[i] = b1 * m[i] + (1 - b1) * gr;
        v[i] = b2 * v[i] + (1 - b2) * gr * gr;
        p.flat[i] -= (options.learningRate * (m[i] / (1 - b1 ** step))) / (Math.sqrt(v[i] / (1 - b2 ** step)) + 1e-8);
      }
    }
  }
  return p.weights(norm, features);
}

/** Each candidate's NDCG@10 gain at its place in the order of `scores` (1/log2(rank + 2) in the top 10, else 0): a swap of two changes NDCG by their difference. */
export function swapGains(scores: number[]): number[] {
  const order = scores.map((_s, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const gain = new Array<number>(scores.length).fill(0);
  order.forEach((candidate, rank) => {
    if (rank < 10) gain[candidate] = 1 / Math.log2(rank + 2);
  });
  return gain;
}

/** NDCG@10 of one ranking of keys with one relevant key (overloads collapsed as bench:search does). */
export function ndcg10(keys: string[], relevant: Set<string>): number {
  const seen = new Set<string>();
  let rank = 0;
  for (const k of keys) {
    if (seen.has(k)) continue;
    seen.add(k);
    if (rank >= 10) break;
    if (relevant.has(k)) return 1 / Math.log2(rank + 2);
    rank++;
  }
  return 0;
}

/** Mean NDCG@10 of the groups in their fused order, and reordered by the weights. */
export function evaluate(groups: Group[], weights: RerankerWeights | undefined): number {
  return meanNdcg(groups, groups.map((g) => (weights ? g.features.map((x) => rerankerScore(weights, x)) : undefined)));
}

/** Mean NDCG@10 of the groups, each ordered by its candidates' scores (ties and no scores: the fused order). */
export function meanNdcg(groups: Group[], scores: (ArrayLike<number> | undefined)[]): number {
  if (groups.length === 0) return 0;
  let sum = 0;
  groups.forEach((g, gi) => {
    const relevant = new Set(g.keys.filter((_k, i) => g.labels[i] === 1));
    const s = scores[gi];
    const order = g.keys.map((_k, i) => i);
    if (s) order.sort((a, b) => s[b] - s[a] || a - b);
    sum += ndcg10(order.map((i) => g.keys[i]), relevant);
  });
  return sum / groups.length;
}
