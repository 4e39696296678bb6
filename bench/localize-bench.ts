// `npm run bench:localize [-- --json FILE] [--repo NAME]... [--half tuning|heldOut] [--eval FILE]... [--variants] [--feature-text]`
// Issue → file localization (issue 18 §4, issue 34) on real bug reports: SWE-bench Lite and Verified
// instances (../shared/eval/swebench-lite-localization-dev.jsonl and swebench-verified-localization-dev.jsonl,
// deduplicated by instance id: the files their fixes changed). The code is Debian bookworm's packaging of
// each project (fetched on the first run with apt-get download + dpkg-deb -x into
// bench/.localize/<repo>/src, indexed once into bench/.localize/<repo>/store and warm-started after
// that). Debian's version is not the instance's commit: an instance counts only where its gold files
// exist in the Debian tree (repository paths mapped: `lib/matplotlib/` → `matplotlib/`, `src/_pytest/`
// → `_pytest/`); the others are reported as dropped.
// Held-out discipline (bench/search/split.ts): the repositories are split, seeded, into a tuning half
// and a held-out half of about equal instance counts; constants are tuned on the tuning half only and
// the tables show both. `--half` runs one half.
// Per instance, three queries: the issue's title (first line), its first 1,000 characters, the whole
// statement. Ranked files from Cartograph's file ranking (src/core/search/fileRanking.ts) and three
// whole-file BM25 baselines over the same files (bench/search/okapi.ts): the one this bench had
// (k1 1.2, b 0.75, each distinct query term once) and standard Okapi BM25 with every query-term
// occurrence counted, at Lucene's k1 1.2 and at rank_bm25's k1 1.5 (b 0.75). Tokens: the words inside
// identifiers, lower-cased, Cartograph's stop words and one-letter words dropped, Porter-stemmed (the
// tokenizer Cartograph's lexical index uses, before its compound-word splitting).
// Acc@k: the instance's gold files (those present) are all in the top k. `--variants` adds the two
// halves of Cartograph's score on their own (definitions only, file text only). `--feature-text` (issue 36)
// adds Cartograph with the functional view's model-free feature phrases (FeatureHierarchy) indexed as
// part of each entity's description in the definition-level index the file ranking reads.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { stemmer } from 'stemmer';
import { Engine } from '../src/core/engine';
import { FeatureHierarchy } from '../src/core/features/hierarchy';
import { FileIndex, rankFiles } from '../src/core/search/fileRanking';
import { LexicalIndex, searchableWords } from '../src/core/search/lexical';
import { mean, percentile } from './search/metrics';
import { LUCENE, OkapiBm25 } from './search/okapi';
import { HALVES, splitHalves, type Half } from './search/split';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    repo: { type: 'string', multiple: true },
    eval: { type: 'string', multiple: true },
    half: { type: 'string' },
    variants: { type: 'boolean', default: false },
    'feature-text': { type: 'boolean', default: false },
  },
});

const EVAL_DIR = path.join(__dirname, '..', '..', 'shared', 'eval');
const EVAL_FILES = values.eval ?? ['swebench-lite-localization-dev.jsonl', 'swebench-verified-localization-dev.jsonl'].map((f) => path.join(EVAL_DIR, f));
const CACHE = path.join(__dirname, '.localize');
const KS = [1, 5, 10] as const;
const LIMIT = 10;

/** Where each repository's code comes from: a Debian package and the top-level packages it installs. */
const SOURCES: Record<string, { deb: string; packages: string[] }> = {
  'sympy/sympy': { deb: 'python3-sympy', packages: ['sympy'] },
  'scikit-learn/scikit-learn': { deb: 'python3-sklearn', packages: ['sklearn'] },
  'matplotlib/matplotlib': { deb: 'python3-matplotlib', packages: ['matplotlib', 'mpl_toolkits'] },
  'pytest-dev/pytest': { deb: 'python3-pytest', packages: ['_pytest', 'pytest'] },
  'sphinx-doc/sphinx': { deb: 'python3-sphinx', packages: ['sphinx'] },
  'psf/requests': { deb: 'python3-requests', packages: ['requests'] },
  'astropy/astropy': { deb: 'python3-astropy', packages: ['astropy'] },
  'pylint-dev/pylint': { deb: 'pylint', packages: ['pylint'] },
  'pydata/xarray': { deb: 'python3-xarray', packages: ['xarray'] },
  'mwaskom/seaborn': { deb: 'python3-seaborn', packages: ['seaborn'] },
  'pallets/flask': { deb: 'python3-flask', packages: ['flask'] },
};

interface Instance {
  instance_id: string;
  repo: string;
  problem_statement: string;
  gold_files: string[];
}

type QueryKind = 'title' | 'first1000' | 'statement';
const QUERY_KINDS: QueryKind[] = ['title', 'first1000', 'statement'];
const queryText: Record<QueryKind, (s: string) => string> = {
  title: (s) => s.trim().split('\n')[0],
  first1000: (s) => s.trim().slice(0, 1000),
  statement: (s) => s.trim(),
};

