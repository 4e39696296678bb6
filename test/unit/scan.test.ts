// Workspace scan and source reading on real temporary trees: ignore files, settings excludes, and
// every way a file can refuse to be indexed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  type ScanOptions,
  type SkippedFile,
  createIgnoreMatcher,
  readSourceFile,
  scanWorkspace,
} from '../../src/core/workspace/scan';
import { RootBoundary } from '../../src/core/workspace/readSource';
import { bundledByContent, bundledByPath } from '../../src/core/workspace/bundled';

const tempRoots: string[] = [];
after(() => {
  for (const dir of tempRoots) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder holding `files` (relative path -> text or bytes). */
function tree(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-scan-'));
  tempRoots.push(root);
  for (const [rel, content] of Object.entries(files)) write(root, rel, content);
  return root;
}

function write(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

async function scanPaths(root: string, options?: ScanOptions): Promise<string[]> {
  return (await scanWorkspace(root, options)).files.map((f) => f.path);
}

function reasons(skipped: SkippedFile[]): Record<string, string> {
  return Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('scanWorkspace: candidates and order', () => {
  test('keeps only files whose extension has a language, sorted by path, with metadata', async () => {
    const root = tree({
      'b/mod.py': 'x = 1\n',
      'a.ts': 'export const a = 1;\n',
      'Z.tsx': 'export {};\n',
      'c/d/e.mjs': 'export default 1;\n',
      'c/types.pyi': 'x: int\n',
      'README.md': '# no\n',
      'data.json': '{}',
      'Makefile': 'all:\n',
      'b/mod.pyc': Buffer.from([0, 1, 2]),
    });
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => [f.path, f.language]),
      [
        ['Z.tsx', 'tsx'],
        ['a.ts', 'typescript'],
        ['b/mod.py', 'python'],
        ['c/d/e.mjs', 'javascript'],
        ['c/types.pyi', 'python'],
      ],
    );
    assert.deepEqual(skipped, []);
    const mod = files.find((f) => f.path === 'b/mod.py')!;
    assert.equal(mod.absPath, path.join(root, 'b', 'mod.py'));
    assert.equal(mod.size, 6);
    assert.equal(mod.mtimeMs, fs.statSync(mod.absPath).mtimeMs);
  });

  test('is deterministic across runs and independent of creation order', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `pkg${i % 7}/m${(i * 37) % 60}.py`);
    const forward = tree(Object.fromEntries(names.map((n) => [n, 'pass\n'])));
    const backward = tree(Object.fromEntries([...names].reverse().map((n) => [n, 'pass\n'])));
    const first = await scanPaths(forward);
    assert.deepEqual(await scanPaths(forward), first);
    assert.deepEqual(await scanPaths(backward), first);
    assert.deepEqual(first, [...new Set(names)].sort());
  });

  test('a folder named like a source file is walked, not reported', async () => {
    const root = tree({ 'x.py/inner.py': 'pass\n' });
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['x.py/inner.py'],
    );
    assert.deepEqual(skipped, []);
  });

  test('a missing root is an error, not an empty workspace', async () => {
    await assert.rejects(scanWorkspace(path.join(os.tmpdir(), 'cartograph-no-such-root-' + process.pid)), { code: 'ENOENT' });
  });
});

