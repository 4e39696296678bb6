// `npm run bench:context [-- --json FILE] [--samples N]`: cross-file definition recall of the context
// completion would send, RepoBench-R / CrossCodeEval style, on real code, and context assembly
// latency on Django. No LLM is involved: what is measured is whether the definition the next line
// needs reaches the prompt.
//
// Samples: lines whose references resolve (through the repository graph) to a definition in another
// file of the same repository. The buffer is cut at the start of that line's code (its indentation
// kept, nothing after it: left context only). Recall = share of those (line, definition) pairs whose
// definition header (signature line, with its file) is in the context, at 1,024 and 2,048 tokens, for
// no retrieval, RepoCoder's vanilla sliding-window BM25 (20-line windows, stride 10, query = the last
// 20 lines, windows taken in rank order while they fit) and Cartograph's graph-fused context.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContextAssembler } from '../src/core/completion/assemble';
import { WINDOW_LINES } from '../src/core/completion/codeWindows';
import { snippetBlock } from '../src/core/completion/fuse';
import { buildQueryGraph, extractInProcess, type CursorQuery } from '../src/core/completion/queryGraph';
import { renderWindow } from '../src/core/completion/snippets';
import { estimateTokens } from '../src/core/completion/tokens';
import { Engine } from '../src/core/engine';
import { CORPORA, corpusVersions, ensureTsPackage } from './search/corpus';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const SAMPLES = args.includes('--samples') ? Number(args[args.indexOf('--samples') + 1]) : 200;
const BUDGETS = [1024, 2048];
const LAMBDA = 0.7;

interface Sample {
  query: CursorQuery;
  /** Definitions (node ids, overload suffix removed) the line uses from other files. */
  needed: string[];
}

const keyOf = (id: string) => id.replace(/@\d+$/, '');

async function samplesOf(engine: Engine, limit: number): Promise<Sample[]> {
  const all: Sample[] = [];
  for (const rel of engine.graph.filePaths().sort()) {
    const file = engine.graph.fileGraph(rel)!;
    const text = fs.readFileSync(path.join(engine.root, rel), 'utf8');
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
    const lines = [...new Set(file.refs.map((r) => r.line))].sort((a, b) => a - b);
    for (const line of lines) {
      // Only this line's references, resolved the way the indexer resolves the whole file.
      const res = engine.graph.resolveDetached({ ...file, refs: file.refs.filter((r) => r.line === line) });
      const needed = [...new Set(res.edges.filter((e) => (e.kind === 'CALLS' || e.kind === 'USES' || e.kind === 'INHERITS') && e.target.includes('#') && !e.target.startsWith(`${rel}#`) && !e.target.startsWith('ext:')).map((e) => keyOf(e.target)))];
      if (needed.length === 0) continue;
      const start = lineStarts[line];
      const indent = /^[ \t]*/.exec(text.slice(start))![0];
      all.push({ query: { path: rel, language: file.language, prefix: text.slice(0, start + indent.length), suffix: '' }, needed });
    }
  }
  // Evenly spaced over the repository, deterministic.
  if (all.length <= limit) return all;
  return Array.from({ length: limit }, (_, i) => all[Math.floor((i * all.length) / limit)]);
}

