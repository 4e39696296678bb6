// RANGER's MCTS (Algorithm 1) with deterministic scorers on hand-built graphs: visit order from UCT,
// final ranking and paths, k halving, scaling and the α mix, the time budget, scorer caching.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { MultiDirectedGraph } from 'graphology';
import { edgeId, type EdgeKind, type GraphEdge, type GraphNode, type NodeKind } from '../../src/core/model/schema';
import type { ReadonlyGraph } from '../../src/core/graph/describe';
import { buildGraph, readTree } from './helpers';
import { defaultNeighbours, mctsSearch, rootCounts, scaleScore, type MctsScorers } from '../../src/core/search/mcts';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

function node(id: string, kind: NodeKind): GraphNode {
  const name = id.split(/[#./:]/).pop() ?? id;
  const path = id.startsWith('dir:') ? id.slice(4) : id.split('#')[0];
  return { id, kind, name, qname: id, path, language: 'python', range: null, signature: '', doc: '', hash: id, exported: true };
}

function build(nodes: Array<[string, NodeKind]>, edges: Array<[EdgeKind, string, string]>): Graph {
  const g: Graph = new MultiDirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
  for (const [id, kind] of nodes) g.addNode(id, node(id, kind));
  for (const [kind, source, target] of edges) g.addEdgeWithKey(edgeId(kind, source, target), source, target, { id: edgeId(kind, source, target), kind, source, target, line: -1, owner: '' });
  return g;
}

/** dir:. → a.py, b.py; a.py → A → run, stop; b.py → B → add, sub; a.py IMPORTS b.py; run CALLS add; plus an External. */
function smallRepo(): Graph {
  return build(
    [
      ['dir:.', 'Folder'], ['a.py', 'Module'], ['b.py', 'Module'],
      ['a.py#A', 'Class'], ['a.py#A.run', 'Method'], ['a.py#A.stop', 'Method'],
      ['b.py#B', 'Class'], ['b.py#B.add', 'Method'], ['b.py#B.sub', 'Method'],
      ['ext:py:os', 'External'],
    ],
    [
      ['CONTAINS', 'dir:.', 'a.py'], ['CONTAINS', 'dir:.', 'b.py'],
      ['CONTAINS', 'a.py', 'a.py#A'], ['HAS_METHOD', 'a.py#A', 'a.py#A.run'], ['HAS_METHOD', 'a.py#A', 'a.py#A.stop'],
      ['CONTAINS', 'b.py', 'b.py#B'], ['HAS_METHOD', 'b.py#B', 'b.py#B.add'], ['HAS_METHOD', 'b.py#B', 'b.py#B.sub'],
      ['IMPORTS', 'a.py', 'b.py'], ['CALLS', 'a.py#A.run', 'b.py#B.add'], ['IMPORTS', 'a.py', 'ext:py:os'],
    ],
  );
}

/** Table-driven scorers that record every id they are asked about, batch by batch. */
function scorers(sim: Record<string, number>, rel: Record<string, number>, sleepMs = 0) {
  const simCalls: string[][] = [];
  const relCalls: string[][] = [];
  const sleep = () => new Promise((r) => setTimeout(r, sleepMs));
  const s: MctsScorers = {
    async similarity(_q, ids) {
      simCalls.push([...ids]);
      if (sleepMs) await sleep();
      return ids.map((id) => sim[id] ?? 0);
    },
    async relevance(_q, ids) {
      relCalls.push([...ids]);
      if (sleepMs) await sleep();
      return ids.map((id) => rel[id] ?? 0);
    },
  };
  return { s, simCalls, relCalls };
}

const SIM = { 'a.py': 0.1, 'b.py': 0.2, 'a.py#A': 0.1, 'b.py#B': 0.3, 'a.py#A.run': 0, 'a.py#A.stop': 0, 'b.py#B.add': 0.5, 'b.py#B.sub': 0.1 };
const REL = { 'a.py': 1, 'b.py': 3, 'a.py#A': 2, 'b.py#B': 5, 'a.py#A.run': 0, 'a.py#A.stop': 1, 'b.py#B.add': 9, 'b.py#B.sub': 4 };

test('default neighbours: folders only downwards, no externals, sorted', () => {
  const g = smallRepo();
  assert.deepEqual(defaultNeighbours(g, 'dir:.'), ['a.py', 'b.py']);
  assert.deepEqual(defaultNeighbours(g, 'a.py'), ['a.py#A', 'b.py'], 'not dir:. (folder via in-edge), not ext:py:os');
  assert.deepEqual(defaultNeighbours(g, 'a.py#A.run'), ['a.py#A', 'b.py#B.add']);
});

test('(1) expansion order over the first iterations follows UCT computed by hand', async () => {
  // c = 1, k fixed at 10 (never limiting). Values are raw relevance sums, read as scale(R/N) against
  // the range of all relevance scores seen so far.
  // it1: expand dir:. → [b.py (sim .2), a.py (.1)]; rel 3, 1; reward 3 (max).            range [1,3]
  // it2: dir:. has no unvisited neighbour; UCT a.py scale(1)=0 + 1·sqrt(ln1/1)=0, b.py scale(3)=10 → b.py;
  //      expand → [B]; rel 5; reward 5.  b.py R=8 N=2, dir:. R=8 N=2.                     range [1,5]
  // it3: a.py 0 + sqrt(ln2)=.83, b.py scale(4)=7.5 + sqrt(ln2/2)=.59 → b.py → B (only child);
  //      expand B → [add (.5), sub (.1)]; rel 9, 4; reward 9.                              range [1,9]
  // it4: a.py 0 + sqrt(ln3)=1.05, b.py scale(17/3)=5.83 + .61 → b.py → B: add 10 + sqrt(ln2), sub 3.75 + sqrt(ln2)
  //      → add; expand add → [run]; rel 0; reward 0.                                       range [0,9]
  // it5: a.py scale(1)=1.11 + sqrt(ln4)=1.18 = 2.29, b.py scale(17/4)=4.72 + .59 = 5.31 → b.py → B (N=3):
  //      add scale(9/2)=5 + sqrt(ln3/2)=.74 = 5.74, sub scale(4)=4.44 + sqrt(ln3)=1.05 = 5.49 → add
  //      → run (only child); expand run → [A]; rel 2; reward 2.
  const { s, relCalls } = scorers(SIM, REL);
  const r = await mctsSearch(smallRepo(), 'q', s, { iterations: 5, c: 1, kInit: 10, kMin: 10, safetyMs: Infinity });
  assert.equal(r.iterations, 5);
  assert.deepEqual(relCalls, [['b.py', 'a.py'], ['b.py#B'], ['b.py#B.add', 'b.py#B.sub'], ['a.py#A.run'], ['a.py#A']]);
  assert.deepEqual(Object.fromEntries(r.visits), {
    'dir:.': 5, 'b.py': 5, 'a.py': 1, 'b.py#B': 4, 'b.py#B.add': 3, 'b.py#B.sub': 1, 'a.py#A.run': 2, 'a.py#A': 1,
  });
  // add: R = 9 + 0 + 2 over N = 3, scaled against [0, 9]; with α = .7: .7·scale(R/N) + .3·10·sim(.5).
  const add = r.hits.find((h) => h.id === 'b.py#B.add')!;
  assert.ok(Math.abs(add.score - (0.7 * ((11 / 3) / 9) * 10 + 1.5)) < 1e-9);
  assert.deepEqual(r.hits.find((h) => h.id === 'a.py#A')!.path, ['dir:.', 'b.py', 'b.py#B', 'b.py#B.add', 'a.py#A.run', 'a.py#A']);
});

test('(1b) the exploration term sends the search to the less rewarding branch', async () => {
  // c = 40. it1, it2 as above (children with equal N: exploration ties, b.py wins on value).
  // it3: a.py 0 + 40·sqrt(ln2/1) = 33.30 vs b.py scale(4)=7.5 + 40·sqrt(ln2/2) = 31.05 → a.py; expand → [A] (rel 2).
  // it4: a.py scale(3/2)=1.25 + 40·sqrt(ln3/2) = 30.90 vs b.py 7.5 + 29.65 = 37.15 → b.py → B; expand → [add, sub].
  const { s, relCalls } = scorers(SIM, REL);
  await mctsSearch(smallRepo(), 'q', s, { iterations: 4, c: 40, kInit: 10, kMin: 10, safetyMs: Infinity });
  assert.deepEqual(relCalls, [['b.py', 'a.py'], ['b.py#B'], ['a.py#A'], ['b.py#B.add', 'b.py#B.sub']]);
});

test('(2) the relevant method deep in the tree ranks first, with its tree path', async () => {
  const { s } = scorers(SIM, REL);
  const r = await mctsSearch(smallRepo(), 'q', s, { iterations: 200, safetyMs: Infinity });
  assert.ok(r.iterations < 200, 'stops when the tree cannot grow');
  assert.equal(r.hits[0].id, 'b.py#B.add');
  assert.equal(r.hits[0].via, 'mcts');
  assert.deepEqual(r.hits[0].path, ['dir:.', 'b.py', 'b.py#B', 'b.py#B.add']);
  const ids = r.hits.map((h) => h.id);
  assert.ok(!ids.includes('dir:.') && !ids.includes('ext:py:os'), 'no roots, folders or externals');
  assert.deepEqual([...ids].sort(), ['a.py', 'a.py#A', 'a.py#A.run', 'a.py#A.stop', 'b.py', 'b.py#B', 'b.py#B.add', 'b.py#B.sub']);
  for (let i = 1; i < r.hits.length; i++) assert.ok(r.hits[i - 1].score >= r.hits[i].score);
});

function star(n: number): Graph {
  const fns = Array.from({ length: n }, (_, i) => `m.py#f${String(i).padStart(3, '0')}`);
  return build(
    [['dir:.', 'Folder'], ['m.py', 'Module'], ...fns.map((f) => [f, 'Function'] as [string, NodeKind])],
    [['CONTAINS', 'dir:.', 'm.py'], ...fns.map((f) => ['CONTAINS', 'm.py', f] as [EdgeKind, string, string])],
  );
}

test('(3) k halves after each expansion down to k_min', async () => {
  const { s, relCalls } = scorers({}, {});
  const r = await mctsSearch(star(40), 'q', s, { iterations: 6, kInit: 16, kMin: 3, safetyMs: Infinity });
  assert.equal(r.iterations, 6);
  // dir:. has one neighbour (k=16 → 1 added), then m.py keeps unvisited neighbours and is expanded again.
  assert.deepEqual(relCalls.map((b) => b.length), [1, 8, 4, 3, 3, 3]);
  // Paper defaults: k_init = ceil(1 module / 2) = 1, floored at k_min = 20.
  const d = scorers({}, {});
  const r2 = await mctsSearch(star(50), 'q', d.s, { safetyMs: Infinity });
  assert.deepEqual(d.relCalls.map((b) => b.length), [1, 20, 20, 10]);
  assert.deepEqual(d.relCalls[1], Array.from({ length: 20 }, (_, i) => `m.py#f${String(i).padStart(3, '0')}`), 'similarity ties → by id');
  assert.equal(r2.iterations, 4);
  // The bi-encoder picks which neighbours join: the top-k by similarity (ties by id).
  const t = scorers({ 'm.py#f039': 0.9, 'm.py#f007': 0.8 }, {});
  await mctsSearch(star(40), 'q', t.s, { iterations: 2, kInit: 4, kMin: 2, safetyMs: Infinity });
  assert.deepEqual(t.relCalls[1], ['m.py#f039', 'm.py#f007']);
});

test('(4) rewards are scaled to [0, 10] and mixed with similarity by α', async () => {
  assert.equal(scaleScore(-3, -3, 1), 0);
  assert.equal(scaleScore(1, -3, 1), 10);
  assert.equal(scaleScore(-1, -3, 1), 5);
  assert.equal(scaleScore(2.5, 2.5, 2.5), 10, 'constant positive → 10');
  assert.equal(scaleScore(-2, -2, -2), 0, 'constant non-positive → 0');

  // dir:. → m.py → {hiSim (sim .9, rel −4), hiRel (sim 0, rel 6)}.
  const g = build(
    [['dir:.', 'Folder'], ['m.py', 'Module'], ['m.py#hiSim', 'Function'], ['m.py#hiRel', 'Function']],
    [['CONTAINS', 'dir:.', 'm.py'], ['CONTAINS', 'm.py', 'm.py#hiSim'], ['CONTAINS', 'm.py', 'm.py#hiRel']],
  );
  const sim = { 'm.py': 0.2, 'm.py#hiSim': 0.9, 'm.py#hiRel': 0 };
  const rel = { 'm.py': 5, 'm.py#hiSim': -4, 'm.py#hiRel': 6 };
  // it1: [m.py] alone, reward 5. it2: [hiSim, hiRel] rel −4, 6, reward 6. Then exhausted. Range [−4, 6]:
  // hiSim 0, hiRel 10, m.py scale((5 + 6)/2) = 9.5.
  const a = await mctsSearch(g, 'q', scorers(sim, rel).s, { alpha: 0.7, safetyMs: Infinity });
  assert.equal(a.iterations, 2);
  const score = (r: typeof a, id: string) => r.hits.find((h) => h.id === id)!.score;
  assert.ok(Math.abs(score(a, 'm.py#hiRel') - 7) < 1e-9); // .7·10 + .3·0
  assert.ok(Math.abs(score(a, 'm.py#hiSim') - 2.7) < 1e-9); // .7·0 + .3·9
  assert.ok(Math.abs(score(a, 'm.py') - (0.7 * 9.5 + 0.3 * 2)) < 1e-9);
  assert.deepEqual(a.hits.map((h) => h.id), ['m.py', 'm.py#hiRel', 'm.py#hiSim']);
  const b = await mctsSearch(g, 'q', scorers(sim, rel).s, { alpha: 0.2, safetyMs: Infinity });
  assert.ok(Math.abs(score(b, 'm.py#hiSim') - 7.2) < 1e-9); // .2·0 + .8·9
  assert.ok(Math.abs(score(b, 'm.py#hiRel') - 2) < 1e-9);
  assert.equal(b.hits[0].id, 'm.py#hiSim');

  // Search-wide vs per-batch scaling: a later batch of uniformly weak children is not inflated.
  const weak = { 'm.py': 8, 'm.py#hiSim': 1, 'm.py#hiRel': 1 };
  const sw = await mctsSearch(g, 'q', scorers(sim, weak).s, { alpha: 1, safetyMs: Infinity });
  assert.ok(Math.abs(score(sw, 'm.py#hiRel') - 0) < 1e-9, 'range [1, 8] → 0');
  const bw = await mctsSearch(g, 'q', scorers(sim, weak).s, { alpha: 1, safetyMs: Infinity, scaling: 'batch' });
  assert.equal(score(bw, 'm.py#hiRel'), 10, 'per-batch constant positive → 10');
});

test('(5) the safety cap stops the loop, and the result says it was cut', async () => {
  // Simulated time: every cross-encoder call costs 30 ms.
  let now = 0;
  const { s } = scorers({}, {});
  const timed = { similarity: s.similarity, relevance: async (q: string, ids: string[]) => ((now += 30), s.relevance(q, ids)) };
  const r = await mctsSearch(star(300), 'q', timed, { iterations: 500, kInit: 1, kMin: 1, safetyMs: 120, clock: () => now });
  assert.equal(r.iterations, 4, 'four expansions of 30 ms reach the 120 ms cap');
  assert.equal(r.cut, true);
  assert.ok(r.hits.length > 0, 'returns what it found so far');
  const whole = await mctsSearch(star(300), 'q', s, { iterations: 6, kInit: 1, kMin: 1, safetyMs: Infinity });
  assert.equal(whole.cut, false);
});

test('(6) each scorer is called at most once per node', async () => {
  const { s, simCalls, relCalls } = scorers(SIM, REL);
  const r = await mctsSearch(smallRepo(), 'q', s, { iterations: 200, kInit: 1, kMin: 1, c: 2, safetyMs: Infinity });
  const simIds = simCalls.flat();
  const relIds = relCalls.flat();
  assert.equal(new Set(simIds).size, simIds.length, `similarity: ${simIds}`);
  assert.equal(new Set(relIds).size, relIds.length, `relevance: ${relIds}`);
  // Every non-root node reachable got scored (the search ran to exhaustion), and nothing else.
  assert.deepEqual([...relIds].sort(), ['a.py', 'a.py#A', 'a.py#A.run', 'a.py#A.stop', 'b.py', 'b.py#B', 'b.py#B.add', 'b.py#B.sub']);
  assert.equal(r.visits.size, 9);
  assert.ok(simCalls.every((b) => b.length > 0) && relCalls.every((b) => b.length > 0), 'no empty batches');
  assert.equal(relCalls.length, r.iterations, 'one batched relevance call per expansion');
});

test('several roots (no dir:.) start from every Module, unvisited roots first', async () => {
  const g = smallRepo();
  g.dropNode('dir:.');
  const { s, relCalls } = scorers(SIM, REL);
  const r = await mctsSearch(g, 'q', s, { iterations: 2, c: 1, kInit: 10, kMin: 10, safetyMs: Infinity });
  // a.py first (unvisited, smaller id) → [A] (b.py is a root already); then b.py (unvisited) → [B].
  assert.deepEqual(relCalls, [['a.py#A'], ['b.py#B']]);
  assert.ok(!r.hits.some((h) => h.id === 'a.py' || h.id === 'b.py'), 'roots are not hits');
  assert.deepEqual(r.hits.find((h) => h.id === 'b.py#B')!.path, ['b.py', 'b.py#B']);
});

/** A repository root holding `n` modules: one expansion with `n` children to score. */
function rootOfModules(n: number): MultiDirectedGraph<GraphNode, GraphEdge> {
  const graph = new MultiDirectedGraph<GraphNode, GraphEdge>();
  const add = (id: string, kind: GraphNode['kind']) => graph.addNode(id, { id, kind, name: id, qname: id, path: id, language: 'python', range: null, signature: '', doc: '', hash: id, exported: true });
  add('dir:.', 'Folder');
  for (let i = 0; i < n; i++) {
    add(`m${i}.py`, 'Module');
    graph.addEdgeWithKey(`CONTAINS|dir:.|m${i}.py`, 'dir:.', `m${i}.py`, { id: `CONTAINS|dir:.|m${i}.py`, kind: 'CONTAINS', source: 'dir:.', target: `m${i}.py`, line: -1, owner: '' });
  }
  return graph;
}

test('the safety cap stops a large expansion between batches; scored children join the tree', async () => {
  const graph = rootOfModules(200);
  let now = 0;
  const batches: number[] = [];
  const result = await mctsSearch(graph, 'q', {
    similarity: async (_q, ids) => ids.map(() => 0.5),
    relevance: async (_q, ids) => {
      batches.push(ids.length);
      now += 30;
      return ids.map(() => 1);
    },
  }, { kInit: 200, batchSize: 16, safetyMs: 100, clock: () => now });
  // 13 batches would score all 200 children; the cap is passed after the fourth.
  assert.deepEqual(batches, [16, 16, 16, 16]);
  assert.equal(result.iterations, 1);
  assert.equal(result.cut, true);
  assert.equal(result.hits.length, 64, 'only scored children joined the tree');
});

test("batches are of a fixed size whatever the scorer's speed, so the ranking is the same on a fast and a slow machine", async () => {
  const graph = rootOfModules(200);
  const run = async (msPerPair: number) => {
    let now = 0;
    const batches: number[] = [];
    const result = await mctsSearch(graph, 'q', {
      similarity: async (_q, ids) => ids.map((id) => (id.charCodeAt(1) % 7) / 7),
      relevance: async (_q, ids) => {
        batches.push(ids.length);
        now += msPerPair * ids.length;
        return ids.map((id) => id.length % 5);
      },
    }, { iterations: 3, kInit: 100, batchSize: 32, safetyMs: 60_000, clock: () => now });
    return { batches, hits: result.hits, cut: result.cut };
  };
  const fast = await run(0.1);
  const slow = await run(40);
  assert.deepEqual(fast.batches.slice(0, 4), [32, 32, 32, 4]);
  assert.deepEqual(slow.batches, fast.batches);
  assert.deepEqual(slow.hits, fast.hits);
  assert.equal(slow.cut, false);
});

test('the setup looks at the clock: a walk of the graph that overruns the safety cap stops, and no iteration starts', async () => {
  const graph = rootOfModules(5000);
  // Simulated time: every neighbour list costs 1 ms.
  let now = 0;
  let lists = 0;
  const neighbours = (g: ReadonlyGraph, id: string) => {
    now += 1;
    lists++;
    return defaultNeighbours(g, id);
  };
  const { s, relCalls } = scorers({}, {});
  const result = await mctsSearch(graph, 'q', s, { neighbours, safetyMs: 100, clock: () => now });
  assert.ok(lists < 300, `the walk stopped after ${lists} of 5,001 nodes`);
  assert.equal(result.iterations, 0);
  assert.equal(result.cut, true);
  assert.deepEqual(relCalls, []);
});

test('a walk cut short by the safety cap is not kept: the next search on the graph counts it whole', async () => {
  const graph = rootOfModules(3000);
  let now = 0;
  const cut = await mctsSearch(graph, 'q', scorers({}, {}).s, { safetyMs: 1, clock: () => now++ });
  assert.equal(cut.iterations, 0);
  // k_init = 1500 (3,000 modules / 2) from the whole walk: the first expansion takes 1,500 children.
  const { s, relCalls } = scorers({}, {});
  await mctsSearch(graph, 'q', s, { iterations: 1, safetyMs: Infinity });
  assert.equal(relCalls.flat().length, 1500);
});

test('neighbour lists kept between searches of one graph give the same ranking as lists made afresh', async () => {
  const graph = smallRepo();
  const kept = new Map<string, string[]>();
  const afresh = await mctsSearch(graph, 'q', scorers(SIM, REL).s, { iterations: 200, safetyMs: Infinity });
  for (let round = 0; round < 2; round++) {
    const again = await mctsSearch(graph, 'q', scorers(SIM, REL).s, { iterations: 200, safetyMs: Infinity, neighbourLists: kept });
    assert.deepEqual(again.hits, afresh.hits);
  }
  assert.deepEqual(kept.get('dir:.'), defaultNeighbours(graph, 'dir:.'), 'the lists made are kept for the next search');
});

test("what the root reaches is counted, not walked: the walk reaches every node but External ones, in a real repository of each language", async () => {
  // c and k_init come from these counts; a question after each edit used to walk the whole graph for them.
  for (const repo of ['flask', 'zod', 'django-admin-js', 'cobra', 'gson', 'serde_json']) {
    const graph = (await buildGraph(readTree(path.join(__dirname, '..', 'fixtures', 'real', repo)))).graph;
    const seen = new Set(['dir:.']);
    const queue = ['dir:.'];
    let modules = 0;
    for (let i = 0; i < queue.length; i++) {
      if (graph.getNodeAttribute(queue[i], 'kind') === 'Module') modules++;
      for (const next of defaultNeighbours(graph, queue[i])) if (!seen.has(next)) (seen.add(next), queue.push(next));
    }
    assert.ok(modules > 0, `${repo}: the walk reached modules`);
    assert.deepEqual(rootCounts(graph), { nodes: seen.size, modules }, `${repo}: counted as walked`);
  }
});
