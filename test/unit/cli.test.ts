// The built CLI (dist/cli.js, as users run it): index, stats and show, in text and --json.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { CLI, FIXTURES, runCli } from './helpers';

let root: string;

function cartograph(args: string[], cwd = root) {
  return runCli(args, cwd);
}

before(() => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-')), 'ranger');
  fs.cpSync(path.join(FIXTURES, 'ranger-py'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  fs.writeFileSync(path.join(root, 'blob.py'), Buffer.from([0, 159, 146, 150]));
});
after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

test('index writes the store next to the code and reports what it did', () => {
  const run = cartograph(['index', root]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Indexed 3 files .*2 parsed.*1 skipped/);
  assert.match(run.stdout, /Internal imports resolved: 2\/2 \(100\.0%\)/);
  assert.match(run.stdout, /blob\.py: binary/);
  assert.ok(fs.existsSync(path.join(root, '.cartograph')));
  const store = path.join(root, '.cartograph');
  const written = () => fs.readdirSync(store, { recursive: true, encoding: 'utf8' }).map((f) => `${f} ${fs.statSync(path.join(store, f)).mtimeMs}`).sort();
  const before = written();
  const again = cartograph(['index', root, '--json']);
  const json = JSON.parse(again.stdout);
  assert.equal(json.report.parsed, 0, 'a second run re-parses nothing');
  assert.equal(json.stats.nodes.Method, 3);
  assert.equal(json.stats.store.status, 'unchanged', 'told from the record of the first run');
  assert.deepEqual(written(), before, 'and writes nothing');
});

test('stats finds the store from a subfolder and counts by kind', () => {
  const sub = path.join(root, 'sub');
  fs.mkdirSync(sub, { recursive: true });
  const json = JSON.parse(cartograph(['stats', '--json'], sub).stdout);
  assert.equal(json.files, 2);
  assert.deepEqual([json.nodes.Class, json.nodes.Function, json.edges.INHERITS, json.edges.IMPORTS], [2, 3, 1, 2]);
  assert.deepEqual(json.skipped.map((s: { path: string; reason: string }) => `${s.path}:${s.reason}`), ['blob.py:binary']);
});

test('show lists a node with its edges, by name, Class.method or qualified name', () => {
  const text = cartograph(['show', 'Scientific']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^Class extended\.Scientific {2}extended\.py:5/m);
  assert.match(text.stdout, /→ INHERITS {3}base\.Calculator {2}base\.py:7/);
  assert.match(text.stdout, /← CALLS {6}extended\.demo {2}extended\.py:21/);
  const json = JSON.parse(cartograph(['show', 'Calculator.add', '--json']).stdout);
  assert.equal(json.length, 1);
  assert.equal(json[0].node.id, 'base.py#Calculator.add');
  assert.deepEqual(json[0].incoming.map((e: { kind: string; id: string }) => `${e.kind} ${e.id}`), ['CALLS extended.py#quick_add', 'HAS_METHOD base.py#Calculator']);
  assert.equal(JSON.parse(cartograph(['show', 'base.format_result', '--json']).stdout)[0].node.kind, 'Function');
});

test('clear messages and exit codes for mistakes', () => {
  const missing = cartograph(['show', 'NoSuchThing']);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /No node named 'NoSuchThing'/);
  const elsewhere = cartograph(['stats'], fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-empty-')));
  assert.equal(elsewhere.code, 1);
  assert.match(elsewhere.stderr, /no index found/);
  assert.equal(cartograph(['frobnicate']).code, 2);
  const notDir = cartograph(['index', path.join(root, 'base.py')]);
  assert.equal(notDir.code, 1);
  assert.match(notDir.stderr, /not a folder/);
});

test('a bad number or option is refused with one plain sentence and exit code 2, before any work', () => {
  for (const [value, shown] of [['abc', 'abc'], ['0', '0'], ['-3', '-3'], ['2.5', '2.5'], ['=', '']]) {
    const args = value === '=' ? ['query', 'add', '--limit='] : ['query', 'add', '--limit', value];
    const run = cartograph(args);
    assert.equal(run.code, 2, `--limit ${value}`);
    assert.equal(run.stdout, '', 'nothing is searched');
    assert.equal(run.stderr.trim(), `cartograph query: --limit must be a whole number ≥ 1, not '${shown}'`);
  }
  const limited = JSON.parse(cartograph(['query', 'calculator', '--limit', '1', '--json']).stdout);
  assert.equal(limited.hits.length, 1, 'a valid --limit is applied');
  assert.match(cartograph(['query', 'add', '--limit', '--json']).stderr, /^cartograph: --limit needs a value\n$/);
  assert.match(cartograph(['query', 'add', '--limit']).stderr, /--limit needs a value/);
  const typo = cartograph(['query', 'add', '--limt', '3']);
  assert.equal(typo.code, 2);
  assert.equal(typo.stderr.trim(), "cartograph: Unknown option '--limt'. (cartograph --help lists the options)");
  for (const [flag, args] of [['max-file-size', ['index', root]], ['max-calls', ['describe', '--endpoint', 'http://127.0.0.1:9', '--model', 'm']]] as const) {
    const run = cartograph([...args, `--${flag}`, '-1']);
    assert.equal(run.code, 2, flag);
    assert.match(run.stderr, new RegExp(`--${flag} must be a whole number (of bytes )?≥ 1, not '-1'`));
  }
});

test('a query of only one-letter and common words says why nothing matched, in text and in --json', () => {
  const text = cartograph(['query', "'a.m.' or 'p.m.'"]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^natural-language: .*nothing to search for: one-letter and common words \(a, m, or, p\) are not indexed/);
  assert.match(text.stdout, /\nNo matches\.\n$/);
  const json = JSON.parse(cartograph(['query', 'what is the', '--json']).stdout);
  assert.deepEqual(json.hits, []);
  assert.match(json.reason, /nothing to search for: one-letter and common words \(what, is, the\) are not indexed/);
  const words = JSON.parse(cartograph(['query', 'what is a calculator', '--json']).stdout);
  assert.ok(words.hits.length > 0 && !/nothing to search for/.test(words.reason), 'one real word is searched for');
});

test('index skips minified and vendored JavaScript, saying why, and --include-minified takes them', () => {
  const admin = path.join(path.dirname(root), 'admin-js');
  fs.cpSync(path.join(FIXTURES, 'real', 'django-admin-js'), admin, { recursive: true });
  const text = cartograph(['index', admin, '--store', path.join(admin, '.store-default')]);
  assert.match(text.stdout, /Indexed 3 files .*2 skipped/);
  assert.match(text.stdout, /Skipped: vendored 1, minified 1/);
  assert.match(text.stdout, /vendor\/select2\/select2\.full\.min\.js: minified \(a \.min\.js build\)/);
  const all = JSON.parse(cartograph(['index', admin, '--include-minified', '--json', '--store', path.join(admin, '.store-all')]).stdout);
  assert.equal(all.report.files, 5);
  assert.deepEqual(all.report.skipped, []);
});

test('symlinks out of the folder are neither indexed nor answered unless --follow-symlinks; dangling ones are reported', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-links-'));
  try {
    const repo = path.join(parent, 'repo');
    const outside = path.join(parent, 'outside');
    fs.mkdirSync(repo);
    fs.mkdirSync(path.join(outside, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.py'), 'def leaked_credentials():\n    return "hunter2"\n');
    fs.writeFileSync(path.join(outside, 'lib', 'tree.py'), 'class LeakedTree:\n    pass\n');
    fs.writeFileSync(path.join(repo, 'own.py'), 'def own_function():\n    return 1\n');
    fs.symlinkSync(path.join(outside, 'secret.py'), path.join(repo, 'notes.py'));
    fs.symlinkSync(path.join(outside, 'lib'), path.join(repo, 'vendored'));
    fs.symlinkSync('own.py', path.join(repo, 'alias.py'));
    fs.symlinkSync('missing.py', path.join(repo, 'dangling.py'));

    const indexed = cartograph(['index', repo], repo);
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(indexed.stdout, /Skipped: dangling-symlink 1, outside-root 2/);
    assert.match(indexed.stdout, /notes\.py: outside-root \(a symlink to \S*secret\.py, outside /);
    assert.match(indexed.stdout, /dangling\.py: dangling-symlink \(a symlink to missing\.py, which does not exist\)/);
    const skipped = JSON.parse(cartograph(['stats', '--json'], repo).stdout).skipped.map((s: { path: string; reason: string }) => `${s.path}:${s.reason}`);
    assert.deepEqual(skipped.sort(), ['dangling.py:dangling-symlink', 'notes.py:outside-root', 'vendored:outside-root']);
    for (const name of ['leaked_credentials', 'LeakedTree']) {
      const show = cartograph(['show', name], repo);
      assert.equal(show.code, 1, `${name}: ${show.stdout}`);
    }
    assert.doesNotMatch(cartograph(['query', 'hunter2'], repo).stdout, /leaked_credentials|notes\.py/);
    const own = JSON.parse(cartograph(['show', 'own_function', '--json'], repo).stdout);
    assert.deepEqual(own.map((d: { node: { path: string } }) => d.node.path).sort(), ['alias.py', 'own.py'], 'a link inside the folder is indexed');

    assert.equal(cartograph(['index', repo, '--follow-symlinks'], repo).code, 0);
    assert.match(cartograph(['show', 'LeakedTree'], repo).stdout, /^Class tree\.LeakedTree {2}vendored\/tree\.py:1/m);
    assert.match(cartograph(['query', 'hunter2'], repo).stdout, /notes\.leaked_credentials {2}notes\.py:1/);
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
});

test('query answers names, structural questions and prose, saying how it routed them', () => {
  const structural = JSON.parse(cartograph(['query', 'callers of Calculator.add', '--json']).stdout);
  assert.equal(structural.route, 'structural');
  assert.deepEqual(structural.hits.map((h: { qname: string }) => h.qname), ['extended.quick_add']);
  const entity = cartograph(['query', 'Scientific']);
  assert.match(entity.stdout, /^entity: /);
  assert.match(entity.stdout, /Class {10}extended\.Scientific {2}extended\.py:5 {2}\[lookup\]/);
  const prose = JSON.parse(cartograph(['query', 'divide a number using the inverse', '--json']).stdout);
  assert.equal(prose.route, 'natural-language');
  assert.equal(prose.hits[0].qname, 'extended.Scientific.divide');
});

test('query "files: …" ranks files with the definitions that counted; --files does the same', () => {
  const text = cartograph(['query', 'files: dividing uses multiplication by the inverse']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^files: ranked by their definitions and their whole text$/m);
  assert.match(text.stdout, /^1\.000 {2}extended\.py {2}\(text \d\.\d\d\)$/m);
  assert.match(text.stdout, /^ {7}\d\.\d{3} {2}Method {9}extended\.Scientific\.divide:8$/m);
  const json = JSON.parse(cartograph(['query', '--files', '--json', 'decimal places', '--limit', '1']).stdout);
  assert.equal(json.mode, 'files');
  assert.deepEqual(json.hits.map((h: { path: string }) => h.path), ['base.py'], 'the words are only in a comment of base.py');
  const empty = cartograph(['query', 'files:']);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /"files:" needs the text of an issue or task after it/);
});

test('describe writes descriptions through a chat endpoint, and query finds code by them', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenAiTestServer } = require('../support/openaiTestServer.js');
  const server = new OpenAiTestServer();
  const baseURL = await server.listen();
  server.script((body: { messages: { content: string }[] }) => ({ text: body.messages.at(-1)!.content.startsWith('Method extended.Scientific.divide') ? 'Performs quotient computation via reciprocal scaling.' : 'Does its job.' }));
  const chats = () => server.requests.filter((r: { path: string }) => r.path.endsWith('/chat/completions'));
  try {
    const run = (args: string[]) => promisify(execFile)(process.execPath, [CLI, ...args], { cwd: root, env: { ...process.env, CARTOGRAPH_API_KEY: 'sk-test-secret' } });
    assert.doesNotMatch(cartograph(['query', 'quotient reciprocal scaling']).stdout, /divide/);
    const described = await run(['describe', '--endpoint', baseURL, '--model', 'tiny']);
    assert.match(described.stdout, /Described 8 \(0 already described, 0 failed\)/);
    // then the functional view's one upper area (two files) is named with the same endpoint
    assert.match(described.stdout, /The functional view's areas named: 1 \(0 named before, 0 failed\)/);
    assert.doesNotMatch(described.stdout + described.stderr, /sk-test-secret/, 'the key is never printed');
    assert.equal(chats().length, 9);
    assert.equal(chats()[0].headers.authorization, 'Bearer sk-test-secret', 'the key from the environment reaches the endpoint');
    const found = cartograph(['query', 'quotient reciprocal scaling']);
    assert.match(found.stdout.split('\n')[1], /Scientific\.divide/);
    const again = await run(['describe', '--endpoint', baseURL, '--model', 'tiny']);
    assert.match(again.stdout, /Described 0 \(8 already described/);
    assert.match(again.stdout, /areas named: 0 \(1 named before/);
    assert.equal(chats().length, 9, 'nothing sent again');
    assert.equal(cartograph(['describe']).code, 2, 'endpoint and model are required');
  } finally {
    await server.close();
  }
});

test('query and show start from the query snapshot; a missing, damaged or stale one falls back to the store and is saved again', () => {
  const source = () => {
    const run = cartograph(['query', 'Calculator.add', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout);
    assert.equal(json.hits[0].qname, 'base.Calculator.add');
    return { ...json.index, stderr: run.stderr };
  };
  assert.equal(cartograph(['index', root]).code, 0);
  assert.equal(source().source, 'snapshot', 'index saves the snapshot');
  const file = path.join(root, '.cartograph', 'query-snapshot.bin');
  fs.rmSync(file);
  const missing = source();
  assert.deepEqual([missing.source, missing.snapshotSaved], ['store', true]);
  assert.match(missing.stderr, /no query snapshot yet; loading the graph from the store/);
  assert.equal(source().source, 'snapshot', 'the fallback saved it');

  fs.writeFileSync(file, 'garbage\n');
  const damaged = source();
  assert.equal(damaged.source, 'store');
  assert.match(damaged.stderr, /query snapshot damaged \(header is not JSON\); loading the graph from the store instead/);
  assert.match(cartograph(['show', 'Scientific']).stdout, /← CALLS {6}extended\.demo/, 'show answers from the saved snapshot');

  fs.appendFileSync(path.join(root, 'base.py'), '\n\ndef snapshot_probe():\n    return 0\n');
  assert.equal(cartograph(['index', root]).code, 0);
  const probe = JSON.parse(cartograph(['query', 'snapshot_probe', '--json']).stdout);
  assert.deepEqual([probe.index.source, probe.hits[0]?.qname], ['snapshot', 'base.snapshot_probe'], 'index saved a snapshot with the change');
});
