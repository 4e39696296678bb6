// After a save the searcher re-reads only the nodes the save touched (RepositoryGraph.touchedSince)
// instead of rebuilding its indexes (~1 s on Django, on the editor's thread). Differential check on
// real code: after each edit, the incrementally updated searcher answers like one built from scratch.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { createSearcher, type SearcherOptions } from '../../src/core/search';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';

const QUERIES = [
  'register a blueprint on the application',
  'update the config from an object',
  'send a file to the client',
  'render a template with the given context',
  'Flask.run',
  'dispatch_request',
  'url_for',
  'app_context',
];

test('incremental search indexes answer like fresh ones after every edit', () => answersLikeFreshAfterEdits({}));

// With the traversal on, the searcher also keeps the neighbour lists it walked between queries: an edit
// must drop them (a kept list would not lead to the new function, or lead to a removed module).
test('with MCTS, the neighbour lists kept between queries are dropped by an edit', () => answersLikeFreshAfterEdits({ mcts: { enabled: true } }));

async function answersLikeFreshAfterEdits(options: SearcherOptions): Promise<void> {
  const tree = readTree(path.join(FIXTURES, 'real/flask'));
  const graph = await buildGraph(tree, 'flask');
  const live = createSearcher({ graph }, options);
  const answers = async (searcher: ReturnType<typeof createSearcher>, queries: string[]) => Promise.all(queries.map(async (q) => (await searcher.search(q, 10)).hits));
  // Same hits in the same order with the same scores (up to float summation order).
  const sameAnswers = async (queries: string[], what: string) => {
    const [incremental, scratch] = [await answers(live, queries), await answers(createSearcher({ graph }, options), queries)];
    queries.forEach((q, i) => {
      assert.deepEqual(incremental[i].map((h) => h.id), scratch[i].map((h) => h.id), `after ${what}: ${q}`);
      incremental[i].forEach((h, j) => assert.ok(Math.abs(h.score - scratch[i][j].score) < 1e-9, `after ${what}: ${q}: ${h.id} ${h.score} vs ${scratch[i][j].score}`));
    });
  };
  await answers(live, QUERIES); // builds the indexes once

  const appPy = tree.get('app.py')!;
  const edits: Array<[string, () => Promise<void>, string[]]> = [
    ['rename a method', async () => void graph.apply({ upsert: [await parse('app.py', appPy.replace(/\bregister_blueprint\b/g, 'attach_blueprint'))] }), ['attach_blueprint', 'register_blueprint']],
    [
      'add a documented function',
      async () => void graph.apply({ upsert: [await parse('helpers.py', `${tree.get('helpers.py')}\n\ndef stream_blueprint_archive(path):\n    """Stream a zipped archive of a blueprint's static files."""\n    return send_file(path)\n`)] }),
      ['stream_blueprint_archive', 'zipped archive of static files'],
    ],
    ['delete a module', async () => void graph.apply({ remove: ['templating.py'] }), ['render_template', 'render a template with the given context']],
    ['put the module back', async () => void graph.apply({ upsert: [await parse('templating.py', tree.get('templating.py')!)] }), ['render_template']],
  ];
  for (const [what, edit, extra] of edits) {
    await edit();
    await sameAnswers([...QUERIES, ...extra], what);
  }
  assert.equal((await live.search('attach_blueprint')).route, 'entity', 'a renamed method is found under its new name');
  assert.ok(!(await live.search('register_blueprint', 20)).hits.some((h) => h.id === 'app.py#Flask.register_blueprint'), 'and no longer under its old id');
}

test('the touch log: history too old to replay asks for a rebuild', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
  const start = graph.settledVersion;
  const base = readTree(path.join(FIXTURES, 'ranger-py')).get('base.py')!;
  graph.apply({ upsert: [await parse('base.py', `${base}\n\ndef extra():\n    return 0\n`)] });
  assert.ok(graph.touchedSince(start)!.has('base.py#extra'));
  assert.deepEqual([...graph.touchedSince(graph.settledVersion)!], [], 'nothing since now');
  for (let i = 0; i < 70; i++) graph.apply({ upsert: [await parse('base.py', `${base}\n\ndef extra_${i}():\n    return ${i}\n`)] });
  assert.equal(graph.touchedSince(start), undefined);
});

test('edits made while the indexes are being built are in them once the builds are done', async () => {
  const tree = readTree(path.join(FIXTURES, 'real/flask'));
  const graph = await buildGraph(tree, 'flask');
  // Slices of no time at all: the builds give the event loop back after every node.
  const live = createSearcher({ graph }, { indexSliceMs: 0 });
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const helpers = `${tree.get('helpers.py')}\n\ndef stream_blueprint_archive(path):\n    """Stream a zipped archive of a blueprint's static files."""\n    return send_file(path)\n`;
  // While the entity index is being built (the first query routes with it).
  const routing = live.route('url_for');
  await turn();
  graph.apply({ upsert: [await parse('helpers.py', helpers)] });
  graph.apply({ remove: ['templating.py'] });
  assert.equal((await routing).route, 'entity');
  // While the lexical index is being built (the first natural-language query needs it).
  const query = 'zipped archive of static files';
  const first = live.search(query, 10);
  await turn();
  await turn();
  graph.apply({ upsert: [await parse('templating.py', tree.get('templating.py')!.replace(/\brender_template\b/g, 'render_page_template'))] });
  const catchingUp = live.route('url_for'); // another caller catches up with the graph while the build runs
  await Promise.all([first, catchingUp]);
  const scratch = createSearcher({ graph });
  for (const q of [query, 'render a template with the given context', 'register a blueprint on the application', 'stream_blueprint_archive', 'render_page_template', 'render_template']) {
    assert.deepEqual((await live.search(q, 10)).hits.map((h) => h.id), (await scratch.search(q, 10)).hits.map((h) => h.id), q);
  }
  assert.ok((await live.search(query, 10)).hits.some((h) => h.id === 'helpers.py#stream_blueprint_archive'));
  assert.equal((await live.search('stream_blueprint_archive')).hits[0]?.id, 'helpers.py#stream_blueprint_archive', 'a name added during the entity build is found');
  assert.equal((await live.search('render_page_template')).hits[0]?.id, 'templating.py#render_page_template', 'a name added during the lexical build is found');
  assert.ok(!(await live.search('render_template', 20)).hits.some((h) => h.id === 'templating.py#render_template'), 'a name gone during the builds is gone');
});

test('prepare builds the indexes ahead of the first query, which then waits for no build', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'real/flask')), 'flask');
  const cold = createSearcher({ graph });
  const first = await cold.search('register a blueprint on the application', 10);
  assert.ok((first.timingsMs.indexBuild ?? 0) > 0, 'without prepare the first query builds the indexes');
  assert.equal((await cold.search('send a file to the client', 10)).timingsMs.indexBuild, undefined, 'and the next one does not');

  const prepared = createSearcher({ graph });
  await prepared.prepare();
  const answer = await prepared.search('register a blueprint on the application', 10);
  assert.equal(answer.timingsMs.indexBuild, undefined, JSON.stringify(answer.timingsMs));
  assert.deepEqual(answer.hits.map((h) => h.id), first.hits.map((h) => h.id));
  assert.equal((await prepared.search('Flask.run')).timingsMs.indexBuild, undefined, 'entity queries too');
  // Prepared indexes follow edits like built ones (re-read, not rebuilt).
  graph.apply({ remove: ['templating.py'] });
  const after = await prepared.search('render_template', 20);
  assert.equal(after.timingsMs.indexBuild, undefined);
  assert.ok(!after.hits.some((h) => h.id === 'templating.py#render_template'));
});
