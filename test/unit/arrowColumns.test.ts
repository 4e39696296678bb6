// Decoding string columns from LanceDB's Arrow results: row by row (per-file graphs, decoded as the
// warm start reaches them) must give exactly what decoding the whole column gives.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { Utf8, vectorFromArray } from 'apache-arrow';
import { readStrings, stringsByRow } from '../../src/core/store/arrowColumns';

test('stringsByRow decodes across chunks, nulls and long non-ASCII texts like readStrings', () => {
  const long = `{"doc":"${'ünïcödé ✓ '.repeat(600)}"}`; // > 4096 bytes: the TextDecoder path
  const first = vectorFromArray(['a', null, long, ''], new Utf8());
  const second = vectorFromArray([null, 'π', long.slice(0, 5000)], new Utf8());
  const chunks = first.concat(second).data;
  assert.equal(chunks.length, 2);
  const next = stringsByRow(chunks, null);
  const byRow = Array.from({ length: 7 }, () => next());
  assert.deepEqual(byRow, ['a', null, long, '', null, 'π', long.slice(0, 5000)]);
  assert.deepEqual(byRow, readStrings(chunks, null));
});
