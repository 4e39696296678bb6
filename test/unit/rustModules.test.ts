// Cargo crate targets, the default module layout, `mod` file lookup and `crate`/`self`/`super`
// paths (src/core/graph/rustModules.ts), on real manifests and layouts: serde_json 1.0.87, clap
// 4.0.32 and tokio 1.24.2 from Debian (test/fixtures/real), and the RANGER example crate.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  childModuleFiles, modDeclarationsOf, modulePathOf, movedModules, owningCrate, parseCargoManifest, resolvePath, rustModulePath,
  withModDeclarations, workspaceMemberDirs, type CrateTarget, type ModTreeInput,
} from '../../src/core/graph/rustModules';
import { extractFile } from '../../src/core/parse/extract';
import { ParserPool } from '../../src/core/parse/parser';
import { FIXTURES, readTree, tokioModulesTree } from './helpers';

const REAL = path.join(FIXTURES, 'real');
const manifestText = (...parts: string[]) => fs.readFileSync(path.join(REAL, ...parts), 'utf8');
const rows = (targets: CrateTarget[]) => targets.map((t) => `${t.kind} ${t.name} ${t.root}`);

// The vendored serde_json files plus the rest of the Debian crate's layout (paths only: the files
// Cargo discovers targets from).
const SERDE_JSON_FILES = new Set([
  ...[...readTree(path.join(REAL, 'serde_json')).keys()],
  'build.rs', 'tests/compiletest.rs', 'tests/debug.rs', 'tests/lexical.rs', 'tests/map.rs', 'tests/regression.rs',
  'tests/stream.rs', 'tests/test.rs', 'tests/lexical/algorithm.rs', 'tests/regression/issue520.rs', 'tests/ui/parse_expr.rs',
]);

