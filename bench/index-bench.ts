// `npm run bench:index [-- --json FILE] [--corpus NAME]...`: structural indexing on real code.
// Per corpus: files, lines, nodes and edges by kind; cold full index wall time and files/s; peak RSS;
// store size; internal import resolution rate; single-file update latency over 200 real edits
// (graph only, and graph + store); warm start with nothing changed. Corpora come from
// bench/fetch-corpora.sh (run automatically when missing). Java corpora (`--corpus gson`,
// `--corpus jdk17-util`, from bench/fetch-java-corpora.sh) are also parsed by javac stopped after
// parsing, in the same run, when a JDK is installed: the native parser's time for the same files.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { resultsPerCorpus } from './isolated';
import { realEdit, realGoEdit, realRustEdit } from './realEdits';

// CORPORA_DIR: the same override bench/fetch-corpora.sh takes.
const CORPORA = process.env.CORPORA_DIR ?? path.join(__dirname, '.corpora');
const { values } = parseArgs({ options: { json: { type: 'string' }, corpus: { type: 'string', multiple: true }, edits: { type: 'string' }, child: { type: 'boolean' } } });
const corpora = values.corpus ?? ['django', 'effect'];
const EDITS = Number(values.edits ?? 200);

/** A corpus is a folder of bench/.corpora, or an absolute path (a tree unpacked elsewhere, e.g. Go's sources from Debian). */
function corpusRoot(name: string): string {
  return path.isAbsolute(name) ? name : path.join(CORPORA, name);
}

/** Java corpora (gson, jdk17-util) come from their own script. */
const JAVA_CORPORA = new Set(['gson', 'jdk17-util']);

