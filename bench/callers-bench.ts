// `npm run bench:callers [-- --json FILE] [--corpus NAME]... [--targets N]`: callers and impact
// against an independent oracle: for Python, Jedi (bench/callers/jedi_oracle.py: every call Python's
// own `ast` finds in a corpus's caller files, placed by `goto(follow_imports=True)`); for TypeScript,
// the language service (bench/callers/typescriptOracle.ts: every call and `new`, placed by
// `getDefinitionAtPosition`). Per corpus:
// - caller recall: of the (caller, callee) pairs the oracle places in the repository, the share that
//   are CALLS edges of the graph; "with possible" also counts pairs the tools list as possible callers
//   (unresolved references of the callee's name, calls on values of unknown type, calls through an
//   overridden method).
// - caller precision: of the graph's CALLS edges from those files, the share the oracle confirms at a
//   call of that name in the caller (or at a call through a typed value: `predicate(a)` placed at Predicate);
//   edges whose calls it placed nowhere are counted apart (open), not as right or wrong.
// Two readings of Jedi's are set apart, counted, not scored (its method lookup does not follow Python's
// MRO through several bases; Django's Ceil.as_oracle → `super().as_sql()` is Func.as_sql, Jedi says
// BaseExpression.as_sql, and `super().__init__()` is often object's for it): calls through `super()`,
// and pairs where the graph's callee is an override of the oracle's, the nearer definition along the
// bases ("disputed"). Both counts are in the table.
// - impact depth-2 coverage: for N seeded callees, the share of the oracle's callers and callers' callers
//   that the `impact` tool (depth 2) lists, definite rows only and with its possible rows.
// Corpora: django (callers in django/db and django/template, the callees anywhere in Django; Jedi on
// all of Django would take most of an hour), jinja2 (Debian python3-jinja2: held out until issue 34,
// whose gaps were read from its misses, so no longer unseen), markdown (Debian python3-markdown,
// never read to fix anything: the held-out one) and effect (npm effect@3.22.4, a fixed fifth of its
// files as callers). The oracles' answers are cached by content (bench/results/oracle-cache).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalRepository } from '../src/core/service/localRepository';
import { dispatchCallers, overriddenMethods } from '../src/core/graph/overrides';
import { functionOf } from '../src/core/search/implementations';
import { UnresolvedIndex } from '../src/core/tools/relations';
import ts from 'typescript';
import { typescriptCalls, type Call } from './callers/typescriptOracle';
import { cacheDir, contentKey, jediPython, nodeForDefinition, symbolIndex } from './context/oracle';
import { MOBX_PACKAGE, TS_PACKAGE, ZOD_PACKAGE, ensureTsPackage } from './search/corpus';
import { rng } from '../test/support/rng';

const CORPORA = process.env.CORPORA_DIR ?? path.join(__dirname, '.corpora');
const { values } = parseArgs({ options: { json: { type: 'string' }, corpus: { type: 'string', multiple: true }, targets: { type: 'string' }, missed: { type: 'string' } } });
const TARGETS = Number(values.targets ?? 300);
/** How many missed pairs the JSON lists (`--missed N`; reading them all is how a dev corpus's gaps are found). */
const MISSED = Number(values.missed ?? 60);

/** Per corpus: its language, and which files' calls are asked of the oracle (paths relative to the corpus folder). */
const CORPUS: Record<string, { language: 'python' | 'typescript'; callers: (rel: string) => boolean }> = {
  django: { language: 'python', callers: (rel) => rel.startsWith('db/') || rel.startsWith('template/') },
  jinja2: { language: 'python', callers: () => true },
  markdown: { language: 'python', callers: () => true },
  // A fixed fifth of effect's files (by the hash of the path): the language service on all of it
  // answers for every call of those, its program holding the whole corpus.
  effect: { language: 'typescript', callers: (rel) => createHash('sha1').update(rel).digest()[0] < 52 },
  // Never read to fix the graph: marshmallow, and mobx (its completion misses were read once, for import
  // blocks and ambient globals; never its calls).
  // Read while tuning (completion context's dev corpora): their misses may be read for the graph too.
  zod: { language: 'typescript', callers: () => true },
  rxjs: { language: 'typescript', callers: () => true },
  marshmallow: { language: 'python', callers: () => true },
  mobx: { language: 'typescript', callers: () => true },
};
const corpora = values.corpus ?? Object.keys(CORPUS);

