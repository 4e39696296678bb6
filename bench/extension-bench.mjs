// `npm run bench:extension -- [--runs N] [--json FILE] [--profile] [--in-host]`: Django in VS Code's real
// extension host (code-server, through scripts/test-integration.mjs with test/integration/perf),
// N times. Prints a table per scenario (activation, cold Reindex with the store deleted, warm
// Reindex, 40 saves of a large module) and writes every run's figures as JSON. `--profile` names
// what ran during each scenario's longest blocks (test/integration/perf/profile.js).
// `--in-host` turns `cartograph.engineWorker` off: the engine and its graph in the extension host's thread.
// `--picker`: instead, zod@4.6.7's sources (npm, 332 .ts files, unpacked into bench/.corpora/zod-4.6.7
// on first use): a 44-character question and a structural one typed into Find Where Implemented, Quick Open and Go to Symbol in
// Workspace, N rounds each (test/integration/perf/pickerDriver.mjs); frames over 100 ms, longest frame,
// time to type and time until the list settles, measured in the page; and per picker, chord to a
// focused box (p50, p95) and the keys lost of 219 typed a key every 30 ms from 30 ms after the chord.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, json: { type: 'string' }, profile: { type: 'boolean', default: false }, 'in-host': { type: 'boolean', default: false }, picker: { type: 'boolean', default: false } } });
if (values.picker) {
  pickerBench();
  process.exit(process.exitCode ?? 0);
}
const corpus = path.join(repo, 'bench/.corpora/django');
if (!fs.existsSync(corpus)) throw new Error(`${corpus} is missing: run bash bench/fetch-corpora.sh`);

const env = {
  ...process.env,
  CARTOGRAPH_E2E_FOLDER: corpus,
  CARTOGRAPH_E2E_TESTS: 'test/integration/perf/index.js',
  CARTOGRAPH_E2E_TIMEOUT_MS: '900000',
  ...(values.profile ? { CARTOGRAPH_PERF_PROFILE: '1' } : {}),
  ...(values['in-host'] ? { CARTOGRAPH_E2E_SETTINGS: JSON.stringify({ 'cartograph.engineWorker': false }) } : {}),
};
const runs = [];
for (let i = 0; i < Number(values.runs); i++) {
  const r = spawnSync('node', [path.join(repo, 'scripts/test-integration.mjs')], { cwd: repo, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('CARTOGRAPH_PERF '));
  if (!line) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    throw new Error(`run ${i + 1}: the perf suite printed no figures (exit ${r.status})`);
  }
  runs.push(JSON.parse(line.slice('CARTOGRAPH_PERF '.length)));
  console.error(`run ${i + 1}/${values.runs} done`);
}

