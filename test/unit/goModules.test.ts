// Go import paths → repository folders (goModules.ts) on real go.mod files from Go's own sources.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { enclosingModule, isStdlibImport, parseGoMod, resolveGoImport, type GoModule } from '../../src/core/graph/goModules';
import { FIXTURES } from './helpers';

const GO_MOD = path.join(FIXTURES, 'go-mod');
const read = (name: string) => parseGoMod(fs.readFileSync(path.join(GO_MOD, name), 'utf8'));
const folders = (...dirs: string[]) => (dir: string) => dirs.includes(dir);

test('go.mod: module, go version, require blocks with comments', () => {
  const std = read('std.go.mod');
  assert.equal(std.module, 'std');
  assert.equal(std.go, '1.19');
  assert.deepEqual([...std.requires], [
    ['golang.org/x/crypto', 'v0.0.0-20220516162934-403b01795ae8'],
    ['golang.org/x/net', 'v0.0.0-20230214200805-d99f623d45a4'],
    ['golang.org/x/sys', 'v0.0.0-20220614162138-6c1b26c55098'], // `// indirect` is a comment
    ['golang.org/x/text', 'v0.3.8-0.20220509174342-b4bca84b0361'],
  ]);
  assert.deepEqual(std.problems, []);
  assert.equal(read('cmd.go.mod').requires.size, 9);
  const cobra = parseGoMod(fs.readFileSync(path.join(FIXTURES, 'real', 'cobra', 'go.mod'), 'utf8'));
  assert.equal(cobra.module, 'github.com/spf13/cobra');
  assert.equal(cobra.requires.get('github.com/spf13/pflag'), 'v1.0.5');
  assert.equal(read('modlegacy-new.go.mod').module, 'new/v2');
});

test('go.mod: replace forms, exclude/retract blocks and odd spacing', () => {
  const edit1 = read('mod_edit.edit1.go.mod');
  assert.equal(edit1.module, 'x.x/y/z');
  assert.equal(edit1.go, '$goversion'); // the script substitutes it; we keep what is written
  assert.deepEqual(edit1.replaces, [
    { from: 'x.1', fromVersion: 'v1.3.0', to: 'y.1', toVersion: 'v1.4.0', local: false },
    { from: 'x.1', fromVersion: 'v1.4.0', to: '../z', local: true },
  ]);
  assert.deepEqual([...edit1.requires], [['x.1', 'v1.0.0']]); // exclude and retract lines are not requires
  assert.deepEqual(edit1.problems, []);
  const bad = read('mod_edit.badfmt.go.mod');
  assert.equal(bad.module, 'x.x/y/z');
  assert.deepEqual(bad.replaces, [{ from: 'x.1', to: 'y.1/v2', toVersion: 'v2.3.6', local: false }]);
  assert.equal(bad.requires.get('x.3'), 'v1.99.0');
  const broken = parseGoMod('module a.b/c\nreplace x.1\nrequire only-a-path\n');
  assert.equal(broken.module, 'a.b/c');
  assert.deepEqual(broken.problems, ['line 2: replace needs `path [version] => path [version]`', 'line 3: require takes a path and a version']);
});

test('imports: longest local replacement wins, as the go command resolves mod_replace_import', () => {
  const modules: GoModule[] = [{ dir: '', mod: read('mod_replace_import.go.mod') }];
  const any = () => false; // replacements and module paths do not look at the disk
  // The script's `go list -m all` expectations: a/b => ./b, x/v3 => ./v3, y (for y/z/w) => ./w.
  assert.deepEqual(resolveGoImport('example.com/a/b', '', modules, any), { t: 'folder', dir: 'b', via: 'replace' });
  assert.deepEqual(resolveGoImport('example.com/a/c', '', modules, any), { t: 'folder', dir: 'a/c', via: 'replace' });
  assert.deepEqual(resolveGoImport('example.com/x/v3', '', modules, any), { t: 'folder', dir: 'v3', via: 'replace' });
  assert.deepEqual(resolveGoImport('example.com/y/z/w', '', modules, any), { t: 'folder', dir: 'w', via: 'replace' });
  // No require names a version of example.com/v, so only the blanket replacement applies.
  assert.deepEqual(resolveGoImport('example.com/v', '', modules, any), { t: 'folder', dir: 'v', via: 'replace' });
  assert.deepEqual(resolveGoImport('example.com/i', '', modules, any), { t: 'external', name: 'example.com/i', stdlib: false });
  assert.deepEqual(resolveGoImport('example.com/m/internal/x', '', modules, any), { t: 'folder', dir: 'internal/x', via: 'module' });
});

