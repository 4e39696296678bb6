// `node --import tsx bench/rust-parse-bench.ts [--corpus tokio] [--json FILE]`: how fast Rust files
// are parsed and extracted, single-threaded, against a native Rust parser in the same run:
// `rustfmt --check` over the same files (parses each file and every out-of-line module it
// declares, then formats: more work than parsing alone, and it visits some files twice, which the
// table counts). Both take the median of 3 rounds after a warm-up. The corpus comes from
// bench/fetch-corpora.sh (CORPORA_DIR as there).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { extractFile } from '../src/core/parse/extract';
import { ParserPool } from '../src/core/parse/parser';

const { values } = parseArgs({ options: { json: { type: 'string' }, corpus: { type: 'string' }, rounds: { type: 'string' } } });
const CORPORA = process.env.CORPORA_DIR ?? path.join(__dirname, '.corpora');
const root = path.join(CORPORA, values.corpus ?? 'tokio');
const ROUNDS = Number(values.rounds ?? 3);

function rustFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== 'target' && entry.name !== 'debian') out.push(...rustFiles(dir, child));
    else if (entry.isFile() && entry.name.endsWith('.rs')) out.push(child);
  }
  return out.sort();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  if (!fs.existsSync(root)) throw new Error(`no corpus at ${root}: run bash bench/fetch-corpora.sh`);
  const files = rustFiles(root);
  const texts = files.map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
  const lines = texts.reduce((n, t) => n + t.split('\n').length, 0);
  const pool = new ParserPool();
  const parser = await pool.parser('rust');
  const parseOnly: number[] = [];
  const extract: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    let t = performance.now();
    for (const text of texts) parser.parse(text)!.delete();
    const p = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < files.length; i++) await extractFile(pool, files[i], 'rust', texts[i]);
    const e = performance.now() - t;
    if (round > 0) {
      parseOnly.push(p);
      extract.push(e);
    }
  }

  // rustfmt takes the file list on its command line; -v names every file it formats.
  const probe = spawnSync('rustfmt', ['--version'], { encoding: 'utf8' });
  let rustfmt: { version: string; ms: number; visits: number; exitCode: number | null } | null = null;
  if (probe.status === 0) {
    const args = ['--check', '--edition', '2021', '-v', ...files];
    const runs: number[] = [];
    let visits = 0;
    let exitCode: number | null = null;
    for (let round = 0; round <= ROUNDS; round++) {
      const t = performance.now();
      const run = spawnSync('rustfmt', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
      if (round > 0) runs.push(performance.now() - t);
      visits = (run.stdout.match(/^Formatting /gm) ?? []).length;
      exitCode = run.status;
    }
    rustfmt = { version: probe.stdout.trim(), ms: Math.round(median(runs)), visits, exitCode };
  }

  const result = {
    corpus: path.basename(root),
    files: files.length,
    lines,
    treeSitterParseMs: Math.round(median(parseOnly)),
    parseAndExtractMs: Math.round(median(extract)),
    rustfmt,
  };
  const rate = (ms: number) => `${Math.round(lines / (ms / 1000)).toLocaleString('en-US')} lines/s`;
  console.log([
    `| ${result.corpus}: ${files.length} files, ${lines} lines | median of ${ROUNDS}, one thread |`,
    '|---|---|',
    `| tree-sitter parse only (web-tree-sitter, WASM) | ${result.treeSitterParseMs} ms (${rate(result.treeSitterParseMs)}) |`,
    `| parse + extract (FileGraph per file) | ${result.parseAndExtractMs} ms (${rate(result.parseAndExtractMs)}) |`,
    rustfmt
      ? `| \`rustfmt --check\` (${rustfmt.version}; parse + format, ${rustfmt.visits} file visits, exit ${rustfmt.exitCode}) | ${rustfmt.ms} ms (${rate(rustfmt.ms)}) |`
      : '| rustfmt | not installed |',
  ].join('\n'));
  console.log(`\n(node ${process.version}, ${os.cpus().length} cores)`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, results: [result] }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