describe('Cargo manifests (real: serde_json, clap, tokio)', () => {
  test('serde_json: the library at src/lib.rs, tests discovered one level deep, the build script, dependencies by extern name', () => {
    const m = parseCargoManifest(manifestText('serde_json', 'Cargo.toml'), 'Cargo.toml', SERDE_JSON_FILES);
    assert.equal(m.error, undefined);
    assert.equal(m.packageName, 'serde_json');
    assert.equal(m.dir, '');
    assert.deepEqual(rows(m.targets), [
      'lib serde_json src/lib.rs',
      'test compiletest tests/compiletest.rs',
      'test debug tests/debug.rs',
      'test lexical tests/lexical.rs',
      'test map tests/map.rs',
      'test regression tests/regression.rs',
      'test stream tests/stream.rs',
      'test test tests/test.rs',
      'build build_script_build build.rs',
    ]);
    assert.deepEqual([...m.dependencies.keys()].sort(), [
      'automod', 'indexmap', 'indoc', 'itoa', 'ref_cast', 'rustversion', 'ryu', 'serde', 'serde_bytes', 'serde_derive', 'serde_stacker', 'trybuild',
    ]);
    assert.equal(m.dependencies.get('ref_cast'), 'ref-cast', 'the extern name has underscores, the package keeps its dashes');
  });

  test('clap: `[lib]` without a path still roots at src/lib.rs; declared examples keep their dashed names as files and get underscored crate names', () => {
    const files = new Set(['src/lib.rs', 'src/builder/mod.rs', 'examples/demo.rs', 'examples/cargo-example.rs', 'examples/derive_ref/augment_args.rs']);
    const m = parseCargoManifest(manifestText('cargo-manifests', 'clap', 'Cargo.toml'), 'vendor/clap/Cargo.toml', new Set([...files].map((f) => `vendor/clap/${f}`)));
    assert.equal(m.packageName, 'clap');
    assert.equal(m.dir, 'vendor/clap');
    const t = rows(m.targets);
    assert.equal(t[0], 'lib clap vendor/clap/src/lib.rs');
    assert.ok(t.includes('example demo vendor/clap/examples/demo.rs'));
    assert.ok(t.includes('example cargo_example vendor/clap/examples/cargo-example.rs'));
    assert.ok(t.includes('example cargo_example_derive vendor/clap/examples/cargo-example-derive.rs'), 'declared even when the file is not in the list');
    assert.equal(t.filter((r) => r.startsWith('example ')).length, 53, 'the 53 [[example]] tables; a file under examples/derive_ref/ is no target of its own');
    assert.equal(m.dependencies.get('unicode_width'), 'unicode-width');
    assert.equal(m.dependencies.get('clap_lex'), 'clap_lex');
  });

  test('tokio: dependencies of every `[target."cfg(…)".…]` table count; the build script', () => {
    const m = parseCargoManifest(manifestText('cargo-manifests', 'tokio', 'Cargo.toml'), 'Cargo.toml', new Set(['src/lib.rs', 'build.rs', 'tests/fs.rs']));
    assert.deepEqual(rows(m.targets), ['lib tokio src/lib.rs', 'test fs tests/fs.rs', 'build build_script_build build.rs']);
    for (const dep of ['bytes', 'mio', 'pin_project_lite', 'tokio_macros', 'autocfg', 'libc', 'socket2', 'tracing', 'winapi', 'signal_hook_registry', 'loom']) {
      assert.ok(m.dependencies.has(dep), dep);
    }
  });

  test('the RANGER example: a dashed package name is a crate with underscores', () => {
    const files = new Set([...readTree(path.join(FIXTURES, 'ranger-rs')).keys()]);
    const m = parseCargoManifest(fs.readFileSync(path.join(FIXTURES, 'ranger-rs', 'Cargo.toml'), 'utf8'), 'Cargo.toml', files);
    assert.deepEqual(rows(m.targets), ['lib ranger_example src/lib.rs']);
  });

  test('binaries: src/main.rs under the package name, src/bin/*.rs and src/bin/*/main.rs, `[[bin]] path`, `[lib] path`, autobins = false', () => {
    const files = new Set(['lib/core.rs', 'src/main.rs', 'src/bin/extra.rs', 'src/bin/tool/main.rs', 'src/bin/tool/helper.rs', 'cli/run.rs']);
    const text = '[package]\nname = "my-app"\n\n[lib]\npath = "lib/core.rs"\n\n[[bin]]\nname = "runner"\npath = "cli/run.rs"\n';
    assert.deepEqual(rows(parseCargoManifest(text, 'Cargo.toml', files).targets), [
      'lib my_app lib/core.rs',
      'bin runner cli/run.rs',
      'bin my_app src/main.rs',
      'bin extra src/bin/extra.rs',
      'bin tool src/bin/tool/main.rs',
    ]);
    const manual = parseCargoManifest(text.replace('name = "my-app"', 'name = "my-app"\nautobins = false'), 'Cargo.toml', files);
    assert.deepEqual(rows(manual.targets), ['lib my_app lib/core.rs', 'bin runner cli/run.rs']);
  });

  test('a manifest that does not parse says why and keeps the default layout under the folder\'s name', () => {
    const m = parseCargoManifest('[package\nname = "x"', 'crates/broken/Cargo.toml', new Set(['crates/broken/src/lib.rs']));
    assert.match(m.error ?? '', /^crates\/broken\/Cargo\.toml: /);
    assert.deepEqual(rows(m.targets), ['lib broken crates/broken/src/lib.rs']);
  });

  test('workspaces: members by pattern, minus exclude; a virtual manifest has no targets', () => {
    const ws = parseCargoManifest('[workspace]\nmembers = ["crates/*", "cli"]\nexclude = ["crates/old"]\n', 'Cargo.toml', new Set());
    assert.equal(ws.packageName, null);
    assert.deepEqual(ws.targets, []);
    assert.deepEqual(workspaceMemberDirs(ws, ['', 'cli', 'crates/a', 'crates/b', 'crates/old', 'crates/a/nested', 'tools/x']), ['cli', 'crates/a', 'crates/b']);
  });
});

