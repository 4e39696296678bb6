// The repository's service hosted by the editor (hostedService.ts), driven as VS Code's extension
// drives it (WorkerRepository with `share`) beside the built CLI on a copy of Flask: the editor takes
// the repository over from a running `cartograph service`, warm-starts from the store that service
// wrote (the repository is indexed once), answers the CLI from its graph (its own saves included),
// cannot be stopped or re-indexed with other options by a client, leaves a folder another window
// serves to that window, and on close leaves a current snapshot for the next CLI call.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { ShareOptions } from '../../src/core/service/hostedService';
import { WorkerRepository } from '../../src/core/service/workerRepository';
import { gone, helloOf, until } from '../support/serviceProbe';
import { cli, copyFlask, index, type Run } from '../support/storeHarness';
import { version as VERSION } from '../../package.json';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-hosted-'));
delete process.env.CARTOGRAPH_NO_SERVICE;
process.env.CARTOGRAPH_SERVICE_DIR = path.join(tmp, 'sockets');
const root = copyFlask(path.join(tmp, 'flask'));
const storeDir = path.join(root, '.cartograph');
const share: ShareOptions = { storeDir, version: VERSION, hostedBy: 'Test Editor' };
let editor: WorkerRepository | undefined;


const hello = () => helloOf(storeDir);

function json(run: Run): Record<string, unknown> {
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const hitNames = (answer: Record<string, unknown>) => (answer.hits as { qname: string; path: string }[]).map((h) => `${h.qname} ${h.path}`);
const source = (answer: Record<string, unknown>) => (answer.index as { source: string }).source;

before(async () => {
  await index(root);
});

after(async () => {
  await editor?.close();
  await cli(['service', 'stop', '--all'], root);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the editor takes the repository over from a running service, warm-starts from its store and answers the CLI', async () => {
  json(await cli(['query', 'Flask.run', '--json'], root));
  const standalone = await until('the CLI-started service', async () => ((await hello())?.ready ? hello() : undefined));
  assert.equal(standalone.hostedBy, undefined);

  editor = await WorkerRepository.open(root, { storeDir: path.join(tmp, 'private') }, undefined, share);
  assert.equal(editor.opened.storeDir, storeDir, 'the editor uses the shared store');
  assert.ok(editor.opened.socket, 'and serves it');
  const served = await hello();
  assert.equal(served?.hostedBy, 'Test Editor');
  assert.equal(served?.pid, process.pid);
  assert.notEqual(served?.pid, standalone.pid);
  await gone(standalone.pid);

  const report = await editor.index();
  assert.equal(report.parsed, 0, 'nothing is parsed again: the store the service wrote is the editor\'s');
  assert.ok(fs.readFileSync(path.join(storeDir, '.gitignore'), 'utf8').includes('*'), 'the store keeps itself out of git');

  for (const q of ['Flask.run', 'callers of url_for', 'where are sessions signed and saved']) {
    const viaEditor = json(await cli(['query', q, '--json'], root));
    const here = json(await cli(['query', q, '--json', '--no-service'], root));
    assert.equal(source(viaEditor), 'service', q);
    assert.deepEqual(hitNames(viaEditor), hitNames(here), q);
  }
  const status = await cli(['service', 'status'], root);
  assert.match(status.stdout, new RegExp(`pid ${process.pid} \\(Test Editor\\)`));
});

test("the editor's saves and files written on disk are in the CLI's next answer", async () => {
  assert.ok(editor);
  const app = path.join(root, 'app.py');
  // A save in the editor: written to disk, and the buffer's text sent to the engine (as VS Code's onDidSave does).
  const text = `${fs.readFileSync(app, 'utf8')}\n\ndef saved_in_the_editor():\n    return 1\n`;
  fs.writeFileSync(app, text);
  await editor.updateFile(app, text);
  const saved = json(await cli(['query', 'saved_in_the_editor', '--json'], root));
  assert.ok(hitNames(saved).some((h) => h.startsWith('saved_in_the_editor ') || h.includes('.saved_in_the_editor ')), JSON.stringify(saved.hits));
  // A file an agent writes and asks about at once.
  fs.writeFileSync(path.join(root, 'written_now.py'), 'def written_just_now():\n    return 2\n');
  const written = json(await cli(['query', 'written_just_now', '--json'], root));
  assert.match(JSON.stringify(written.hits), /written_now\.py/);
});

test('a client cannot stop the editor\'s service or re-index it with other options', async () => {
  const stop = await cli(['service', 'stop'], root);
  assert.equal(stop.code, 1, stop.stdout + stop.stderr);
  assert.match(stop.stdout, /Left the service .* running: Test Editor/);
  const reindex = await cli(['index', root, '--exclude', 'tests/'], root);
  assert.equal(reindex.code, 1, reindex.stderr);
  assert.match(reindex.stderr, /Test Editor .* holds the graph/);
  assert.equal((await hello())?.hostedBy, 'Test Editor', 'still serving');
  // `index` as it is: the editor's graph re-checks the folder.
  assert.equal((await cli(['index', root], root)).code, 0);
});

test('a second window on the same folder keeps its own store and leaves the service to the first', async () => {
  const own = path.join(tmp, 'second-window');
  const second = await WorkerRepository.open(root, { storeDir: own }, undefined, share);
  try {
    assert.equal(second.opened.socket, undefined);
    assert.equal(second.opened.storeDir, own);
    await second.index();
    assert.equal((await hello())?.pid, process.pid);
  } finally {
    await second.close();
  }
  assert.equal((await hello())?.hostedBy, 'Test Editor', 'closing the second window stops nothing');
});

test('an engine worker that died leaves no lock behind: the next open serves again at once', async () => {
  await editor!.worker.terminate();
  assert.equal(await hello(), undefined, 'nothing answers on the socket');
  editor = await WorkerRepository.open(root, { storeDir: path.join(tmp, 'private') }, undefined, share);
  // The dead thread's lock would go stale only after 30 s without its heartbeat, and a claim gives up
  // after 10 s: serving again means it was recognised as this process's orphan.
  assert.ok(editor.opened.socket, 'the re-opened worker serves the folder');
  await editor.index();
  assert.equal((await hello())?.hostedBy, 'Test Editor');
});

test('closing the editor stops serving and leaves a current snapshot: the next CLI call answers from it and starts a service', async () => {
  await editor!.close();
  editor = undefined;
  assert.equal(await hello(), undefined, 'no service listens');
  const first = await cli(['query', 'saved_in_the_editor', '--json'], root);
  const answer = json(first);
  assert.equal(source(answer), 'snapshot', first.stderr);
  assert.ok(hitNames(answer).some((h) => h.includes('saved_in_the_editor')), 'the snapshot holds the editor\'s last save');
  assert.match(first.stderr, /started the service/);
  const started = await until('the new service', async () => ((await hello())?.ready ? hello() : undefined));
  assert.equal(started.hostedBy, undefined);
});