/** A repository path in the Debian tree: the source layout's `lib/` and `src/` prefixes go. */
const debianPath = (repoPath: string) => repoPath.replace(/^(?:lib|src)\//, '');

function fetchSource(repo: string): string {
  const dir = path.join(CACHE, repo.replace('/', '__'));
  const src = path.join(dir, 'src');
  if (fs.existsSync(path.join(dir, 'VERSION'))) return src;
  const { deb, packages } = SOURCES[repo];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-localize-'));
  try {
    fs.chmodSync(work, 0o777); // apt downloads as _apt
    const download = () => execFileSync('apt-get', ['download', '-q', deb], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      download();
    } catch {
      execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
      download();
    }
    const file = fs.readdirSync(work).find((f) => f.endsWith('.deb'))!;
    execFileSync('dpkg-deb', ['-x', path.join(work, file), path.join(work, 'x')]);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(src, { recursive: true });
    for (const pkg of packages) {
      const from = path.join(work, 'x', 'usr', 'lib', 'python3', 'dist-packages', pkg);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(src, pkg), { recursive: true });
    }
    const version = execFileSync('dpkg-deb', ['-f', path.join(work, file), 'Version'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(dir, 'VERSION'), `${deb} ${version}\n`);
    return src;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Whole-file BM25 baselines (bench/search/okapi.ts) over the tokens Cartograph's lexical index uses. */
const BASELINES = {
  bm25Distinct: { ...LUCENE, distinct: true },
  okapi12: LUCENE,
  okapi15: { ...LUCENE, k1: 1.5 },
} as const;
type Baseline = keyof typeof BASELINES;

function tokenizer(): (text: string) => string[] {
  const stems = new Map<string, string>();
  return (text) =>
    searchableWords(text).map((w) => {
      let s = stems.get(w);
      if (s === undefined) stems.set(w, (s = stemmer(w)));
      return s;
    });
}

/** Both dev sets, each instance once (the Lite file's copy first). */
function readInstances(): Instance[] {
  const byId = new Map<string, Instance>();
  for (const file of EVAL_FILES) {
    if (!fs.existsSync(file)) throw new Error(`no eval set at ${file} (pass --eval FILE)`);
    for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const inst = JSON.parse(line) as Instance;
      if (!byId.has(inst.instance_id)) byId.set(inst.instance_id, inst);
    }
  }
  return [...byId.values()];
}

type Method = 'cartograph' | 'cartographFeatures' | Baseline | 'definitionsOnly' | 'textOnly';
interface Tally { n: number; hits: Record<number, number>; ms: number[]; definitionsMs: number[]; textMs: number[] }

async function main(): Promise<void> {
  const instances = readInstances();
  const perRepoCount: Record<string, number> = {};
  for (const i of instances) if (SOURCES[i.repo]) perRepoCount[i.repo] = (perRepoCount[i.repo] ?? 0) + 1;
  const halves = splitHalves(perRepoCount);
  const repos = (values.repo ?? Object.keys(SOURCES)).filter((r) => !values.half || halves[r] === values.half);
  const baselines = Object.keys(BASELINES) as Baseline[];
  const methods: Method[] = ['cartograph', ...(values['feature-text'] ? (['cartographFeatures'] as const) : []), ...baselines, ...(values.variants ? (['definitionsOnly', 'textOnly'] as const) : [])];
  const tallies = new Map<string, Tally>();
  const tally = (h: Half, m: Method, q: QueryKind) => {
    const key = `${h}/${m}/${q}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { n: 0, hits: { 1: 0, 5: 0, 10: 0 }, ms: [], definitionsMs: [], textMs: [] }));
    return t;
  };
  const perRepo: Record<string, unknown> = {};
  const perInstance: unknown[] = [];
  const counted = { tuning: 0, heldOut: 0 };
  const dropped = { tuning: 0, heldOut: 0 };
  const tokens = tokenizer();
  for (const repo of repos) {
    const mine = instances.filter((i) => i.repo === repo);
    if (mine.length === 0) continue;
    const half = halves[repo];
    const src = fetchSource(repo);
    const store = path.join(CACHE, repo.replace('/', '__'), 'store');
    let t = performance.now();
    const engine = await Engine.open(src, { storeDir: store });
    const report = await engine.index();
    const indexMs = performance.now() - t;
    const graph = engine.graph;
    t = performance.now();
    const lexical = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p), 50);
    const lexicalMs = performance.now() - t;
    const files = await FileIndex.build(() => graph.filePaths(), (p) => graph.fileGraph(p), 50);
    const searchIndexMs = performance.now() - t;
    // The same definition-level index with feature phrases in each entity's description.
    t = performance.now();
    const featured = values['feature-text'] ? await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p), 50, FeatureHierarchy.build(graph)) : undefined;
    const featureIndexMs = performance.now() - t;
    t = performance.now();
    const paths = graph.filePaths().sort();
    const fileTokens = paths.map((p): [string, string[]] => [p, tokens(fs.readFileSync(path.join(src, p), 'utf8'))]);
    const bm25 = Object.fromEntries(baselines.map((b) => [b, new OkapiBm25(fileTokens, BASELINES[b])])) as Record<Baseline, OkapiBm25<string>>;
    const bm25Ms = performance.now() - t;
    const known = new Set(paths);
    let repoCounted = 0;
    for (const inst of mine) {
      const gold = inst.gold_files.map(debianPath);
      if (!gold.every((g) => known.has(g))) {
        dropped[half]++;
        continue;
      }
      counted[half]++;
      repoCounted++;
      const ranks: Record<string, number> = {};
      for (const kind of QUERY_KINDS) {
        const q = queryText[kind](inst.problem_statement);
        const queryTokens = tokens(q);
        const timings: Record<string, number> = {};
        const cartograph = (share?: number, definitions = lexical) => rankFiles(graph.graph, files, (text) => definitions.scores(text), q, LIMIT, timings, share).map((h) => h.path);
        const rank = (m: Method): string[] => {
          if (m === 'cartograph') return cartograph();
          if (m === 'cartographFeatures') return cartograph(undefined, featured!);
          if (m === 'definitionsOnly') return cartograph(1);
          if (m === 'textOnly') return cartograph(0);
          return bm25[m].search(queryTokens, LIMIT);
        };
        for (const m of methods) {
          const started = performance.now();
          const ranked = rank(m);
          const entry = tally(half, m, kind);
          entry.n++;
          entry.ms.push(performance.now() - started);
          if (!(m in BASELINES)) {
            entry.definitionsMs.push(timings.definitions ?? 0);
            entry.textMs.push(timings.text ?? 0);
          }
          const r = gold.every((g) => ranked.includes(g)) ? Math.max(...gold.map((g) => ranked.indexOf(g))) + 1 : 0;
          for (const k of KS) if (r > 0 && r <= k) entry.hits[k]++;
          ranks[`${m}/${kind}`] = r;
        }
      }
      perInstance.push({ id: inst.instance_id, half, gold, ranks });
    }
    perRepo[repo] = { half, instances: mine.length, counted: repoCounted, files: paths.length, indexMs: Math.round(indexMs), parsed: report.parsed, reused: report.reused, lexicalIndexMs: Math.round(lexicalMs), searchIndexMs: Math.round(searchIndexMs), ...(featured ? { featureIndexMs: Math.round(featureIndexMs) } : {}), bm25BuildMs: Math.round(bm25Ms) };
    console.error(`[localize] ${repo} (${half}): ${repoCounted}/${mine.length} counted, ${paths.length} files, index ${(indexMs / 1000).toFixed(1)} s (${report.parsed} parsed), lexical index ${(lexicalMs / 1000).toFixed(2)} s, search indexes ${(searchIndexMs / 1000).toFixed(1)} s`);
    await engine.close();
  }

  const rows = [];
  for (const half of HALVES) {
    if (counted[half] === 0) continue;
    for (const kind of QUERY_KINDS) {
      for (const m of methods) {
        const t = tally(half, m, kind);
        const acc = (k: number) => t.hits[k] / t.n;
        const split = m in BASELINES ? {} : { definitionsP50Ms: percentile(t.definitionsMs, 50), definitionsP95Ms: percentile(t.definitionsMs, 95), textP50Ms: percentile(t.textMs, 50), textP95Ms: percentile(t.textMs, 95) };
        rows.push({ half, query: kind, method: m, instances: t.n, acc1: acc(1), acc5: acc(5), acc10: acc(10), p50Ms: percentile(t.ms, 50), p95Ms: percentile(t.ms, 95), meanMs: mean(t.ms), ...split });
      }
    }
  }
  const repoList = (h: Half) => Object.keys(halves).filter((r) => halves[r] === h).sort().join(', ');
  const lines = [
    `Issue → file localization: counted ${counted.tuning} tuning + ${counted.heldOut} held-out instances, dropped ${dropped.tuning} + ${dropped.heldOut} (a gold file not in the Debian tree); Acc@k = all gold files in the top k`,
    `tuning half: ${repoList('tuning')}; held-out half: ${repoList('heldOut')}`,
    '',
    '| half | query | method | Acc@1 | Acc@5 | Acc@10 | p50 ms | p95 ms | of which definitions p50 / p95 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.half} | ${r.query} | ${r.method} | ${r.acc1.toFixed(3)} | ${r.acc5.toFixed(3)} | ${r.acc10.toFixed(3)} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.definitionsP50Ms === undefined ? '' : `${r.definitionsP50Ms.toFixed(1)} / ${r.definitionsP95Ms!.toFixed(1)}`} |`),
  ];
  console.log(lines.join('\n'));
  if (values.json) {
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    const evalFiles = EVAL_FILES.map((f) => path.basename(f));
    fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), evalFiles, halves, counted, dropped, rows, perRepo, perInstance, load: os.loadavg() }, null, 2) + '\n');
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
