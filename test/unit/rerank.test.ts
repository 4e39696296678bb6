// The learned reranker of natural-language search (src/core/search/rerank.ts): the shipped weight file
// loads for the models it was trained with and for none other, it was trained on training packages
// only, its features on real code are what docs/benchmarks.md says, and on a real corpus (flask,
// docstrings stripped as bench:search does) it ranks the documented functions at least as well as
// the plain fusion, while the same weights turned upside down rank them far worse.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { BUNDLED_EMBEDDING_MODEL } from '../../src/core/models/bundled';
import { ParserPool } from '../../src/core/parse/parser';
import { createSearcher } from '../../src/core/search';
import { LexicalIndex } from '../../src/core/search/lexical';
import { candidateFeatures, FEATURES, forCandidates, MODEL_FREE, rerankerFor, rerankerScore, rerankQuery, type RerankerFile, type RerankerWeights } from '../../src/core/search/rerank';
import { groundTruth, keyOf, stripCopy } from '../../bench/search/corpus';
import { firstSentence, rankingMetrics, wordCount } from '../../bench/search/metrics';
import { evaluationReason } from '../../train/data/exclusions';

const REPO = path.resolve(__dirname, '..', '..');
const WEIGHTS = JSON.parse(fs.readFileSync(path.join(REPO, 'src/core/search/rerankerWeights.json'), 'utf8')) as RerankerFile;
const FLASK = path.join(REPO, 'test/fixtures/real/flask');

/** A scorer's arrays fit the features: every tree node and leaf reachable once, a blend's members and shares sound. */
function assertWellFormed(set: RerankerWeights): void {
  if ('members' in set) {
    assert.equal(set.members.length, 2);
    assert.ok(Math.abs(set.members.reduce((s, m) => s + m.weight, 0) - 1) < 1e-6, 'the shares add up to 1');
    for (const m of set.members) {
      assert.ok(m.weight > 0 && m.std > 0 && Number.isFinite(m.mean));
      assertWellFormed(m.scorer);
    }
  } else if ('trees' in set) {
    assert.ok(set.trees.length > 0);
    for (const tree of set.trees) {
      assert.ok(tree.feature.every((f) => f >= 0 && f < FEATURES.length));
      // Every node and leaf is reached from exactly one place: the root, or one child pointer.
      const children = [...tree.left, ...tree.right];
      assert.equal(children.filter((c) => c < 0).length, tree.leaf.length);
      assert.deepEqual(children.filter((c) => c >= 0).sort((a, b) => a - b), tree.feature.slice(1).map((_f, i) => i + 1));
    }
  } else {
    assert.equal(set.mean.length, FEATURES.length);
    assert.equal(set.std.length, FEATURES.length);
    assert.ok(set.std.every((s) => s > 0));
    const width = set.hidden ? set.hidden.weights.length : FEATURES.length;
    assert.equal(set.output.length, width);
    for (const row of set.hidden?.weights ?? []) assert.equal(row.length, FEATURES.length);
  }
}

test('the shipped weights load for the shipped model and model-free, and for no other model or with a cross-encoder', () => {
  assert.deepEqual(WEIGHTS.features, [...FEATURES]);
  for (const key of [BUNDLED_EMBEDDING_MODEL, MODEL_FREE]) {
    const set = key === MODEL_FREE ? rerankerFor(undefined, false) : rerankerFor(key, false);
    assert.ok(set, `no weight set for ${key}`);
    assertWellFormed(set);
    assert.ok(Number.isFinite(rerankerScore(set, FEATURES.map(() => 0.5))));
  }
  assert.equal(rerankerFor('Xenova/all-MiniLM-L6-v2', false), undefined);
  assert.equal(rerankerFor(BUNDLED_EMBEDDING_MODEL, true), undefined, 'a cross-encoder changes what the MCTS scores mean');
  const stale: RerankerFile = { ...WEIGHTS, features: ['lexical'] };
  assert.equal(rerankerFor(BUNDLED_EMBEDDING_MODEL, false, stale), undefined, 'weights for other features are not misread');
});

