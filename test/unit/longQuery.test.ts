// Long queries (a pasted issue, an agent's question): which words are searched (keyTerms.ts), that a
// long text still finds what it is about on Flask 2.2.2, and that search with MCTS is deterministic.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { createSearcher } from '../../src/core/search';
import { EXPANDED_TERMS, MAX_QUERY_TERMS, keyTerms, type TermStatistics } from '../../src/core/search/keyTerms';
import { FIXTURES, buildGraph, readTree } from './helpers';

/** An index of 1,000 documents where `common` is in 500, `rare` in 2, `absent…` in none, `wN` in N+1 and `bigN` in 600. */
const stats: TermStatistics = {
  process: (word) => (word === 'the' ? undefined : word),
  documentFrequency: (term) => (term.startsWith('big') ? 600 : term === 'common' ? 500 : term === 'rare' ? 2 : term.startsWith('absent') ? 0 : term.startsWith('w') ? Number(term.slice(1)) + 1 : 10),
  documentCount: 1000,
};

test('key terms: the rarest words first, repeats and code count more, stop words and numbers dropped', () => {
  const terms = keyTerms('the common rare 2048 common', stats);
  assert.deepEqual(terms.map((t) => t.term), ['rare', 'common']);
  assert.ok(terms.every((t) => t.expand), 'a short question expands every word');
  assert.equal(terms.find((t) => t.term === 'common')!.boost, 1, 'said twice: the full boost');
  assert.ok(terms.find((t) => t.term === 'rare')!.boost < 1);
  // `load` (df 10) as code outweighs `rare` (df 2) in prose: IDF 4.5 × 2 against 6.1.
  const code = keyTerms('common `load_common` rare', stats);
  assert.deepEqual(code.map((t) => t.term), ['load', 'rare', 'common']);
  assert.equal(code[0].boost, 2 * code[1].boost, 'words written as code weigh double');
});

test('key terms: a long text keeps at most MAX_QUERY_TERMS words, expands only the first few, and drops words the index lacks', () => {
  const words = Array.from({ length: 400 }, (_v, i) => `w${i}`);
  const text = [...words, 'absent1', 'absent2', ...Array.from({ length: 20 }, (_v, i) => `absent${i + 3}`)].join(' ').concat(' ').repeat(3);
  const terms = keyTerms(text, stats);
  assert.equal(terms.length, MAX_QUERY_TERMS);
  assert.ok(MAX_QUERY_TERMS > EXPANDED_TERMS);
  assert.equal(terms.filter((t) => t.expand).length, EXPANDED_TERMS);
  assert.deepEqual(terms.slice(0, EXPANDED_TERMS).every((t) => t.term.startsWith('absent')), true, 'unknown words are the rarest: only expansion can match them (typos)');
  assert.deepEqual(terms.slice(EXPANDED_TERMS).map((t) => t.term), words.slice(0, MAX_QUERY_TERMS - EXPANDED_TERMS), 'then the rarest words the index holds');
});

const ISSUE = `Registering the same blueprint twice under a different name silently shares its view functions

Hi! I maintain a small app that mounts one blueprint at two URL prefixes. Since upgrading, the second
registration raises an error unless I pass a unique name, and when I do pass \`name=\`, the endpoints of
both registrations end up pointing at the first one. Steps to reproduce:

\`\`\`python
from flask import Flask, Blueprint
bp = Blueprint("admin", __name__)

@bp.route("/")
def index():
    return "hello"

app = Flask(__name__)
app.register_blueprint(bp, url_prefix="/a")
app.register_blueprint(bp, url_prefix="/b", name="admin2")
\`\`\`

Traceback (most recent call last):
  File "app.py", line 12, in <module>
    app.register_blueprint(bp, url_prefix="/b")
  File "flask/app.py", line 1012, in register_blueprint
    blueprint.register(self, options)
  File "flask/blueprints.py", line 301, in register
    raise ValueError(
ValueError: The name 'admin' is already registered for a different blueprint. Use 'name=' to provide a unique name.

I would expect Blueprint.register to derive the endpoint prefix from the name given in the options
and BlueprintSetupState.add_url_rule to use it. Thanks for looking into this, it worked in 2.0.1.
`;


let graph: RepositoryGraph;
before(async () => {
  graph = await buildGraph(readTree(path.join(FIXTURES, 'real/flask')), 'flask');
});

test('key terms: past the expanded ones, common words stop once their postings would pass three per document', () => {
  const absent = Array.from({ length: EXPANDED_TERMS }, (_v, i) => `absent${i}`);
  const terms = keyTerms([...absent, ...Array.from({ length: 10 }, (_v, i) => `big${i}`)].join(' '), stats);
  assert.equal(terms.length, EXPANDED_TERMS + 5, '5 × 600 postings fit in 3 × 1,000');
});

test('a pasted issue (1,200 and 7,400 characters) finds the code it is about', async () => {
  const flask = createSearcher({ graph });
  for (const text of [ISSUE, ISSUE.repeat(6)]) {
    const result = await flask.search(text, 5);
    assert.equal(result.route, 'natural-language');
    const ids = result.hits.map((h) => h.id);
    // The traceback's two frames are in the top 5, and the first hit is code the issue names.
    assert.ok(ids.includes('blueprints.py#Blueprint.register') && ids.includes('app.py#Flask.register_blueprint'), ids.join(', '));
    assert.ok(['blueprints.py#Blueprint.register', 'app.py#Flask.register_blueprint', 'blueprints.py#BlueprintSetupState.add_url_rule'].includes(ids[0]), ids.join(', '));
  }
});

test('with MCTS and no budget to hit, the same query gives the same ranking every time', async () => {
  const run = async () => {
    const searcher = createSearcher({ graph }, { mcts: { enabled: true, safetyMs: Infinity } });
    const first = await searcher.search('register a blueprint on the application', 10);
    const second = await searcher.search('register a blueprint on the application', 10);
    assert.ok(first.timingsMs.mctsIterations! > 0);
    assert.deepEqual(second.hits, first.hits);
    return first.hits;
  };
  // A second searcher on the same graph reuses the walk of the graph the first one made.
  assert.deepEqual(await run(), await run());
});