describe('the module tree (real layout: serde_json)', () => {
  test('file → module path: the root, `x.rs`, `x/mod.rs`, nested files', () => {
    assert.deepEqual(modulePathOf('src/lib.rs', 'src/lib.rs'), []);
    assert.deepEqual(modulePathOf('src/map.rs', 'src/lib.rs'), ['map']);
    assert.deepEqual(modulePathOf('src/value/mod.rs', 'src/lib.rs'), ['value']);
    assert.deepEqual(modulePathOf('src/value/index.rs', 'src/lib.rs'), ['value', 'index']);
    assert.deepEqual(modulePathOf('src/lexical/algorithm.rs', 'src/lib.rs'), ['lexical', 'algorithm']);
    assert.equal(modulePathOf('tests/map.rs', 'src/lib.rs'), null, 'outside the crate root folder');
    assert.deepEqual(modulePathOf('tests/regression/issue520.rs', 'tests/regression.rs'), ['regression', 'issue520']);
  });

  test('`mod x;` declarations of the real lib.rs and value/mod.rs load the files that exist', async () => {
    const pool = new ParserPool();
    const tree = readTree(path.join(REAL, 'serde_json'));
    const lib = await extractFile(pool, 'src/lib.rs', 'rust', tree.get('src/lib.rs')!);
    const value = await extractFile(pool, 'src/value/mod.rs', 'rust', tree.get('src/value/mod.rs')!);
    const loaded = (file: string, isCrateRoot: boolean, name: string) =>
      childModuleFiles(file, name, { isCrateRoot }).find((candidate) => tree.has(candidate));
    const mods = (g: typeof lib) => g.imports.filter((i) => i.module === `self::${i.local}`).map((i) => i.local);
    assert.deepEqual(mods(lib), ['macros', 'de', 'error', 'map', 'ser', 'ser', 'value', 'features_check', 'io', 'iter', 'lexical', 'number', 'read', 'raw']);
    assert.equal(loaded('src/lib.rs', true, 'map'), 'src/map.rs');
    assert.equal(loaded('src/lib.rs', true, 'macros'), 'src/macros.rs');
    assert.equal(loaded('src/lib.rs', true, 'value'), 'src/value/mod.rs');
    assert.ok(mods(value).includes('index'));
    assert.equal(loaded('src/value/mod.rs', false, 'index'), 'src/value/index.rs');
  });

  test('a non-mod.rs file keeps children in its own folder; inline modules add folders; `#[path]` is relative to the file', () => {
    assert.deepEqual(childModuleFiles('src/runtime.rs', 'task', { isCrateRoot: false }), ['src/runtime/task.rs', 'src/runtime/task/mod.rs']);
    assert.deepEqual(childModuleFiles('src/lib.rs', 'b', { isCrateRoot: true, inline: ['a'] }), ['src/a/b.rs', 'src/a/b/mod.rs']);
    assert.deepEqual(childModuleFiles('src/x.rs', 'b', { isCrateRoot: false, inline: ['a'] }), ['src/x/a/b.rs', 'src/x/a/b/mod.rs']);
    assert.deepEqual(childModuleFiles('src/lib.rs', 'sys', { isCrateRoot: true, pathAttr: 'unix/sys.rs' }), ['src/unix/sys.rs']);
    assert.deepEqual(childModuleFiles('src/io/mod.rs', 'imp', { isCrateRoot: false, pathAttr: '../platform/imp.rs' }), ['src/platform/imp.rs']);
  });

  test('which crate a file is in: its own root first, then the deepest root folder, the library on a tie', () => {
    const targets: CrateTarget[] = [
      { kind: 'lib', name: 'app', root: 'src/lib.rs' },
      { kind: 'bin', name: 'app', root: 'src/main.rs' },
      { kind: 'bin', name: 'tool', root: 'src/bin/tool/main.rs' },
      { kind: 'test', name: 'it', root: 'tests/it.rs' },
    ];
    assert.equal(owningCrate('src/main.rs', targets)?.kind, 'bin');
    assert.equal(owningCrate('src/value/mod.rs', targets)?.kind, 'lib');
    assert.equal(owningCrate('src/bin/tool/helper.rs', targets)?.name, 'tool');
    assert.equal(owningCrate('tests/common/mod.rs', targets)?.name, 'it');
    assert.equal(owningCrate('benches/b.rs', targets), null);
  });
});

