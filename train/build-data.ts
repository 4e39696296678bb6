// `npm run train:data`: the training pairs for Cartograph's code-search model, from the sources in
// train/manifest.json. Steps: fetch (apt/npm, cached) -> license check -> Cartograph's extractor ->
// (docstring summary, stripped code + qualified name + signature) -> filters -> exact dedupe ->
// near-duplicate dedupe -> removal of near-duplicates of evaluation functions -> split by package ->
// train.jsonl.gz / validation.jsonl.gz + a report (printed, and JSON with --json FILE).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import * as zlib from 'node:zlib';
import type { Language } from '../src/core/model/schema';
import { ParserPool } from '../src/core/parse/parser';
import { summarise, trivialReason } from './data/docstrings';
import { evaluationReason, type SourceKind } from './data/exclusions';
import { functionsOf } from './data/pairs';
import { unpack, type Source } from './data/sources';
import { validationPackages } from './data/split';

interface ManifestSource extends Source { license?: string; why: string }
interface Manifest { seed: string; validationShare: number; training: ManifestSource[]; evaluation: ManifestSource[] }

export interface Pair {
  package: string;
  language: 'python' | 'typescript';
  path: string;
  qname: string;
  kind: string;
  signature: string;
  /** First sentence of the docstring: the query side. */
  query: string;
  /** First paragraph of the docstring (longer natural-language side, optional for training). */
  doc: string;
  /** The definition's code, docstrings removed. */
  code: string;
  /** normalise.ts hash of the code. */
  codeHash: string;
}

const { values } = parseArgs({
  options: {
    manifest: { type: 'string', default: path.join(__dirname, 'manifest.json') },
    out: { type: 'string', default: path.join(__dirname, '.data') },
    json: { type: 'string' },
    only: { type: 'string', multiple: true },
    'licenses-only': { type: 'boolean', default: false },
  },
});

const manifest = JSON.parse(fs.readFileSync(values.manifest!, 'utf8')) as Manifest;
const outDir = values.out!;
const cache = path.join(outDir, 'cache');
const pool = new ParserPool();
const languageFamily = (l: Language): Pair['language'] => (l === 'python' ? 'python' : 'typescript');
const bump = (m: Record<string, number>, k: string, n = 1) => { m[k] = (m[k] ?? 0) + n; };
const t0 = Date.now();

