// Feature text in the lexical index (issue 36): the functional view's phrases of an entity
// (`__init__` → "initialize session", `is_open` → "check open") are searched as part of its
// description when a feature source is given, and not at all without one (the default).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeatureHierarchy } from '../../src/core/features/hierarchy';
import { createSearcher } from '../../src/core/search';
import { LexicalIndex } from '../../src/core/search/lexical';
import { buildGraph } from './helpers';

const SESSION = `class Session:
    def __init__(self, url):
        self.url = url

    def is_open(self):
        return self.url is not None
`;

test('feature phrases reach the lexical index only when a feature source is given', async () => {
  const graph = await buildGraph(new Map([['session.py', SESSION]]), 'session');
  const features = FeatureHierarchy.build(graph);
  assert.deepEqual(features.features('session.py#Session.__init__'), ['initialize session']);
  const plain = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p));
  const featured = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p), 8, features);
  // No name, signature or body says "initialize" (the name says `init`) or "check".
  assert.deepEqual(plain.query('initialize', 5), []);
  assert.equal(featured.query('initialize', 1)[0]?.id, 'session.py#Session.__init__');
  assert.equal(featured.query('check', 1)[0]?.id, 'session.py#Session.is_open');
  // A node's re-read after an edit keeps its feature text.
  featured.update(['session.py#Session.__init__']);
  assert.equal(featured.query('initialize', 1)[0]?.id, 'session.py#Session.__init__');
});

test('the searcher passes its feature source to the lexical index', async () => {
  const graph = await buildGraph(new Map([['session.py', SESSION]]), 'session');
  const question = 'where do we initialize things';
  const plain = await createSearcher({ graph }).search(question, 5);
  const featured = await createSearcher({ graph }, { features: FeatureHierarchy.build(graph) }).search(question, 5);
  assert.ok(!plain.hits.some((h) => h.id === 'session.py#Session.__init__'));
  assert.equal(featured.hits[0]?.id, 'session.py#Session.__init__');
});
