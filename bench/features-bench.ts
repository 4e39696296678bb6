// `npm run bench:features -- [--corpus django] [--corpus effect] [--no-corpora] [--history GIT_DIR] [--commits 100]
//   [--npm PACKAGE --versions A..B|A,B,C] [--edits 200] [--json FILE]`:
// the functional view (issue 36, model-free) on real code.
// - Per corpus (bench/.corpora, fetched by bench/fetch-corpora.sh when missing): coverage (every
//   function, method and class under exactly one leaf; every area grounded), areas per level and their
//   sizes, the same hierarchy from a second build, build time and retained memory against a cold index
//   of the same tree, and the per-edit update (realEdits.ts's edits through the engine, then the
//   hierarchy caught up) p50/p95.
// - Evolution replay (--history: a git directory with history, e.g. the `fetch` tool's github:pallets/click):
//   `--commits` consecutive first-parent commits checked out one by one in a temporary clone, each
//   brought into the graph with the engine's per-file sync, the hierarchy updated incrementally and
//   also rebuilt from scratch; per step the adjusted Rand index of the two leaf assignments of every
//   entity, the entities re-lifted against a rebuild's (what a model would be called for), and the
//   rebuild's own agreement with the previous step's rebuild (how much from-scratch churns).
// - The same replay over consecutive npm versions of a package (--npm zod --versions 4.0.0..4.6.7: every
//   release in the range, pre-releases left out; or a comma-separated list): each version's tarball
//   fetched once with `npm pack` into bench/.corpora/npm-versions/<package>/ and extracted there; what is
//   indexed is the package's `src/` (the TypeScript sources, as bench/fetch-corpora.sh lays out an npm
//   corpus; the whole package when it has no `src/`) plus its package.json. Step to step, the files that
//   differ by content are copied into a temporary working folder and the removed ones deleted.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Engine } from '../src/core/engine';
import { FeatureHierarchy, type FeatureUpdate } from '../src/core/features/hierarchy';
import { settleHierarchy } from '../src/core/features/featureStore';
import { DescriptionCache } from '../src/core/lifting/descriptionCache';
import { liftingCost } from '../src/core/lifting/lifter';
import { sourceReader } from '../src/core/lifting/source';
import { adjustedRandIndex, coverageProblems, entityLeaves } from '../src/core/features/invariants';
import { realEdit } from './realEdits';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true },
    'no-corpora': { type: 'boolean', default: false },
    history: { type: 'string' },
    commits: { type: 'string' },
    npm: { type: 'string' },
    versions: { type: 'string' },
    edits: { type: 'string' },
    json: { type: 'string' },
  },
});
const CORPORA = process.env.CORPORA_DIR ?? path.join(__dirname, '.corpora');
const corpora = values['no-corpora'] ? [] : (values.corpus ?? ['django', 'effect']);
const EDITS = Number(values.edits ?? 200);
const COMMITS = Number(values.commits ?? 100);

/** A described entity's sentence in the replay's stand-in cache (a class's prompt carries its members'). */
const PLACEHOLDER_DESCRIPTION = 'Describes what this function does in one sentence of about sixty characters.';

const settleTimes = (steps: Array<{ settleMs: number | null }>) => steps.flatMap((s) => (s.settleMs === null ? [] : [s.settleMs]));
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** Areas per level (1 = top) with their sizes in files: count, min, median, max. */
function levels(h: FeatureHierarchy) {
  const byDepth = new Map<number, number[]>();
  for (const area of h.areas.values()) {
    if (area.id === '') continue;
    const depth = area.id.split('.').length;
    byDepth.set(depth, [...(byDepth.get(depth) ?? []), h.filesUnder(area.id).length]);
  }
  return [...byDepth].sort((a, b) => a[0] - b[0]).map(([depth, sizes]) => ({ depth, areas: sizes.length, min: Math.min(...sizes), median: percentile(sizes, 50), max: Math.max(...sizes) }));
}

