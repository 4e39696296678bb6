// Compound words split by the repository's own vocabulary (issue 34): `readall` meets "read all",
// `isnumeric` meets "is numeric", and a word nobody's identifiers use as a part is left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompoundWords } from '../../src/core/search/compoundWords';
import { createSearcher } from '../../src/core/search';
import { LexicalIndex } from '../../src/core/search/lexical';
import { buildGraph } from './helpers';

// After CPython's Lib/_pyio.py (RawIOBase.readall) and pathlib (read_bytes, read_text).
const PYIO = `class RawIOBase:
    def read(self, size=-1):
        b = bytearray(size)
        n = self.readinto(b)
        return bytes(b[:n])

    def readall(self):
        res = bytearray()
        while True:
            data = self.read(DEFAULT_BUFFER_SIZE)
            if not data:
                break
            res += data
        return bytes(res)


def isnumeric_header(value):
    return value.strip().isdigit()
`;
const PATHS = `def read_bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def read_text(path):
    with open(path) as f:
        return f.read()


def close_all(files):
    for f in files:
        f.close()


def all_names(module):
    return dir(module)


def is_numeric(text):
    return text.isdigit()


def is_empty(text):
    return not text


def numeric_value(text):
    return float(text)
`;

test('a compound splits into words the identifiers use as parts; a word they use is not split', () => {
  const words = new CompoundWords(['read_bytes', 'read_text', 'close_all', 'all_names', 'is_numeric', 'is_empty', 'numeric_value', 'readall', 'another_thing', 'another_one']);
  assert.deepEqual(words.split('readall'), ['read', 'all']);
  assert.deepEqual(words.split('isnumeric'), ['is', 'numeric']);
  // `another` is a part of two names: a word, not an + other.
  assert.equal(words.split('another'), undefined);
  // `bytesio`: `io` is no part of any name.
  assert.equal(words.split('bytesio'), undefined);
  assert.deepEqual(words.expand(['readall', 'page']), ['readall', 'read', 'all', 'page']);
});

test('the lexical index finds `readall` for "read all" and `isnumeric_header` for "is numeric header"', async () => {
  const graph = await buildGraph(new Map([['pyio.py', PYIO], ['paths.py', PATHS]]), 'pyio');
  const lexical = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p));
  assert.equal(lexical.query('read all', 1)[0]?.id, 'pyio.py#RawIOBase.readall');
  assert.equal(lexical.query('numeric header', 1)[0]?.id, 'pyio.py#isnumeric_header');
});

test('an edit that changes which words are parts makes the index stale; the searcher answers as a fresh one', async () => {
  const graph = await buildGraph(new Map([['pyio.py', PYIO], ['paths.py', PATHS]]), 'pyio');
  const lexical = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p));
  const live = createSearcher({ graph });
  await live.search('read all bytes', 5);
  // Without paths.py no name has `read` or `all` as a part: `readall` is no compound any more.
  graph.apply({ remove: ['paths.py'] });
  lexical.update(graph.touchedSince(0) ?? []);
  assert.equal(lexical.stale, true);
  const ids = async (s: ReturnType<typeof createSearcher>) => (await s.search('read all bytes', 5)).hits.map((h) => `${h.id} ${h.score.toFixed(9)}`);
  assert.deepEqual(await ids(live), await ids(createSearcher({ graph })));
});

test('an index read back with its vocabulary splits and scores as the index it was saved from, without the names', async () => {
  const graph = await buildGraph(new Map([['pyio.py', PYIO], ['paths.py', PATHS]]), 'pyio');
  const built = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p));
  const vocabulary = built.vocabulary();
  assert.ok(vocabulary.includes('read') && vocabulary.includes('all'), 'the parts `readall` splits into');
  const fixed = LexicalIndex.loadFixed(graph.graph, built.toJSON(), vocabulary);
  for (const question of ['read all', 'numeric header', 'read all bytes']) assert.deepEqual(fixed.scores(question), built.scores(question), question);
  assert.deepEqual(CompoundWords.ofParts(vocabulary).split('readall'), ['read', 'all']);
  assert.throws(() => CompoundWords.ofParts(vocabulary).learn('read_more'), /cannot learn/);
});
