// `npx tsx bench/event-loop-bench.ts [--corpus django] [--json FILE]`: how long the engine holds the
// event loop while it opens and indexes a repository in-process, as the VS Code extension host runs
// it. A 5 ms interval timer measures the gaps; the longest gap minus 5 ms is the longest block.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'django' }, json: { type: 'string' } } });
const root = path.join(__dirname, '.corpora', values.corpus!);

async function measure(label: string, work: () => Promise<void>) {
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  clearInterval(timer);
  gaps.sort((a, b) => b - a);
  const blocks = gaps.map((g) => Math.max(0, g - 5));
  return { label, wallMs: Math.round(wallMs), longestBlockMs: Math.round(blocks[0] ?? 0), over50ms: blocks.filter((b) => b > 50).length, p99BlockMs: Math.round(blocks[Math.floor(blocks.length / 100)] ?? 0) };
}

async function main() {
  if (!fs.existsSync(root)) throw new Error(`${root} is missing: run bash bench/fetch-corpora.sh`);
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-loop-'));
  try {
    const rows = [];
    rows.push(await measure('cold: open + full index', async () => {
      const engine = await Engine.open(root, { storeDir });
      await engine.index();
      await engine.close();
    }));
    rows.push(await measure('warm: open + index, nothing changed', async () => {
      const engine = await Engine.open(root, { storeDir });
      await engine.index();
      await engine.close();
    }));
    console.log(`| ${values.corpus} | wall | longest block | blocks > 50 ms | p99 block |\n|---|---|---|---|---|`);
    for (const r of rows) console.log(`| ${r.label} | ${(r.wallMs / 1000).toFixed(2)} s | ${r.longestBlockMs} ms | ${r.over50ms} | ${r.p99BlockMs} ms |`);
    if (values.json) fs.writeFileSync(values.json, JSON.stringify({ corpus: values.corpus, rows }, null, 2));
  } finally {
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
