// `npx tsx bench/event-loop-bench.ts [--corpus django] [--json FILE]`: how long the engine holds the
// event loop while it opens and indexes a repository in-process, as the VS Code extension host runs
// it (bench/loopGaps.ts measures the gaps).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { withLoopGaps } from './loopGaps';

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'django' }, json: { type: 'string' } } });
const root = path.join(__dirname, '.corpora', values.corpus!);

async function measure(label: string, work: () => Promise<void>) {
  const { result: _, ...gaps } = await withLoopGaps(work);
  return { label, ...gaps };
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