async function benchCorpus(name: string) {
  const root = path.join(CORPORA, name);
  if (!fs.existsSync(root)) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const heapBefore = heapMb();
  const engine = await Engine.open(root, { storeDir: null });
  let t = performance.now();
  await engine.index();
  const indexMs = performance.now() - t;
  const graphHeap = heapMb() - heapBefore;
  const graph = engine.graph;

  t = performance.now();
  const h = FeatureHierarchy.build(graph);
  const buildMs = performance.now() - t;
  const featuresHeap = heapMb() - heapBefore - graphHeap;
  const again = FeatureHierarchy.build(graph);
  const deterministic = JSON.stringify(again.toJSON()) === JSON.stringify(h.toJSON());
  const problems = coverageProblems(graph, h);
  const entities = h.entityCount('');
  const grounded = [...h.areas.values()].filter((a) => a.id !== '' && a.scopes.length > 0).length;
  const scopesPerArea = [...h.areas.values()].filter((a) => a.id !== '').map((a) => a.scopes.length);

  // Real edits through the engine (as a save would), then the hierarchy caught up: `update` with the
  // saved path (what a caller holding the diff does) and `sync` (what LocalRepository does: every
  // file's hash compared with the graph's).
  const files = graph.filePaths().filter((p) => /\.(py|ts|tsx|js)$/.test(p)).sort();
  const updateMs: number[] = [];
  const syncMs: number[] = [];
  const reports: FeatureUpdate[] = [];
  for (let n = 0; n < EDITS; n++) {
    const file = files[(n * 7919) % files.length];
    const abs = path.join(root, file);
    const original = fs.readFileSync(abs, 'utf8');
    for (const text of [realEdit(original, file.endsWith('.py'), n), original]) {
      await engine.updateFile(abs, text);
      t = performance.now();
      reports.push(h.update(graph, [file]));
      updateMs.push(performance.now() - t);
      // What LocalRepository adds per change: every file's hash compared (nothing left to catch up here).
      t = performance.now();
      h.sync(graph);
      syncMs.push(performance.now() - t);
    }
  }
  const afterEdits = coverageProblems(graph, h);
  // Every edit was undone: the tree is the one first built from, so a rebuild gives the first hierarchy back.
  const ari = adjustedRandIndex(entityLeaves(h), entityLeaves(FeatureHierarchy.build(graph)));
  await engine.close();
  const sum = (k: keyof FeatureUpdate) => reports.reduce((n, r) => n + r[k], 0);
  return {
    corpus: name,
    files: graph.filePaths().length,
    entities,
    areas: h.areas.size - 1,
    topAreas: h.root.children.map((id) => ({ id, name: h.areas.get(id)!.name, files: h.filesUnder(id).length, entities: h.entityCount(id), scopes: h.areas.get(id)!.scopes })),
    levels: levels(h),
    coverage: { problems: problems.length, samples: problems.slice(0, 10), grounded, ungrounded: h.areas.size - 1 - grounded, scopesPerArea: { median: percentile(scopesPerArea, 50), max: Math.max(...scopesPerArea) } },
    deterministic,
    cost: {
      coldIndexMs: Math.round(indexMs),
      buildMs: Math.round(buildMs),
      buildShare: round((100 * buildMs) / indexMs),
      graphHeapMb: round(graphHeap),
      featuresHeapMb: round(featuresHeap),
      heapShare: round((100 * featuresHeap) / graphHeap),
    },
    edits: {
      edits: EDITS,
      updates: updateMs.length,
      updateP50: round(percentile(updateMs, 50), 2),
      updateP95: round(percentile(updateMs, 95), 2),
      syncP50: round(percentile(syncMs, 50), 2),
      syncP95: round(percentile(syncMs, 95), 2),
      relifted: sum('relifted'),
      reused: sum('reused'),
      rerouted: sum('rerouted'),
      problemsAfter: afterEdits.length,
      ariAfterUndo: round(ari, 4),
    },
  };
}

