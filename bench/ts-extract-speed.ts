// Extraction speed of the TypeScript/JavaScript extractor on a real package (rxjs@7.8.1 by default):
// parse and extract every source file five times, then print per-file timings (each file's best round).
//   npx tsx bench/ts-extract-speed.ts [npm-spec] [subdir] [--all]   (--all lists every file)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParserPool } from '../src/core/parse/parser';
import { languageOf } from '../src/core/parse/languages';
import { extractTypeScript } from '../src/core/parse/typescript';
import { filesUnder, packedPackage } from '../test/unit/npmPackCache';

interface Timing {
  file: string;
  lines: number;
  parseMs: number;
  extractMs: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const listAll = process.argv.includes('--all');
  const spec = args[0] ?? 'rxjs@7.8.1';
  const sub = args[1] ?? 'src';
  const pkg = packedPackage(spec);
  if ('skip' in pkg) {
    console.log(`skipped: ${pkg.skip}`);
    return;
  }
  const root = path.join(pkg.dir, sub);
  const files = filesUnder(root, /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/);
  const sources = files.map((file) => ({ file, language: languageOf(file)!, text: fs.readFileSync(file, 'utf8') }));
  const pool = new ParserPool();
  // Five rounds; each file keeps its fastest round, which discounts GC pauses and a busy machine.
  const timings: Timing[] = sources.map(({ file, text }) => ({ file: path.relative(root, file), lines: text.split('\n').length, parseMs: Infinity, extractMs: Infinity }));
  let lastRoundMs = 0;
  for (let round = 0; round < 5; round++) {
    lastRoundMs = 0;
    for (let i = 0; i < sources.length; i++) {
      const { file, language, text } = sources[i];
      const parser = await pool.parser(language);
      const t0 = performance.now();
      const tree = parser.parse(text)!;
      const t1 = performance.now();
      extractTypeScript(tree.rootNode, file, language);
      const t2 = performance.now();
      tree.delete();
      timings[i].parseMs = Math.min(timings[i].parseMs, t1 - t0);
      timings[i].extractMs = Math.min(timings[i].extractMs, t2 - t1);
      lastRoundMs += t2 - t1;
    }
  }
  const extract = timings.map((t) => t.extractMs).sort((a, b) => a - b);
  const total = extract.reduce((a, b) => a + b, 0);
  const parse = timings.reduce((a, t) => a + t.parseMs, 0);
  const lines = timings.reduce((a, t) => a + t.lines, 0);
  console.log(`${spec} ${sub}/: ${timings.length} files, ${lines} lines; per-file best of 5 rounds`);
  console.log(`parse   total ${parse.toFixed(1)} ms`);
  console.log(`extract total ${total.toFixed(1)} ms (last round as measured: ${lastRoundMs.toFixed(1)} ms)`);
  console.log(`extract per file: mean ${(total / timings.length).toFixed(3)} ms, median ${quantile(extract, 0.5).toFixed(3)} ms, p95 ${quantile(extract, 0.95).toFixed(3)} ms, max ${extract[extract.length - 1].toFixed(3)} ms`);
  console.log(`extract per 500 lines: ${((total / lines) * 500).toFixed(3)} ms`);
  console.log(listAll ? 'all files, slowest first:' : 'slowest files:');
  for (const t of [...timings].sort((a, b) => b.extractMs - a.extractMs).slice(0, listAll ? undefined : 5)) {
    console.log(`  ${t.extractMs.toFixed(2)} ms  ${String(t.lines).padStart(5)} lines  ${t.file}`);
  }
}

void main();