const rustPool = new ParserPool();
const rustFile = (file: string, text: string) => extractFile(rustPool, file, 'rust', text);

describe('the `mod` tree (real: tokio 1.24.2\'s loom, test/fixtures/real/tokio-modules)', () => {
  // lib.rs `mod loom;` → loom/mod.rs `cfg_not_loom! { mod std; }` → loom/std/mod.rs `mod atomic_u64;` →
  // atomic_u64.rs (not a mod.rs) `cfg_…! { #[path = "atomic_u64_native.rs"] mod imp; }` and the same
  // `mod imp` at "atomic_u64_as_mutex.rs", which declares `#[path = "atomic_u64_static_const_new.rs"]
  // mod static_macro;` (and the once_cell twin): `#[path]` is relative to the declaring file's folder.
  const layout = async (): Promise<ModTreeInput> => {
    const tree = tokioModulesTree();
    const files = await Promise.all([...tree].filter(([p]) => p.endsWith('.rs')).map(([p, text]) => rustFile(p, text)));
    return { manifests: [{ path: 'Cargo.toml', text: tree.get('Cargo.toml')! }], paths: new Set(tree.keys()), modDeclarations: withModDeclarations(new Map(), files, []) };
  };

  test('module paths follow `mod` declarations, `#[path]` and cfg twins; files no `mod` reaches keep their folder', async () => {
    const input = await layout();
    assert.deepEqual(input.modDeclarations.get('src/loom/std/atomic_u64.rs'), [
      { name: 'imp', inline: [], path: 'atomic_u64_native.rs' },
      { name: 'imp', inline: [], path: 'atomic_u64_as_mutex.rs' },
    ]);
    const module = (file: string) => rustModulePath(file, input)?.join('::');
    assert.equal(module('src/loom/std/atomic_u64.rs'), 'tokio::loom::std::atomic_u64');
    assert.equal(module('src/loom/std/atomic_u64_native.rs'), 'tokio::loom::std::atomic_u64::imp', 'the folder says atomic_u64_native');
    assert.equal(module('src/loom/std/atomic_u64_as_mutex.rs'), 'tokio::loom::std::atomic_u64::imp');
    assert.equal(module('src/loom/std/atomic_u64_static_const_new.rs'), 'tokio::loom::std::atomic_u64::imp::static_macro');
    assert.equal(module('src/loom/std/atomic_u64_static_once_cell.rs'), 'tokio::loom::std::atomic_u64::imp::static_macro');
    // runtime/metrics/io.rs: its parents are not vendored, so no `mod` reaches it: the folder rule.
    assert.equal(module('src/runtime/metrics/io.rs'), 'tokio::runtime::metrics::io');
  });

  test('which files a declaration moves: added, removed, inline, and a folder-named file a `#[path]` module displaces', async () => {
    const manifests = [{ path: 'Cargo.toml', text: '[package]\nname = "app"\n' }];
    const paths = new Set(['src/lib.rs', 'src/a.rs', 'src/a/x.rs', 'src/imp.rs', 'src/sys.rs', 'src/inner/leaf.rs']);
    const input = async (lib: string, a = 'mod x;\n'): Promise<ModTreeInput> => ({
      manifests,
      paths,
      modDeclarations: withModDeclarations(new Map(), [await rustFile('src/lib.rs', lib), await rustFile('src/a.rs', a)], []),
    });
    const before = await input('mod a;\n');
    const module = (layout: ModTreeInput, file: string) => rustModulePath(file, layout)?.join('::') ?? null;
    assert.equal(module(before, 'src/a/x.rs'), 'app::a::x', 'a.rs is no mod.rs: its children are in a/');
    assert.equal(module(before, 'src/imp.rs'), 'app::imp', 'unreached: the folder rule');
    // `#[path = "imp.rs"] mod sys;`: imp.rs is `sys` now, and sys.rs, which no `mod` reaches, would be `sys` too: it is no module.
    const after = await input('mod a;\n#[path = "imp.rs"]\nmod sys;\npub mod inner { pub mod leaf; }\n');
    assert.equal(module(after, 'src/imp.rs'), 'app::sys');
    assert.equal(module(after, 'src/sys.rs'), null);
    assert.equal(module(after, 'src/inner/leaf.rs'), 'app::inner::leaf');
    assert.deepEqual(movedModules(before, after).sort(), ['src/imp.rs', 'src/sys.rs']);
    assert.deepEqual(movedModules(after, await input('mod a;\n', '')), ['src/imp.rs', 'src/sys.rs'], 'a/x.rs and inner/leaf.rs keep their paths: the folder rule says the same');
  });

  test('the declaration map changes only when a file\'s declarations do (module paths memoise on it)', async () => {
    const first = withModDeclarations(new Map(), [await rustFile('src/lib.rs', 'mod a;\n')], []);
    assert.equal(withModDeclarations(first, [await rustFile('src/lib.rs', 'mod a;\nfn body_edit() {}\n')], []), first);
    assert.deepEqual(modDeclarationsOf(await rustFile('src/lib.rs', 'fn f() { mod local; }\n')), [], 'a `mod` in a function body is not followed');
    assert.notEqual(withModDeclarations(first, [await rustFile('src/lib.rs', 'mod b;\n')], []), first);
    assert.deepEqual([...withModDeclarations(first, [], ['src/lib.rs']).keys()], []);
  });
});