/**
 * One step of an evolution replay: `apply` brings the working folder to this state (a checkout, a
 * version's files copied in) and answers the paths it changed, relative to the folder.
 */
interface ReplayStep {
  label: string;
  apply: () => string[];
}

/**
 * The evolution replay shared by --history and --npm: the first step applied and indexed, the hierarchy
 * built; then per step the changed paths synced into the graph (the engine's per-file sync, as a
 * watcher would), the hierarchy caught up incrementally (`sync`) and also rebuilt from scratch.
 */
async function replaySteps(work: string, steps: ReplayStep[], labelKey: 'commit' | 'version') {
  steps[0].apply();
  const engine = await Engine.open(work, { storeDir: null });
  await engine.index();
  const graph = engine.graph;
  const inc = FeatureHierarchy.build(graph);
  let previousRebuild = entityLeaves(inc);
  // What the model path would send (cartograph describe's prompts, counted as liftingCost counts them):
  // the entities whose content hash is new since the last step, against every entity (a rebuild).
  const described = await DescriptionCache.open(null);
  const describeAll = () => graph.graph.forEachNode((_, a) => a.hash && described.set(a.hash, PLACEHOLDER_DESCRIPTION));
  describeAll();
  const perStep = [];
  for (const step of steps.slice(1)) {
    const changed = step.apply();
    // A changed path counts when the graph indexes it, before (removed, or edited) or after (added, or edited).
    const indexedBefore = new Set(changed.filter((p) => graph.fileGraph(p)));
    await engine.syncPaths(changed.map((p) => path.join(work, p)));
    let t = performance.now();
    const update = inc.sync(graph);
    const updateMs = performance.now() - t;
    t = performance.now();
    const rebuilt = FeatureHierarchy.build(graph);
    const rebuildMs = performance.now() - t;
    const incLeaves = entityLeaves(inc);
    const rebuiltLeaves = entityLeaves(rebuilt);
    const ariTopRouted = adjustedRandIndex(entityLeaves(inc, 1), entityLeaves(rebuilt, 1));
    const problems = coverageProblems(graph, inc).length;
    const sourceOf = sourceReader(engine.boundary);
    const sent = await liftingCost(graph.graph, described, sourceOf);
    const full = await liftingCost(graph.graph, await DescriptionCache.open(null), sourceOf);
    describeAll();
    // the service settles a view its edits changed once they pause (2 s): the next step starts from it
    t = performance.now();
    const settled = settleHierarchy(inc, graph) !== undefined;
    const settleMs = performance.now() - t;
    perStep.push({
      [labelKey]: step.label,
      changedFiles: changed.filter((p) => indexedBefore.has(p) || graph.fileGraph(p)).length,
      entities: rebuiltLeaves.size,
      relifted: update.relifted,
      requests: sent.entities,
      rebuildRequests: full.entities,
      promptChars: sent.characters,
      rebuildPromptChars: full.characters,
      rerouted: update.rerouted,
      addedFiles: update.addedFiles,
      removedFiles: update.removedFiles,
      updateMs: round(updateMs, 2),
      rebuildMs: round(rebuildMs),
      settleMs: settled ? round(settleMs) : null,
      ari: round(adjustedRandIndex(incLeaves, rebuiltLeaves), 4),
      ariTop: round(ariTopRouted, 4),
      ariSettled: round(adjustedRandIndex(entityLeaves(inc), rebuiltLeaves), 4),
      identicalSettled: JSON.stringify(inc.toJSON()) === JSON.stringify(rebuilt.toJSON()),
      rebuildVsPrevious: round(adjustedRandIndex(previousRebuild, rebuiltLeaves), 4),
      problems,
    });
    previousRebuild = rebuiltLeaves;
  }
  const filesAtEnd = graph.filePaths().length;
  await engine.close();
  const aris = perStep.map((s) => s.ari);
  const churn = perStep.map((s) => s.rebuildVsPrevious);
  const touched = perStep.filter((s) => s.relifted + s.addedFiles + s.removedFiles > 0);
  return {
    from: steps[0].label,
    to: steps[steps.length - 1].label,
    steps: perStep.length,
    filesAtEnd,
    ari: { final: aris[aris.length - 1], mean: round(aris.reduce((a, b) => a + b, 0) / aris.length, 4), min: Math.min(...aris), identical: aris.filter((a) => a === 1).length },
    ariTop: { final: perStep[perStep.length - 1].ariTop, mean: round(perStep.reduce((a, s) => a + s.ariTop, 0) / perStep.length, 4), min: Math.min(...perStep.map((s) => s.ariTop)) },
    settled: {
      ariMin: Math.min(...perStep.map((s) => s.ariSettled)),
      identical: perStep.filter((s) => s.identicalSettled).length,
      settleMs: { p50: percentile(settleTimes(perStep), 50), p95: percentile(settleTimes(perStep), 95) },
    },
    rebuildChurn: { mean: round(churn.reduce((a, b) => a + b, 0) / churn.length, 4), min: Math.min(...churn), identical: churn.filter((a) => a === 1).length },
    relifted: {
      total: perStep.reduce((n, s) => n + s.relifted, 0),
      rebuildTotal: perStep.reduce((n, s) => n + s.entities, 0),
      share: round((100 * perStep.reduce((n, s) => n + s.relifted, 0)) / perStep.reduce((n, s) => n + s.entities, 0), 2),
      perTouchedStepP95: percentile(touched.map((s) => (100 * s.relifted) / s.entities), 95),
    },
    modelPath: {
      requests: perStep.reduce((n, s) => n + s.requests, 0),
      rebuildRequests: perStep.reduce((n, s) => n + s.rebuildRequests, 0),
      promptChars: perStep.reduce((n, s) => n + s.promptChars, 0),
      rebuildPromptChars: perStep.reduce((n, s) => n + s.rebuildPromptChars, 0),
    },
    rerouted: perStep.reduce((n, s) => n + s.rerouted, 0),
    updateMs: { p50: percentile(perStep.map((s) => s.updateMs), 50), p95: percentile(perStep.map((s) => s.updateMs), 95) },
    rebuildMs: { p50: percentile(perStep.map((s) => s.rebuildMs), 50) },
    problems: perStep.reduce((n, s) => n + s.problems, 0),
    perStep,
  };
}

