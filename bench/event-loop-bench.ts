// `npx tsx bench/event-loop-bench.ts [--corpus django] [--reindexes N] [--json FILE]`: how long the
// engine holds the event loop while it opens and indexes a repository in-process, as the VS Code
// extension host runs it (bench/loopGaps.ts measures the gaps), and the longest garbage-collection
// pause in each run (what V8 does on this thread, as opposed to what our code does). `--reindexes N`
// repeats the cold Reindex of the extension (previous engine closed, store deleted, index again) N
// times in the same process: the pause that run hits depends on where V8's major GCs fall.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { withLoopGaps } from './loopGaps';

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'django' }, reindexes: { type: 'string', default: '3' }, json: { type: 'string' } } });
const root = path.join(__dirname, '.corpora', values.corpus!);

/** The longest GC pause since the last call, and whether it was a major (mark-compact) one. */
function gcPauses() {
  let longest = { ms: 0, major: false };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > longest.ms) longest = { ms: entry.duration, major: (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR };
    }
  }).observe({ entryTypes: ['gc'] });
  return () => {
    const out = { longestGcMs: Math.round(longest.ms), longestGcMajor: longest.major };
    longest = { ms: 0, major: false };
    return out;
  };
}

async function main() {
  if (!fs.existsSync(root)) throw new Error(`${root} is missing: run bash bench/fetch-corpora.sh`);
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-loop-'));
  const gc = gcPauses();
  const rows: Array<{ label: string; wallMs: number; longestBlockMs: number; over50ms: number; p99BlockMs: number; longestGcMs: number; longestGcMajor: boolean }> = [];
  const measure = async (label: string, work: () => Promise<void>) => {
    gc();
    // The gc observer reports after the work's last turn: give it one.
    const { result: _, ...gaps } = await withLoopGaps(work);
    await new Promise((resolve) => setImmediate(resolve));
    rows.push({ label, ...gaps, ...gc() });
  };
  try {
    let engine: Engine | undefined;
    await measure('cold: open + full index', async () => {
      engine = await Engine.open(root, { storeDir });
      await engine.index();
    });
    for (let i = 1; i <= Number(values.reindexes); i++) {
      await engine!.close();
      engine = undefined;
      fs.rmSync(storeDir, { recursive: true, force: true });
      await measure(`cold Reindex ${i} (engine closed, store deleted)`, async () => {
        engine = await Engine.open(root, { storeDir });
        await engine.index();
      });
    }
    await engine!.close();
    await measure('warm: open + index, nothing changed', async () => {
      const warm = await Engine.open(root, { storeDir });
      await warm.index();
      await warm.close();
    });
    console.log(`| ${values.corpus} | wall | longest block | blocks > 50 ms | p99 block | longest GC pause |\n|---|---|---|---|---|---|`);
    for (const r of rows) console.log(`| ${r.label} | ${(r.wallMs / 1000).toFixed(2)} s | ${r.longestBlockMs} ms | ${r.over50ms} | ${r.p99BlockMs} ms | ${r.longestGcMs} ms${r.longestGcMajor ? ' (major)' : ''} |`);
    if (values.json) fs.writeFileSync(values.json, JSON.stringify({ corpus: values.corpus, rows }, null, 2));
  } finally {
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