describe('paths: crate, self, super, extern crates', () => {
  const externs = new Set(['serde', 'itoa']);
  test('`crate::`, `self::` and `super::` become a module of the same crate', () => {
    assert.deepEqual(resolvePath(['crate', 'map', 'Map'], ['value', 'de'], externs), [{ t: 'module', module: [], rest: ['map', 'Map'] }]);
    assert.deepEqual(resolvePath(['self', 'index', 'Index'], ['value'], externs), [{ t: 'module', module: ['value'], rest: ['index', 'Index'] }]);
    assert.deepEqual(resolvePath(['super', 'Value'], ['value', 'de'], externs), [{ t: 'module', module: ['value'], rest: ['Value'] }]);
    assert.deepEqual(resolvePath(['super', 'super', 'error', 'Error'], ['value', 'de'], externs), [{ t: 'module', module: [], rest: ['error', 'Error'] }]);
    assert.equal(resolvePath(['super', 'x'], [], externs), null, 'above the crate root');
  });

  test('a plain first segment: the current module first, then an extern crate of that name; `::name` is only the crate', () => {
    assert.deepEqual(resolvePath(['serde', 'de', 'Visitor'], ['value'], externs), [
      { t: 'module', module: ['value'], rest: ['serde', 'de', 'Visitor'] },
      { t: 'crate', crate: 'serde', rest: ['de', 'Visitor'] },
    ]);
    assert.deepEqual(resolvePath(['core', 'fmt'], [], externs)?.map((s) => s.t), ['module', 'crate'], 'sysroot crates need no dependency');
    assert.deepEqual(resolvePath(['Map'], ['value'], externs), [{ t: 'module', module: ['value'], rest: ['Map'] }]);
    assert.deepEqual(resolvePath(['serde', 'Serialize'], ['value'], externs, true), [{ t: 'crate', crate: 'serde', rest: ['Serialize'] }]);
  });
});
