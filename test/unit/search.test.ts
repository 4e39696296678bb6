// Retrieval without a model: the router's decisions, entity lookups, structural questions and the
// lexical path, on the RANGER example and on Flask 2.2.2.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { createSearcher, type Searcher } from '../../src/core/search';
import { identifierWords } from '../../src/core/search/identifiers';
import { routeQuery } from '../../src/core/search/router';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';

let ranger: RepositoryGraph;
let flask: Searcher;
let rangerSearch: Searcher;
before(async () => {
  ranger = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
  rangerSearch = createSearcher({ graph: ranger });
  flask = createSearcher({ graph: await buildGraph(readTree(path.join(FIXTURES, 'real/flask')), 'flask') });
});

test('identifier words split camelCase, snake_case and acronyms', () => {
  assert.deepEqual(identifierWords('getDebugFlag'), ['get', 'debug', 'flag']);
  assert.deepEqual(identifierWords('HTTPServer_v2'), ['http', 'server', 'v2']);
  assert.deepEqual(identifierWords('format_result'), ['format', 'result']);
});

test('the router sends names to lookups, relations to the graph and prose to search', () => {
  const known = (s: string) => ['Calculator', 'Calculator.add', 'quick_add'].includes(s);
  assert.equal(routeQuery('Calculator', known).route, 'entity');
  assert.equal(routeQuery('Calculator.add()', known).route, 'natural-language', 'only when the name exists as written');
  assert.equal(routeQuery('Calculator.add', known).route, 'entity');
  assert.deepEqual(routeQuery('callers of Calculator.add', known), { route: 'structural', relation: 'callers', subject: 'Calculator.add', reason: '"callers of Calculator.add" is a question about the graph\'s edges' });
  assert.equal((routeQuery('Who calls quick_add?', known) as { relation: string }).relation, 'callers');
  assert.equal((routeQuery('subclasses of Calculator', known) as { relation: string }).relation, 'subclasses');
  assert.equal((routeQuery('where is Calculator used', known) as { relation: string }).relation, 'dependents');
  assert.equal(routeQuery('where do we implement addition?', known).route, 'natural-language');
  assert.equal(routeQuery('Nonexistent', known).route, 'natural-language');
});

test('entity queries: exact, Class.method, qualified, case-insensitive and fuzzy names', async () => {
  const top = async (q: string) => (await rangerSearch.search(q, 5)).hits[0]?.id;
  assert.equal(await top('Calculator'), 'base.py#Calculator');
  assert.equal(await top('Calculator.add'), 'base.py#Calculator.add');
  assert.equal(await top('base.format_result'), 'base.py#format_result');
  assert.equal(await top('calculator'), 'base.py#Calculator');
  assert.equal(await top('formatResult'), 'base.py#format_result');
  const result = await rangerSearch.search('quick_add');
  assert.equal(result.route, 'entity');
  assert.equal(result.hits[0].via, 'lookup');
});

test('structural questions walk the right edges, with the path that found each hit', async () => {
  const ids = async (q: string) => (await rangerSearch.search(q)).hits.map((h) => h.id).sort();
  assert.deepEqual(await ids('callers of Calculator.add'), ['extended.py#quick_add']);
  assert.deepEqual(await ids('what does demo call'), ['base.py#format_result', 'extended.py#Scientific', 'extended.py#Scientific.divide', 'extended.py#quick_add']);
  assert.deepEqual(await ids('subclasses of Calculator'), ['extended.py#Scientific']);
  // a caller is reached at its call, and a cut list says how long it was
  const callers = await rangerSearch.search('callers of Calculator.add');
  const source = readTree(path.join(FIXTURES, 'ranger-py')).get('extended.py')!;
  assert.match(source.split('\n')[callers.hits[0].siteLine!], /\.add\(/);
  assert.equal((await rangerSearch.search('what does demo call', 2)).total, 4);
  const users = await rangerSearch.search('where is precision used');
  assert.deepEqual(users.hits.map((h) => [h.id, h.path]), [['base.py#format_result', ['base.py#precision', 'base.py#format_result']]]);
});

test('natural language finds definitions by what the graph knows of them', async () => {
  const hits = (await flask.search('register a blueprint on the application', 5)).hits.map((h) => h.id);
  assert.equal(hits[0], 'app.py#Flask.register_blueprint');
  const config = (await flask.search('update the config from an object', 5)).hits.map((h) => h.id);
  assert.ok(config.includes('config.py#Config.from_object'), config.join(', '));
});

test('the searcher sees edits: indexes refresh after the graph changes', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger');
  const search = createSearcher({ graph });
  assert.equal((await search.search('square_root')).route, 'natural-language');
  graph.apply({ upsert: [await parse('base.py', 'def square_root(x):\n    """Return the square root."""\n    return x ** 0.5\n')] });
  const after = await search.search('square_root');
  assert.equal(after.route, 'entity');
  assert.equal(after.hits[0].id, 'base.py#square_root');
});

