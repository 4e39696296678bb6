// The service's file watcher (src/core/workspace/folderWatcher.ts): a watch per folder, no stat per
// file, each kernel event reported at once. Every check waits for the event it expects (a generous
// deadline, never a fixed sleep), so a loaded machine only makes the test slower.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { FolderWatcher } from '../../src/core/workspace/folderWatcher';

const DEADLINE_MS = 10_000;

let root: string;
let watcher: FolderWatcher | undefined;
let seen: string[];
let waiters: Array<() => void>;

/** Resolves once a reported path satisfies `wanted` (reported before the call or after). */
function reported(wanted: (p: string) => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not reported within ${DEADLINE_MS} ms: ${what}; seen ${JSON.stringify(seen)}`)), DEADLINE_MS);
    const check = () => {
      if (!seen.some(wanted)) return waiters.push(check);
      clearTimeout(timer);
      resolve();
    };
    check();
  });
}

function start(options: { followSymlinks?: boolean } = {}): FolderWatcher {
  const errors: Error[] = [];
  watcher = new FolderWatcher(root, {
    ignored: (p) => /[\\/](\.git|node_modules)([\\/]|$)/.test(p),
    followSymlinks: options.followSymlinks,
    onChange: (p) => {
      seen.push(p);
      for (const wake of waiters.splice(0)) wake();
    },
    onError: (err) => errors.push(err),
  });
  return watcher;
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-watch-'));
  for (const dir of ['pkg/sub', 'node_modules/dep', '.git/objects', 'docs']) fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(root, 'pkg', 'a.py'), 'x = 1\n');
  seen = [];
  waiters = [];
});

afterEach(() => {
  watcher?.close();
  watcher = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

test('watches every folder but the ignored ones, and reports writes, creations and deletions in them by path', async () => {
  const w = start();
  await w.ready;
  assert.equal(w.folders, 4, 'root, pkg, pkg/sub and docs: not node_modules or .git');
  const file = path.join(root, 'pkg', 'sub', 'b.py');
  fs.writeFileSync(file, 'y = 2\n');
  await reported((p) => p === file, 'a file created in a nested folder');
  fs.appendFileSync(path.join(root, 'pkg', 'a.py'), 'z = 3\n');
  await reported((p) => p === path.join(root, 'pkg', 'a.py'), 'an appended file');
  seen.length = 0;
  fs.rmSync(file);
  await reported((p) => p === file, 'a deleted file');
  seen.length = 0;
  fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), '1\n');
  fs.writeFileSync(path.join(root, 'docs', 'note.txt'), 'hi\n');
  await reported((p) => p === path.join(root, 'docs', 'note.txt'), 'a file the graph never reads, in a watched folder');
  assert.ok(!seen.some((p) => p.includes('node_modules')), 'nothing inside an ignored folder');
});

test('a new folder is reported, watched, and reported again once watched; a file written in it at once is under it', async () => {
  const w = start();
  await w.ready;
  const folder = path.join(root, 'late_pkg');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'late.py'), 'def late():\n    return 1\n');
  await reported((p) => p === folder, 'the new folder');
  // Reported a second time after its watch exists: whatever was written before that is read with it.
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the folder was not reported again: ${JSON.stringify(seen)}`)), DEADLINE_MS);
    const again = () => {
      if (seen.filter((p) => p === folder).length < 2) return waiters.push(again);
      clearTimeout(deadline);
      resolve();
    };
    again();
  });
  assert.equal(w.folders, 5);
  const later = path.join(folder, 'later.py');
  fs.writeFileSync(later, 'x = 1\n');
  await reported((p) => p === later, 'a file written in the new folder after it was watched');
});

test('a folder renamed away is unwatched under its old name; its new name is watched', async () => {
  const w = start();
  await w.ready;
  const moved = path.join(root, 'moved');
  fs.renameSync(path.join(root, 'pkg'), moved);
  await reported((p) => p === moved, 'the new name');
  // The old name's watches go and the new name's come, each after a stat of its own: waited for, in any order.
  const deadline = Date.now() + DEADLINE_MS;
  while (!(seen.filter((p) => p === moved).length >= 2 && w.folders === 4)) {
    assert.ok(Date.now() < deadline, `root, moved, moved/sub and docs expected; ${w.folders} folders watched, seen ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  seen.length = 0;
  const inside = path.join(moved, 'sub', 'c.py');
  fs.writeFileSync(inside, 'c = 1\n');
  await reported((p) => p === inside, 'a write under the new name, by its new path');
  assert.ok(!seen.some((p) => p.startsWith(path.join(root, 'pkg'))), `nothing under the old name: ${JSON.stringify(seen)}`);
});

test('a symlinked folder is walked only when symlinks are followed, and a cycle once', async () => {
  fs.symlinkSync(path.join(root, 'pkg'), path.join(root, 'link'));
  fs.symlinkSync(root, path.join(root, 'pkg', 'sub', 'up'));
  const plain = start();
  await plain.ready;
  assert.equal(plain.folders, 4);
  plain.close();
  const following = start({ followSymlinks: true });
  await following.ready;
  // `link` is pkg again and `up` is root again: the walk enters what a link names and ends (each link's
  // real folder entered through links once at most, whatever the order the walk meets them in).
  assert.ok(following.folders > 4 && following.folders <= 12, `${following.folders} folders watched`);
});
