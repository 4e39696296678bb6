// `npm run build && npm run bench:scale [-- --json FILE] [--tier 100k|1M|3M]... [--codegraph BIN] [--runs N] [--queries N]`
// Cartograph at scale, beside the peer @colbymchenry/codegraph on the same files in the same run, through
// the CLI as a user runs it (each step a fresh process): cold index, re-index with nothing changed, re-index
// after one edited file (wall, CPU, peak RSS), store size; CPython's `ast.parse` of the same .py files as the
// floor a parser-based index is held to; fresh-process queries answered from the snapshot (`--no-service`),
// and the same through a warm service with its memory at rest. Tiers are whole Debian packages side by side
// (SCALE=1 bench/fetch-corpora.sh, run when missing; versions in bench/.corpora/VERSIONS), copied to a
// temporary folder: 100k = Django; 1M = + the standard library and sympy; 3M = + pandas, scipy, astropy,
// twisted and scikit-learn. Runs alternate Cartograph and codegraph step by step so that load hits both.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { connectService } from '../src/core/service/serviceClient';
import { CODEGRAPH_ENV, rssMb, type Summary, summarize, type Timed, timed } from './processTiming';
import { CORPORA } from './search/corpus';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    tier: { type: 'string', multiple: true },
    codegraph: { type: 'string' },
    runs: { type: 'string' },
    queries: { type: 'string', default: '5' },
  },
});
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const SCALE = path.join(CORPORA, 'scale');
const DJANGO = 'python3-django';
const TIERS: Record<string, string[]> = {
  '100k': [DJANGO],
  '1M': [DJANGO, 'libpython3.11-stdlib', 'python3-sympy'],
  '3M': [DJANGO, 'libpython3.11-stdlib', 'python3-sympy', 'python3-pandas', 'python3-scipy', 'python3-astropy', 'python3-twisted', 'python3-sklearn'],
};
const tiers = values.tier ?? Object.keys(TIERS);
const QUERY_RUNS = Number(values.queries);
/** The file a one-file edit appends to (Django is in every tier). */
const EDITED = path.join(DJANGO, 'dist-packages', 'django', 'db', 'models', 'query.py');

/** Our modes, each with the peer's nearest command where it has one. */
const MODES: Array<{ mode: string; args: string[]; peer?: string[]; snapshot: boolean }> = [
  { mode: 'name', args: ['query', 'QuerySet.filter'], peer: ['query', 'QuerySet.filter'], snapshot: true },
  { mode: 'structural', args: ['query', 'callers of get_object_or_404'], peer: ['callers', 'get_object_or_404'], snapshot: true },
  { mode: 'sentence', args: ['query', 'validate that the value is a well-formed email address'], peer: ['explore', 'validate that the value is a well-formed email address'], snapshot: true },
  { mode: 'show', args: ['show', 'QuerySet.filter'], snapshot: true },
  { mode: 'files:', args: ['query', 'files: the admin changelist ignores list_select_related when ordering by a related field'], snapshot: false },
];

// CPython's parser over every .py file (read + ast.parse), one process: what "understanding the files"
// costs at the least. Files it cannot parse (Python 2 leftovers) are counted, not fatal.
const AST_PARSE = `
import ast, json, os, sys, time
files = []
for base, dirs, names in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if d not in ('.cartograph', '.codegraph')]
    files += [os.path.join(base, n) for n in names if n.endswith('.py') and os.path.isfile(os.path.join(base, n))]
started = time.perf_counter()
lines = failed = 0
for f in files:
    with open(f, 'rb') as h:
        text = h.read()
    lines += text.count(b'\\n')
    try:
        ast.parse(text, f)
    except (SyntaxError, ValueError):
        failed += 1
print(json.dumps({'files': len(files), 'lines': lines, 'failed': failed, 'ms': (time.perf_counter() - started) * 1000}))
`;

interface Step {
  wallMs: number;
  cpuMs: number;
  peakRssMb?: number;
}

const step = (t: Timed): Step => ({ wallMs: Math.round(t.ms), cpuMs: t.cpuMs, peakRssMb: t.peakRssMb });

function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function ensureCorpora(): void {
  const missing = [...new Set(tiers.flatMap((t) => TIERS[t] ?? []))].filter((p) => !fs.existsSync(path.join(SCALE, p)));
  if (missing.length > 0) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit', env: { ...process.env, SCALE: '1' } });
}