test('every weight set was trained and validated on training packages only, split by package', () => {
  const dev = ['python3-flask', 'python3-requests', 'python3-click', 'python3-werkzeug', 'rxjs'];
  for (const [key, set] of Object.entries(WEIGHTS.sets)) {
    const trained = set.trained as { trainPackages: string[]; validationPackages: string[] };
    assert.ok(trained.trainPackages.length > 0 && trained.validationPackages.length > 0, key);
    for (const name of [...trained.trainPackages, ...trained.validationPackages]) {
      assert.equal(evaluationReason({ kind: name.startsWith('python3-') ? 'debian' : 'npm', name }), null, `${key} trained on ${name}`);
      assert.ok(!dev.includes(name) && !name.startsWith('python3-django'), `${key} trained on ${name}`);
    }
    assert.deepEqual(trained.trainPackages.filter((n) => trained.validationPackages.includes(n)), [], `${key}: a package on both sides`);
  }
});

let engine: Engine;
let stripped: string;
before(async () => {
  const original = await Engine.open(FLASK, { storeDir: null });
  await original.index();
  queries = groundTruth(original).map((g) => ({ query: g.query, key: g.key, id: g.id }));
  original.graph.graph.forEachNode((id, a) => {
    const query = a.kind === 'Class' ? firstSentence(a.doc) : '';
    if (wordCount(query) >= 3) classQueries.push({ query, key: keyOf(id), id });
  });
  await original.close();
  stripped = (await stripCopy(FLASK, new ParserPool())).dir;
  engine = await Engine.open(stripped, { storeDir: null });
  await engine.index();
});
after(async () => {
  await engine.close();
  fs.rmSync(path.dirname(stripped), { recursive: true, force: true });
});
let queries: { query: string; key: string; id: string }[] = [];
/** Flask's documented classes, asked the same way: a reranker that only ever saw functions answer would bury them. */
const classQueries: { query: string; key: string; id: string }[] = [];

test('the features of a real method are the ones documented', () => {
  const graph = engine.graph.graph;
  const id = graph.nodes().find((n) => graph.getNodeAttribute(n, 'qname').endsWith('Flask.make_response'))!;
  assert.ok(id, 'flask has Flask.make_response');
  const query = { ...rerankQuery('Convert the return value from a view function to an instance of response_class', (n) => (n === id ? 0.42 : undefined)), bestCosine: 0.5 };
  const x = candidateFeatures(graph, query, { id, fused: 1.5, fusedRank: 2, lists: { lexical: { score: 0.8, rank: 1 }, mcts: { score: 0.5, rank: 4 } } });
  const f = Object.fromEntries(FEATURES.map((name, i) => [name, x[i]]));
  let callers = 0;
  graph.forEachInEdge(id, (_e, edge) => void (edge.kind === 'CALLS' && callers++));
  const node = graph.getNodeAttributes(id);
  assert.deepEqual(
    { lexical: f.lexical, lexicalRecipRank: f.lexicalRecipRank, inLexical: f.inLexical, cosine: f.cosine, cosineGap: Number(f.cosineGap.toFixed(6)), hasVector: f.hasVector, vectorRecipRank: f.vectorRecipRank, mcts: f.mcts, mctsRecipRank: f.mctsRecipRank, fused: f.fused, fusedRecipRank: f.fusedRecipRank },
    { lexical: 0.8, lexicalRecipRank: 0.5, inLexical: 1, cosine: 0.42, cosineGap: -0.08, hasVector: 1, vectorRecipRank: 0, mcts: 0.5, mctsRecipRank: 0.2, fused: 1.5, fusedRecipRank: 1 / 3 },
  );
  // make_response: "response" is in the query (response_class), "make" is not.
  assert.equal(f.nameCoverage, 0.5);
  assert.equal(f.contextOverlap, 0, 'flask app Flask: none in the query');
  assert.deepEqual([f.isFunction, f.isMethod, f.isClass, f.isOtherKind, f.private, f.dunder, f.testPath], [0, 1, 0, 0, 0, 0, 0]);
  assert.equal(f.callers, Math.log1p(callers));
  assert.equal(f.lines, Math.log1p(node.range!.endLine - node.range!.startLine + 1));
  assert.equal(f.nameWords, Math.log1p(2));
  assert.deepEqual([f.typeAsked, f.typeAskedClass, f.typeAskedCallable], [0, 0, 0], 'a verb asks for an action');
  // A noun phrase asks for a type: crossed with the candidate's kind (flask's Flask class, then the method).
  const typeQuery = rerankQuery('The flask object implements a WSGI application and acts as the central object');
  assert.equal(typeQuery.typeAsked, false, '"the" alone is as common before functions');
  const asked = rerankQuery('A WSGI application that acts as the central object');
  const flaskClass = graph.nodes().find((n) => graph.getNodeAttribute(n, 'qname').endsWith('app.Flask') && graph.getNodeAttribute(n, 'kind') === 'Class')!;
  const typed = (node: string) => candidateFeatures(graph, asked, { id: node, fused: 1, fusedRank: 0, lists: {} }).slice(-3);
  assert.deepEqual(typed(flaskClass), [1, 1, 0]);
  assert.deepEqual(typed(id), [1, 0, 1]);
  const plain = candidateFeatures(graph, rerankQuery('Convert the return value'), { id, fused: 1, fusedRank: 0, lists: {} });
  assert.deepEqual([plain[FEATURES.indexOf('cosine')], plain[FEATURES.indexOf('hasVector')], plain[FEATURES.indexOf('inLexical')]], [0, 0, 0]);
});

