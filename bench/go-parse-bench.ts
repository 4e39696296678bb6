// `npx tsx bench/go-parse-bench.ts DIR [--gofmt PATH] [--json FILE]`: Go stage 1 on its own, against
// Go's own parser. Every `.go` file under DIR is parsed and extracted in this process, one file after
// another (wall and CPU time, lines/s, nodes by kind, files with syntax errors, generated files);
// with `--gofmt`, `gofmt -l DIR` (which parses every file and prints it back) is timed over the same
// tree (wall and user+sys CPU from /usr/bin/time). CPU time is the figure to compare on a loaded
// machine; gofmt also runs files concurrently on every core, this loop on one.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { extractFile } from '../src/core/parse/extract';
import { ParserPool } from '../src/core/parse/parser';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { gofmt: { type: 'string' }, json: { type: 'string' } } });
const root = positionals[0];
if (!root || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: npx tsx bench/go-parse-bench.ts DIR [--gofmt PATH] [--json FILE]');
  process.exit(2);
}

function goFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) goFiles(p, out);
    else if (entry.isFile() && entry.name.endsWith('.go')) out.push(p);
  }
  return out;
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function cartograph(files: string[]) {
  const pool = new ParserPool();
  await pool.parser('go'); // load the grammar outside the timing
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  const kinds: Record<string, number> = {};
  let lines = 0;
  let refs = 0;
  let withErrors = 0;
  let generated = 0;
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  for (let i = 0; i < files.length; i++) {
    const g = await extractFile(pool, path.relative(root, files[i]), 'go', texts[i]);
    lines += g.lines;
    refs += g.refs.length;
    if (g.syntaxErrors > 0) withErrors++;
    if (g.generated) generated++;
    for (const s of g.symbols) kinds[s.kind] = (kinds[s.kind] ?? 0) + 1;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = cpuSeconds() - cpu0;
  return { files: files.length, lines, wallS: +wallS.toFixed(2), cpuS: +cpuS.toFixed(2), linesPerCpuS: Math.round(lines / cpuS), symbols: kinds, refs, filesWithSyntaxErrors: withErrors, generatedFiles: generated };
}

function gofmt(binary: string) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', binary, '-l', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const last = run.stderr.trim().split('\n').pop() ?? '';
  const [wall, user, sys, rssKB] = last.split(' ').map(Number);
  const parseErrors = run.stderr.split('\n').filter((l) => l.includes('.go:')).length;
  return { wallS: wall, cpuS: +(user + sys).toFixed(2), peakRssMB: Math.round(rssKB / 1024), filesListed: run.stdout.split('\n').filter(Boolean).length, filesWithParseErrors: parseErrors };
}

async function main() {
  const files = goFiles(root).sort();
  const load = os.loadavg()[0];
  const ours = await cartograph(files);
  const theirs = values.gofmt ? gofmt(values.gofmt) : undefined;
  const rows = [
    '| | Cartograph stage 1 (tree-sitter-go + go.ts, 1 thread) | gofmt -l |',
    '|---|---|---|',
    `| files / lines | ${ours.files} / ${ours.lines} | same tree |`,
    `| wall | ${ours.wallS} s | ${theirs ? `${theirs.wallS} s` : '-'} |`,
    `| CPU (user + sys) | ${ours.cpuS} s (${ours.linesPerCpuS} lines/s) | ${theirs ? `${theirs.cpuS} s (${Math.round(ours.lines / theirs.cpuS)} lines/s)` : '-'} |`,
    `| files with syntax errors | ${ours.filesWithSyntaxErrors} (kept what tree-sitter recovered) | ${theirs ? theirs.filesWithParseErrors : '-'} (gofmt reports and skips them) |`,
    `| definitions | ${Object.entries(ours.symbols).map(([k, n]) => `${k} ${n}`).join(', ')}; ${ours.refs} references; ${ours.generatedFiles} generated files | |`,
  ];
  console.log(rows.join('\n'));
  console.log(`\n(node ${process.version}, ${os.cpus().length} cores, load average ${load.toFixed(1)} at start)`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, loadAverage: load, root: path.basename(root), cartograph: ours, gofmt: theirs }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