describe('scanWorkspace: ignore files and excludes', () => {
  test('nested .gitignore patterns are anchored at their own folder', async () => {
    const root = tree({
      '.gitignore': '/build/\n*.log.py\n',
      'build/out.py': '',
      'src/build/keep.py': '', // `/build/` is anchored at the root
      'src/.gitignore': '/gen.py\ncache/\n*.tmp.py\n',
      'src/gen.py': '',
      'src/deep/gen.py': '', // `/gen.py` only matches directly in src/
      'gen.py': '', // src/.gitignore does not apply outside src/
      'src/deep/cache/c.py': '', // unanchored folder pattern matches at any depth below src/
      'cache/c.py': '',
      'src/a.tmp.py': '',
      'a.tmp.py': '',
      'src/x.log.py': '',
      'main.py': '',
    });
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['a.tmp.py', 'cache/c.py', 'gen.py', 'main.py', 'src/build/keep.py', 'src/deep/gen.py'],
    );
    assert.deepEqual(skipped, [], 'ignored files are not reported');
  });

  test('negation: re-including files, a nested file overriding its parent, and excluded parents staying excluded', async () => {
    const root = tree({
      '.gitignore': '*_pb2.py\n!keep_pb2.py\ngenerated/\nlib/\n!lib/keep.py\n',
      'a_pb2.py': '',
      'keep_pb2.py': '',
      'pkg/b_pb2.py': '',
      'pkg/.gitignore': '!b_pb2.py\n!generated/\n',
      'pkg/generated/g.py': '', // re-included by pkg/.gitignore
      'pkg/generated/inner/h.py': '',
      'generated/g.py': '',
      'lib/keep.py': '', // git: a file cannot be re-included when its folder is excluded
      'other/c_pb2.py': '',
    });
    assert.deepEqual(await scanPaths(root), [
      'keep_pb2.py',
      'pkg/b_pb2.py',
      'pkg/generated/g.py',
      'pkg/generated/inner/h.py',
    ]);
  });

  test('/* with !/src/ keeps src only', async () => {
    const root = tree({ '.gitignore': '/*\n!/src/\n!.gitignore\n', 'top.py': '', 'src/a/b.py': '', 'other/c.py': '' });
    assert.deepEqual(await scanPaths(root), ['src/a/b.py']);
  });

  test('.ignore files apply like .gitignore and override it', async () => {
    const root = tree({
      '.gitignore': 'vendor/\n',
      '.ignore': 'scratch/\n!vendor/\n',
      'vendor/v.py': '',
      'scratch/s.py': '',
      'sub/.ignore': '/local.py\n',
      'sub/local.py': '',
      'local.py': '',
    });
    assert.deepEqual(await scanPaths(root), ['local.py', 'vendor/v.py']);
  });

  test('.git/info/exclude is honoured and .git/ itself is never entered', async () => {
    const root = tree({
      '.git/info/exclude': 'secret.py\n',
      '.git/hooks/pre-commit.py': '',
      'secret.py': '',
      'pkg/secret.py': '',
      'open.py': '',
    });
    assert.deepEqual(await scanPaths(root), ['open.py']);
  });

  test('node_modules/ and .cartograph/ are skipped at any depth, even when an ignore file re-includes them', async () => {
    const root = tree({
      '.gitignore': '!node_modules/\n',
      'node_modules/dep/index.js': '',
      'packages/web/node_modules/x/y.ts': '',
      'packages/web/src/app.ts': '',
      '.cartograph/store/x.js': '',
      'node_modules.py': '',
    });
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['node_modules.py', 'packages/web/src/app.ts'],
    );
    assert.deepEqual(skipped, []);
  });

  test('exclude option patterns are gitignore-style, cannot be negated by repo files, and are not reported', async () => {
    const root = tree({
      '.gitignore': '!legacy.py\n',
      'app/migrations/0001_initial.py': '',
      'app/models.py': '',
      'legacy.py': '',
      'dist/bundle.js': '',
      'keep.js': '',
    });
    const { files, skipped } = await scanWorkspace(root, { exclude: ['**/migrations/', 'legacy.py', '/dist'] });
    assert.deepEqual(
      files.map((f) => f.path),
      ['app/models.py', 'keep.js'],
    );
    assert.deepEqual(skipped, []);
  });

  test('agrees with `git ls-files --others --exclude-standard` on a tricky tree', async (t) => {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      t.skip('git is not installed');
      return;
    }
    const root = tree({
      '.gitignore': '*.gen.py\n!keep.gen.py\n/out/\ndocs/**/*.py\n**/tmp\n[Bb]uild/\n#comment.py\n\\#hash.py\n  spaced.py\n',
      'a.gen.py': '',
      'keep.gen.py': '',
      'x/keep.gen.py': '',
      'x/y.gen.py': '',
      'out/o.py': '',
      'x/out/o.py': '',
      'docs/a/b/c.py': '',
      'docs/top.py': '',
      'x/tmp/t.py': '',
      'tmp/t.py': '',
      'Build/b.py': '',
      'build/b.py': '',
      'x/build.py': '',
      '#comment.py': '',
      '#hash.py': '',
      'spaced.py': '',
      'x/.gitignore': '!y.gen.py\n/local/\nz*.py\n!zz.py\n!build/\n',
      'x/build/inner/k.py': '', // root `[Bb]uild/` re-included below x/
      'x/build/inner/a.gen.py': '', // ...while the root's other patterns still apply inside it
      'x/local/l.py': '',
      'local/l.py': '',
      'x/za.py': '',
      'x/zz.py': '',
      'x/deeper/zb.py': '',
      'p/.gitignore': '*\n!*.py\n!*/\n',
      'p/q/r.py': '',
      'p/q/r.js': '',
      'x/gen/.gitignore': '!*.gen.py\n',
      'x/gen/again.gen.py': '',
      '.git/info/exclude': 'excluded_by_info.py\n',
      'excluded_by_info.py': '',
    });
    // The fake .git above is replaced by a real one, keeping info/exclude.
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    execFileSync('git', ['init', '-q', root]);
    fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'excluded_by_info.py\n');
    const listed = execFileSync('git', ['-c', 'core.excludesFile=/dev/null', 'ls-files', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((p) => /\.(py|js|ts)$/.test(p))
      .sort();
    assert.ok(listed.length > 5);
    assert.deepEqual(await scanPaths(root), listed);
  });
});