test('the neighbourhood features: the query words its class, callees and callers say, and the other candidates of its file', () => {
  const graph = engine.graph.graph;
  const byQname = (suffix: string) => graph.nodes().find((n) => graph.getNodeAttribute(n, 'qname').endsWith(suffix))!;
  const id = byQname('Flask.make_response');
  const callers: string[] = [];
  graph.forEachInEdge(id, (_e, edge, source) => void (edge.kind === 'CALLS' && callers.push(graph.getNodeAttribute(source, 'name'))));
  assert.ok(callers.includes('finalize_request'), `make_response's callers: ${callers.join(', ')}`);
  const at = (query: string, candidate = id, rank = 0) => {
    const x = candidateFeatures(graph, rerankQuery(query), { id: candidate, fused: 1, fusedRank: rank, lists: {} });
    return Object.fromEntries(FEATURES.map((name, i) => [name, x[i]]));
  };
  // "finalize" and "request": 2 of the 3 query words ("the" is no search word) are a caller's; "flask": the class's.
  const f = at('finalize the flask request');
  assert.equal(f.queryInCallers, 2 / 3);
  assert.equal(f.queryInContext, 1 / 3);
  assert.equal(at('convert the return value').queryInCallers, 0);
  // A word of a name the method calls (e.g. its response class) counts in queryInBody.
  const callees: string[] = [];
  graph.forEachOutEdge(id, (_e, edge, _s, target) => void (edge.kind === 'CALLS' && callees.push(graph.getNodeAttribute(target, 'name'))));
  assert.ok(callees.length > 0, 'make_response calls something');
  assert.ok(at(callees[0].replace(/_/g, ' ')).queryInBody > 0, `a query naming ${callees[0]}`);
  // Siblings: two other candidates from app.py (fused ranks 0 and 5), one from another file.
  const sameFile = graph.nodes().filter((n) => n !== id && graph.getNodeAttribute(n, 'path') === graph.getNodeAttribute(id, 'path') && graph.getNodeAttribute(n, 'kind') === 'Method').slice(0, 2);
  const elsewhere = graph.nodes().find((n) => graph.getNodeAttribute(n, 'kind') === 'Function' && graph.getNodeAttribute(n, 'path') !== graph.getNodeAttribute(id, 'path'))!;
  const candidates = [sameFile[0], elsewhere, id, sameFile[1]].map((c, i) => ({ id: c, fused: 1 - i / 10, fusedRank: i === 3 ? 5 : i, lists: {} }));
  const query = forCandidates(graph, rerankQuery('convert the return value'), candidates);
  const sib = (c: (typeof candidates)[number]) => {
    const x = candidateFeatures(graph, query, c);
    return [x[FEATURES.indexOf('siblings')], x[FEATURES.indexOf('siblingRecipRank')]];
  };
  assert.deepEqual(sib(candidates[2]), [Math.log1p(2), 1], 'make_response: two others in app.py, the best at rank 0');
  assert.deepEqual(sib(candidates[0]), [Math.log1p(2), 1 / 3], 'the rank-0 one: its best sibling is make_response at rank 2');
  assert.deepEqual(sib(candidates[1]), [0, 0], 'alone in its file');
});