/** --history: consecutive first-parent commits checked out one by one in a temporary clone. */
async function replayGit(gitDir: string) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-features-replay-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  try {
    execFileSync('git', ['clone', '--quiet', '--no-checkout', gitDir, work]);
    const commits = git('rev-list', '--first-parent', `--max-count=${COMMITS + 1}`, 'HEAD').trim().split('\n').reverse();
    const steps = commits.map((commit, i) => ({
      label: commit.slice(0, 10),
      apply: () => {
        const changed = i === 0 ? [] : git('diff', '--name-only', commits[i - 1], commit).trim().split('\n').filter(Boolean);
        git('checkout', '--quiet', commit);
        return changed;
      },
    }));
    return { repository: gitDir, ...(await replaySteps(work, steps, 'commit')) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const compareVersions = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** `A..B` (every release from A to B, pre-releases left out; `A..` up to the newest) or `A,B,C` as given. */
function npmVersions(name: string, spec: string): string[] {
  if (!spec.includes('..')) return spec.split(',').map((v) => v.trim()).filter(Boolean);
  const [from, to] = spec.split('..');
  const all: string[] = JSON.parse(execFileSync('npm', ['view', name, 'versions', '--json'], { encoding: 'utf8' }));
  return all.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && compareVersions(v, from) >= 0 && (!to || compareVersions(v, to) <= 0)).sort(compareVersions);
}

/** The extracted package of one version, fetched into the cache the first time. */
async function npmPackage(name: string, version: string): Promise<string> {
  const cache = path.join(CORPORA, 'npm-versions', name.replace('/', '+'));
  const dir = path.join(cache, version);
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(cache, { recursive: true });
  const { stdout } = await promisify(execFile)('npm', ['pack', `${name}@${version}`, '--pack-destination', cache, '--json'], { encoding: 'utf8' });
  const tarball = path.join(cache, (JSON.parse(stdout) as { filename: string }[])[0].filename);
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial);
  // npm tarballs hold the package under one top folder (`package/`).
  execFileSync('tar', ['xzf', tarball, '-C', partial, '--strip-components=1']);
  fs.rmSync(tarball);
  fs.renameSync(partial, dir);
  return dir;
}