function sourceFiles(root: string, extension: RegExp, rel = ''): string[] {
  return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? sourceFiles(root, extension, child) : extension.test(e.name) ? [child] : [];
  }).sort();
}

/** The TypeScript language service's answers, cached by the corpus's content and the oracle's own code. */
function languageServiceCalls(root: string, all: string[], files: string[]): Map<string, Call[]> {
  const script = fs.readFileSync(path.join(__dirname, 'callers', 'typescriptOracle.ts'), 'utf8');
  const file = path.join(cacheDir(), `ts-calls-${contentKey(`ts ${ts.version}; ${script}; ${files.join(',')}`, root, all)}.json`);
  if (fs.existsSync(file)) return new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Call[]>));
  console.error(`bench:callers: the TypeScript language service on ${files.length} of ${all.length} files of ${root} (cached afterwards) ...`);
  const calls = typescriptCalls(root, all, files);
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(calls)));
  return calls;
}

function jediCalls(root: string, files: string[]): Map<string, Call[]> {
  const { python, version } = jediPython();
  const script = path.join(__dirname, 'callers', 'jedi_oracle.py');
  const file = path.join(cacheDir(), `jedi-calls-${contentKey(`jedi ${version}; ${fs.readFileSync(script, 'utf8')}`, root, files)}.jsonl`);
  if (!fs.existsSync(file)) {
    console.error(`bench:callers: Jedi on ${files.length} files of ${root} (cached afterwards) ...`);
    const out = execFileSync(python, [script], { input: JSON.stringify({ root, files }), encoding: 'utf8', maxBuffer: 1 << 30, cwd: cacheDir() });
    fs.writeFileSync(file, out);
  }
  const calls = new Map<string, Call[]>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const row = JSON.parse(line) as { path: string; calls: Call[] };
    calls.set(row.path, row.calls);
  }
  return calls;
}

interface CorpusResult {
  corpus: string;
  callerFiles: number;
  calls: number;
  /** Calls Jedi placed in the repository / outside it / nowhere. */
  oracleInRepo: number;
  oracleOutside: number;
  oracleOpen: number;
  /** Calls through `super()`, left out of the scores (see above). */
  superCalls: number;
  /** Jedi's pair or the graph's where the graph's callee overrides Jedi's: left out of recall and precision. */
  disputed: number;
  oraclePairs: number;
  recall: number;
  recallWithPossible: number;
  graphPairs: number;
  precision: number;
  precisionWrong: number;
  precisionOpen: number;
  impactTargets: number;
  impactReach: number;
  impactCoverage: number;
  impactCoverageWithPossible: number;
  /** Jedi's pairs the graph has no CALLS edge for, and those no tool lists even as possible. */
  missedSamples: string[];
  missedEvenAsPossible: string[];
  wrongSamples: string[];
  /** `callee ⇐ caller` of Jedi's depth-2 reach that impact did not list. */
  impactMissedSamples: string[];
}