test('the nesting features: a closure, the function around it and the class around that, as candidates of one query', () => {
  const graph = engine.graph.graph;
  const byQname = (suffix: string) => graph.nodes().find((n) => graph.getNodeAttribute(n, 'qname').endsWith(suffix))!;
  const outer = byQname('Flask.template_filter');
  const inner = byQname('Flask.template_filter.decorator');
  const flaskClass = byQname('app.Flask');
  assert.ok(outer && inner && flaskClass, 'flask has Flask.template_filter and its decorator closure');
  // The closure ranks first, the method third; the class is not a candidate.
  const candidates = [inner, byQname('Flask.make_response'), outer].map((id, i) => ({ id, fused: 1 - i / 10, fusedRank: i, lists: {} }));
  const query = forCandidates(graph, rerankQuery('register a custom template filter'), candidates);
  const nesting = (c: (typeof candidates)[number]) => {
    const x = candidateFeatures(graph, query, c);
    return ['nested', 'containerRecipRank', 'memberRecipRank'].map((name) => x[FEATURES.indexOf(name as (typeof FEATURES)[number])]);
  };
  assert.deepEqual(nesting(candidates[0]), [1, 1 / 3, 0], 'the closure: inside a method that is a candidate at rank 2');
  assert.deepEqual(nesting(candidates[2]), [0, 0, 1], 'the method: in a class that is no candidate, its closure at rank 0');
  assert.deepEqual(nesting(candidates[1]), [0, 0, 0], 'make_response: no candidate around it or in it');
  const alone = candidateFeatures(graph, rerankQuery('register a custom template filter'), { id: inner, fused: 1, fusedRank: 0, lists: {} });
  assert.deepEqual([alone[FEATURES.indexOf('nested')], alone[FEATURES.indexOf('containerRecipRank')]], [1, 0], 'without the other candidates only the nesting is known');
});

/** The same scorer with its order turned upside down (every output negated). */
function negated<W extends RerankerWeights>(weights: W): W {
  if ('members' in weights) return { ...weights, members: weights.members.map((m) => ({ ...m, weight: -m.weight })) };
  if ('trees' in weights) return { ...weights, trees: weights.trees.map((t) => ({ ...t, leaf: t.leaf.map((v) => -v) })), bias: -weights.bias };
  return { ...weights, output: weights.output.map((w) => -w), bias: -weights.bias };
}

/** NDCG@10 of model-free search over flask's docstring queries, with the given reranker choice. */
async function flaskNdcg(options: { rerank?: boolean; rerankerFile?: RerankerFile }, asked = queries): Promise<number> {
  const searcher = createSearcher(engine, options);
  const runs = [];
  for (const q of asked) {
    const hits = (await searcher.search(q.query, 20)).hits;
    runs.push({ ranked: [...new Set(hits.map((h) => keyOf(h.id)))].slice(0, 10), relevant: new Set([q.key]) });
  }
  return rankingMetrics(runs).ndcg10;
}

test('on real code the model-free weights rank at least as well as the plain fusion; inverted, they rank far worse', async () => {
  assert.ok(queries.length > 100, `${queries.length} flask queries`);
  const fusion = await flaskNdcg({ rerank: false });
  const learned = await flaskNdcg({});
  const said = (await createSearcher(engine).search(queries[0].query)).reason;
  assert.match(said, /ordered by the learned reranker/);
  assert.doesNotMatch((await createSearcher(engine, { rerank: false }).search(queries[0].query)).reason, /reranker/);
  assert.ok(learned >= fusion - 0.005, `reranked ${learned.toFixed(3)} vs fusion ${fusion.toFixed(3)}`);
  // The same search with the weights negated: proves the reranker is what orders the hits.
  const set = WEIGHTS.sets[MODEL_FREE];
  const inverted: RerankerFile = { ...WEIGHTS, sets: { [MODEL_FREE]: negated(set) } };
  const worse = await flaskNdcg({ rerankerFile: inverted });
  assert.ok(worse < fusion - 0.1, `inverted weights ${worse.toFixed(3)} vs fusion ${fusion.toFixed(3)}`);
});

