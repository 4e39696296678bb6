// `npm run bench:localize [-- --json FILE] [--repo NAME]... [--eval FILE] [--variants]`
// Issue → file localization (issue 18 §4) on real bug reports: SWE-bench Lite instances (dev set
// ../shared/eval/swebench-lite-localization-dev.jsonl, 186 issues with the files their fixes changed).
// The code is Debian bookworm's packaging of each project (fetched on the first run with apt-get
// download + dpkg-deb -x into bench/.localize/<repo>/src, indexed once into bench/.localize/<repo>/store
// and warm-started after that). Debian's version is not the instance's commit: an instance counts only
// where its gold files exist in the Debian tree (repository paths mapped: `lib/matplotlib/` →
// `matplotlib/`, `src/_pytest/` → `_pytest/`); the others are reported as dropped.
// Per instance, three queries: the issue's title (first line), its first 1,000 characters, the whole
// statement. Ranked files from Cartograph's file ranking (src/core/search/fileRanking.ts) and from
// plain whole-file BM25 over the same files (Okapi, k1 1.2, b 0.75, each distinct query term once,
// written out below; tokens: the words inside identifiers, lower-cased, Cartograph's stop words and
// one-letter words dropped, Porter-stemmed — the tokenizer Cartograph's lexical index uses).
// Acc@k: the instance's gold files (those present) are all in the top k. `--variants` adds the two
// halves of Cartograph's score on their own (definitions only, file text only).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { stemmer } from 'stemmer';
import { Engine } from '../src/core/engine';
import { FileIndex, rankFiles } from '../src/core/search/fileRanking';
import { LexicalIndex, searchableWords as tokenize } from '../src/core/search/lexical';
import { mean, percentile } from './search/metrics';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    repo: { type: 'string', multiple: true },
    eval: { type: 'string' },
    variants: { type: 'boolean', default: false },
  },
});

const EVAL_FILE = values.eval ?? path.join(__dirname, '..', '..', 'shared', 'eval', 'swebench-lite-localization-dev.jsonl');
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

/** Plain Okapi BM25 over each file's whole text: the baseline. */
class WholeFileBm25 {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: number[] = [];
  private readonly stems = new Map<string, string>();

  constructor(readonly paths: string[], read: (p: string) => string) {
    paths.forEach((p, doc) => {
      const terms = this.terms(read(p));
      this.lengths.push(terms.length);
      for (const t of terms) {
        let posting = this.postings.get(t);
        if (!posting) this.postings.set(t, (posting = new Map()));
        posting.set(doc, (posting.get(doc) ?? 0) + 1);
      }
    });
  }

  private terms(text: string): string[] {
    return tokenize(text).map((w) => {
      let s = this.stems.get(w);
      if (s === undefined) this.stems.set(w, (s = stemmer(w)));
      return s;
    });
  }

  search(query: string, limit: number): string[] {
    const n = this.lengths.length;
    const avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const scores = new Map<number, number>();
    for (const term of new Set(this.terms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [doc, tf] of posting) {
        const part = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[doc]) / avg));
        scores.set(doc, (scores.get(doc) ?? 0) + part);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc]) => this.paths[doc]);
  }
}

type Method = 'cartograph' | 'bm25' | 'definitionsOnly' | 'textOnly';
interface Tally { hits: Record<number, number>; ms: number[]; definitionsMs: number[]; textMs: number[] }

