// The built CLI on a Java folder (issue 16): index, query and show on the RANGER example in Java.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { CLI, FIXTURES, runCli } from './helpers';

let root: string;
const cartograph = (args: string[]) => runCli(args, root);

before(() => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-java-')), 'ranger-java');
  fs.cpSync(path.join(FIXTURES, 'ranger-java'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
});
after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

test('index, query and show work on a Java folder', () => {
  const index = cartograph(['index', root]);
  assert.equal(index.code, 0, index.stderr);
  assert.match(index.stdout, /Indexed 2 files/);
  assert.match(index.stdout, /Internal imports resolved: 2\/2 \(100\.0%\)/);

  const show = cartograph(['show', 'Scientific']);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^Class com\.example\.app\.Scientific {2}com\/example\/app\/Scientific\.java:7/m);
  assert.match(show.stdout, /→ INHERITS +com\.example\.calc\.Calculator {2}com\/example\/calc\/Calculator\.java:4/);

  const callers = JSON.parse(cartograph(['query', 'callers of Calculator.add', '--json']).stdout);
  assert.equal(callers.route, 'structural');
  assert.deepEqual(callers.hits.map((h: { qname: string }) => h.qname), ['com.example.app.Scientific.quickAdd']);
  const prose = JSON.parse(cartograph(['query', 'divide a number and check the product', '--json']).stdout);
  assert.equal(prose.hits[0].qname, 'com.example.app.Scientific.divide');
});
