// Two trained scorers mixed into one (the product's BlendWeights, src/core/search/rerank.ts): boosted
// trees cut each feature into steps, a linear scorer weighs them smoothly, and where one misorders a
// query the other often does not. Each member's scores are standardised over the training candidates,
// then the share of the first is chosen on validation, as the trees' count is
// (docs/benchmarks.md, "The shipped code-search model and reranker").
import { rerankerScore, type BlendWeights, type NeuralWeights, type TreeWeights } from '../../src/core/search/rerank';
import { evaluate, meanNdcg, standardisation, type Group } from './learn';

type Member = NeuralWeights | TreeWeights;

/** The first member's shares tried (the second gets the rest). */
export const BLEND_SHARES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Mean and standard deviation of a scorer's scores over every training candidate (learn.ts' standardisation of that one column). */
function spread(scorer: Member, groups: Group[]): { mean: number; std: number } {
  const scores = groups.map((g) => ({ ...g, features: g.features.map((x) => [rerankerScore(scorer, x)]) }));
  const { mean, std } = standardisation(scores, 1);
  return { mean: Number(mean[0].toPrecision(6)), std: Number(std[0].toPrecision(6)) };
}

/** The blend of `first` and `second` whose share validates best, and each share's validation NDCG@10. */
export function blend(first: Member, second: Member, train: Group[], validation: Group[]): { weights: BlendWeights; curve: { share: number; ndcg: number }[] } {
  const members = [first, second].map((scorer) => ({ scorer, ...spread(scorer, train) }));
  // Each member's standardised validation scores, computed once for every share.
  const standardised = members.map((m) => validation.map((g) => g.features.map((x) => (rerankerScore(m.scorer, x) - m.mean) / m.std)));
  const curve = BLEND_SHARES.map((share) => ({
    share,
    ndcg: meanNdcg(validation, standardised[0].map((a, gi) => a.map((s, i) => share * s + (1 - share) * standardised[1][gi][i]))),
  }));
  const best = curve.reduce((a, b) => (b.ndcg > a.ndcg + 1e-12 ? b : a));
  const weights: BlendWeights = { features: first.features, members: members.map((m, i) => ({ weight: i === 0 ? best.share : Number((1 - best.share).toFixed(6)), mean: m.mean, std: m.std, scorer: m.scorer })) };
  // What was measured is what ships: the product's scorer gives the same validation score.
  const check = evaluate(validation, weights);
  if (Math.abs(check - best.ndcg) > 1e-9) throw new Error(`blend scorer mismatch: ${check} vs ${best.ndcg}`);
  return { weights, curve };
}