async function measure(corpus: string): Promise<CorpusResult> {
  const root = fs.realpathSync(path.join(CORPORA, corpus));
  const { language, callers } = CORPUS[corpus];
  const all = sourceFiles(root, language === 'python' ? /\.py$/ : /(?<!\.d)\.ts$/);
  const files = all.filter(callers);
  const oracle = language === 'python' ? jediCalls(root, files) : languageServiceCalls(root, all, files);
  const repo = await LocalRepository.open(root, { storeDir: null });
  await repo.index();
  const graph = repo.engine.graph.graph;
  const index = symbolIndex(repo.engine.graph);
  // The caller of a line: the innermost definition holding it (the graph draws a reference from there),
  // else the module. A Python variable is no scope (`x = make()` is the module's or class's call); a
  // TypeScript one is (`export const equals = dual(...)` calls dual from `equals`).
  const scopes = (id: string) => language === 'typescript' || !['Field', 'GlobalVariable'].includes(graph.getNodeAttribute(id, 'kind'));
  const callerAt = (file: string, line: number) => {
    let best: string | undefined;
    let span = Infinity;
    for (const n of index.get(file) ?? []) {
      if (line >= n.start && line <= n.end && n.end - n.start < span && scopes(n.id)) {
        best = n.id;
        span = n.end - n.start;
      }
    }
    return best ?? file;
  };

  // The oracle's pairs, and per (caller, written name) whether it answered every such call and where to.
  const oraclePairs = new Set<string>();
  const oracleCallers = new Map<string, Set<string>>();
  const byCallerName = new Map<string, { targets: Set<string>; open: boolean }>();
  let calls = 0;
  let inRepo = 0;
  let outside = 0;
  let open = 0;
  let superCalls = 0;
  for (const [file, list] of oracle) {
    const text = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    for (const [line, col, name, targets, out] of list) {
      calls++;
      const caller = callerAt(file, line);
      const site = byCallerName.get(`${caller} ${name}`) ?? byCallerName.set(`${caller} ${name}`, { targets: new Set(), open: false }).get(`${caller} ${name}`)!;
      if (/\bsuper\s*\([^()]*\)\s*\.\s*$/.test(text[line]?.slice(0, col) ?? '')) {
        superCalls++;
        site.open = true;
        continue;
      }
      const nodes = targets.map(([p, l, n]) => nodeForDefinition(index, { path: p, line: l, name: n, kind: '' })).filter((id): id is string => id !== undefined);
      if (nodes.length > 0) inRepo++;
      else if (out > 0) outside++;
      else {
        open++;
        site.open = true;
      }
      for (const t of nodes) {
        site.targets.add(t);
        if (t === caller) continue;
        oraclePairs.add(`${caller}\u0000${t}`);
        (oracleCallers.get(t) ?? oracleCallers.set(t, new Set()).get(t)!).add(caller);
      }
    }
  }

  // The graph's CALLS edges from the same files, to definitions of the repository.
  const scope = new Set(files);
  const graphPairs = new Set<string>();
  graph.forEachEdge((_, e, s, t) => {
    if (e.kind === 'CALLS' && s !== t && scope.has(graph.getNodeAttribute(s, 'path')) && graph.getNodeAttribute(t, 'kind') !== 'External') graphPairs.add(`${s}\u0000${t}`);
  });
  // The graph's callee from `s` that overrides Jedi's `t` (see "disputed" above).
  const overrideOf = (s: string, t: string) => {
    let found: string | undefined;
    graph.forEachOutEdge(s, (_, e, _s, callee) => {
      if (!found && e.kind === 'CALLS' && overriddenMethods(graph, callee).includes(t)) found = callee;
    });
    return found;
  };
  let disputed = 0;
  const missed = [...oraclePairs].filter((p) => {
    if (graphPairs.has(p)) return false;
    const [s, t] = p.split('\u0000');
    if (overrideOf(s, t) === undefined) return true;
    // Left out of the impact reach too: impact follows the graph's reading, the override.
    disputed++;
    oracleCallers.get(t)?.delete(s);
    return false;
  });
  const scored = oraclePairs.size - disputed;
  const possibleOf = new Map<string, Set<string>>();
  // What explore_graph lists as possible callers: same-named unresolved calls, calls that may dispatch to an override.
  const unresolved = new UnresolvedIndex(repo.engine.graph);
  const possibleCallers = (t: string) => {
    const { members } = functionOf(graph, t);
    return [...unresolved.possible(graph.getNodeAttributes(t), ['CALLS'], members).sources, ...dispatchCallers(graph, t, members)].map((c) => c.id);
  };
  const possible = (t: string) => possibleOf.get(t) ?? possibleOf.set(t, new Set(possibleCallers(t))).get(t)!;
  const missedPossible = missed.filter((p) => {
    const [s, t] = p.split('\u0000');
    return !possible(t).has(s);
  });
  let right = 0;
  let wrong = 0;
  let unknown = 0;
  const wrongSamples: string[] = [];
  for (const p of graphPairs) {
    const [s, t] = p.split('\u0000');
    const site = byCallerName.get(`${s} ${graph.getNodeAttribute(t, 'name')}`);
    // A call through a typed value (`predicate(a)` → Predicate's call signature) is written under another name.
    if (site?.targets.has(t) || oraclePairs.has(p)) right++;
    else if (!site || site.open) unknown++;
    else if ([...site.targets].some((j) => overriddenMethods(graph, t).includes(j))) disputed++;
    else {
      wrong++;
      if (wrongSamples.length < 15) wrongSamples.push(`${s} -> ${t} (oracle: ${[...site.targets].join(', ') || 'outside'})`);
    }
  }

  // Impact at depth 2 against Jedi's callers and callers' callers, for seeded callees.
  const random = rng(34);
  const candidates = [...oracleCallers.keys()].filter((t) => ['Function', 'Method'].includes(graph.getNodeAttribute(t, 'kind'))).sort();
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
  }
  let reach = 0;
  let covered = 0;
  let coveredPossible = 0;
  const sample = candidates.slice(0, TARGETS);
  const impactMissed: string[] = [];
  for (const t of sample) {
    const own = new Set(functionOf(graph, t).members);
    const expected = new Set<string>();
    for (const c of oracleCallers.get(t) ?? []) {
      expected.add(c);
      for (const cc of oracleCallers.get(c) ?? []) expected.add(cc);
    }
    for (const o of own) expected.delete(o);
    const definite = new Set<string>();
    const all = new Set<string>();
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const answer = await repo.runTool('impact', { ids: [t], depth: 2, limit: 200, offset });
      if (!answer.ok) throw new Error(answer.error);
      for (const a of answer.structured.affected as Array<{ id: string; possible?: boolean }>) {
        all.add(a.id);
        if (!a.possible) definite.add(a.id);
      }
      offset = answer.structured.nextOffset as number | undefined;
    }
    reach += expected.size;
    for (const e of expected) {
      const body = functionOf(graph, e).body;
      if (definite.has(body)) covered++;
      if (all.has(body)) coveredPossible++;
      else if (impactMissed.length < 40) impactMissed.push(`${t} ⇐ ${e}`);
    }
  }
  await repo.close();
  const ratio = (a: number, b: number) => (b === 0 ? NaN : a / b);
  return {
    corpus,
    callerFiles: files.length,
    calls,
    oracleInRepo: inRepo,
    oracleOutside: outside,
    oracleOpen: open,
    superCalls,
    disputed,
    oraclePairs: oraclePairs.size,
    recall: ratio(scored - missed.length, scored),
    recallWithPossible: ratio(scored - missedPossible.length, scored),
    graphPairs: graphPairs.size,
    precision: ratio(right, right + wrong),
    precisionWrong: wrong,
    precisionOpen: unknown,
    impactTargets: sample.length,
    impactReach: reach,
    impactCoverage: ratio(covered, reach),
    impactCoverageWithPossible: ratio(coveredPossible, reach),
    missedSamples: missed.slice(0, MISSED).map((p) => p.replace('\u0000', ' -> ')),
    missedEvenAsPossible: missedPossible.slice(0, 40).map((p) => p.replace('\u0000', ' -> ')),
    wrongSamples,
    impactMissedSamples: impactMissed,
  };
}