function bm25Covers(assembler: ContextAssembler, engine: Engine, q: CursorQuery, budget: number): Set<string> {
  const covered = new Set<string>();
  const windowQuery = q.prefix.split('\n').slice(-WINDOW_LINES).join('\n');
  let used = 0;
  for (const w of assembler.windows.search(windowQuery, 60, q.path)) {
    const r = renderWindow(engine.graph.graph, assembler.sources, w.path, w.startLine, w.endLine);
    const tokens = estimateTokens(`${snippetBlock(`${w.path} lines ${w.startLine + 1}-${w.endLine + 1}`, r.code, q.language)}\n`, q.language);
    if (used + tokens > budget) continue;
    used += tokens;
    for (const id of r.covers) covered.add(keyOf(id));
  }
  return covered;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const corpora: Array<{ name: string; dir: string }> = ['flask', 'werkzeug', 'click', 'requests'].map((name) => ({ name, dir: path.join(CORPORA, name) }));
  corpora.push({ name: 'rxjs', dir: path.join(ensureTsPackage(), 'src') });
  const versions = corpusVersions();
  const rows: Array<Record<string, unknown>> = [];
  const extract = extractInProcess();
  for (const { name, dir } of corpora) {
    const engine = await Engine.open(dir, { storeDir: null, workers: 0 });
    await engine.index();
    const assembler = new ContextAssembler(engine.graph, engine.root);
    await assembler.windows.refresh();
    const samples = await samplesOf(engine, SAMPLES);
    const hits: Record<string, number> = {};
    let total = 0;
    for (const s of samples) {
      total += s.needed.length;
      const q = await buildQueryGraph(extract, engine.graph, s.query);
      for (const budget of BUDGETS) {
        const fused = assembler.fuse(q, { budgetTokens: budget, mmrLambda: LAMBDA });
        const cart = new Set(fused.snippets.flatMap((sn) => sn.covers.map(keyOf)));
        const bm25 = bm25Covers(assembler, engine, s.query, budget);
        for (const id of s.needed) {
          if (cart.has(id)) hits[`cartograph@${budget}`] = (hits[`cartograph@${budget}`] ?? 0) + 1;
          if (bm25.has(id)) hits[`bm25@${budget}`] = (hits[`bm25@${budget}`] ?? 0) + 1;
        }
      }
    }
    const recall = (k: string) => (total === 0 ? 0 : (hits[k] ?? 0) / total);
    const row = {
      corpus: name,
      version: versions[name === 'rxjs' ? 'npm:rxjs' : `python3-${name}`] ?? '',
      files: engine.graph.filePaths().length,
      samples: samples.length,
      definitions: total,
      'none@1024': 0,
      'none@2048': 0,
      'bm25@1024': recall('bm25@1024'),
      'bm25@2048': recall('bm25@2048'),
      'cartograph@1024': recall('cartograph@1024'),
      'cartograph@2048': recall('cartograph@2048'),
    };
    rows.push(row);
    console.error(`${name}: ${JSON.stringify(row)}`);
    await engine.close();
  }

  // Latency on Django: the whole assembly a completion request runs (parse and resolve the buffer,
  // retrieve, rank, pack, serialize), with the window index already built (its build time is separate).
  const django = await Engine.open(path.join(CORPORA, 'django'), { storeDir: null });
  await django.index();
  const assembler = new ContextAssembler(django.graph, django.root);
  let t = performance.now();
  await assembler.windows.refresh();
  const windowBuildMs = performance.now() - t;
  const latencySamples = (await samplesOf(django, SAMPLES)).map((s) => s.query);
  for (const q of latencySamples.slice(0, 10)) await assembler.assemble(q); // warm-up: grammar load, JIT
  const times: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const q of latencySamples) {
    t = performance.now();
    const ctx = await assembler.assemble(q);
    times.push(performance.now() - t);
    for (const [k, v] of Object.entries(ctx.timingsMs)) (stages[k] ??= []).push(v);
  }
  times.sort((a, b) => a - b);
  const latency = {
    corpus: 'django',
    files: django.graph.filePaths().length,
    windows: assembler.windows.windows,
    windowIndexBuildMs: windowBuildMs,
    samples: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1],
    stagesP95: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, percentile(v.sort((a, b) => a - b), 95)])),
  };
  await django.close();

  const f = (x: unknown) => (typeof x === 'number' ? x.toFixed(3) : String(x));
  console.log('| corpus | version | files | lines sampled | cross-file definitions | none @1024 / @2048 | BM25 windows @1024 | BM25 windows @2048 | Cartograph @1024 | Cartograph @2048 |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const all = { samples: 0, definitions: 0, b1: 0, b2: 0, c1: 0, c2: 0 };
  for (const r of rows) {
    console.log(`| ${r.corpus} | ${r.version} | ${r.files} | ${r.samples} | ${r.definitions} | 0 / 0 | ${f(r['bm25@1024'])} | ${f(r['bm25@2048'])} | ${f(r['cartograph@1024'])} | ${f(r['cartograph@2048'])} |`);
    const d = r.definitions as number;
    all.samples += r.samples as number;
    all.definitions += d;
    all.b1 += (r['bm25@1024'] as number) * d;
    all.b2 += (r['bm25@2048'] as number) * d;
    all.c1 += (r['cartograph@1024'] as number) * d;
    all.c2 += (r['cartograph@2048'] as number) * d;
  }
  const n = all.definitions || 1;
  console.log(`| **all** | | | ${all.samples} | ${all.definitions} | 0 / 0 | ${f(all.b1 / n)} | ${f(all.b2 / n)} | ${f(all.c1 / n)} | **${f(all.c2 / n)}** |`);
  console.log('');
  console.log(`Assembly latency, Django (${latency.files} files, ${latency.samples} cursors, window index of ${latency.windows} windows built once in ${latency.windowIndexBuildMs.toFixed(0)} ms): p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms`);
  console.log(`Stage p95 (ms): ${Object.entries(latency.stagesP95).map(([k, v]) => `${k} ${(v as number).toFixed(1)}`).join(', ')}`);
  if (jsonOut) {
    fs.mkdirSync(path.dirname(jsonOut), { recursive: true });
    fs.writeFileSync(jsonOut, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, budgets: BUDGETS, mmrLambda: LAMBDA, recall: rows, overall: { samples: all.samples, definitions: all.definitions, 'bm25@1024': all.b1 / n, 'bm25@2048': all.b2 / n, 'cartograph@1024': all.c1 / n, 'cartograph@2048': all.c2 / n }, latency }, null, 2)}\n`);
    console.log(`wrote ${jsonOut}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