function log(line: string) {
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0)}s] ${line}\n`);
}

/** A source file's text, or null for a dangling symlink (Debian links shared files across packages). */
function readSource(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Refuse a manifest that lists evaluation code for training, or mislabels the evaluation list. */
function checkManifest() {
  for (const s of manifest.training) {
    const reason = evaluationReason(s);
    if (reason) throw new Error(`train/manifest.json lists ${s.kind}:${s.name} for training, but it is evaluation code: ${reason}`);
  }
  for (const s of manifest.evaluation) {
    if (!evaluationReason(s)) throw new Error(`train/manifest.json lists ${s.kind}:${s.name} as evaluation, but no exclusion rule (train/data/exclusions.ts) holds it out`);
  }
  for (const s of [...manifest.training, ...manifest.evaluation]) {
    if (s.licenseScope !== undefined && (s.kind !== 'debian' || !['package', 'files'].includes(s.licenseScope))) {
      throw new Error(`train/manifest.json: ${s.kind}:${s.name} has licenseScope "${s.licenseScope}"; only Debian sources take "package" or "files"`);
    }
  }
}

async function evaluationHashes(): Promise<{ hashes: Set<string>; perSource: Record<string, number> }> {
  const key = createHash('sha1').update(JSON.stringify(manifest.evaluation.map((s) => [s.kind, s.name, s.version]))).digest('hex').slice(0, 12);
  const file = path.join(outDir, `eval-hashes-${key}.json`);
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { hashes: string[]; perSource: Record<string, number> };
    return { hashes: new Set(saved.hashes), perSource: saved.perSource };
  }
  const hashes = new Set<string>();
  const perSource: Record<string, number> = {};
  for (const s of manifest.evaluation) {
    // All of the package's code, tests and vendored files included: a copy of any of it in training is a leak.
    const u = unpack(s, cache, { allFiles: true });
    let n = 0;
    for (const f of u.files) {
      const text = readSource(path.join(u.root, f.rel));
      if (text === null) continue;
      for (const fn of await functionsOf(pool, f.rel, f.language, text)) {
        hashes.add(fn.hash);
        n++;
      }
    }
    perSource[`${s.kind}:${s.name}`] = n;
    log(`evaluation ${s.name} ${s.version}: ${u.files.length} files, ${n} functions hashed`);
  }
  fs.writeFileSync(file, JSON.stringify({ hashes: [...hashes].sort(), perSource }));
  return { hashes, perSource };
}

interface SourceReport {
  name: string; kind: SourceKind; version: string; language: string; license: string[]; accepted: boolean; reason?: string;
  files: number; functions: number; documented: number; kept: number; removedAsEvaluation?: number; split?: string;
  /** Per-file license reading: library files left out, and the licenses that left them out. */
  refusedByLicense?: { files: number; licenses: string[]; paths: string[] };
}

async function main() {
  checkManifest();
  fs.mkdirSync(outDir, { recursive: true });
  const only = values.only?.length ? new Set(values.only) : null;
  const training = manifest.training.filter((s) => !only || only.has(s.name));
  const sources: SourceReport[] = [];

  if (values['licenses-only']) {
    for (const s of [...training]) {
      const u = unpack(s, cache);
      console.log(JSON.stringify({ kind: s.kind, name: s.name, version: s.version, ...u.license, files: u.files.length, refusedByLicense: u.refusedByLicense }));
    }
    return;
  }

  const evaluation = await evaluationHashes();
  const steps: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const pairs: Pair[] = [];
  for (const s of training) {
    const u = unpack(s, cache);
    const language = s.kind === 'debian' ? 'python' : 'typescript';
    const report: SourceReport = { name: s.name, kind: s.kind, version: s.version, language, license: u.license.licenses, accepted: u.license.ok, files: u.files.length, functions: 0, documented: 0, kept: 0 };
    if (u.refusedByLicense) report.refusedByLicense = { files: u.refusedByLicense.files.length, licenses: u.refusedByLicense.licenses, paths: u.refusedByLicense.files };
    sources.push(report);
    if (!u.license.ok) {
      report.reason = u.license.reason;
      log(`skip ${s.name}: ${u.license.reason}`);
      continue;
    }
    if (s.license !== undefined && u.license.licenses.join(' and ') !== s.license) {
      throw new Error(`${s.name} ${s.version}: the manifest says license "${s.license}", the package says "${u.license.licenses.join(' and ')}": review and update train/manifest.json`);
    }
    for (const f of u.files) {
      const text = readSource(path.join(u.root, f.rel));
      if (text === null) continue;
      const functions = await functionsOf(pool, f.rel, f.language, text);
      for (const fn of functions) {
        report.functions++;
        if (!fn.doc) continue;
        report.documented++;
        const { sentence, paragraph } = summarise(fn.doc);
        const trivial = trivialReason(sentence);
        if (trivial) {
          bump(dropped, `docstring ${trivial}`);
          continue;
        }
        report.kept++;
        pairs.push({
          package: s.name, language: languageFamily(f.language), path: f.rel, qname: fn.symbol.localId.replace(/@\d+$/, ''), kind: fn.symbol.kind,
          signature: fn.symbol.signature, query: sentence, doc: paragraph, code: fn.code, codeHash: fn.hash,
        });
      }
    }
    log(`${s.name} ${s.version}: ${report.files} files, ${report.functions} functions, ${report.documented} documented, ${report.kept} kept`);
  }
  const accepted = sources.filter((s) => s.accepted);
  steps['functions seen'] = accepted.reduce((a, s) => a + s.functions, 0);
  steps['with a docstring'] = accepted.reduce((a, s) => a + s.documented, 0);
  steps['non-trivial docstring'] = pairs.length;

  // Exact duplicates (same query and code), then the same normalised code under another docstring:
  // copies of one function across packages would otherwise straddle the train/validation split.
  const exact = new Set<string>();
  const byCode = new Set<string>();
  const unique: Pair[] = [];
  for (const p of pairs) {
    const k = createHash('sha1').update(`${p.query}\0${p.code}`).digest('hex');
    if (exact.has(k)) { bump(dropped, 'exact duplicate'); continue; }
    exact.add(k);
    if (byCode.has(p.codeHash)) { bump(dropped, 'near-duplicate code'); continue; }
    byCode.add(p.codeHash);
    unique.push(p);
  }
  steps['after exact dedupe'] = pairs.length - (dropped['exact duplicate'] ?? 0);
  steps['after near-duplicate dedupe'] = unique.length;
  const kept: Pair[] = [];
  for (const p of unique) {
    if (!evaluation.hashes.has(p.codeHash)) kept.push(p);
    else {
      const source = sources.find((s) => s.name === p.package)!;
      source.removedAsEvaluation = (source.removedAsEvaluation ?? 0) + 1;
    }
  }
  const removedAsEval = unique.length - kept.length;
  steps['after removing evaluation near-duplicates'] = kept.length;

  const withPairs = accepted.filter((s) => kept.some((p) => p.package === s.name));
  const validation = validationPackages(withPairs.map((s) => ({ name: s.name, language: s.language })), manifest.seed, manifest.validationShare);
  for (const s of sources) if (s.accepted) s.split = validation.has(s.name) ? 'validation' : 'train';
  const split = { train: kept.filter((p) => !validation.has(p.package)), validation: kept.filter((p) => validation.has(p.package)) };
  for (const [name, rows] of Object.entries(split)) {
    fs.writeFileSync(path.join(outDir, `${name}.jsonl.gz`), zlib.gzipSync(rows.map((r) => JSON.stringify(r)).join('\n') + '\n', { level: 9 }));
  }

  const perLanguage: Record<string, { train: number; validation: number }> = {};
  for (const [name, rows] of Object.entries(split) as [keyof typeof split, Pair[]][]) {
    for (const r of rows) (perLanguage[r.language] ??= { train: 0, validation: 0 })[name]++;
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    seed: manifest.seed,
    sources: sources.length,
    acceptedSources: accepted.length,
    refusedSources: sources.filter((s) => !s.accepted).map((s) => ({ name: s.name, reason: s.reason })),
    files: accepted.reduce((a, s) => a + s.files, 0),
    steps,
    dropped,
    evaluation: { functionsHashed: Object.values(evaluation.perSource).reduce((a, b) => a + b, 0), distinctHashes: evaluation.hashes.size, perSource: evaluation.perSource, removedFromTraining: removedAsEval },
    pairs: { total: kept.length, train: split.train.length, validation: split.validation.length, validationShare: kept.length ? split.validation.length / kept.length : 0, validationPackages: [...validation].sort() },
    perLanguage,
    perSource: sources,
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  printReport(report);
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
}

function printReport(r: { [k: string]: unknown } & { steps: Record<string, number>; dropped: Record<string, number>; perLanguage: Record<string, { train: number; validation: number }>; pairs: { total: number; train: number; validation: number; validationShare: number; validationPackages: string[] }; evaluation: { functionsHashed: number; distinctHashes: number; removedFromTraining: number } }) {
  console.log(`sources ${r.acceptedSources}/${r.sources} accepted, ${r.files} files`);
  console.log('\nstep                                         pairs');
  for (const [k, v] of Object.entries(r.steps)) console.log(`${k.padEnd(44)} ${String(v).padStart(8)}`);
  console.log('\ndropped by                                   pairs');
  for (const [k, v] of Object.entries(r.dropped).sort()) console.log(`${k.padEnd(44)} ${String(v).padStart(8)}`);
  console.log(`\nevaluation functions hashed ${r.evaluation.functionsHashed} (${r.evaluation.distinctHashes} distinct); training pairs removed as their near-duplicates: ${r.evaluation.removedFromTraining}`);
  console.log('\nlanguage       train  validation');
  for (const [k, v] of Object.entries(r.perLanguage)) console.log(`${k.padEnd(12)} ${String(v.train).padStart(7)} ${String(v.validation).padStart(11)}`);
  console.log(`\npairs ${r.pairs.total}: train ${r.pairs.train}, validation ${r.pairs.validation} (${(100 * r.pairs.validationShare).toFixed(1)}%, packages ${r.pairs.validationPackages.join(', ')})`);
}

main().catch((e) => {
  console.error(`train:data: ${(e as Error).message}`);
  process.exit(1);
});
