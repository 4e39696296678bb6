// `npm run bench:apply -- --corpus DIR [--corpus DIR]... [--edits 200] [--rounds 3] [--json FILE]`:
// what an update costs the repository graph alone, without parsing, workers or LanceDB — the part a
// resolution change moves, measured apart from the parse and store time that dominate bench:index's
// update figures and swing with machine load. Go and Rust trees (a folder with go.mod / Cargo.toml
// files): every file parsed once, the graph built, then the real edits of bench:index (realEdits.ts),
// each parsed up front, applied and undone `rounds` times; CPU time is the process's own.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { RepositoryGraph } from '../src/core/graph/repositoryGraph';
import { extractFile } from '../src/core/parse/extract';
import type { FileGraph } from '../src/core/parse/fileGraph';
import { languageOf } from '../src/core/parse/languages';
import { ParserPool } from '../src/core/parse/parser';
import { isProjectFile, listingOf, projectConfigDirs, projectConfigFrom } from '../src/core/workspace/projectConfig';
import { realGoEdit, realRustEdit } from './realEdits';

const { values } = parseArgs({ options: { corpus: { type: 'string', multiple: true }, edits: { type: 'string' }, rounds: { type: 'string' }, json: { type: 'string' } } });
const EDITS = Number(values.edits ?? 200);
const ROUNDS = Number(values.rounds ?? 3);

/** Go and Rust sources and the project files (go.mod, Cargo.toml) under `root`, repository-relative. */
function readTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), childRel);
      else if (/\.(go|rs)$/.test(entry.name) || isProjectFile(entry.name)) out.set(childRel, fs.readFileSync(path.join(dir, entry.name), 'utf8'));
    }
  };
  walk(root, '');
  return out;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

async function benchCorpus(root: string) {
  const pool = new ParserPool();
  const tree = readTree(root);
  const sources = [...tree.keys()].filter((p) => languageOf(p) === 'go' || languageOf(p) === 'rust').sort();
  const parse = (file: string, text: string): Promise<FileGraph> => extractFile(pool, file, languageOf(file)!, text);
  const graph = new RepositoryGraph(path.basename(root));
  const t0 = performance.now();
  graph.apply({ upsert: await Promise.all(sources.map((p) => parse(p, tree.get(p)!))), config: projectConfigFrom(projectConfigDirs(sources), (rel) => tree.get(rel), listingOf(tree.keys())) });
  const buildMs = performance.now() - t0;
  const edits: Array<[FileGraph, FileGraph]> = [];
  for (let n = 0; n < EDITS; n++) {
    const file = sources[(n * 7919) % sources.length];
    const original = tree.get(file)!;
    edits.push([await parse(file, file.endsWith('.go') ? realGoEdit(original, n) : realRustEdit(original, n)), await parse(file, original)]);
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  const resolved: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [edited, original] of edits) {
      const c = process.cpuUsage();
      const t = performance.now();
      graph.apply({ upsert: [edited] });
      wall.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      resolved.push(graph.lastApply.resolved);
      graph.apply({ upsert: [original] });
    }
  }
  const ms = (v: number) => +v.toFixed(2);
  return {
    corpus: path.basename(root),
    files: sources.length,
    applies: wall.length,
    buildMs: Math.round(buildMs),
    wallP50Ms: ms(percentile(wall, 50)),
    wallP95Ms: ms(percentile(wall, 95)),
    cpuP50Ms: ms(percentile(cpu, 50)),
    cpuP95Ms: ms(percentile(cpu, 95)),
    cpuMeanMs: ms(cpu.reduce((a, b) => a + b, 0) / cpu.length),
    filesResolvedMax: Math.max(...resolved),
  };
}

async function main() {
  const corpora = values.corpus ?? [];
  if (corpora.length === 0) throw new Error('give at least one --corpus DIR (a Go or Rust tree)');
  const results = [];
  for (const corpus of corpora) results.push(await benchCorpus(path.resolve(corpus)));
  console.log('| corpus | files | build | apply wall p50 / p95 | apply CPU p50 / p95 / mean | files re-resolved (max) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.corpus} | ${r.files} | ${(r.buildMs / 1000).toFixed(2)} s | ${r.wallP50Ms} / ${r.wallP95Ms} ms | ${r.cpuP50Ms} / ${r.cpuP95Ms} / ${r.cpuMeanMs} ms | ${r.filesResolvedMax} |`);
  console.log(`\n(node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${EDITS} edits × ${ROUNDS} rounds)`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
