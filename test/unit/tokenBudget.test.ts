// A tool answer's token budget decides on byte bounds first and counts with the o200k encoding only
// where a decision turns on the count (tools/budget.ts): the answers must be exactly those of counting
// throughout, and a short answer must not load the encoding (a fresh service's first answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { blockTokens, countTokens, tokenBound } from '../../src/core/completion/tokens';
import { clipToBudget, rowsWithin, TokenBudget } from '../../src/core/tools/budget';

const FLASK_APP = path.join(__dirname, '..', 'fixtures', 'real', 'flask', 'app.py');

test('the byte bound is never below the real count, for code, prose, non-ASCII text and blank lines', () => {
  const texts = ['', '\n', '\n\n\n', 'x', 'naïve café — ünïcödé 漢字 🙂', fs.readFileSync(FLASK_APP, 'utf8'), '<|endoftext|> is text', '    \t  \n\t'];
  for (const text of texts) {
    assert.ok(tokenBound(text) >= countTokens(text), `countTokens over the bound for ${JSON.stringify(text.slice(0, 30))}`);
    assert.ok(tokenBound(text) >= blockTokens(text), `blockTokens over the bound for ${JSON.stringify(text.slice(0, 30))}`);
  }
});

test('rows and clipped answers are those of exact counting, with and without notes, at every budget', () => {
  const lines = fs.readFileSync(FLASK_APP, 'utf8').split('\n').slice(0, 400);
  const rows = Array.from({ length: 40 }, (_, i) => lines.slice(i * 10, i * 10 + 10));
  const around = ['Search for "run" (entity: names code in the graph)', '… 40 more hits left out'];
  const notes = '\n\nThe folder is still being indexed (answered from the index as last saved): this answer may miss what is not indexed yet.';
  let boundOnly = 0;
  for (const maxTokens of [200, 300, 500, 800, 1000, 1500, 2000, 4000, 8000, 16_000]) {
    for (const note of ['', notes]) {
      for (const count of [1, 3, 10, 40]) {
        const exact = maxTokens - (note ? countTokens(note) : 0);
        let expected = 0;
        let used = blockTokens(around.join('\n'));
        while (expected < count && (used += blockTokens(rows[expected].join('\n'))) <= exact) expected++;
        const budget = new TokenBudget(maxTokens, note);
        assert.equal(rowsWithin(rows.slice(0, count), around, budget), expected, `${count} rows at ${maxTokens}${note ? ' with notes' : ''}`);
        const text = rows.slice(0, count).flat().join('\n');
        const clipped = clipToBudget(text, new TokenBudget(maxTokens, note));
        assert.equal(clipped === text, blockTokens(text) <= exact, `clip of ${count} rows at ${maxTokens}`);
        if (clipped !== text) assert.ok(blockTokens(clipped) <= exact, 'a clipped answer fits');
        if (tokenBound(text) <= maxTokens - (note ? tokenBound(note) : 0)) boundOnly++;
      }
    }
  }
  assert.ok(boundOnly > 10, 'some of these cases are decided by the bound alone');
});

test('a short answer with its notes is made without loading the encoding; a long one loads it', () => {
  const script = (rowsCount: number) =>
    `const fs = require('node:fs'); const read = fs.readFileSync; let encoding = false;` +
    `fs.readFileSync = (file, ...rest) => { encoding ||= String(file).endsWith('o200k.bin'); return read(file, ...rest); };` +
    `const b = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'core', 'tools', 'budget.ts'))});` +
    `const budget = new b.TokenBudget(4000, '\\n\\nNot yet re-indexed (the graph shows their previous version): app.py');` +
    `const rows = Array.from({ length: ${rowsCount} }, (_, i) => ['Function flask.app.Flask.run_' + i + '  app.py:' + i + '  id=app.py#Flask.run_' + i]);` +
    `const fit = b.rowsWithin(rows, ['Search for "run"'], budget);` +
    `b.clipToBudget(rows.slice(0, fit).flat().join('\\n'), budget);` +
    `process.stdout.write(JSON.stringify({ fit, encoding }));`;
  const run = (rowsCount: number) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script(rowsCount)], { encoding: 'utf8' })) as { fit: number; encoding: boolean };
  assert.deepEqual(run(10), { fit: 10, encoding: false });
  const long = run(400);
  assert.ok(long.encoding && long.fit < 400 && long.fit > 100, `400 rows: ${JSON.stringify(long)}`);
});
