// `npm run bench:cli [-- --json FILE] [--runs N] [--cli PATH] [--corpus NAME]`
// What a script or an agent calling the CLI in a loop waits for: wall time of N fresh
// `node dist/cli.js query|show ...` processes on a corpus (default Django, 859 files), median and p95,
// and the child's CPU time (median; steadier than wall time when other work shares the machine),
// next to the time the query spent inside the process (the CLI's own timingsMs, index loading
// included). The corpus is indexed once by the same CLI into a temporary store. Cases: a name, a
// structural question, a sentence, and `show`; then the one-off cost of a query whose query snapshot
// is missing (it answers from the store and saves a new one). `--cli` measures another build of the
// CLI (e.g. one built from an older commit) on the same cases: figures before/after come from the
// same script, and a CLI without the snapshot reports source "n/a".
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CORPORA } from './search/corpus';
import { percentile } from './search/metrics';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    runs: { type: 'string', default: '10' },
    cli: { type: 'string', default: path.join(__dirname, '..', 'dist', 'cli.js') },
    corpus: { type: 'string', default: 'django' },
  },
});
const RUNS = Number(values.runs);
const CLI = path.resolve(values.cli!);
const corpusDir = path.join(CORPORA, values.corpus!);

const CASES: Array<{ name: string; args: string[] }> = [
  { name: 'name', args: ['query', 'QuerySet.filter', '--json'] },
  { name: 'structural', args: ['query', 'callers of get_object_or_404', '--json'] },
  { name: 'sentence', args: ['query', 'validate that the value is a well-formed email address', '--json'] },
  { name: 'show', args: ['show', 'QuerySet.filter', '--json'] },
];

interface Run {
  ms: number;
  /** CPU time of the child (user + system): steadier than wall time on a machine shared with other work. */
  cpuMs: number;
  source: string;
  inProcessMs: number | null;
  top: string;
}

/** User + system CPU milliseconds of this process's waited-for children so far (Linux: /proc, 10 ms ticks). */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime at 100 ticks per second
}

function run(args: string[], store: string): Run {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [CLI, ...args, '--store', store], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = childrenCpuMs() - cpuBefore;
  if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const out = JSON.parse(child.stdout) as
    | { index?: { source: string }; timingsMs?: Record<string, number>; hits?: { qname: string }[] }
    | Array<{ node: { qname: string } }>;
  if (Array.isArray(out)) return { ms, cpuMs, source: 'n/a', inProcessMs: null, top: out[0]?.node.qname ?? '' };
  // route includes the wait for the index (indexBuild), so the steps add up without it
  const steps = Object.entries(out.timingsMs ?? {}).filter(([k]) => k !== 'indexBuild');
  return { ms, cpuMs, source: out.index?.source ?? 'n/a', inProcessMs: steps.reduce((s, [, v]) => s + v, 0), top: out.hits?.[0]?.qname ?? '' };
}

interface CaseResult {
  case: string;
  runs: number;
  p50: number;
  p95: number;
  min: number;
  cpuP50: number;
  inProcessP50: number | null;
  sources: string[];
  top: string;
}

function summarize(name: string, runs: Run[]): CaseResult {
  const ms = runs.map((r) => r.ms);
  const inProcess = runs.map((r) => r.inProcessMs).filter((v): v is number => v !== null);
  return {
    case: name,
    runs: runs.length,
    p50: Math.round(percentile(ms, 50)),
    p95: Math.round(percentile(ms, 95)),
    min: Math.round(Math.min(...ms)),
    cpuP50: Math.round(percentile(runs.map((r) => r.cpuMs), 50)),
    inProcessP50: inProcess.length ? Math.round(percentile(inProcess, 50)) : null,
    sources: [...new Set(runs.map((r) => r.source))],
    top: runs[0].top,
  };
}

function main(): void {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  if (!fs.existsSync(corpusDir)) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-bench-'));
  try {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, [CLI, 'index', corpusDir, '--store', store, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const indexMs = Math.round(Number(process.hrtime.bigint() - t) / 1e6);
    const results: CaseResult[] = [];
    for (const c of CASES) {
      run(c.args, store); // one unmeasured run: the page cache holds the store and the CLI from then on
      results.push(summarize(c.name, Array.from({ length: RUNS }, () => run(c.args, store))));
    }
    // The one-off cost after a change: no valid snapshot, so the store path answers and saves one.
    const snapshot = path.join(store, 'query-snapshot.bin');
    const fallback = Array.from({ length: Math.max(3, Math.round(RUNS / 3)) }, () => {
      fs.rmSync(snapshot, { force: true });
      return run(CASES[0].args, store);
    });
    results.push(summarize('name, no snapshot', fallback));
    const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`cartograph CLI, fresh process per call, ${values.corpus} (index ${(indexMs / 1000).toFixed(1)} s), ${RUNS} runs, load ${load}, ${CLI}`);
    console.log(`${'case'.padEnd(20)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'min ms'.padStart(7)} ${'CPU ms'.padStart(7)} ${'in-proc'.padStart(8)}  source     top hit`);
    for (const r of results) {
      console.log(`${r.case.padEnd(20)} ${String(r.p50).padStart(7)} ${String(r.p95).padStart(7)} ${String(r.min).padStart(7)} ${String(r.cpuP50).padStart(7)} ${String(r.inProcessP50 ?? '-').padStart(8)}  ${r.sources.join(',').padEnd(10)} ${r.top}`);
    }
    if (values.json) {
      fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
      fs.writeFileSync(values.json, `${JSON.stringify({ cli: CLI, corpus: values.corpus, runs: RUNS, indexMs, loadavg: os.loadavg(), node: process.version, results }, null, 2)}\n`);
    }
  } finally {
    fs.rmSync(store, { recursive: true, force: true });
  }
}

main();
