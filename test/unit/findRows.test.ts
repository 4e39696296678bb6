// What Find Where Implemented shows (src/extension/findRows.ts), on Flask 2.2.2's real graph: titles
// true to how a query was answered, rows that tell same-named definitions apart, picks that land on
// the `def` under its decorators, and the rows shown instead of results.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { GraphNode } from '../../src/core/model/schema';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { createSearcher } from '../../src/core/search';
import { definitionPosition, emptyMessage, externalMessage, indexingMessage, rowDescription, searchTitle, type SearchSummary } from '../../src/extension/findRows';
import { FIXTURES, buildGraph, readTree } from './helpers';

const FLASK = path.join(FIXTURES, 'real/flask');
let flask: RepositoryGraph;
let sources: Map<string, string>;
before(async () => {
  sources = readTree(FLASK);
  flask = await buildGraph(sources, 'flask');
});

const nodes = (filter: (n: GraphNode) => boolean): GraphNode[] => flask.graph.filterNodes((_, n) => filter(n)).map((id) => flask.graph.getNodeAttributes(id));
const lineReader = (file: string) => {
  const lines = sources.get(file)!.split('\n');
  return (i: number) => lines[i];
};

test('rows of same-named definitions in one file say which class each is in', () => {
  const dumps = nodes((n) => n.name === 'dumps' && n.path === 'json/provider.py');
  assert.equal(dumps.length, 2);
  const descriptions = dumps.map((n) => rowDescription(n, n.range?.startLine));
  assert.notEqual(descriptions[0], descriptions[1]);
  assert.deepEqual(descriptions.map((d) => d.split(' · ')[0]).sort(), ['DefaultJSONProvider', 'JSONProvider']);
  assert.match(descriptions[0], /json\/provider\.py:\d+$/);
  // a module's own function names no container; an external says where it comes from
  const [helper] = nodes((n) => n.name === 'setupmethod' && n.path === 'scaffold.py');
  assert.equal(rowDescription(helper, 44), 'scaffold.py:45');
  const [external] = nodes((n) => n.kind === 'External');
  assert.match(rowDescription(external, undefined), /^outside the workspace \(/);
  assert.ok(externalMessage(external).includes(external.id));
});

test('a decorated method lands on its def, at its name, not on the decorator', () => {
  const decorated = nodes((n) => n.path === 'scaffold.py' && n.kind === 'Method' && ['get', 'post', 'static_folder'].includes(n.name));
  assert.ok(decorated.length >= 3);
  const read = lineReader('scaffold.py');
  for (const node of decorated) {
    const start = node.range!.startLine;
    assert.match(read(start).trim(), /^@/, `${node.id} starts at its decorator`);
    const at = definitionPosition(read, start, node.name);
    assert.match(read(at.line), new RegExp(`def ${node.name}\\b`), node.id);
    assert.equal(read(at.line).slice(at.col, at.col + node.name.length), node.name);
  }
  // arguments over several lines, and TypeScript's decorators on the definition's own line
  const multi = ['@app.route(', '    "/load",', '    methods=["GET"],', ')', 'async def load(request):'];
  assert.deepEqual(definitionPosition((i) => multi[i], 0, 'load'), { line: 4, col: 10 });
  const ts = ['  @Input() @Other({ a: (1) }) load: string;'];
  assert.deepEqual(definitionPosition((i) => ts[i], 0, 'load'), { line: 0, col: 30 });
  // undecorated: the first line, at the name
  assert.deepEqual(definitionPosition((i) => ['def loader(load):'][i], 0, 'loader'), { line: 0, col: 4 });
});

test('titles are one short line that says how the query was answered and how much is shown', async () => {
  const search = createSearcher({ graph: flask });
  const summary = (r: Awaited<ReturnType<typeof search.search>>): SearchSummary => ({ route: r.route, reason: r.reason, vias: r.hits.map((h) => h.via), total: r.total });
  const prose = await search.search('where do we register a blueprint', 30);
  const title = searchTitle('where do we register a blueprint', [summary(prose)], prose.hits.length, false);
  assert.equal(title, `Searched by words · ${prose.hits.length} results`);
  const members = await search.search('members of Flask', 5);
  assert.ok(members.total! > 5, `Flask has ${members.total} members`);
  assert.equal(searchTitle('members of Flask?', [summary(members)], 5, true), `Members of Flask (graph edges) · first 5 of ${members.total}`);
  const named = await search.search('Blueprint', 30);
  assert.equal(searchTitle('Blueprint', [summary(named)], named.hits.length, false), `Code named Blueprint · ${named.hits.length} result${named.hits.length === 1 ? '' : 's'}`);
  const typo = await search.search('Bluepirnt', 30);
  assert.match(searchTitle('Bluepirnt', [summary(typo)], typo.hits.length, false), /^Nothing is named Bluepirnt; searched by words · /);
  // `files:` answers say they rank files, not definitions
  assert.equal(searchTitle('files: blueprint errors', [{ route: 'natural-language', reason: 'files: ranked by their definitions and their whole text', vias: [] }], 4, false), 'Files ranked by their definitions and text · 4 results');
  assert.equal(searchTitle('q', [{ route: 'natural-language', reason: 'prose', vias: ['lexical', 'mcts'] }], 30, true), 'Searched by meaning and words · first 30');
  for (const t of [title, searchTitle('xyzzy plugh', [summary(await search.search('xyzzy plugh'))], 0, false)]) {
    assert.ok(t.length < 80 && !t.includes('\n') && !t.includes('/'), t);
  }
});

test('an empty result and a folder still indexing are rows that say so', () => {
  assert.match(emptyMessage('  xyzzy ').label, /Nothing found for "xyzzy"/);
  // A question understood, about code that exists, with no such edge: a correct empty answer.
  const none = emptyMessage('callers of render', [{ route: 'structural', reason: '"callers of render" is a question about the graph\'s edges (1 node named render)' }]);
  assert.match(none.label, /"callers of render": none in the graph/);
  assert.match(none.detail, /render is defined \(1 definition\)/);
  assert.doesNotMatch(none.detail, /Try a name/);
  assert.equal(indexingMessage([{ name: 'zod', state: { kind: 'ready' } }]), undefined);
  const row = indexingMessage([{ name: 'zod', state: { kind: 'indexing', done: 80, total: 332 } }, { name: 'docs', state: { kind: 'opening' } }]);
  assert.match(row!.label, /Indexing… zod 80\/332 files, docs opening/);
});