async function benchTier(tier: string, tmp: string) {
  const root = path.join(tmp, tier);
  for (const pkg of TIERS[tier]) fs.cpSync(path.join(SCALE, pkg), path.join(root, pkg), { recursive: true });
  const noService = { ...process.env, CARTOGRAPH_NO_SERVICE: '1' };
  const ours = (args: string[], peakRss = false) => timed(process.execPath, [CLI, ...args, '--json'], { cwd: root, env: noService, peakRss });
  const peer = (args: string[], peakRss = false) => timed(values.codegraph!, args, { cwd: root, env: CODEGRAPH_ENV, peakRss });
  const astParse = JSON.parse(execFileSync('python3', ['-c', AST_PARSE, root], { encoding: 'utf8' })) as { files: number; lines: number; failed: number; ms: number };
  console.log(`${tier}: ${TIERS[tier].join(', ')} — ${astParse.files} .py files, ${astParse.lines} lines; ast.parse ${Math.round(astParse.ms)} ms`);

  const runs = Number(values.runs ?? (tier === '100k' ? 3 : 1));
  const cartograph = { cold: [] as Step[], unchanged: [] as Step[], oneEdit: [] as Step[], phases: [] as Record<string, number>[], storeBytes: 0 };
  const codegraph = { cold: [] as Step[], unchanged: [] as Step[], oneEdit: [] as Step[], storeBytes: 0 };
  const edited = path.join(root, EDITED);
  const original = fs.readFileSync(edited, 'utf8');
  const editOnce = (i: number, reindex: () => Timed): Step => {
    fs.appendFileSync(edited, `\n\ndef scale_bench_edit_${i}(queryset):\n    return queryset.filter()\n`);
    try {
      return step(reindex());
    } finally {
      fs.writeFileSync(edited, original);
    }
  };
  for (let r = 0; r < runs; r++) {
    fs.rmSync(path.join(root, '.cartograph'), { recursive: true, force: true });
    const cold = ours(['index', root], true);
    cartograph.cold.push(step(cold));
    cartograph.phases.push((JSON.parse(cold.stdout) as { report: { timings: Record<string, number> } }).report.timings);
    if (values.codegraph) {
      fs.rmSync(path.join(root, '.codegraph'), { recursive: true, force: true });
      codegraph.cold.push(step(peer(['init', '.'], true)));
    }
    cartograph.unchanged.push(step(ours(['index', root], true)));
    if (values.codegraph) codegraph.unchanged.push(step(peer(['sync', '.'], true)));
    cartograph.oneEdit.push(editOnce(r, () => ours(['index', root], true)));
    if (values.codegraph) codegraph.oneEdit.push(editOnce(r, () => peer(['sync', '.'], true)));
  }
  ours(['index', root]); // the store as the files are again, for the queries below
  // `index` after an edit as a user runs it by default: no service running, so it starts the repository's
  // service, which indexes the edit and stays (this is the command's wall); stopped again, which saves the
  // snapshot for the fresh-process queries below.
  const env = process.env;
  const oneEditStartingService = editOnce(200, () => timed(process.execPath, [CLI, 'index', root, '--json'], { cwd: root, env }));
  spawnSync(process.execPath, [CLI, 'service', 'stop'], { cwd: root, env, stdio: 'ignore' });
  cartograph.storeBytes = duBytes(path.join(root, '.cartograph'));
  if (values.codegraph) {
    peer(['sync', '.']);
    codegraph.storeBytes = duBytes(path.join(root, '.codegraph'));
  }

  // Fresh processes answering from the snapshot, alternating with the peer's fresh processes.
  const coldQueries: Record<string, { cartograph: Summary; codegraph?: Summary }> = {};
  for (const m of MODES.filter((x) => x.snapshot)) {
    ours([...m.args]);
    if (values.codegraph && m.peer) peer(m.peer);
    const a: Timed[] = [];
    const b: Timed[] = [];
    for (let i = 0; i < QUERY_RUNS; i++) {
      a.push(ours([...m.args]));
      if (values.codegraph && m.peer) b.push(peer(m.peer));
    }
    coldQueries[m.mode] = { cartograph: summarize(a), codegraph: b.length > 0 ? summarize(b) : undefined };
  }

  // The service: started by the first question (answered from the snapshot while the graph loads);
  // "ready" is when its graph is loaded from the store and checked against the folder (the warm start).
  const viaService = (args: string[]) => timed(process.execPath, [CLI, ...args, '--json'], { cwd: root, env });
  const storeDir = path.join(root, '.cartograph');
  const startedAt = performance.now();
  const first = viaService(MODES[0].args);
  let service = await connectService(storeDir);
  while (!service?.hello.ready) {
    service?.close();
    await new Promise((r) => setTimeout(r, 50));
    service = await connectService(storeDir);
  }
  const readyMs = Math.round(performance.now() - startedAt);
  const { pid } = service.hello;
  service.close();
  const warmQueries: Record<string, Summary> = {};
  for (const m of MODES) {
    viaService(m.args);
    warmQueries[m.mode] = summarize(Array.from({ length: QUERY_RUNS * 2 }, () => viaService(m.args)));
  }
  // `index` through the service (how a user's index runs while one is up), and an edit asked about at once.
  const served = { unchanged: [] as Step[], oneEdit: [] as Step[], editThenQuery: [] as Step[], editSeen: 0 };
  for (let r = 0; r < runs; r++) {
    served.unchanged.push(step(viaService(['index', root])));
    served.oneEdit.push(editOnce(100 + r, () => viaService(['index', root])));
    fs.appendFileSync(edited, `\n\ndef scale_bench_seen_${r}(queryset):\n    return queryset\n`);
    const asked = viaService(['query', `scale_bench_seen_${r}`]);
    fs.writeFileSync(edited, original);
    served.editThenQuery.push(step(asked));
    if (asked.stdout.includes(`scale_bench_seen_${r}`)) served.editSeen++;
  }
  await new Promise((r) => setTimeout(r, 2_000)); // the service collects once quiet for 1 s
  const serviceRestMb = rssMb(pid);
  spawnSync(process.execPath, [CLI, 'service', 'stop'], { cwd: root, env, stdio: 'ignore' });
  fs.rmSync(root, { recursive: true, force: true });
  return { tier, packages: TIERS[tier], astParse, cartograph: { ...cartograph, oneEditStartingService }, codegraph: values.codegraph ? codegraph : null, coldQueries, service: { firstAnswerMs: Math.round(first.ms), readyMs, restRssMb: serviceRestMb, queries: warmQueries, ...served } };
}