test('on real code documented classes are not buried under functions', async () => {
  assert.ok(classQueries.length >= 10, `${classQueries.length} flask class queries`);
  const fusion = await flaskNdcg({ rerank: false }, classQueries);
  const learned = await flaskNdcg({}, classQueries);
  assert.ok(learned >= fusion - 0.05, `class queries: reranked ${learned.toFixed(3)} vs fusion ${fusion.toFixed(3)}`);
});

test("the lexical features: the query words the candidate's own code and strings say, weighted by how rare each is in the repository", async () => {
  const graph = engine.graph.graph;
  const lexical = await LexicalIndex.build(graph, undefined, (p) => engine.graph.fileGraph(p));
  const id = graph.nodes().find((n) => graph.getNodeAttribute(n, 'qname').endsWith('Flask.make_response'))!;
  const at = (query: string) => {
    const x = candidateFeatures(graph, rerankQuery(query, undefined, lexical), { id, fused: 1, fusedRank: 0, lists: {} });
    return Object.fromEntries(FEATURES.map((name, i) => [name, x[i]]));
  };
  // make_response's code mentions `headers` (`headers.update`); only its comments say "unpack", "status" and "tuple".
  const own = lexical.ownTerms(id, ['header', 'unpack', 'statu', 'tupl', 'zeppelin']);
  assert.deepEqual([...own.mentions], ['header']);
  assert.deepEqual([...own.strings].sort(), ['header', 'statu', 'tupl', 'unpack']);
  // Read from the index itself: one loaded from its JSON (a query snapshot: no texts, no file graphs) says the same.
  const loaded = LexicalIndex.load(graph, lexical.toJSON());
  assert.deepEqual(loaded.ownTerms(id, ['header', 'unpack', 'statu', 'tupl']), lexical.ownTerms(id, ['header', 'unpack', 'statu', 'tupl']));
  const query = 'unpack the status tuple into headers';
  assert.deepEqual(candidateFeatures(graph, rerankQuery(query, undefined, loaded), { id, fused: 1, fusedRank: 0, lists: {} }), candidateFeatures(graph, rerankQuery(query, undefined, lexical), { id, fused: 1, fusedRank: 0, lists: {} }));
  const f = at('unpack the status tuple into headers');
  assert.equal(f.queryInMentions, 1 / 4);
  assert.equal(f.queryInStrings, 1);
  assert.equal(f.idfCoverage, 1);
  assert.equal(f.missingIdf, 0);
  // A word no node says is the query's rarest: missing, it weighs most.
  const g = at('unpack the status tuple into zeppelins');
  const idf = (w: string) => lexical.idf(w);
  assert.ok(idf('zeppelin') > idf('tupl') && idf('tupl') > idf('flask'), 'rare words weigh more');
  assert.equal(g.missingIdf, 1);
  assert.equal(g.idfCoverage, (idf('unpack') + idf('statu') + idf('tupl')) / (idf('unpack') + idf('statu') + idf('tupl') + idf('zeppelin')));
  // Its name says "make" and "response" of four words: weighted by their rarity, not counted.
  const h = at('make a response from the view tuple');
  assert.equal(h.queryInName, 2 / 4);
  assert.equal(h.idfNameCoverage, (idf('make') + idf('respons')) / (idf('make') + idf('respons') + idf('view') + idf('tupl')));
  // Without an index every word weighs the same and the code's own words are unknown.
  const x = candidateFeatures(graph, rerankQuery('unpack the status tuple into headers'), { id, fused: 1, fusedRank: 0, lists: {} });
  assert.equal(x[FEATURES.indexOf('queryInStrings')], 0);
});