describe('scanWorkspace: files that cannot be indexed', () => {
  test('files over maxFileSize are reported as too-large with their size', async () => {
    const root = tree({ 'big.py': 'x'.repeat(200), 'small.py': 'x'.repeat(100) });
    const { files, skipped } = await scanWorkspace(root, { maxFileSize: 100 });
    assert.deepEqual(
      files.map((f) => f.path),
      ['small.py'],
    );
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0].path, 'big.py');
    assert.equal(skipped[0].reason, 'too-large');
    assert.match(skipped[0].detail!, /200 bytes/);
  });

  test('the default limit is 1 MiB', async () => {
    const root = tree({ 'at-limit.py': Buffer.alloc(1024 * 1024, 0x20), 'over.py': Buffer.alloc(1024 * 1024 + 1, 0x20) });
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['at-limit.py'],
    );
    assert.deepEqual(reasons(skipped), { 'over.py': 'too-large' });
  });

  test('a symlinked folder pointing at an ancestor is reported once and not followed', async () => {
    const root = tree({ 'pkg/a.py': '', 'pkg/sub/b.py': '' });
    fs.symlinkSync('..', path.join(root, 'pkg', 'sub', 'up'));
    fs.symlinkSync(root, path.join(root, 'pkg', 'root-again'));
    fs.symlinkSync('self.py', path.join(root, 'self.py')); // a symlink to itself: ELOOP
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['pkg/a.py', 'pkg/sub/b.py'],
    );
    assert.deepEqual(reasons(skipped), {
      'pkg/root-again': 'symlink-loop',
      'pkg/sub/up': 'symlink-loop',
      'self.py': 'symlink-loop',
    });
  });

  /** A repository with symlinks out of it (a file, a folder, one relative) and inside it. */
  function linkedTrees() {
    const outside = tree({ 'lib/ext.py': '', 'lib/nested/n.py': '', 'secret.py': 'password = 1\n' });
    const root = tree({ 'src/real.py': '', 'target.py': 'x = 1\n' });
    fs.symlinkSync(path.join(outside, 'lib'), path.join(root, 'external'));
    fs.symlinkSync(path.join(outside, 'secret.py'), path.join(root, 'leak.py'));
    fs.symlinkSync(path.relative(path.join(root, 'src'), path.join(outside, 'secret.py')), path.join(root, 'src', 'up.py'));
    fs.symlinkSync('src', path.join(root, 'alias'));
    fs.symlinkSync('target.py', path.join(root, 'link.py'));
    fs.symlinkSync(path.join(outside, 'lib'), path.join(root, 'src', 'zz-again'));
    return { outside: fs.realpathSync(outside), root };
  }

  test('symlinks out of the root, to a file or a folder, are skipped as outside-root, naming the target', async () => {
    const { outside, root } = linkedTrees();
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['link.py', 'src/real.py', 'target.py'],
    );
    assert.deepEqual(reasons(skipped), {
      alias: 'symlink-loop',
      external: 'outside-root',
      'leak.py': 'outside-root',
      'src/up.py': 'outside-root',
      'src/zz-again': 'outside-root',
    });
    const detail = (p: string) => skipped.find((s) => s.path === p)!.detail!;
    assert.ok(detail('leak.py').startsWith(`a symlink to ${path.join(outside, 'secret.py')}, outside `), detail('leak.py'));
    assert.ok(detail('external').startsWith(`a symlink to ${path.join(outside, 'lib')}, outside `), detail('external'));
  });

  test('with followSymlinks, links out of the root are followed once; a second link to a scanned folder is reported', async () => {
    const { root } = linkedTrees();
    const { files, skipped } = await scanWorkspace(root, { followSymlinks: true });
    assert.deepEqual(
      files.map((f) => f.path),
      ['external/ext.py', 'external/nested/n.py', 'leak.py', 'link.py', 'src/real.py', 'src/up.py', 'target.py'],
    );
    assert.equal(files.find((f) => f.path === 'link.py')!.size, 6);
    assert.deepEqual(reasons(skipped), { alias: 'symlink-loop', 'src/zz-again': 'symlink-loop' });
    assert.match(skipped.find((s) => s.path === 'alias')!.detail!, /already scanned/);
  });

  test('ignore rules apply to symlinks by their own path', async () => {
    const outside = tree({ 'lib/ext.py': '' });
    const root = tree({ '.gitignore': 'ignored-link/\nignored.py\n', 'target.py': '' });
    fs.symlinkSync(path.join(outside, 'lib'), path.join(root, 'ignored-link'));
    fs.symlinkSync('target.py', path.join(root, 'ignored.py'));
    fs.symlinkSync('missing.py', path.join(root, 'sub-dangling.py'));
    write(root, 'sub/.gitignore', '*\n');
    fs.symlinkSync('missing.py', path.join(root, 'sub', 'dangling.py'));
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['target.py'],
    );
    assert.deepEqual(reasons(skipped), { 'sub-dangling.py': 'dangling-symlink' });
  });

  test('a dangling symlink is reported as dangling-symlink, naming its target', async () => {
    const root = tree({ 'ok.py': '' });
    fs.symlinkSync('nowhere/missing.py', path.join(root, 'dangling.py'));
    fs.symlinkSync('nowhere', path.join(root, 'dangling-dir')); // unknown kind, no source name: silent
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['ok.py'],
    );
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0].path, 'dangling.py');
    assert.deepEqual(skipped[0], { path: 'dangling.py', reason: 'dangling-symlink', detail: 'a symlink to nowhere/missing.py, which does not exist' });
  });

  test('a FIFO with a source name is reported as unreadable, and reading it does not hang', async (t) => {
    const root = tree({ 'ok.py': '' });
    try {
      execFileSync('mkfifo', [path.join(root, 'pipe.py')]);
    } catch {
      t.skip('mkfifo is not available');
      return;
    }
    const { files, skipped } = await scanWorkspace(root);
    assert.deepEqual(
      files.map((f) => f.path),
      ['ok.py'],
    );
    assert.deepEqual(skipped, [{ path: 'pipe.py', reason: 'unreadable', detail: 'not a regular file (fifo)' }]);
    const read = await readSourceFile(path.join(root, 'pipe.py'));
    assert.deepEqual(read, { ok: false, reason: 'unreadable', detail: 'not a regular file (fifo)' });
  });

  test('file-system errors during the walk become skipped entries (simulated: tests run as root)', async () => {
    const root = tree({ 'locked/a.py': '', 'gone.py': '', 'ok.py': '', 'perm.py': '' });
    const { files, skipped } = await scanWorkspace(root, {
      fs: {
        readdir: (dir, callback) => {
          if (dir.endsWith(`${path.sep}locked`)) return callback(errno('EACCES'), []);
          fs.readdir(dir, { withFileTypes: true }, callback);
        },
        stat: (p, callback) => {
          if (p.endsWith('gone.py')) return process.nextTick(callback, errno('ENOENT'));
          if (p.endsWith('perm.py')) return process.nextTick(callback, errno('EACCES'));
          fs.stat(p, callback);
        },
      },
    });
    assert.deepEqual(
      files.map((f) => f.path),
      ['ok.py'],
    );
    assert.deepEqual(reasons(skipped), { 'gone.py': 'vanished', locked: 'unreadable', 'perm.py': 'unreadable' });
    assert.match(skipped.find((s) => s.path === 'locked')!.detail!, /EACCES/);
  });
  test('an unreadable ignore file counts as absent; a failing file-system layer rejects instead of crashing', async () => {
    const root = tree({ '.gitignore': 'a.py\n', 'a.py': '', 'sub/b.py': '' });
    const noIgnore = await scanWorkspace(root, {
      fs: { readText: (_p, callback) => process.nextTick(callback, errno('EIO'), '') },
    });
    assert.deepEqual(
      noIgnore.files.map((f) => f.path),
      ['a.py', 'sub/b.py'],
    );
    await assert.rejects(
      scanWorkspace(root, {
        fs: {
          readdir: (dir, callback) => {
            if (dir.endsWith('sub')) throw new Error('bug in a file-system layer');
            fs.readdir(dir, { withFileTypes: true }, callback);
          },
        },
      }),
      /bug in a file-system layer/,
    );
  });

  test('keeps at most 64 file-system calls in flight, so their callbacks never pile up in one event-loop turn', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`pkg${i}/sub/m${i}.py`] = '';
    const root = tree(files);
    let inFlight = 0;
    let most = 0;
    // Every call completes late (a slow disk), so an unbounded walk would start them all at once.
    const slow =
      <T>(real: (p: string, cb: (e: NodeJS.ErrnoException | null, v: T) => void) => void) =>
      (p: string, callback: (e: NodeJS.ErrnoException | null, v: T) => void) => {
        most = Math.max(most, ++inFlight);
        setTimeout(() => real(p, (e, v) => {
          inFlight--;
          callback(e, v);
        }), 2);
      };
    const { files: found } = await scanWorkspace(root, {
      fs: {
        readdir: slow((dir, cb) => fs.readdir(dir, { withFileTypes: true }, cb)),
        stat: slow((p, cb) => fs.stat(p, cb)),
      },
    });
    assert.equal(found.length, 150);
    assert.ok(most <= 64, `${most} calls were in flight at once`);
    assert.ok(most >= 32, `the walk should still run calls concurrently (at most ${most} at once)`);
  });
});

