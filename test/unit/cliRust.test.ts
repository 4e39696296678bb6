// The built CLI on a Rust crate (the RANGER example): index does not trip over Rust files, and
// show / query find Rust definitions by name, named by their module paths (`crate::module::Item`
// with the crate's name), with the edges `use` paths resolve across files.
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
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-rust-')), 'ranger-rs');
  fs.cpSync(path.join(FIXTURES, 'ranger-rs'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
});
after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

test('index a crate: every .rs file parsed, Rust kinds counted, every `use` path resolved', () => {
  const run = cartograph(['index', root, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.equal(json.report.parsed, 3);
  assert.deepEqual(json.report.skipped ?? [], []);
  assert.deepEqual([json.stats.nodes.Class, json.stats.nodes.Interface, json.stats.nodes.Method, json.stats.nodes.Function], [2, 1, 6, 4]);
  // impl Divide for Scientific, and for Calculator in a module that does not declare it (its `use` resolved).
  assert.equal(json.stats.edges.INHERITS, 2);
});

test('show finds a struct with its fields, methods and trait, and a method through Type::method', () => {
  const text = cartograph(['show', 'Scientific']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Class ranger_example::extended::Scientific {2}src\/extended\.rs:10/m);
  assert.match(text.stdout, /→ HAS_FIELD {2}ranger_example::extended::Scientific::inner/);
  assert.match(text.stdout, /→ HAS_METHOD ranger_example::extended::Scientific::divide/);
  assert.match(text.stdout, /→ INHERITS {3}ranger_example::extended::Divide/);
  assert.match(text.stdout, /← IMPORTS {4}ranger_example {2}src\/lib\.rs:5/);
  const json = JSON.parse(cartograph(['show', 'Calculator::add', '--json']).stdout);
  assert.equal(json[0].node.id, 'src/base.rs#Calculator.add');
  assert.equal(json[0].node.language, 'rust');
  assert.equal(json[0].node.doc, 'Returns the sum of two numbers.');
});

test('query answers a Rust name by lookup and prose from rustdoc', () => {
  const byName = cartograph(['query', 'format_result', '--json']);
  assert.equal(byName.code, 0, byName.stderr);
  const hits = JSON.parse(byName.stdout).hits.map((r: { id: string }) => r.id);
  assert.equal(hits[0], 'src/base.rs#format_result');
  // A Rust path as a Rust user writes it, and the same with a dot.
  for (const path of ['Calculator::add', 'Calculator.add']) {
    assert.equal(JSON.parse(cartograph(['query', path, '--json']).stdout).hits[0].id, 'src/base.rs#Calculator.add', path);
  }
  const prose = JSON.parse(cartograph(['query', 'divide one number by another', '--json']).stdout).hits.map((r: { id: string }) => r.id);
  assert.ok(prose.slice(0, 3).some((id: string) => id.endsWith('.divide')), prose.join(', '));
});
