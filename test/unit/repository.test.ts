// The Repository interface served in-process and from the engine worker: on real code (Flask) both
// answer every request the same, saves reach the explorer session in the worker, models and the
// chat describer stay on the caller's side, and a worker that dies fails its requests instead of
// leaving them waiting.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { after, test } from 'node:test';
import type { HostMessage } from '../../src/core/explorer/protocol';
import { AREA_GROUPING_SYSTEM_PROMPT } from '../../src/core/features/areaGroups';
import { LIFTING_SYSTEM_PROMPT } from '../../src/core/lifting/lifter';
import type { LoadedModels } from '../../src/core/models/loader';
import { Channel } from '../../src/core/service/channel';
import { LocalRepository } from '../../src/core/service/localRepository';
import type { Repository } from '../../src/core/service/repository';
import { WorkerRepository } from '../../src/core/service/workerRepository';
import { FIXTURES } from './helpers';

const temps: string[] = [];
after(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

function unit(v: number[]): Float32Array {
  const norm = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / norm);
}

function flaskCopy(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-repository-'));
  temps.push(parent);
  const root = path.join(parent, 'flask');
  fs.cpSync(path.join(FIXTURES, 'real', 'flask'), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  return root;
}

/** Every read the editor makes, on one repository, as plain data. */
async function answers(repository: Repository, root: string) {
  const files = await repository.filePaths();
  const app = files.find((f) => f.endsWith('app.py'))!;
  const inApp = await repository.nodesInFile(app);
  const method = inApp.find((n) => n.kind === 'Method' && n.range)!;
  const found = await repository.search('Flask.wsgi_app', 10);
  const plain = await repository.search('where are url rules matched to views', 10);
  // The cursor inside one of Flask's methods, typing a call on self.
  const lines = fs.readFileSync(path.join(root, app), 'utf8').split('\n');
  const cut = method.range!.startLine + 2;
  const context = await repository.assembleContext({
    path: app,
    language: 'python',
    prefix: `${lines.slice(0, cut).join('\n')}\n        return self.`,
    suffix: `\n${lines.slice(cut).join('\n')}`,
  });
  return {
    root: path.relative(root, repository.root),
    counts: await repository.counts(),
    stats: { ...(await repository.stats()), store: undefined },
    files,
    method: await repository.node(method.id),
    described: await repository.describeAt(app, method.range!.startLine + 1, 4),
    atLine: await repository.nodeAtLine(app, method.range!.startLine + 1),
    byName: await repository.findNodes('wsgi_app'),
    entity: { route: found.result.route, hits: found.result.hits.map((h) => h.id), nodes: found.nodes.map((n) => n.id) },
    natural: { route: plain.result.route, hits: plain.result.hits.map((h) => [h.id, h.score]) },
    context: { text: context.text, triples: context.triples, snippets: context.snippets.map((s) => [s.title, s.relevance]) },
    modelStatus: await repository.modelStatus(),
  };
}

test('the engine worker answers every request as the in-process repository does', async () => {
  const root = flaskCopy();
  const local = await LocalRepository.open(root, { storeDir: null });
  const remote = await WorkerRepository.open(root, { storeDir: null });
  try {
    const progress: string[] = [];
    const [a, b] = await Promise.all([local.index(), remote.index((p) => progress.push(p.phase))]);
    assert.deepEqual({ ...b, timings: undefined }, { ...a, timings: undefined });
    assert.ok(progress.includes('parse'), 'index progress crosses from the worker');
    const mine = await answers(local, root);
    assert.ok(mine.counts.nodes > 500 && mine.entity.hits.length > 0 && mine.described && mine.context.text.length > 0, 'the fixture exercises every request');
    assert.deepEqual(await answers(remote, root), mine);
  } finally {
    await Promise.all([local.close(), remote.close()]);
  }
});

test('a save in the worker reaches its explorer session; models and the describer are called back on this side', async () => {
  const root = flaskCopy();
  const remote = await WorkerRepository.open(root, { storeDir: null });
  try {
    await remote.index();
    const messages: HostMessage[] = [];
    await remote.openExplorer('flask', (m) => messages.push(m), 'folders');
    assert.equal(messages.length, 0, 'the first view waits for the webview');
    assert.equal(await remote.explorerMessage({ type: 'ready' }), true);
    assert.deepEqual(messages.map((m) => m.type), ['graph']);
    assert.equal(await remote.explorerMessage({ type: 'expand', id: 'src' }), true);
    const file = (await remote.filePaths()).find((f) => f.endsWith('helpers.py'))!;
    const before = messages.length;
    await remote.updateFile(path.join(root, file), 'def brand_new_helper():\n    return 1\n');
    assert.ok(messages.length > before, 'the save sent the explorer a diff');
    assert.deepEqual(await remote.findNodes('brand_new_helper'), [`${file}#brand_new_helper`]);
    // a view opened by areas is by areas from its first graph (the worker builds the hierarchy first)
    messages.length = 0;
    await remote.openExplorer('flask', (m) => messages.push(m), 'areas');
    await remote.explorerMessage({ type: 'ready' });
    const first = messages[0];
    assert.ok(first?.type === 'graph' && first.viewBy === 'areas' && first.graph.nodes.some((n) => n.kind === 'Area'), JSON.stringify(first?.type));

    // A 4-dimensional embedder and a reranker that live here: the worker's embedding job and search call them.
    const embedded: string[] = [];
    const reranked: string[] = [];
    const models: LoadedModels = {
      embedder: { id: 'test/tiny', dim: 4, embed: async (texts) => (embedded.push(...texts), texts.map((t) => unit([t.length % 7, 1, 0, 0]))) },
      reranker: { id: 'test/reranker', score: async (query, passages) => (reranked.push(query), passages.map((p) => -p.length)) },
      status: 'test models',
      problems: [],
      close: async () => undefined,
    };
    await remote.useModels(models, models.status);
    const report = await remote.embed();
    assert.ok(report && report.embedded > 100 && embedded.length === report.embedded, 'the worker embedded with this side’s embedder');
    assert.match(await remote.modelStatus(), new RegExp(`test models; ${report.embedded} nodes embedded`));
    await remote.search('where are url rules matched to views', 5);
    assert.ok(reranked.length > 0, 'natural-language search reranked with this side’s reranker');

    const prompts: string[] = [];
    const names: string[] = [];
    const groupings: string[] = [];
    const describe = async (system: string, prompt: string) =>
      system === LIFTING_SYSTEM_PROMPT ? (prompts.push(prompt), 'Does one thing.') : system === AREA_GROUPING_SYSTEM_PROMPT ? (groupings.push(prompt), 'Not a grouping') : (names.push(prompt), 'Flask internals');
    const lifted = await remote.lift({ describe }, AbortSignal.timeout(60_000));
    assert.ok(lifted.described > 0 && prompts.length === lifted.described, 'the worker described code through this side’s describer');
    assert.ok(lifted.areas && lifted.areas.named > 0 && names.length === lifted.areas.named, 'and named the upper areas through it');
    // asked to group the view's parts first (an answer that is no grouping leaves the view as built)
    assert.deepEqual(lifted.areas.grouping, { grouped: 0, cached: false, failed: groupings.length });
  } finally {
    await remote.close();
  }
});

test('a cancelled index stops in the worker, and a dead worker fails what waits on it', async () => {
  const root = flaskCopy();
  const remote = await WorkerRepository.open(root, { storeDir: null });
  const controller = new AbortController();
  const indexing = remote.index((p) => p.phase === 'parse' && controller.abort(), controller.signal);
  await assert.rejects(indexing, /indexing cancelled/);
  // A request that never answers, then the worker goes away.
  const { port1, port2 } = new MessageChannel();
  const caller = new Channel(port1);
  new Channel(port2, { hang: () => new Promise(() => undefined) });
  const hanging = caller.call('hang');
  caller.close(new Error('the engine worker stopped (exit code 1)'));
  await assert.rejects(hanging, /engine worker stopped/);
  await assert.rejects(caller.call('anything'), /engine worker stopped/);
  port1.close();
  await remote.close();
  await assert.rejects(remote.counts(), /closed/);
});

test('a re-open runs in the same worker thread; the repository it replaced answers no more', async () => {
  const root = flaskCopy();
  const first = await WorkerRepository.open(root, { storeDir: null });
  await first.index();
  const second = await WorkerRepository.open(root, { storeDir: null }, first);
  try {
    assert.equal(second.worker, first.worker);
    await assert.rejects(first.counts(), /closed/);
    await first.close(); // a no-op: it must not stop the thread the second one uses
    assert.equal((await second.counts()).nodes, 0, 'a new engine, not yet indexed');
    const report = await second.index();
    assert.ok(report.parsed > 0 && (await second.counts()).nodes > 500);
  } finally {
    await second.close();
  }
});
