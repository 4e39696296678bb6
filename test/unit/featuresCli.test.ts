// `cartograph features` as users run it (dist/cli.js) on Flask: the areas with folders and sizes, a
// file's chain of areas with its features, an area's contents, --json, and a clear miss.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { FEATURES_FILE } from '../../src/core/store/storeVersion';
import { CLI, FIXTURES, runCli } from './helpers';

let root: string;

before(() => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-features-cli-')), 'flask');
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), root, { recursive: true });
  assert.equal(runCli(['index', root], root).code, 0);
});
after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

test('features lists every area once, then answers from the saved hierarchy', () => {
  const run = runCli(['features'], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^flask: 22 files, 442 functions, methods and classes in \d+ areas \(model-free features; built in \d+ ms\)/);
  // Each top-level area once, numbered, with its size and the folders it is grounded in.
  const areas = Number(/in (\d+) areas/.exec(run.stdout)![1]);
  const lines = run.stdout.split('\n').filter((line) => /^\d+ /.test(line));
  assert.deepEqual(lines.map((line) => Number(line.split(' ')[0])), Array.from({ length: areas }, (_, i) => i + 1));
  for (const line of lines) assert.match(line, / {2}\d+ files · \d+ entities {2}in \S.*\/$/);
  assert.ok(fs.existsSync(path.join(root, '.cartograph', FEATURES_FILE)));
  const json = JSON.parse(runCli(['features', '--json'], root).stdout);
  assert.equal(json.source, 'loaded');
  const top = json.areas.filter((a: { id: string }) => !a.id.includes('.'));
  assert.equal(top.reduce((n: number, a: { files: number }) => n + a.files, 0), 22);
  assert.equal(top.reduce((n: number, a: { entities: number }) => n + a.entities, 0), 442);
});

test('features with a file, a name or an area id shows where it sits and what it does', () => {
  const file = runCli(['features', 'app.py'], root);
  assert.equal(file.code, 0, file.stderr);
  assert.match(file.stdout, /^ {2}app\.py$/m);
  assert.match(file.stdout, /flask\.app\.Flask\.run — run flask; run application on local development/);
  const name = JSON.parse(runCli(['features', 'Flask.run', '--json'], root).stdout);
  assert.equal(name.path, 'app.py');
  assert.deepEqual(name.entities.map((e: { features: string[] }) => e.features), [['run flask', 'run application on local development']]);
  const area = JSON.parse(runCli(['features', name.chain[0].id, '--json'], root).stdout);
  assert.ok(area.files.includes('app.py') || area.subareas.length > 0);
  const miss = runCli(['features', 'no_such_thing_here'], root);
  assert.equal(miss.code, 1);
  assert.match(miss.stderr, /no area, indexed file or definition 'no_such_thing_here'/);
});
