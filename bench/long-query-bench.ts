// `npm run bench:long-queries [-- --json FILE] [--every N] [--no-mcts] [--issues FILE]`
// Natural-language latency on Django by query length (issue 18 §4, "long queries are slow and
// unbounded"): what a pasted issue or an agent's question costs next to a one-line question.
// Queries: bench:search's docstring sentences (every documented Django function, 200 sampled) and the
// 186 real issue statements of ../shared/eval/swebench-lite-localization-dev.jsonl (SWE-bench Lite),
// asked as their title, their first 1,000 characters and the whole statement, plus 10,000-character
// texts (statements joined end to end). The issues are about other repositories: this measures
// latency only, never relevance. Paths: model-free natural-language search as shipped (MCTS off) and
// with MCTS forced on (lexical stand-in scorers, 250 ms budget; reports how many queries ran 0 iterations).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { createSearcher } from '../src/core/search/index';
import { CORPORA, groundTruth } from './search/corpus';
import { percentile } from './search/metrics';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    every: { type: 'string' },
    'no-mcts': { type: 'boolean' },
    issues: { type: 'string' },
  },
});
const EVERY = Math.max(1, Number(values.every ?? 1));
const ISSUES = values.issues ?? path.join(__dirname, '..', '..', 'shared', 'eval', 'swebench-lite-localization-dev.jsonl');
const LIMIT = 20;
const LONG = 10_000;

interface Bucket { name: string; queries: string[] }
interface Figures { n: number; chars: { p50: number; max: number }; p50: number; p95: number; max: number; zeroIterations?: number }

function buckets(engine: Engine): Bucket[] {
  const gt = groundTruth(engine);
  const step = Math.max(1, Math.floor(gt.length / 200));
  const docstrings = gt.filter((_g, i) => i % step === 0).slice(0, 200).map((g) => g.query);
  const statements: string[] = fs
    .readFileSync(ISSUES, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { problem_statement: string }).problem_statement);
  const titles = statements.map((s) => s.trim().split('\n')[0]);
  const joined = statements.join('\n\n');
  const long: string[] = [];
  for (let at = 0; at + LONG <= joined.length && long.length < 20; at += Math.floor(joined.length / 20)) long.push(joined.slice(at, at + LONG));
  const sample = (qs: string[]) => qs.filter((_q, i) => i % EVERY === 0);
  return [
    { name: 'docstring sentence', queries: sample(docstrings) },
    { name: 'issue title', queries: sample(titles) },
    { name: 'issue, first 1,000 chars', queries: sample(statements.map((s) => s.slice(0, 1000))) },
    { name: 'issue, whole statement', queries: sample(statements) },
    { name: '10,000 chars (statements joined)', queries: sample(long) },
  ];
}

async function measure(search: (q: string) => Promise<{ timingsMs: Record<string, number> }>, queries: string[], mcts: boolean): Promise<Figures> {
  const ms: number[] = [];
  let zero = 0;
  for (const q of queries) {
    const t = performance.now();
    const res = await search(q);
    ms.push(performance.now() - t);
    if (mcts && !res.timingsMs.mctsIterations) zero++;
  }
  const chars = queries.map((q) => q.length);
  return { n: queries.length, chars: { p50: percentile(chars, 50), max: Math.max(...chars) }, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms), ...(mcts ? { zeroIterations: zero } : {}) };
}

const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

async function main(): Promise<void> {
  const t0 = performance.now();
  const engine = await Engine.open(path.join(CORPORA, 'django'), { storeDir: null });
  await engine.index();
  const indexMs = performance.now() - t0;
  const plain = createSearcher(engine);
  const withMcts = createSearcher(engine, { mcts: { enabled: true } });
  await plain.search('warm up the index', LIMIT);
  await withMcts.search('warm up the index', LIMIT);
  const rows: { bucket: string; plain: Figures; mcts: Figures | null }[] = [];
  for (const b of buckets(engine)) {
    const p = await measure((q) => plain.search(q, LIMIT), b.queries, false);
    const m = values['no-mcts'] ? null : await measure((q) => withMcts.search(q, LIMIT), b.queries, true);
    rows.push({ bucket: b.name, plain: p, mcts: m });
    console.error(`[bench:long-queries] ${b.name}: ${b.queries.length} queries`);
  }
  await engine.close();

  const out = [
    `### Natural-language latency by query length, Django (${engine.stats().files} files, indexed in ${ms(indexMs)} ms), ms per query in-process`,
    '',
    '| queries | n | chars p50 / max | p50 | p95 | max | + MCTS p50 | + MCTS p95 | + MCTS max | MCTS 0 iterations |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const m = r.mcts;
    out.push(`| ${r.bucket} | ${r.plain.n} | ${r.plain.chars.p50} / ${r.plain.chars.max} | ${ms(r.plain.p50)} | ${ms(r.plain.p95)} | ${ms(r.plain.max)} | ${m ? `${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.max)} | ${m.zeroIterations}` : '– | – | – | –'} |`);
  }
  console.log(out.join('\n'));
  console.log(`\n_${new Date().toISOString()}, Node ${process.version}, every ${EVERY}. query, ${((performance.now() - t0) / 1000).toFixed(1)} s total_`);
  if (values.json) {
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, every: EVERY, indexMs, rows }, null, 2)}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