test('a shared name resolves near the file it is asked from: that file, then what it imports', async () => {
  const top = async (q: string, fromPath?: string) => (await flask.search(q, 5, { fromPath })).hits.map((h) => h.id);
  assert.equal((await top('get', 'sessions.py'))[0], 'sessions.py#SecureCookieSession.get');
  assert.equal((await top('get', 'scaffold.py'))[0], 'scaffold.py#Scaffold.get');
  const fromApp = await top('url_for', 'app.py');
  assert.deepEqual(fromApp.slice(0, 2), ['app.py#Flask.url_for', 'helpers.py#url_for'], 'own file first, then the imported module');
  // nearness never lifts a weaker match above an exact one: app.py's `config` fields match `Config`
  // only case-insensitively
  const config = await top('Config', 'app.py');
  assert.ok(config.includes('app.py#Flask.config'), config.join(', '));
  assert.equal(config[0], 'config.py#Config');
});

test('a bare shared name means the base method, public code, a definition rather than a declaration, a top-level one', async () => {
  // Without these priors every pair below would be ordered by id, which puts the wrong one first.
  const graph = await buildGraph(
    new Map([
      ['shapes.py', 'class Widget:\n    def convert(self, value):\n        return value\n\nclass Button(Widget):\n    def convert(self, value):\n        return str(value)\n'],
      ['a_helpers.py', 'def build(items):\n    def parse(text):\n        return text.split()\n    return [parse(i) for i in items]\n'],
      ['parsing.py', 'def parse(text):\n    return text.strip()\n'],
      ['api.pyi', 'def fetch(url: str) -> bytes: ...\n'],
      ['net/api.py', 'def fetch(url):\n    return url.encode()\n'],
      ['_impl.py', 'def render(page):\n    return page\n'],
      ['view.py', 'def render(page):\n    return page.title\n'],
      ['a_types.ts', 'export interface Scheduler {\n  schedule(work: () => void): void;\n}\n'],
      ['scheduler.ts', "import { Scheduler } from './a_types';\nexport class Queue implements Scheduler {\n  schedule(work: () => void): void {\n    work();\n  }\n}\n"],
    ]),
    'priors',
  );
  const searcher = createSearcher({ graph });
  const top = async (q: string) => (await searcher.search(q, 5)).hits.map((h) => h.id);
  assert.deepEqual((await top('convert')).slice(0, 2), ['shapes.py#Widget.convert', 'shapes.py#Button.convert'], 'the base method before its override');
  assert.deepEqual((await top('parse')).slice(0, 2), ['parsing.py#parse', 'a_helpers.py#build.parse'], 'a top-level function before a helper nested in a body');
  assert.deepEqual((await top('fetch')).slice(0, 2), ['net/api.py#fetch', 'api.pyi#fetch'], 'the code before its type stub');
  assert.deepEqual((await top('render')).slice(0, 2), ['view.py#render', '_impl.py#render'], 'public before a private module');
  assert.deepEqual((await top('schedule')).slice(0, 2), ['scheduler.ts#Queue.schedule', 'a_types.ts#Scheduler.schedule'], "a class's method before the interface member it implements");
});