describe('readSourceFile', () => {
  test('returns text, size and mtime', async () => {
    const root = tree({ 'a.py': 'def f():\n    return "é"\n' });
    const abs = path.join(root, 'a.py');
    const read = await readSourceFile(abs);
    assert.ok(read.ok);
    assert.equal(read.text, 'def f():\n    return "é"\n');
    assert.equal(read.size, fs.statSync(abs).size);
    assert.equal(read.mtimeMs, fs.statSync(abs).mtimeMs);
  });

  test('strips a UTF-8 BOM', async () => {
    const root = tree({ 'bom.py': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x = 1\n')]) });
    const read = await readSourceFile(path.join(root, 'bom.py'));
    assert.ok(read.ok);
    assert.equal(read.text, 'x = 1\n');
    assert.equal(read.size, 9);
  });

  test('rejects a file with a NUL byte in its first 8 KiB as binary', async () => {
    const early = Buffer.concat([Buffer.from('x = 1\n'), Buffer.from([0]), Buffer.from('y = 2\n')]);
    const late = Buffer.concat([Buffer.alloc(9000, 0x20), Buffer.from([0])]);
    const root = tree({ 'early.py': early, 'late.py': late });
    const read = await readSourceFile(path.join(root, 'early.py'));
    assert.deepEqual(read, { ok: false, reason: 'binary', detail: 'NUL byte at offset 6' });
    // Past 8 KiB a NUL is not sniffed; it is valid UTF-8, so the file reads.
    assert.equal((await readSourceFile(path.join(root, 'late.py'))).ok, true);
  });

  test('rejects Latin-1 bytes as not-utf8', async () => {
    const root = tree({ 'latin1.py': Buffer.from('# caf\xe9 cr\xe8me\nx = 1\n', 'latin1') });
    const read = await readSourceFile(path.join(root, 'latin1.py'));
    assert.equal(read.ok, false);
    assert.equal(!read.ok && read.reason, 'not-utf8');
  });

  test('rejects files over the limit as too-large without reading them', async () => {
    const root = tree({ 'big.ts': 'x'.repeat(2048) });
    const read = await readSourceFile(path.join(root, 'big.ts'), 1024);
    assert.deepEqual(read, { ok: false, reason: 'too-large', detail: '2048 bytes > limit 1024 bytes' });
  });

  test('a file deleted between scan and read is vanished', async () => {
    const root = tree({ 'a.py': 'pass\n', 'b.py': 'pass\n' });
    const { files } = await scanWorkspace(root);
    assert.equal(files.length, 2);
    fs.unlinkSync(files[1].absPath);
    assert.equal((await readSourceFile(files[0].absPath)).ok, true);
    const read = await readSourceFile(files[1].absPath);
    assert.equal(read.ok, false);
    assert.equal(!read.ok && read.reason, 'vanished');
  });

  test('a folder, a symlink loop and an access error are reported, never thrown', async () => {
    const root = tree({ 'dir.py/x.py': '' });
    fs.symlinkSync('loop.py', path.join(root, 'loop.py'));
    assert.deepEqual(await readSourceFile(path.join(root, 'dir.py')), {
      ok: false,
      reason: 'unreadable',
      detail: 'not a regular file (directory)',
    });
    const loop = await readSourceFile(path.join(root, 'loop.py'));
    assert.equal(!loop.ok && loop.reason, 'symlink-loop');
    const denied = await readSourceFile(path.join(root, 'dir.py', 'x.py'), undefined, {
      open: async () => {
        throw errno('EACCES');
      },
    });
    assert.equal(denied.ok, false);
    assert.equal(!denied.ok && denied.reason, 'unreadable');
    assert.match(!denied.ok ? denied.detail : '', /^EACCES/);
  });

  test('through a RootBoundary: a link out of the root is refused unless followed, one inside is read, a dangling one says so', async () => {
    const outside = tree({ 'secret.py': 'password = 1\n' });
    const root = tree({ 'target.py': 'x = 1\n', 'gone.py': '' });
    fs.symlinkSync(path.join(outside, 'secret.py'), path.join(root, 'leak.py'));
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync('target.py', path.join(root, 'link.py'));
    fs.symlinkSync('nowhere.py', path.join(root, 'dangling.py'));
    fs.rmSync(path.join(root, 'gone.py'));
    const boundary = new RootBoundary(root);
    const read = (rel: string, b = boundary) => readSourceFile(path.join(root, rel), undefined, undefined, b);
    for (const rel of ['leak.py', 'out/secret.py']) {
      const refused = await read(rel);
      assert.equal(!refused.ok && refused.reason, 'outside-root', rel);
      assert.match(!refused.ok ? refused.detail : '', /secret\.py, outside .*--follow-symlinks/);
      assert.equal(typeof boundary.realPathSync(path.join(root, rel)), 'object', `${rel}, read synchronously`);
    }
    assert.deepEqual(await read('link.py'), { ok: true, text: 'x = 1\n', size: 6, mtimeMs: fs.statSync(path.join(root, 'target.py')).mtimeMs });
    assert.equal(boundary.realPathSync(path.join(root, 'link.py')), fs.realpathSync(path.join(root, 'target.py')));
    assert.deepEqual(await read('dangling.py'), { ok: false, reason: 'dangling-symlink', detail: 'a symlink to nowhere.py, which does not exist' });
    const unbounded = await readSourceFile(path.join(root, 'dangling.py'));
    assert.equal(!unbounded.ok && unbounded.reason, 'dangling-symlink', 'without a boundary too');
    assert.deepEqual(await read('gone.py'), { ok: false, reason: 'vanished', detail: 'no longer exists' });
    const followed = await read('leak.py', new RootBoundary(root, true));
    assert.equal(followed.ok && followed.text, 'password = 1\n');
  });
});

describe('createIgnoreMatcher', () => {
  test('answers like the scan for files, folders and paths inside ignored folders', async () => {
    const root = tree({
      '.gitignore': 'build/\n*.gen.py\n',
      '.git/info/exclude': 'private/\n',
      'pkg/.gitignore': '!build/\n/local.py\n',
      'pkg/build/x.py': '',
      'pkg/local.py': '',
      'a.py': '',
    });
    const ignored = await createIgnoreMatcher(root, ['**/legacy/']);
    assert.equal(ignored('a.py', false), false);
    assert.equal(ignored('build', true), true);
    assert.equal(ignored('build/deep/x.py', false), true);
    assert.equal(ignored('pkg/build', true), false);
    assert.equal(ignored('pkg/build/x.py', false), false);
    assert.equal(ignored('pkg/local.py', false), true);
    assert.equal(ignored('other/local.py', false), false);
    assert.equal(ignored('pkg/m.gen.py', false), true);
    assert.equal(ignored('private/p.py', false), true);
    assert.equal(ignored('x/legacy/y.py', false), true);
    assert.equal(ignored('node_modules/z/index.js', false), true);
    assert.equal(ignored('.cartograph', true), true);
    assert.equal(ignored('pkg\\local.py', false), true, 'Windows separators');
    assert.equal(ignored('../outside.py', false), true, 'outside the root is not ours');
    assert.deepEqual(await scanPaths(root, { exclude: ['**/legacy/'] }), ['a.py', 'pkg/build/x.py']);
  });
});

describe('real code fixtures', () => {
  const real = path.join(__dirname, '..', 'fixtures', 'real');
  for (const [name, count, language] of [
    ['flask', 22, 'python'],
    ['tanstack-query-core', 23, 'typescript'],
  ] as const) {
    test(`${name}: every source is found and reads as UTF-8`, async () => {
      const { files, skipped } = await scanWorkspace(path.join(real, name));
      assert.equal(files.length, count);
      assert.deepEqual(skipped, []);
      assert.ok(files.every((f) => f.language === language));
      for (const file of files) assert.equal((await readSourceFile(file.absPath)).ok, true, file.path);
    });
  }
});

describe('minified and vendored JavaScript (real files: Django admin, abort-controller)', () => {
  const real = path.join(__dirname, '..', 'fixtures', 'real');
  const reasons = (skipped: SkippedFile[]) => skipped.map((s) => `${s.path}: ${s.reason} (${s.detail})`);

  test('a .min.js build and JavaScript in vendor/ are skipped by default, with their reason; Django\'s own files are indexed', async () => {
    const { files, skipped } = await scanWorkspace(path.join(real, 'django-admin-js'));
    assert.deepEqual(files.map((f) => f.path), ['SelectBox.js', 'core.js', 'urlify.js']);
    assert.deepEqual(reasons(skipped), [
      'vendor/select2/i18n/de.js: vendored (JavaScript in the vendor/ folder)',
      'vendor/select2/select2.full.min.js: minified (a .min.js build)',
    ]);
  });

  test('includeMinified indexes them all', async () => {
    const { files, skipped } = await scanWorkspace(path.join(real, 'django-admin-js'), { includeMinified: true });
    assert.equal(files.length, 5);
    assert.deepEqual(skipped, []);
  });

  test('the content rule: minified code without .min in its name is caught; readable code, TypeScript and Python never', async () => {
    const dist = path.join(real, 'abort-controller', 'dist');
    const umd = fs.readFileSync(path.join(dist, 'abort-controller.umd.js'), 'utf8');
    assert.deepEqual(bundledByContent('dist/abort-controller.umd.js', umd), { reason: 'minified', detail: '6 lines averaging 1544 characters' });
    assert.equal(bundledByContent('dist/abort-controller.js', fs.readFileSync(path.join(dist, 'abort-controller.js'), 'utf8')), undefined);
    assert.equal(bundledByContent('dist/abort-controller.ts', umd), undefined, 'TypeScript is never skipped as minified');
    assert.equal(bundledByContent('gen.py', umd), undefined);
    for (const file of ['core.js', 'SelectBox.js', 'urlify.js']) {
      assert.equal(bundledByContent(file, fs.readFileSync(path.join(real, 'django-admin-js', file), 'utf8')), undefined, file);
    }
    // Below 1 KiB a long line is not called minified (Select2's German messages: 866 bytes on 3 lines).
    assert.equal(bundledByContent('de.js', fs.readFileSync(path.join(real, 'django-admin-js', 'vendor/select2/i18n/de.js'), 'utf8')), undefined);
  });

  test('the path rules: only whole folder names vendor/vendors, only .js/.mjs/.cjs', () => {
    assert.equal(bundledByPath('static/vendors/lib.mjs')?.reason, 'vendored');
    assert.equal(bundledByPath('Vendor/lib.cjs')?.reason, 'vendored');
    assert.equal(bundledByPath('app.min.mjs')?.reason, 'minified');
    for (const kept of ['vendor/lib.ts', 'vendor/lib.py', 'src/vendorize.js', 'my_vendor/x.js', 'vendor.js', 'pip/_vendor/six.py', 'admin.js']) {
      assert.equal(bundledByPath(kept), undefined, kept);
    }
  });
});