test('imports: versioned local replace follows the require; a replacement outside the repository stays external', () => {
  const local: GoModule[] = [{ dir: 'local', mod: read('mod_edit.local.go.mod') }];
  assert.equal(local[0].mod.module, 'local-only');
  assert.deepEqual(resolveGoImport('other-local/pkg', 'local', local, () => false), { t: 'folder', dir: 'local/other/pkg', via: 'replace' });
  assert.deepEqual(resolveGoImport('local-only/sub', 'local/a', local, () => false), { t: 'folder', dir: 'local/sub', via: 'module' });
  const edit1: GoModule[] = [{ dir: '', mod: read('mod_edit.edit1.go.mod') }];
  // require x.1 v1.0.0: neither versioned replacement applies; x.1 is a third-party module.
  assert.deepEqual(resolveGoImport('x.1/p', '', edit1, () => false), { t: 'external', name: 'x.1/p', stdlib: false });
  assert.deepEqual(resolveGoImport('x.1/p', '', edit1, folders('vendor/x.1/p')), { t: 'folder', dir: 'vendor/x.1/p', via: 'vendor' });
  const escaping: GoModule[] = [{ dir: '', mod: parseGoMod('module a.b/m\nreplace x.1 => ../z\n') }];
  assert.deepEqual(resolveGoImport('x.1/p', '', escaping, () => false), { t: 'external', name: 'x.1/p', stdlib: false });
});

test('the Go tree as a repository: std and cmd modules, std vendor, stdlib externals elsewhere', () => {
  const modules: GoModule[] = [
    { dir: 'src', mod: read('std.go.mod') },
    { dir: 'src/cmd', mod: read('cmd.go.mod') },
  ];
  const has = folders('src/net/http', 'src/fmt', 'src/vendor/golang.org/x/net/idna', 'src/cmd/vendor/golang.org/x/mod/module', 'src/cmd/go/internal/base');
  assert.equal(enclosingModule('src/net/http', modules)?.mod.module, 'std');
  assert.equal(enclosingModule('src/cmd/go/internal/work', modules)?.mod.module, 'cmd');
  assert.deepEqual(resolveGoImport('fmt', 'src/net/http', modules, has), { t: 'folder', dir: 'src/fmt', via: 'std' });
  assert.deepEqual(resolveGoImport('golang.org/x/net/idna', 'src/net/http', modules, has), { t: 'folder', dir: 'src/vendor/golang.org/x/net/idna', via: 'vendor' });
  assert.deepEqual(resolveGoImport('cmd/go/internal/base', 'src/cmd/go', modules, has), { t: 'folder', dir: 'src/cmd/go/internal/base', via: 'module' });
  assert.deepEqual(resolveGoImport('golang.org/x/mod/module', 'src/cmd/go', modules, has), { t: 'folder', dir: 'src/cmd/vendor/golang.org/x/mod/module', via: 'vendor' });
  // cmd's vendor folder is cmd's only: std does not see it.
  assert.deepEqual(resolveGoImport('golang.org/x/mod/module', 'src/net', modules, has), { t: 'external', name: 'golang.org/x/mod/module', stdlib: false });
  // A stdlib package the tree does not hold, and any stdlib import in a normal module: External.
  assert.deepEqual(resolveGoImport('unsafe', 'src/fmt', modules, has), { t: 'external', name: 'unsafe', stdlib: true });
  const cobra: GoModule[] = [{ dir: '', mod: parseGoMod(fs.readFileSync(path.join(FIXTURES, 'real', 'cobra', 'go.mod'), 'utf8')) }];
  assert.deepEqual(resolveGoImport('fmt', 'doc', cobra, () => true), { t: 'external', name: 'fmt', stdlib: true });
  assert.deepEqual(resolveGoImport('github.com/spf13/cobra', 'doc', cobra, () => true), { t: 'folder', dir: '', via: 'module' });
  assert.deepEqual(resolveGoImport('github.com/spf13/pflag', 'doc', cobra, () => false), { t: 'external', name: 'github.com/spf13/pflag', stdlib: false });
});

test('without go.mod: vendor folders above the file, then the GOPATH layout', () => {
  const has = folders('app/vendor/github.com/x/y', 'github.com/spf13/pflag');
  assert.deepEqual(resolveGoImport('github.com/x/y', 'app/cmd', [], has), { t: 'folder', dir: 'app/vendor/github.com/x/y', via: 'vendor' });
  assert.deepEqual(resolveGoImport('github.com/spf13/pflag', 'github.com/spf13/cobra', [], has), { t: 'folder', dir: 'github.com/spf13/pflag', via: 'gopath' });
  assert.ok(isStdlibImport('net/http'));
  assert.ok(isStdlibImport('C'));
  assert.ok(!isStdlibImport('golang.org/x/net'));
});