function ensureCorpora(): void {
  const missing = corpora.filter((c) => !fs.existsSync(corpusRoot(c)));
  if (missing.some((c) => !JAVA_CORPORA.has(c))) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  if (missing.some((c) => JAVA_CORPORA.has(c))) execFileSync('bash', [path.join(__dirname, 'fetch-java-corpora.sh')], { stdio: 'inherit' });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Java: a statement in a method body, a method added to the first type, a method renamed. */
function realJavaEdit(text: string, n: number): string {
  const lines = text.split('\n');
  const methods = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s+(?:(?:public|private|protected|static|final|synchronized)\s+)*[\w<>[\], ?]+\s+[a-z]\w*\([^;]*\)[^;]*\{\s*$/.test(l));
  const kind = n % 3;
  if (kind === 0 && methods.length) {
    const [line, i] = methods[n % methods.length];
    lines.splice(i + 1, 0, `${/^\s*/.exec(line)![0]}  int bench_${n} = ${n};`);
    return lines.join('\n');
  }
  const end = text.lastIndexOf('\n}');
  if ((kind === 1 || !methods.length) && end >= 0) return `${text.slice(0, end)}\n  static int benchAdded${n}(int value) {\n    return value;\n  }${text.slice(end)}`;
  const name = methods.length ? /([a-z]\w*)\(/.exec(methods[n % methods.length][0])?.[1] : undefined;
  return name ? text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}B${n}`) : text;
}

/** `javac` stopped after its parser over every .java file of the corpus: wall ms, or null without a JDK. */
function javacParseMs(root: string): { tool: string; ms: number } | null {
  const files = execFileSync('find', [root, '-name', '*.java', '-type', 'f'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  if (files.length === 0) return null;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-javac-'));
  try {
    const version = execFileSync('javac', ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    fs.writeFileSync(path.join(tmp, 'files'), files.join('\n'));
    const t = performance.now();
    // Hidden javac options: stop after PARSE whether or not it found errors (no symbol entry, no attribution).
    execFileSync('javac', ['--should-stop=ifError=PARSE', '--should-stop=ifNoError=PARSE', '-proc:none', '-nowarn', '-d', path.join(tmp, 'out'), `@${path.join(tmp, 'files')}`], { stdio: 'ignore' });
    return { tool: `${version} (parse only)`, ms: Math.round(performance.now() - t) };
  } catch {
    return null;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function benchCorpus(name: string) {
  const root = corpusRoot(name);
  const nativeParse = JAVA_CORPORA.has(name) ? javacParseMs(root) : null;
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), `cartograph-bench-${path.basename(name)}-`));
  try {
    // Cold: empty store, fresh process state for the engine (the parse workers start inside).
    const t0 = performance.now();
    const engine = await Engine.open(root, { storeDir });
    const report = await engine.index();
    const coldMs = performance.now() - t0;
    const indexRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
    const stats = engine.stats();
    const storeBytes = await engine.storeSize();

    // 200 real edits through updateFile (what a save does), each undone afterwards.
    const files = engine.graph.filePaths().filter((p) => !p.endsWith('.js')).sort();
    const graphMs: number[] = [];
    const totalMs: number[] = [];
    const resolvedFiles: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const file = files[(n * 7919) % files.length];
      const original = fs.readFileSync(path.join(root, file), 'utf8');
      const edited = file.endsWith('.go') ? realGoEdit(original, n) : file.endsWith('.java') ? realJavaEdit(original, n) : file.endsWith('.rs') ? realRustEdit(original, n) : realEdit(original, file.endsWith('.py'), n);
      const t = performance.now();
      await engine.updateFile(file, edited);
      graphMs.push(performance.now() - t);
      await engine.flush();
      totalMs.push(performance.now() - t);
      resolvedFiles.push(engine.lastUpdate.resolvedFiles);
      await engine.updateFile(file, original);
      await engine.flush();
    }
    await engine.close();

    // Warm: reopen the same store; nothing changed on disk.
    const t1 = performance.now();
    const warm = await Engine.open(root, { storeDir });
    const warmReport = await warm.index();
    const warmMs = performance.now() - t1;
    const storeAfter = await warm.storeSize();
    await warm.close();

    const sortNum = (a: number[]) => [...a].sort((x, y) => x - y);
    const g = sortNum(graphMs);
    const tt = sortNum(totalMs);
    return {
      corpus: path.basename(name),
      files: stats.files,
      lines: stats.lines,
      skipped: report.skipped.length,
      nodes: stats.nodes,
      edges: stats.edges,
      nodeCount: Object.values(stats.nodes).reduce((a, b) => a + (b ?? 0), 0),
      edgeCount: Object.values(stats.edges).reduce((a, b) => a + (b ?? 0), 0),
      coldIndexMs: Math.round(coldMs),
      phasesMs: report.timings,
      filesPerSecond: Math.round(stats.files / (coldMs / 1000)),
      storeMB: +(storeBytes / 1e6).toFixed(1),
      storeAfterEditsMB: +(storeAfter / 1e6).toFixed(1),
      importResolution: { internal: stats.imports.internal, resolved: stats.imports.resolved, rate: +stats.imports.rate.toFixed(4) },
      update: {
        edits: EDITS,
        graphP50Ms: +percentile(g, 50).toFixed(1),
        graphP95Ms: +percentile(g, 95).toFixed(1),
        withStoreP50Ms: +percentile(tt, 50).toFixed(1),
        withStoreP95Ms: +percentile(tt, 95).toFixed(1),
        filesResolvedP50: percentile(sortNum(resolvedFiles), 50),
        filesResolvedMax: Math.max(...resolvedFiles),
      },
      indexRssMB,
      warmStartMs: Math.round(warmMs),
      warmParsed: warmReport.parsed,
      nativeParse,
    };
  } finally {
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

async function main() {
  ensureCorpora();
  const results = await resultsPerCorpus(corpora, { script: __filename, child: values.child, json: values.json, args: ['--edits', String(EDITS)] }, benchCorpus);
  if (!results) return;
  const row = (label: string, get: (r: NonNullable<typeof results>[number]) => unknown) => `| ${label} | ${results.map((r) => String(get(r))).join(' | ')} |`;
  const out = [
    `| | ${results.map((r) => r.corpus).join(' | ')} |`,
    `|---|${results.map(() => '---').join('|')}|`,
    row('files / lines', (r) => `${r.files} / ${r.lines}`),
    row('nodes', (r) => `${r.nodeCount} (${Object.entries(r.nodes).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')})`),
    row('edges', (r) => `${r.edgeCount} (${Object.entries(r.edges).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')})`),
    row('cold full index', (r) => `${(r.coldIndexMs / 1000).toFixed(2)} s (${r.filesPerSecond} files/s)`),
    row('phases (ms)', (r) => Object.entries(r.phasesMs).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${v}`).join(', ')),
    row('store on disk', (r) => `${r.storeMB} MB (after ${r.update.edits} edits: ${r.storeAfterEditsMB} MB)`),
    row('internal imports resolved', (r) => `${r.importResolution.resolved}/${r.importResolution.internal} (${(r.importResolution.rate * 100).toFixed(1)}%)`),
    row('update p50 / p95, until the graph has it', (r) => `${r.update.graphP50Ms} / ${r.update.graphP95Ms} ms`),
    row('update p50 / p95, until LanceDB has it', (r) => `${r.update.withStoreP50Ms} / ${r.update.withStoreP95Ms} ms`),
    row('files re-resolved per update (p50 / max)', (r) => `${r.update.filesResolvedP50} / ${r.update.filesResolvedMax}`),
    row('warm start, nothing changed', (r) => `${(r.warmStartMs / 1000).toFixed(2)} s (${r.warmParsed} files parsed)`),
    row('peak RSS: full index / whole run', (r) => `${r.indexRssMB} / ${r.peakRssMB} MB`),
    ...(results.some((r) => r.nativeParse) ? [row('native parser, same files', (r) => (r.nativeParse ? `${(r.nativeParse.ms / 1000).toFixed(2)} s: ${r.nativeParse.tool}` : '-'))] : []),
  ];
  console.log(out.join('\n'));
  console.log(`\n(node ${process.version}, ${os.cpus().length} cores, ${EDITS} edits per corpus)`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
