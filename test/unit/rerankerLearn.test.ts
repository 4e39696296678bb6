// The reranker's trainer (train/reranker/learn.ts): LambdaRank's swap weights are NDCG@10's, both
// losses learn a ranking that one feature decides from a random given order, boosted trees learn one a
// linear scorer cannot, and training is seeded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluate, swapGains, train, type Group } from '../../train/reranker/learn';
import { blend, BLEND_SHARES } from '../../train/reranker/blend';
import { trainTrees } from '../../train/reranker/trees';
import { rng } from '../support/rng';

test('swap gains are each candidate\'s NDCG@10 gain at its place in the score order, and 0 below the top 10', () => {
  const scores = Array.from({ length: 12 }, (_v, i) => i);
  const gain = swapGains(scores);
  assert.equal(gain[11], 1, 'the best score is at rank 0: gain 1/log2(2)');
  assert.equal(gain[10], 1 / Math.log2(3));
  assert.equal(gain[2], 1 / Math.log2(11), 'rank 9, the last that counts');
  assert.deepEqual([gain[0], gain[1]], [0, 0], 'ranks 10 and 11 gain nothing');
  assert.deepEqual(swapGains([0.5, 0.5]), [1, 1 / Math.log2(3)], 'ties keep the given order');
});

/** Queries of 30 candidates where feature 0 marks the answer (plus noise) and feature 1 is noise: the given order is random. */
function groups(n: number, seed: number): Group[] {
  const random = rng(seed);
  return Array.from({ length: n }, (_q, qi) => {
    const answer = Math.floor(random() * 30);
    const features = Array.from({ length: 30 }, (_c, i) => [(i === answer ? 1 : 0) + random() * 0.8, random()]);
    return { features, labels: features.map((_x, i) => (i === answer ? 1 : 0)), keys: features.map((_x, i) => `q${qi}c${i}`) };
  });
}

test('RankNet and LambdaRank both learn which feature marks the answer, linear and with a hidden layer', () => {
  const training = groups(200, 1);
  const validation = groups(100, 2);
  const before = evaluate(validation, undefined);
  assert.ok(before < 0.3, `the given order: ${before.toFixed(3)}`);
  for (const loss of ['ranknet', 'lambdarank'] as const)
    for (const hidden of [0, 4]) {
      const weights = train(training, ['signal', 'noise'], { loss, hidden, epochs: 20, learningRate: 0.02, l2: 1e-4, batch: 16, seed: 3 });
      const after = evaluate(validation, weights);
      assert.ok(after > 0.9, `${loss}, ${hidden} hidden: ${after.toFixed(3)}`);
      const signal = hidden ? undefined : weights.output[0];
      if (signal !== undefined) assert.ok(signal > Math.abs(weights.output[1]) * 5, `${loss}: signal weight ${signal}, noise ${weights.output[1]}`);
    }
});

test('the same seed trains the same weights', () => {
  const training = groups(50, 4);
  const options = { loss: 'lambdarank' as const, hidden: 4, epochs: 5, learningRate: 0.02, l2: 1e-4, batch: 16, seed: 9 };
  assert.deepEqual(train(training, ['signal', 'noise'], options), train(training, ['signal', 'noise'], options));
});

/** Queries whose answer is the candidate with feature 0 in a middle band (0.4-0.6): no weight on it orders them, a split does. */
function bandGroups(n: number, seed: number): Group[] {
  const random = rng(seed);
  return Array.from({ length: n }, (_q, qi) => {
    const answer = Math.floor(random() * 30);
    const features = Array.from({ length: 30 }, (_c, i) => [i === answer ? 0.4 + random() * 0.2 : random() < 0.5 ? random() * 0.4 : 0.6 + random() * 0.4, random()]);
    return { features, labels: features.map((_x, i) => (i === answer ? 1 : 0)), keys: features.map((_x, i) => `q${qi}c${i}`) };
  });
}