type TierResult = Awaited<ReturnType<typeof benchTier>>;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const sec = (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
const cell = (steps: Step[]) => {
  if (steps.length === 0) return '-';
  const rss = steps[0].peakRssMb === undefined ? '' : ` / ${p50(steps.map((s) => s.peakRssMb!))} MB`;
  return `${sec(p50(steps.map((s) => s.wallMs)))} s / ${sec(p50(steps.map((s) => s.cpuMs)))} s${rss}`;
};

function print(results: TierResult[]): void {
  console.log(`\nindex (wall / CPU / peak RSS, median of runs), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores`);
  console.log(['tier', 'lines', 'ast.parse', 'step', 'cartograph', 'codegraph', 'wall ratio', 'CPU ratio'].join(' | '));
  for (const r of results) {
    for (const s of ['cold', 'unchanged', 'oneEdit'] as const) {
      const ours = r.cartograph[s];
      const theirs = r.codegraph?.[s] ?? [];
      const ratio = (k: 'wallMs' | 'cpuMs') => (theirs.length ? (p50(ours.map((x) => x[k])) / p50(theirs.map((x) => x[k]))).toFixed(2) : '-');
      console.log([r.tier, r.astParse.lines, `${sec(r.astParse.ms)} s`, s, cell(ours), cell(theirs), ratio('wallMs'), ratio('cpuMs')].join(' | '));
    }
    console.log(`${r.tier}: one edit with no service running (the CLI starts the service and indexes through it): ${cell([r.cartograph.oneEditStartingService])}, the command's own process`);
    const cold = p50(r.cartograph.cold.map((x) => x.wallMs));
    console.log(`${r.tier}: cold index = ${(cold / r.astParse.ms).toFixed(2)} × ast.parse; store ${(r.cartograph.storeBytes / 2 ** 20).toFixed(0)} MB (codegraph ${r.codegraph ? (r.codegraph.storeBytes / 2 ** 20).toFixed(0) : '-'} MB); phases ${JSON.stringify(r.cartograph.phases.at(-1))}`);
  }
  console.log('\nqueries, wall p50 / p95 ms (CPU p50)');
  console.log(['tier', 'mode', 'fresh process, snapshot', 'codegraph fresh process', 'warm service'].join(' | '));
  const fmt = (s?: Summary) => (s ? `${s.p50} / ${s.p95} (${s.cpuP50})` : '-');
  for (const r of results) {
    for (const m of MODES) console.log([r.tier, m.mode, fmt(r.coldQueries[m.mode]?.cartograph), fmt(r.coldQueries[m.mode]?.codegraph), fmt(r.service.queries[m.mode])].join(' | '));
    console.log(`${r.tier}: service start → first answer ${r.service.firstAnswerMs} ms, → graph ready ${r.service.readyMs} ms; RSS at rest ${r.service.restRssMb} MB`);
    console.log(`${r.tier}: through the service: index, nothing changed ${cell(r.service.unchanged)}; one edit ${cell(r.service.oneEdit)}; edit then query ${cell(r.service.editThenQuery)} (seen ${r.service.editSeen}/${r.service.editThenQuery.length})`);
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const unknown = tiers.filter((t) => !TIERS[t]);
  if (unknown.length > 0) throw new Error(`unknown tier ${unknown.join(', ')} (have ${Object.keys(TIERS).join(', ')})`);
  ensureCorpora();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-scale-bench-'));
  // This run's services only, in a folder of their own (the CLI and connectService both read it).
  process.env.CARTOGRAPH_SERVICE_DIR = path.join(tmp, 'sockets');
  delete process.env.CARTOGRAPH_NO_SERVICE;
  const results: TierResult[] = [];
  const versions = () => fs.readFileSync(path.join(CORPORA, 'VERSIONS'), 'utf8').split('\n').filter((l) => l.startsWith('scale:'));
  try {
    for (const tier of tiers) {
      results.push(await benchTier(tier, tmp));
      print(results.slice(-1)); // each tier as it ends: the 3M tier takes most of an hour
      if (values.json) {
        fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
        fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), loadavg: os.loadavg(), node: process.version, versions: versions(), codegraph: values.codegraph ?? null, results }, null, 2)}\n`);
      }
    }
  } finally {
    spawnSync(process.execPath, [CLI, 'service', 'stop', '--all'], { stdio: 'ignore' });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
