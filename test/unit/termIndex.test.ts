// TermIndex.scoreAll against MiniSearch's own `search` on the same index: the lexical search's scores
// (and with them every ranking built on them) are MiniSearch's, only made without its per-match objects.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Options } from 'minisearch';
import { identifierWords } from '../../src/core/search/identifiers';
import { memoizedStemmer } from '../../src/core/search/stems';
import { TermIndex, type TermQuery } from '../../src/core/search/termIndex';
import { rng } from '../support/rng';
import { FIXTURES } from './helpers';

interface Doc {
  id: string;
  name: string;
  doc: string;
  body: string;
}

const BOOSTS = { name: 3, doc: 1.5, body: 0.7 };
const stem = memoizedStemmer();
const options: Options<Doc> = {
  fields: Object.keys(BOOSTS),
  storeFields: [],
  tokenize: (text) => identifierWords(text).filter((w) => w.length > 1),
  processTerm: (term) => stem(term),
  searchOptions: { boost: BOOSTS },
};

/** Flask's functions and classes as documents: the name, the docstring-ish comment lines, the code. */
function flaskDocs(): Doc[] {
  const root = path.join(FIXTURES, 'real', 'flask');
  const docs: Doc[] = [];
  for (const file of fs.readdirSync(root).filter((f) => f.endsWith('.py')).sort()) {
    const blocks = fs.readFileSync(path.join(root, file), 'utf8').split(/\n(?=\s*(?:def|class) )/);
    blocks.forEach((block, i) => {
      const name = /(?:def|class) (\w+)/.exec(block)?.[1] ?? file;
      docs.push({ id: `${file}#${i}`, name, doc: block.split('\n').filter((l) => /^\s*("""|#)/.test(l)).join(' '), body: block });
    });
  }
  return docs;
}

/** The same queries through both: MiniSearch's search with the lexical index's options, and scoreAll. */
function compare(a: TermIndex<Doc>, b: TermIndex<Doc>, queries: TermQuery[]): number {
  const expected = b.search(queries.map((q) => q.term).join(' '), {
    combineWith: 'OR',
    tokenize: (joined) => joined.split(' '),
    processTerm: (term) => term,
    boostTerm: (_term, i) => queries[i].boost,
    prefix: (_term, i) => queries[i].prefix,
    fuzzy: (_term, i) => queries[i].fuzzy,
  });
  const actual = new Map(a.scoreAll(queries, BOOSTS).map((r) => [r.id, r.score]));
  assert.equal(actual.size, expected.length, `same documents for ${queries.map((q) => q.term).join(' ')}`);
  for (const r of expected) assert.equal(actual.get(r.id), r.score, `${r.id} for ${queries.map((q) => q.term).join(' ')}`);
  return expected.length;
}

test('scoreAll gives every document MiniSearch scores, with its score, for random queries with expansions, before and after documents are discarded', () => {
  const docs = flaskDocs();
  assert.ok(docs.length > 200, `Flask's definitions: ${docs.length}`);
  // Two identical indexes: MiniSearch drops discarded documents' postings as a search meets them, so
  // each way of scoring reads an index of its own, changed by its own searches.
  const [a, b] = [new TermIndex<Doc>(options), new TermIndex<Doc>(options)];
  a.addAll(docs);
  b.addAll(docs);
  const vocabulary = [...new Set(docs.flatMap((d) => identifierWords(d.body).map(stem)))].filter((w) => w.length > 1).sort();
  const random = rng(34);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const queries = () =>
    Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick(vocabulary)).filter((t, i, all) => all.indexOf(t) === i)
      .map((term) => ({ term, boost: 0.2 + random(), prefix: random() < 0.5, fuzzy: random() < 0.5 ? 0.15 + random() * 0.2 : (false as const) }));
  let matched = 0;
  for (let i = 0; i < 150; i++) matched += compare(a, b, queries());
  for (const doc of docs.filter(() => random() < 0.2)) {
    a.discard(doc.id);
    b.discard(doc.id);
  }
  for (let i = 0; i < 150; i++) matched += compare(a, b, queries());
  assert.ok(matched > 10_000, `the queries match documents: ${matched}`);
});
