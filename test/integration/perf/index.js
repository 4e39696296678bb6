// Measurement (not part of `npm test`): inside the real extension host, opened on one big folder
// (Django), time open→ready cold (no store) and warm (store present) and the longest event-loop
// block while indexing. Run: CARTOGRAPH_E2E_FOLDER=bench/.corpora/django \
//   CARTOGRAPH_E2E_TESTS=test/integration/perf/index.js node scripts/test-integration.mjs
// With CARTOGRAPH_PERF_PROFILE=1 each scenario's three longest blocks also say what ran (profile.js).
const fs = require('fs');
const path = require('path');
const { PerformanceObserver, constants, monitorEventLoopDelay } = require('perf_hooks');
const vscode = require('vscode');
const { startProfile } = require('./profile');

async function probe(api) {
  const profiled = process.env.CARTOGRAPH_PERF_PROFILE === '1' ? await startProfile() : undefined;
  const slow = [];
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // GC pauses of the whole extension host (every extension's heap, not only ours), to tell a long
  // block that is V8 collecting garbage from one that is our code.
  let longestGc = { ms: 0, kind: '', phase: '' };
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration <= longestGc.ms) continue;
      const kind = entry.detail && entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'minor/incremental';
      longestGc = { ms: Math.round(entry.duration), kind, phase };
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  let phase = 'start';
  const sub = api.onDidChangeState((i) => (phase = i.state.kind === 'indexing' ? i.state.phase : i.state.kind));
  let last = performance.now();
  let longest = { ms: 0, phase: '' };
  const blocks = [];
  // A late timer means the thread ran something else for that long, or was not given a core at all
  // (2 cores shared with Chromium, code-server and the parse workers). Linux's per-thread scheduler
  // statistics tell them apart: time on a CPU and time waiting for one, between two ticks.
  let sched = schedstat();
  let longestOnCpu = { ms: 0, phase: '' };
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = now - last - 5;
    const next = schedstat();
    const onCpuMs = next && sched ? (next.runNs - sched.runNs) / 1e6 : NaN;
    const waitingMs = next && sched ? (next.waitNs - sched.waitNs) / 1e6 : NaN;
    sched = next;
    if (lag > longest.ms) longest = { ms: Math.round(lag), phase, onCpuMs: Math.round(onCpuMs), waitingForCpuMs: Math.round(waitingMs) };
    if (onCpuMs > longestOnCpu.ms) longestOnCpu = { ms: Math.round(onCpuMs), phase };
    if (lag > 50) blocks.push({ ms: Math.round(lag), phase, onCpuMs: Math.round(onCpuMs), waitingForCpuMs: Math.round(waitingMs) });
    if (profiled && lag > 20) slow.push({ ms: Math.round(lag), phase, endUs: Number(process.hrtime.bigint() / 1000n) });
    last = now;
  }, 5);
  return async () => {
    clearInterval(timer);
    sub.dispose();
    histogram.disable();
    gc.disconnect();
    const profiledBlocks = profiled ? await profiled(slow.sort((a, b) => b.ms - a.ms).slice(0, 3)) : undefined;
    return { profiledBlocks, longestBlockMs: longest.ms, longestBlockPhase: longest.phase, longestBlock: longest, longestOnCpu, longestGcPause: longestGc, blocksOver50ms: blocks.length, blocks: blocks.slice(0, 30), histogramMaxMs: Math.round(histogram.max / 1e6), p99Ms: Math.round(histogram.percentile(99) / 1e6) };
  };
}

/** This thread's time on a CPU and waiting for one (ns), from /proc; null where there is no such file. */
function schedstat() {
  try {
    const [runNs, waitNs] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { runNs, waitNs };
  } catch {
    return null;
  }
}

async function until(predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

exports.run = async function run() {
  const results = {};
  const extension = vscode.extensions.getExtension('cartograph.cartograph');
  const api = await extension.activate();
  const index = api.indexes()[0];
  // 1. the index that activation started (fresh user-data-dir: no store, cold)
  let stop = await probe(api);
  let t = performance.now();
  await until(() => index.state.kind === 'ready' || index.state.kind === 'error', 600000);
  results.activation = { sinceTestStartMs: Math.round(performance.now() - t), report: index.lastReport && index.lastReport.timings, ...(await stop()) };
  results.counts = index.state;
  // 2. cold: store deleted, Reindex (engine re-open + full parse)
  const repository = () => index.repository;
  const storeDir = (await repository().stats()).store.dir;
  await repository().flush();
  stop = await probe(api);
  fs.rmSync(storeDir, { recursive: true, force: true });
  t = performance.now();
  await vscode.commands.executeCommand('cartograph.reindex');
  results.cold = { openToReadyMs: Math.round(performance.now() - t), parsed: index.lastReport.parsed, timings: index.lastReport.timings, ...(await stop()) };
  // 3. warm: store present, Reindex (engine re-open from LanceDB, nothing re-parsed)
  stop = await probe(api);
  t = performance.now();
  await vscode.commands.executeCommand('cartograph.reindex');
  results.warm = { openToReadyMs: Math.round(performance.now() - t), parsed: index.lastReport.parsed, reused: index.lastReport.reused, timings: index.lastReport.timings, ...(await stop()) };
  // 4. editing: saves of a large module every 250 ms for ~10 s, with the index ready (the graph live
  // in the heap, as while someone works). The engine gets the buffer's text, as on a save, so the
  // corpus on disk is never changed.
  const file = path.join(index.root, 'db', 'models', 'base.py');
  const original = fs.readFileSync(file, 'utf8');
  stop = await probe(api);
  t = performance.now();
  try {
    for (let i = 0; i < 40; i++) {
      await repository().updateFile(file, i % 2 === 0 ? `# edit ${i}\n${original}` : original);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await repository().updateFile(file, original);
  }
  results.editing = { saves: 40, wallMs: Math.round(performance.now() - t), ...(await stop()) };
  results.store = (await repository().stats()).store;
  results.storeBytes = await repository().storeSize();
  console.log(`CARTOGRAPH_PERF ${JSON.stringify(results)}`);
  console.log('1 passed, 0 failed');
};