function ensureCorpora(): void {
  for (const pkg of [TS_PACKAGE, ZOD_PACKAGE, MOBX_PACKAGE]) if (corpora.includes(pkg.name)) ensureTsPackage(pkg);
  if (corpora.every((c) => fs.existsSync(path.join(CORPORA, c)))) return;
  // jinja2, markdown and marshmallow come with CALLERS=1: nothing tuned the graph on them.
  execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit', env: { ...process.env, CALLERS: '1' } });
}

async function main(): Promise<void> {
  ensureCorpora();
  const results: CorpusResult[] = [];
  for (const corpus of corpora) results.push(await measure(corpus));
  const f = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(3));
  console.log('| corpus | caller files | calls (in repo / outside / open / super()) | oracle pairs | disputed | caller recall | + possible | graph pairs | precision (wrong, open) | impact targets | depth-2 reach | impact coverage | + possible |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.corpus} | ${r.callerFiles} | ${r.calls} (${r.oracleInRepo} / ${r.oracleOutside} / ${r.oracleOpen} / ${r.superCalls}) | ${r.oraclePairs} | ${r.disputed} | ${f(r.recall)} | ${f(r.recallWithPossible)} | ${r.graphPairs} | ${f(r.precision)} (${r.precisionWrong}, ${r.precisionOpen}) | ${r.impactTargets} | ${r.impactReach} | ${f(r.impactCoverage)} | ${f(r.impactCoverageWithPossible)} |`);
  }
  for (const r of results) {
    if (r.missedEvenAsPossible.length) console.log(`\n${r.corpus}: pairs missed even as possible (first ${r.missedEvenAsPossible.length}):\n  ${r.missedEvenAsPossible.join('\n  ')}`);
    if (r.wrongSamples.length) console.log(`\n${r.corpus}: edges the oracle places elsewhere:\n  ${r.wrongSamples.join('\n  ')}`);
  }
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true });
    fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), jedi: jediPython().version, targets: TARGETS, results }, null, 2)}\n`);
  }
}

void main();
