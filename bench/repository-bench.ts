// `npx tsx bench/repository-bench.ts [--json FILE] [--corpus django] [--requests N]`: what serving the
// Repository from the engine worker costs against serving it in the calling thread, on real code.
// Per mode: open → ready cold (a new store) and warm (the store from the cold run, a new engine as
// when a workspace is opened again: in worker mode a new thread), the calling thread's heap and the
// process's RSS once ready, and the latency of the requests an editor makes while someone works: completion context at cursors spread over the
// repository, Find Where Implemented (names and plain English), Show Symbol Graph. Each mode runs in
// a process of its own, one after the other, so they share neither the CPU nor a heap. The modes run
// bundled (dist/repository-bench.js, next to `npm run build`'s workers), so the engine worker starts
// from its bundle as in the extension instead of compiling TypeScript in the new thread.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalRepository } from '../src/core/service/localRepository';
import type { Repository } from '../src/core/service/repository';
import { WorkerRepository } from '../src/core/service/workerRepository';
import type { CursorQuery } from '../src/core/completion/queryGraph';
import type { Language } from '../src/core/model/schema';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const jsonOut = option('--json');
const corpusName = option('--corpus') ?? 'django';
const REQUESTS = Number(option('--requests') ?? 40);
// Run bundled from dist/ or as a source from bench/: the corpora are in bench/.corpora either way.
const root = path.resolve(__dirname, '..', 'bench', '.corpora', corpusName);
if (!fs.existsSync(root)) throw new Error(`${root} is missing: run bash bench/fetch-corpora.sh`);

const SEARCHES = ['QuerySet.filter', 'Model.save', 'callers of get_object_or_404', 'where are url patterns resolved to views', 'how is a password hashed', 'render a template to a string'];

/** Cursors at evenly spaced lines of evenly spaced files: the prefix up to the line's indentation. */
async function cursors(repository: Repository, n: number): Promise<CursorQuery[]> {
  const files = (await repository.filePaths()).filter((f) => f.endsWith('.py')).sort();
  const out: CursorQuery[] = [];
  for (let i = 0; i < n; i++) {
    const rel = files[Math.floor((i * files.length) / n)];
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    const cut = Math.floor(lines.length * (0.3 + 0.4 * ((i * 7) % 10) / 10));
    const indent = /^[ \t]*/.exec(lines[cut] ?? '')![0];
    out.push({ path: rel, language: 'python' as Language, prefix: `${lines.slice(0, cut).join('\n')}\n${indent}`, suffix: '' });
  }
  return out;
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await work();
  return performance.now() - t;
}

function summary(ms: number[]): { p50: number; p95: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: s.length };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
}

type Mode = 'in-process' | 'engine worker';

const openIn = (mode: Mode, storeDir: string) => (mode === 'in-process' ? LocalRepository.open(root, { storeDir }) : WorkerRepository.open(root, { storeDir }));

/** A new store: open → ready and written. */
async function cold(mode: Mode, storeDir: string) {
  const t = performance.now();
  const repository = await openIn(mode, storeDir);
  const report = await repository.index();
  await repository.flush();
  const coldMs = performance.now() - t;
  await repository.close();
  return { coldMs: Math.round(coldMs), coldPhasesMs: report.timings };
}

/** The store from `cold`, in a new process as when the workspace is opened again; then the requests. */
async function warm(mode: Mode, storeDir: string) {
  const before = heapMb();
  const t = performance.now();
  const repository = await openIn(mode, storeDir);
  const openMs = performance.now() - t;
  const report = await repository.index();
  const warmMs = performance.now() - t;
  if (report.parsed !== 0) throw new Error(`the warm open re-parsed ${report.parsed} files`);
  const heapAfter = heapMb();
  // The whole process, the worker thread's heap and LanceDB's native memory included.
  const rssMb = Math.round(process.memoryUsage().rss / 1048576);
  const queries = await cursors(repository, REQUESTS);
  await repository.assembleContext(queries[0]); // the first builds the window index
  await repository.prepareSearch();
  const context: number[] = [];
  for (const q of queries) context.push(await timed(() => repository.assembleContext(q)));
  const search: number[] = [];
  for (let i = 0; i < 3; i++) for (const s of SEARCHES) search.push(await timed(() => repository.search(s, 30)));
  const symbol: number[] = [];
  for (const q of queries) {
    const line = q.prefix.split('\n').length - 1;
    symbol.push(await timed(() => repository.describeAt(q.path, line, 4)));
  }
  const counts = await repository.counts();
  await repository.close();
  return { mode, counts, warmMs: Math.round(warmMs), warmOpenMs: Math.round(openMs), rssMb, callingThreadHeapMb: Math.round((heapAfter - before) * 10) / 10, contextMs: summary(context), searchMs: summary(search), symbolGraphMs: summary(symbol) };
}

async function main(): Promise<void> {
  const only = option('--mode') as Mode | undefined;
  const phase = option('--phase');
  const store = option('--store');
  if (only && store) {
    console.log(JSON.stringify(phase === 'cold' ? await cold(only, store) : await warm(only, store)));
    return;
  }
  const dist = path.resolve(__dirname, '..', 'dist');
  if (!fs.existsSync(path.join(dist, 'repositoryWorker.js'))) throw new Error('dist/repositoryWorker.js is missing: run npm run build');
  const { build } = await import('esbuild');
  // @ts-expect-error: a plain .mjs module without types
  const { common } = await import('../scripts/bundleOptions.mjs');
  const bundle = path.join(dist, 'repository-bench.js');
  await build({ ...common, absWorkingDir: path.resolve(__dirname, '..'), entryPoints: [__filename], outfile: bundle });
  const run = (mode: Mode, phase: string, storeDir: string) => {
    const out = execFileSync(process.execPath, ['--expose-gc', bundle, '--mode', mode, '--phase', phase, '--store', storeDir, '--corpus', corpusName, '--requests', String(REQUESTS)], { encoding: 'utf8', maxBuffer: 16 << 20 });
    return JSON.parse(out.trim().split('\n').pop()!);
  };
  const results: (Awaited<ReturnType<typeof cold>> & Awaited<ReturnType<typeof warm>>)[] = [];
  for (const mode of ['in-process', 'engine worker'] as const) {
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-repository-bench-'));
    try {
      results.push({ ...run(mode, 'cold', storeDir), ...run(mode, 'warm', storeDir) });
    } finally {
      fs.rmSync(storeDir, { recursive: true, force: true });
    }
  }
  console.log(`${corpusName}: ${results[0].counts.files} files, ${results[0].counts.nodes} nodes, ${results[0].counts.edges} edges; ${REQUESTS} cursors`);
  console.log('| mode | open → ready, cold | open → ready, warm (of it: open) | calling thread heap when ready | process RSS when ready | completion context p50 / p95 | search p50 / p95 | symbol graph p50 / p95 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.mode} | ${(r.coldMs / 1000).toFixed(2)} s | ${(r.warmMs / 1000).toFixed(2)} s (${r.warmOpenMs} ms) | ${r.callingThreadHeapMb} MB | ${r.rssMb} MB | ${r.contextMs.p50} / ${r.contextMs.p95} ms | ${r.searchMs.p50} / ${r.searchMs.p95} ms | ${r.symbolGraphMs.p50} / ${r.symbolGraphMs.p95} ms |`);
  }
  if (jsonOut) fs.writeFileSync(jsonOut, `${JSON.stringify({ command: `npx tsx bench/repository-bench.ts --corpus ${corpusName} --requests ${REQUESTS}`, date: new Date().toISOString(), results }, null, 1)}\n`);
}

void main();
