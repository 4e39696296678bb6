// Config files the resolver reads besides the sources (tsconfig/jsconfig, package.json, go.mod,
// Cargo.toml): a save or a watcher batch that touches one re-reads them, and a file arriving in a
// folder the config was not read for brings that folder's config into play, so the live graph stays
// equal to a fresh index and the query snapshot's key matches the disk.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { isProjectFile, type ProjectConfig } from '../../src/core/workspace/projectConfig';

const temps: string[] = [];
after(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

function tempRepo(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-config-'));
  temps.push(root);
  for (const [rel, text] of Object.entries(files)) write(root, rel, text);
  return root;
}

function write(root: string, rel: string, text: string): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const config = (engine: Engine) => JSON.parse(engine.graph.configJson) as ProjectConfig;

test('saving a tsconfig re-resolves the imports its paths map, and deleting it undoes that', async () => {
  const root = tempRepo({
    'src/app.ts': "import { camel } from '@lib/strings';\nexport const shout = () => camel('x');\n",
    'src/lib/strings.ts': 'export function camel(s: string) { return s; }\n',
  });
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  const mapped = 'IMPORTS|src/app.ts|src/lib/strings.ts#camel';
  assert.ok(engine.graph.graph.hasEdge('IMPORTS|src/app.ts|ext:js:@lib/strings.camel'), 'without a tsconfig the alias is a package');

  const tsconfig = write(root, 'tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }));
  await engine.updateFile(tsconfig);
  assert.ok(engine.graph.graph.hasEdge(mapped), 'the save of tsconfig.json maps the alias');

  fs.rmSync(tsconfig);
  await engine.syncPaths([tsconfig]);
  assert.ok(!engine.graph.graph.hasEdge(mapped), 'a deleted tsconfig.json no longer maps it');
  await engine.close();
});

test('go.mod and Cargo.toml files are read for the folders above Go and Rust files, and re-read when they change', async () => {
  const root = tempRepo({
    'go.mod': 'module example.com/app\n\ngo 1.19\n',
    'cmd/main.go': 'package main\n\nfunc main() {}\n',
    'README.md': '# not code\n',
  });
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  assert.deepEqual(config(engine).manifests, [{ path: 'go.mod', text: 'module example.com/app\n\ngo 1.19\n' }]);

  // A new module arrives with its first file: the watcher names the file, not necessarily the go.mod.
  write(root, 'tools/go.mod', 'module example.com/tools\n');
  const tool = write(root, 'tools/gen.go', 'package tools\n\nfunc Gen() {}\n');
  await engine.syncPaths([tool]);
  assert.deepEqual(config(engine).manifests.map((m) => m.path), ['go.mod', 'tools/go.mod']);

  const gomod = write(root, 'go.mod', 'module example.com/renamed\n');
  await engine.updateFile(gomod);
  assert.equal(config(engine).manifests[0].text, 'module example.com/renamed\n');

  const crate = write(root, 'lib/Cargo.toml', '[package]\nname = "lib"\n');
  write(root, 'lib/src/lib.rs', 'pub fn f() {}\n');
  await engine.syncPaths([crate, path.join(root, 'lib/src/lib.rs')]);
  assert.deepEqual(config(engine).manifests.map((m) => m.path), ['go.mod', 'lib/Cargo.toml', 'tools/go.mod']);
  await engine.close();
});

test('config files are told apart from other files by name', () => {
  for (const p of ['tsconfig.json', 'a/jsconfig.json', 'pkg/package.json', 'svc/go.mod', 'crates/x/Cargo.toml', 'pkg/_speedups.cpython-311-x86_64-linux-gnu.so', 'pkg/_x.abi3.so', 'pkg/_x.pyd', 'pkg/_tree.pyx', 'pkg/common.pxd']) assert.ok(isProjectFile(p), p);
  for (const p of ['go.sum', 'Cargo.lock', 'tsconfig.base.json.bak', 'src/main.go', 'package-lock.json', 'lib/libfoo.so.1', 'pkg/mod.py']) assert.ok(!isProjectFile(p), p);
});
