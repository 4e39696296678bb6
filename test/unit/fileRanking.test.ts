// Issue → file localization on Flask 2.2.2: evidence spread over several definitions of one file adds
// up, string literals and comments are indexed (per file and per definition), `files:` queries, and
// the index follows edits.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { createSearcher, filesQuery, type Searcher } from '../../src/core/search';
import { FileIndex, rankFiles } from '../../src/core/search/fileRanking';
import { LexicalIndex } from '../../src/core/search/lexical';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';

let graph: RepositoryGraph;
let flask: Searcher;
let lexical: LexicalIndex;
let files: FileIndex;
before(async () => {
  graph = await buildGraph(readTree(path.join(FIXTURES, 'real/flask')), 'flask');
  flask = createSearcher({ graph });
  lexical = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p));
  files = await FileIndex.build(() => graph.filePaths(), (p) => graph.fileGraph(p));
});

const rank = (question: string, definitionShare?: number) => rankFiles(graph.graph, files, (t) => lexical.scores(t), question, 10, {}, definitionShare);

test('`files:` and `file:` prefixes ask for files; other text does not', () => {
  assert.equal(filesQuery('files: the session cookie is not secure'), 'the session cookie is not secure');
  assert.equal(filesQuery('  File:  x'), 'x');
  assert.equal(filesQuery('where are files uploaded'), undefined);
});

test('a file whose several definitions each match part of the issue ranks first, with those definitions', async () => {
  const issue = 'The session cookie ignores SESSION_COOKIE_SAMESITE and the httponly, secure, domain and path settings';
  const { hits } = await flask.files(issue, 5);
  assert.equal(hits[0].path, 'sessions.py');
  const ids = hits[0].definitions.map((d) => d.id);
  assert.ok(ids.length >= 3, `several definitions counted: ${ids.join(', ')}`);
  assert.ok(ids.every((id) => id.startsWith('sessions.py#')), "only the file's own definitions count for it");
  // The definition evidence is the decaying sum over each file's best definitions, relative to the best file's.
  const byFile = new Map<string, number[]>();
  for (const h of lexical.scores(files.keyTerms(issue))) {
    const p = graph.graph.getNodeAttributes(h.id).path;
    byFile.set(p, [...(byFile.get(p) ?? []), h.score]);
  }
  const sum = (scores: number[]) => scores.slice(0, 4).reduce((acc, s, i) => acc + s / 2 ** i, 0);
  const best = Math.max(...[...byFile.values()].map(sum));
  for (const hit of rank(issue, 1).slice(0, 5)) assert.ok(Math.abs(hit.score - sum(byFile.get(hit.path)!) / best) < 1e-9, hit.path);
  const sessions = byFile.get('sessions.py')!;
  assert.ok(sum(sessions) > sessions[0] * 1.5, 'the later definitions add substantially to the first');
});

test('string literals and comments are carried by the per-file graph, by enclosing definition', async () => {
  const blueprints = graph.fileGraph('blueprints.py')!;
  const init = blueprints.texts.find((t) => t.from === 'Blueprint.__init__');
  assert.ok(init?.literals.includes("'name' may not contain a dot '.' character."), JSON.stringify(init));
  const app = graph.fileGraph('app.py')!;
  assert.ok(app.texts.find((t) => t.from === 'Flask.__init__')?.comments.includes('Google App Engine stores static files'));
  // Docstrings are the definition's `doc`, not a literal.
  assert.ok(!blueprints.texts.some((t) => t.literals.includes('Represents a blueprint')));
  const g = await parse('m.py', 'X = {"max_retries": 3}  # how often to retry\ndef f():\n    return "get_%s_display" % 1\n');
  assert.deepEqual(g.texts, [
    { from: null, literals: 'max_retries', comments: 'how often to retry' },
    { from: 'f', literals: 'get_%s_display', comments: '' },
  ]);
});

test('words found only in a literal or a comment find their file and definition', async () => {
  const { hits } = await flask.files('ValueError: may not contain a dot character', 3);
  assert.equal(hits[0].path, 'blueprints.py');
  assert.ok(hits[0].text > 0.99, 'the literal matched the file text');
  // Per definition too: these two say 'dot' only in their error messages.
  const dot = lexical.scores('dot').map((h) => h.id);
  assert.ok(dot.includes('blueprints.py#Blueprint.__init__') && dot.includes('blueprints.py#Blueprint.add_url_rule'), dot.join(', '));
  const google = (await flask.files('Google', 5)).hits.map((h) => h.path);
  assert.deepEqual(google.sort(), ['app.py', 'scaffold.py'], 'two files mention Google, both in comments only');
});

test('the file index follows edits: a new literal is found, a removed file is gone', async () => {
  const small = await buildGraph(new Map([['a.py', 'def f():\n    return 1\n'], ['b.py', 'def g():\n    raise KeyError("unknown frobnicator")\n']]), 'small');
  const searcher = createSearcher({ graph: small });
  assert.deepEqual((await searcher.files('frobnicator', 5)).hits.map((h) => h.path), ['b.py']);
  small.apply({ upsert: [await parse('a.py', 'def f():\n    # the frobnicator lives here now\n    return 1\n')], remove: ['b.py'] });
  assert.deepEqual((await searcher.files('frobnicator', 5)).hits.map((h) => h.path), ['a.py']);
});

test('bundled JavaScript ranks below the source it repeats', async () => {
  const tree = new Map([
    ['src/retry.js', 'export function retryRequest(times) {\n  throw new Error("retry limit reached");\n}\n'],
    ['static/vendor/app.min.js', 'function retryRequest(t){throw new Error("retry limit reached")}function a(){return "retry limit reached retry"}\n'],
  ]);
  const searcher = createSearcher({ graph: await buildGraph(tree, 'bundle') });
  assert.deepEqual((await searcher.files('retry limit reached', 5)).hits.map((h) => h.path), ['src/retry.js', 'static/vendor/app.min.js']);
});

test('a question with no searchable word ranks nothing', async () => {
  assert.deepEqual((await flask.files('a the of', 5)).hits, []);
});

test('a word the question repeats counts each time: the file about it ranks first', async () => {
  // Two files alike but for one word; the tie-break by path would put render.py first.
  const tree = new Map([
    ['render.py', 'def render_page(page):\n    return page\n'],
    ['zparse.py', 'def parse_page(page):\n    return page\n'],
  ]);
  const searcher = createSearcher({ graph: await buildGraph(tree, 'repeat') });
  assert.equal((await searcher.files('render parse: parse the page, parse it again', 2)).hits[0].path, 'zparse.py');
});

test('tests rank below the code they test, and a module the question names gains', async () => {
  // After pytest's src/_pytest/capture.py and its testing/test_capture.py.
  const tree = new Map([
    ['_pytest/capture.py', 'class CaptureFixture:\n    def readouterr(self):\n        return self._captured_out\n'],
    ['testing/test_capture.py', 'def test_capture_readouterr(capsys):\n    out = capsys.readouterr()\n    assert out == "capture readouterr capture"\n'],
    ['_pytest/terminal.py', 'class TerminalReporter:\n    def write_line(self, line):\n        self._tw.line(line)\n'],
  ]);
  const searcher = createSearcher({ graph: await buildGraph(tree, 'pytest') });
  assert.deepEqual((await searcher.files('capture readouterr', 2)).hits.map((h) => h.path), ['_pytest/capture.py', 'testing/test_capture.py']);
  assert.equal((await searcher.files('capture readouterr fails in _pytest/terminal.py', 1)).hits[0].path, '_pytest/terminal.py');
});