test('LambdaMART learns a band a linear scorer cannot, keeps the tree count that validates best, and is deterministic', () => {
  const training = bandGroups(200, 5);
  const validation = bandGroups(100, 6);
  const options = { trees: 30, leaves: 4, learningRate: 0.3, minLeaf: 20, l2: 1, bins: 32 };
  const { weights, curve } = trainTrees(training, validation, ['band', 'noise'], options);
  const linear = train(training, ['band', 'noise'], { loss: 'lambdarank', hidden: 0, epochs: 20, learningRate: 0.02, l2: 1e-4, batch: 16, seed: 3 });
  const trees = evaluate(validation, weights);
  // Not 1: quantile bins put the split points a little outside the band, where about one other candidate per query falls.
  assert.ok(trees > 0.8, `trees: ${trees.toFixed(3)}`);
  assert.ok(evaluate(validation, linear) < 0.5, `linear: ${evaluate(validation, linear).toFixed(3)}`);
  assert.equal(curve.length, 30);
  assert.equal(trees, Math.max(...curve), 'the best count is kept and the product scores it the same');
  assert.ok(weights.trees.every((t) => t.feature.every((f) => f === 0 || f === 1)));
  assert.ok(weights.trees[0].feature[0] === 0, 'the first split is on the band feature');
  assert.deepEqual(trainTrees(training, validation, ['band', 'noise'], options).weights, weights);
});

/**
 * Queries where two things mark the answer: feature 0 in a middle band (a few distractors share it) and
 * features 1-4 each a little higher (noisy): trees find the band, a linear scorer adds up the four
 * slopes, which a few small trees only approximate; a blend can use both.
 */
function bandAndSlopeGroups(n: number, seed: number): Group[] {
  const random = rng(seed);
  return Array.from({ length: n }, (_q, qi) => {
    const answer = Math.floor(random() * 30);
    const band = () => 0.4 + random() * 0.2;
    const features = Array.from({ length: 30 }, (_c, i) => [
      i === answer || random() < 0.2 ? band() : random() < 0.5 ? random() * 0.4 : 0.6 + random() * 0.4,
      ...[1, 2, 3, 4].map(() => (i === answer ? 0.3 : 0) + random()),
    ]);
    return { features, labels: features.map((_x, i) => (i === answer ? 1 : 0)), keys: features.map((_x, i) => `q${qi}c${i}`) };
  });
}

test('a blend of trees and a linear scorer keeps the share that validates best and ranks better than either alone', () => {
  const training = bandAndSlopeGroups(200, 7);
  const validation = bandAndSlopeGroups(100, 8);
  const names = ['band', 'slope1', 'slope2', 'slope3', 'slope4'];
  const { weights: trees } = trainTrees(training, validation, names, { trees: 4, leaves: 4, learningRate: 0.3, minLeaf: 20, l2: 1, bins: 32 });
  const linear = train(training, names, { loss: 'lambdarank', hidden: 0, epochs: 20, learningRate: 0.02, l2: 1e-4, batch: 16, seed: 3 });
  const { weights, curve } = blend(trees, linear, training, validation);
  assert.deepEqual(curve.map((c) => c.share), BLEND_SHARES);
  const blended = evaluate(validation, weights);
  assert.equal(blended, Math.max(...curve.map((c) => c.ndcg)), 'the best share is kept and the product scores it the same');
  assert.equal(weights.members[0].scorer, trees);
  assert.ok(Math.abs(weights.members[0].weight + weights.members[1].weight - 1) < 1e-9);
  const alone = [evaluate(validation, trees), evaluate(validation, linear)];
  assert.ok(blended > Math.max(...alone) + 0.02, `blend ${blended.toFixed(3)}, trees ${alone[0].toFixed(3)}, linear ${alone[1].toFixed(3)}`);
  assert.deepEqual(blend(trees, linear, training, validation).weights, weights, 'deterministic');
});