async function main(): Promise<void> {
  if (!fs.existsSync(EVAL_FILE)) throw new Error(`no eval set at ${EVAL_FILE} (pass --eval FILE)`);
  const instances = fs.readFileSync(EVAL_FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Instance);
  const repos = values.repo ?? Object.keys(SOURCES);
  const methods: Method[] = values.variants ? ['cartograph', 'bm25', 'definitionsOnly', 'textOnly'] : ['cartograph', 'bm25'];
  const tallies = new Map<string, Tally>();
  const tally = (m: Method, q: QueryKind) => {
    const key = `${m}/${q}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { hits: { 1: 0, 5: 0, 10: 0 }, ms: [], definitionsMs: [], textMs: [] }));
    return t;
  };
  const perRepo: Record<string, unknown> = {};
  const perInstance: unknown[] = [];
  let counted = 0;
  let dropped = 0;
  for (const repo of repos) {
    const mine = instances.filter((i) => i.repo === repo);
    if (mine.length === 0) continue;
    const src = fetchSource(repo);
    const store = path.join(CACHE, repo.replace('/', '__'), 'store');
    let t = performance.now();
    const engine = await Engine.open(src, { storeDir: store });
    const report = await engine.index();
    const indexMs = performance.now() - t;
    const graph = engine.graph;
    t = performance.now();
    const lexical = await LexicalIndex.build(graph.graph, undefined, (p) => graph.fileGraph(p), 50);
    const files = await FileIndex.build(() => graph.filePaths(), (p) => graph.fileGraph(p), 50);
    const searchIndexMs = performance.now() - t;
    t = performance.now();
    const paths = graph.filePaths().sort();
    const bm25 = new WholeFileBm25(paths, (p) => fs.readFileSync(path.join(src, p), 'utf8'));
    const bm25Ms = performance.now() - t;
    const known = new Set(paths);
    let repoCounted = 0;
    for (const inst of mine) {
      const gold = inst.gold_files.map(debianPath);
      if (!gold.every((g) => known.has(g))) {
        dropped++;
        continue;
      }
      counted++;
      repoCounted++;
      const ranks: Record<string, number> = {};
      for (const kind of QUERY_KINDS) {
        const q = queryText[kind](inst.problem_statement);
        const timings: Record<string, number> = {};
        const cartograph = (share?: number) => rankFiles(graph.graph, files, (text) => lexical.scores(text), q, LIMIT, timings, share).map((h) => h.path);
        const rankers: Record<Method, () => string[]> = {
          cartograph: () => cartograph(),
          bm25: () => bm25.search(q, LIMIT),
          definitionsOnly: () => cartograph(1),
          textOnly: () => cartograph(0),
        };
        for (const m of methods) {
          const started = performance.now();
          const ranked = rankers[m]();
          const entry = tally(m, kind);
          entry.ms.push(performance.now() - started);
          if (m !== 'bm25') {
            entry.definitionsMs.push(timings.definitions ?? 0);
            entry.textMs.push(timings.text ?? 0);
          }
          const worst = Math.max(...gold.map((g) => ranked.indexOf(g)));
          const rank = gold.every((g) => ranked.includes(g)) ? worst + 1 : 0;
          for (const k of KS) if (rank > 0 && rank <= k) entry.hits[k]++;
          ranks[`${m}/${kind}`] = rank;
        }
      }
      perInstance.push({ id: inst.instance_id, gold, ranks });
    }
    perRepo[repo] = { instances: mine.length, counted: repoCounted, files: paths.length, indexMs: Math.round(indexMs), parsed: report.parsed, reused: report.reused, searchIndexMs: Math.round(searchIndexMs), bm25BuildMs: Math.round(bm25Ms) };
    console.error(`[localize] ${repo}: ${repoCounted}/${mine.length} counted, ${paths.length} files, index ${(indexMs / 1000).toFixed(1)} s (${report.parsed} parsed), search indexes ${(searchIndexMs / 1000).toFixed(1)} s`);
    await engine.close();
  }

  const rows = [];
  for (const kind of QUERY_KINDS) {
    for (const m of methods) {
      const t = tally(m, kind);
      const acc = (k: number) => (counted ? t.hits[k] / counted : NaN);
      const split = m === 'bm25' ? {} : { definitionsP50Ms: percentile(t.definitionsMs, 50), definitionsP95Ms: percentile(t.definitionsMs, 95), textP50Ms: percentile(t.textMs, 50), textP95Ms: percentile(t.textMs, 95) };
      rows.push({ query: kind, method: m, acc1: acc(1), acc5: acc(5), acc10: acc(10), p50Ms: percentile(t.ms, 50), p95Ms: percentile(t.ms, 95), meanMs: mean(t.ms), ...split });
    }
  }
  const lines = [
    `Issue → file localization: ${counted} instances counted, ${dropped} dropped (a gold file not in the Debian tree); Acc@k = all gold files in the top k`,
    '',
    '| query | method | Acc@1 | Acc@5 | Acc@10 | p50 ms | p95 ms | of which definitions p50 / p95 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.query} | ${r.method} | ${r.acc1.toFixed(3)} | ${r.acc5.toFixed(3)} | ${r.acc10.toFixed(3)} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.definitionsP50Ms === undefined ? '' : `${r.definitionsP50Ms.toFixed(1)} / ${r.definitionsP95Ms!.toFixed(1)}`} |`),
  ];
  console.log(lines.join('\n'));
  if (values.json) {
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    fs.writeFileSync(values.json, JSON.stringify({ evalFile: path.basename(EVAL_FILE), counted, dropped, rows, perRepo, perInstance, load: os.loadavg() }, null, 2) + '\n');
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