const scenarios = [
  ['activation', 'cold, at activation', (s) => s.sinceTestStartMs],
  ['cold', 'cold, store deleted, Reindex', (s) => s.openToReadyMs],
  ['warm', 'warm Reindex', (s) => s.openToReadyMs],
  ['editing', '40 saves of db/models/base.py', (s) => s.wallMs],
];
console.log('| run | scenario | wall | longest block (phase) | on CPU / waiting | longest GC pause | blocks > 50 ms | p99 |');
console.log('|---|---|---|---|---|---|---|---|');
runs.forEach((run, i) => {
  for (const [key, label, wall] of scenarios) {
    const s = run[key];
    if (!s) continue;
    const b = s.longestBlock;
    console.log(`| ${i + 1} | ${label} | ${(wall(s) / 1000).toFixed(2)} s | ${s.longestBlockMs} ms (${s.longestBlockPhase}) | ${b.onCpuMs} / ${b.waitingForCpuMs} ms | ${s.longestGcPause.ms} ms ${s.longestGcPause.kind} | ${s.blocksOver50ms} | ${s.p99Ms} ms |`);
  }
});
if (values.profile) {
  for (const [i, run] of runs.entries()) {
    for (const [key, label] of scenarios) {
      for (const b of run[key]?.profiledBlocks ?? []) console.log(`run ${i + 1}, ${label}: ${b.ms} ms (${b.phase}), ${b.samples} samples; self: ${b.self.join(', ')}; Cartograph: ${b.cartograph.join(', ') || '-'}`);
    }
  }
}
if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ command: `npm run bench:extension -- --runs ${values.runs}${values['in-host'] ? ' --in-host' : ''}`, date: new Date().toISOString(), runs }, null, 1)}\n`);

/** zod's TypeScript sources (all 332: v3, v4, locales) and package.json, its compiled output left out, fetched once. */
function zodCorpus() {
  const dir = path.join(repo, 'bench/.corpora/zod-4.6.7');
  if (fs.existsSync(path.join(dir, 'src'))) return dir;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zod-'));
  try {
    execFileSync('npm', ['pack', 'zod@4.6.7', '--pack-destination', tmp], { stdio: 'ignore' });
    execFileSync('tar', ['xzf', path.join(tmp, 'zod-4.6.7.tgz'), '-C', tmp, 'package/src', 'package/package.json', 'package/LICENSE']);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.renameSync(path.join(tmp, 'package'), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

function pickerBench() {
  const done = path.join(os.tmpdir(), `cartograph-picker-done-${process.pid}`);
  const rounds = Number(values.runs);
  const r = spawnSync('node', [path.join(repo, 'scripts/test-integration.mjs')], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      CARTOGRAPH_E2E_FOLDER: zodCorpus(),
      CARTOGRAPH_E2E_TESTS: 'test/integration/perf/picker.js',
      CARTOGRAPH_E2E_DRIVER: 'test/integration/perf/pickerDriver.mjs',
      CARTOGRAPH_E2E_TIMEOUT_MS: '900000',
      CARTOGRAPH_PICKER_DONE: done,
      CARTOGRAPH_PICKER_ROUNDS: String(rounds),
      // --profile: what the page's main thread ran during each long frame (pickerDriver.mjs)
      ...(values.profile ? { CARTOGRAPH_PICKER_PROFILE: '1' } : {}),
      // the largest source file, open in the editor as the pickers are used
      CARTOGRAPH_PICKER_FILE: 'src/v4/classic/schemas.ts',
    },
  });
  fs.rmSync(done, { force: true });
  const hostTimeline = fs.existsSync(`${done}.host.json`) ? JSON.parse(fs.readFileSync(`${done}.host.json`, 'utf8')) : [];
  fs.rmSync(`${done}.host.json`, { force: true });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('CARTOGRAPH_PICKER '));
  if (!line) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    throw new Error(`the picker benchmark printed no figures (exit ${r.status})`);
  }
  const figures = JSON.parse(line.slice('CARTOGRAPH_PICKER '.length));
  for (const f of figures.results) Object.assign(f, hostDuring(hostTimeline, f.window));
  console.log(`the extension host quiet (its background embedding done) ${figures.hostSettledMs} ms after the index and tsserver were ready`);
  console.log(`zod@4.6.7: chord to a focused box (${figures.chords[0]?.opens.length} opens each), and ${figures.chords[0]?.typed} keys typed one every ${figures.keyDelayMs} ms from ${figures.keyDelayMs} ms after the chord`);
  console.log('| picker | chord to focused box p50 | p95 | keys lost | editor tabs changed |');
  console.log('|---|---|---|---|---|');
  for (const c of figures.chords) console.log(`| ${c.picker} | ${c.openP50Ms} ms | ${c.openP95Ms} ms${c.opensMissed ? ` (${c.opensMissed} never focused)` : ''} | ${c.keysLost} of ${c.typed} | ${c.dirtyTabs} |`);
  console.log(`\nzod@4.6.7, one key every ${figures.keyDelayMs} ms; settled: the list unchanged for ${figures.quietMs} ms`);
  console.log('| round | query | picker | typing | answer after last key | settled | frames > 100 ms | longest frame | rows | page main thread | host CPU | host longest block |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const f of figures.results) {
    console.log(`| ${f.round} | ${f.query} (${f.query.length}) | ${f.picker} | ${(f.typedMs / 1000).toFixed(2)} s | ${f.answerMs === null ? '–' : `${f.answerMs} ms`} | ${(f.settleMs / 1000).toFixed(2)} s | ${f.framesOver100ms} | ${f.longestFrameMs} ms | ${f.rows}${f.typedValueOk ? '' : ' (keys lost)'} | ${f.pageMainThreadMs.task} ms | ${f.hostCpuMs} ms | ${f.hostLongestBlockMs} ms |`);
  }
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ command: `npm run bench:extension -- --picker --runs ${rounds}${values.profile ? " --profile" : ""}`, date: new Date().toISOString(), load: os.loadavg(), ...figures }, null, 1)}\n`);
}

/**
 * The extension host's CPU time (its thread and its workers) within a picker's window, from the
 * host's 20 ms samples, and its longest gap between two samples (a busy host thread delays its timer).
 */
function hostDuring(timeline, [from, to]) {
  const inside = timeline.filter(([t]) => t >= from && t <= to);
  if (inside.length < 2) return { hostCpuMs: NaN, hostLongestBlockMs: NaN };
  let longest = 0;
  for (let i = 1; i < inside.length; i++) longest = Math.max(longest, inside[i][0] - inside[i - 1][0] - 20);
  return { hostCpuMs: Math.round(inside[inside.length - 1][1] - inside[0][1]), hostLongestBlockMs: longest };
}