/** What is indexed of a package: its `src/` (else everything) and package.json, each path with its content hash. */
function npmSources(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.set(child, createHash('sha1').update(fs.readFileSync(path.join(dir, child))).digest('hex'));
    }
  };
  if (fs.existsSync(path.join(dir, 'src'))) {
    walk('src');
    if (fs.existsSync(path.join(dir, 'package.json'))) files.set('package.json', createHash('sha1').update(fs.readFileSync(path.join(dir, 'package.json'))).digest('hex'));
  } else walk('');
  return files;
}

/** --npm: consecutive versions of a package, the files that differ by content copied into a working folder. */
async function replayNpm(name: string, spec: string) {
  const versions = npmVersions(name, spec);
  if (versions.length < 2) throw new Error(`--versions ${spec}: ${versions.length} version(s) of ${name}, a replay needs two`);
  const dirs = new Map<string, string>();
  const queue = [...versions];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let v = queue.shift(); v; v = queue.shift()) dirs.set(v, await npmPackage(name, v));
    }),
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-features-npm-'));
  let current = new Map<string, string>();
  const sourceFiles: Record<string, number> = {};
  const steps = versions.map((version) => ({
    label: version,
    apply: () => {
      const dir = dirs.get(version)!;
      const next = npmSources(dir);
      sourceFiles[version] = [...next.keys()].filter((p) => /\.(ts|tsx|mts|cts)$/.test(p)).length;
      const changed = [];
      for (const [rel, hash] of next) {
        if (current.get(rel) === hash) continue;
        fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
        fs.copyFileSync(path.join(dir, rel), path.join(work, rel));
        changed.push(rel);
      }
      for (const rel of current.keys()) {
        if (next.has(rel)) continue;
        fs.rmSync(path.join(work, rel));
        changed.push(rel);
      }
      current = next;
      return changed.sort();
    },
  }));
  try {
    const replayed = await replaySteps(work, steps, 'version');
    return { package: name, versions, indexed: fs.existsSync(path.join(dirs.get(versions[0])!, 'src')) ? 'src/ and package.json' : 'the whole package', typescriptFiles: sourceFiles, ...replayed };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function printReplay(title: string, r: Awaited<ReturnType<typeof replaySteps>>, unit: string) {
  console.log(`\n## evolution replay: ${title} ${r.from}..${r.to}, ${r.steps} ${unit}`);
  console.log('| measure | value |\n|---|---|');
  console.log(`| ARI routed (before settling) vs rebuild: final / mean / min; steps identical | ${r.ari.final} / ${r.ari.mean} / ${r.ari.min}; ${r.ari.identical} of ${r.steps} |`);
  console.log(`| settled vs rebuild: ARI min; steps identical (the whole view); settle p50 / p95 | ${r.settled.ariMin}; ${r.settled.identical} of ${r.steps}; ${r.settled.settleMs.p50} / ${r.settled.settleMs.p95} ms |`);
  console.log(`| the same at the top level (entities' top-level areas): final / mean / min | ${r.ariTop.final} / ${r.ariTop.mean} / ${r.ariTop.min} |`);
  console.log(`| rebuild vs previous step's rebuild: mean / min; identical | ${r.rebuildChurn.mean} / ${r.rebuildChurn.min}; ${r.rebuildChurn.identical} of ${r.steps} |`);
  console.log(`| entities re-lifted vs a rebuild's (model calls) | ${r.relifted.total} vs ${r.relifted.rebuildTotal} (${r.relifted.share} %); p95 per changed step ${round(r.relifted.perTouchedStepP95, 2)} % |`);
  const { modelPath: m } = r;
  console.log(`| model path: requests and prompt characters (≈ tokens × 4) vs a rebuild's | ${m.requests} vs ${m.rebuildRequests} (${round((100 * m.requests) / m.rebuildRequests, 2)} %); ${m.promptChars} vs ${m.rebuildPromptChars} (${round((100 * m.promptChars) / m.rebuildPromptChars, 2)} %) |`);
  console.log(`| files re-routed on drift | ${r.rerouted} |`);
  console.log(`| update p50 / p95; rebuild p50 | ${r.updateMs.p50} / ${r.updateMs.p95} ms; ${r.rebuildMs.p50} ms |`);
  console.log(`| invariant problems over all steps | ${r.problems} |`);
}

async function main() {
  const results = [];
  for (const name of corpora) {
    const r = await benchCorpus(name);
    results.push(r);
    console.log(`\n## ${name}: ${r.files} files, ${r.entities} functions/methods/classes, ${r.areas} areas`);
    console.log('| measure | value |\n|---|---|');
    console.log(`| coverage: entities not under exactly one leaf, areas ungrounded | ${r.coverage.problems}, ${r.coverage.ungrounded} (of ${r.areas}) |`);
    console.log(`| areas per level (count; files min / median / max) | ${r.levels.map((l) => `L${l.depth}: ${l.areas} (${l.min} / ${l.median} / ${l.max})`).join('; ')} |`);
    console.log(`| folders per area's scope, median / max | ${r.coverage.scopesPerArea.median} / ${r.coverage.scopesPerArea.max} |`);
    console.log(`| same hierarchy from a second build | ${r.deterministic ? 'yes' : 'NO'} |`);
    console.log(`| build vs cold index | ${r.cost.buildMs} ms vs ${r.cost.coldIndexMs} ms (${r.cost.buildShare} %) |`);
    console.log(`| retained heap: hierarchy vs graph | ${r.cost.featuresHeapMb} MB vs ${r.cost.graphHeapMb} MB (${r.cost.heapShare} %) |`);
    console.log(`| per-edit update p50 / p95 (${r.edits.updates} updates) | ${r.edits.updateP50} / ${r.edits.updateP95} ms, plus ${r.edits.syncP50} / ${r.edits.syncP95} ms to compare every file's hash (sync) |`);
    console.log(`| entities re-lifted / reused, files re-routed | ${r.edits.relifted} / ${r.edits.reused}, ${r.edits.rerouted} |`);
    console.log(`| after the edits and their undoing: problems, ARI vs rebuild | ${r.edits.problemsAfter}, ${r.edits.ariAfterUndo} |`);
    console.log(`top-level areas: ${r.topAreas.map((a) => `${a.id} ${a.name} (${a.files} files)`).join('; ')}`);
  }
  let history;
  if (values.history) {
    history = await replayGit(path.resolve(values.history));
    printReplay(history.repository, history, 'commits');
  }
  let npm;
  if (values.npm) {
    npm = await replayNpm(values.npm, values.versions ?? '0.0.0..');
    printReplay(`npm ${npm.package} (${npm.indexed})`, npm, 'version steps');
  }
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true });
    fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, load: os.loadavg(), corpora: results, history, npm }, null, 2)}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
