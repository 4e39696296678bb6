// `npm run build && npm run bench:service-start [-- --json FILE] [--corpus NAME] [--rounds N] [--runs N] [--cli FILE]...`
// A warm start as a client meets it: `cartograph service run` spawned on a copy of a corpus (default
// Django) indexed once beforehand, the socket polled every 20 ms until a hello says the graph is ready,
// then three questions asked at once on that connection (a name, a structural question, a sentence;
// the service's default models). Several builds (`--cli`, each a dist/cli.js; default this checkout's)
// are alternated, `--runs` starts each per round, so that a machine's drift falls on all of them alike.
// Then, for this checkout's build, `cartograph mcp` spawned as an agent would (`--runs` × `--rounds`
// times, no service running): spawn → its first `search_code` answer (from the query snapshot while the
// graph loads) and → its first answer not marked `indexing` (the live graph, through the service).
// Prints tables and writes JSON; timings depend on the machine and its load (run it quiet).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { connectService, type ServiceConnection } from '../src/core/service/serviceClient';
import { startMcp } from '../test/support/mcpProcess';
import { CORPORA } from './search/corpus';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    corpus: { type: 'string', default: 'django' },
    rounds: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
    cli: { type: 'string', multiple: true },
  },
});
const CLIS = (values.cli ?? [path.join(__dirname, '..', 'dist', 'cli.js')]).map((c) => path.resolve(c));
const QUESTIONS = [
  { mode: 'name', text: 'QuerySet' },
  { mode: 'structural', text: 'callers of QuerySet.filter' },
  { mode: 'sentence', text: 'where are database migrations applied' },
];
const POLL_MS = 20;

interface Start {
  cli: string;
  readyMs: number;
  answersMs: Record<string, number>;
}

async function start(cli: string, root: string, store: string): Promise<Start> {
  const t = performance.now();
  const child = spawn(process.execPath, ['--expose-gc', cli, 'service', 'run', root, '--store', store], { stdio: 'ignore', env: { ...process.env, MALLOC_ARENA_MAX: '2' } });
  try {
    let service: ServiceConnection | undefined;
    for (;;) {
      service = await connectService(store);
      if (service?.hello.ready) break;
      service?.close();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const readyMs = performance.now() - t;
    const answersMs: Record<string, number> = {};
    for (const q of QUESTIONS) {
      const asked = performance.now();
      await service.call('query', [{ text: q.text, limit: 10 }]);
      answersMs[q.mode] = performance.now() - asked;
    }
    service.close();
    return { cli, readyMs, answersMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

interface McpStart {
  firstMs: number;
  liveMs: number;
}

/** A fresh `cartograph mcp` (this checkout's build) asked `search_code` until its answer is from the live graph. */
async function mcpStart(root: string, store: string): Promise<McpStart> {
  const t = performance.now();
  const mcp = startMcp(root);
  // An answer from the snapshot says so (agentTools: `indexing` in its structured content).
  const indexing = (a: { structured: Record<string, unknown> }) => 'indexing' in a.structured;
  try {
    let answer = await mcp.call('search_code', { query: QUESTIONS[0].text });
    const firstMs = performance.now() - t;
    while (indexing(answer)) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      answer = await mcp.call('search_code', { query: QUESTIONS[0].text });
    }
    return { firstMs, liveMs: performance.now() - t };
  } finally {
    await mcp.close();
    await (await connectService(store))?.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function cell(xs: number[]): string {
  return `${(median(xs) / 1000).toFixed(2)} (${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)})`;
}

async function main(): Promise<void> {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-start-')), values.corpus!);
  fs.cpSync(path.join(CORPORA, values.corpus!), root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  const store = path.join(root, '.cartograph');
  try {
    console.error(`bench:service-start: indexing ${root} ...`);
    execFileSync(process.execPath, [CLIS[0], 'index', root, '--store', store], { stdio: 'ignore' });
    // One start each first: the store's files and the bundles in the page cache, a snapshot saved.
    for (const cli of CLIS) await start(cli, root, store);
    const starts: Start[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const cli of CLIS) for (let run = 0; run < Number(values.runs); run++) starts.push(await start(cli, root, store));
    }
    const rows = CLIS.map((cli) => {
      const mine = starts.filter((s) => s.cli === cli);
      return {
        cli,
        starts: mine.length,
        readyMs: mine.map((s) => Math.round(s.readyMs)),
        answersMs: Object.fromEntries(QUESTIONS.map((q) => [q.mode, mine.map((s) => Math.round(s.answersMs[q.mode]))])),
      };
    });
    console.log(`| build | starts | spawn → ready, s: median (min–max) | ${QUESTIONS.map((q) => `first ${q.mode}, s`).join(' | ')} |`);
    console.log(`|---|---:|---|${QUESTIONS.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.cli} | ${r.starts} | ${cell(r.readyMs)} | ${QUESTIONS.map((q) => cell(r.answersMs[q.mode])).join(' | ')} |`);
    const mcp: McpStart[] = [];
    for (let i = 0; i < Number(values.rounds) * Number(values.runs); i++) mcp.push(await mcpStart(root, store));
    console.log(`\n| cartograph mcp (this build) | starts | spawn → first search_code, s | spawn → first live answer, s |`);
    console.log('|---|---:|---|---|');
    console.log(`| ${path.resolve(__dirname, '..', 'dist', 'cli.js')} | ${mcp.length} | ${cell(mcp.map((m) => m.firstMs))} | ${cell(mcp.map((m) => m.liveMs))} |`);
    const mcpMs = { firstMs: mcp.map((m) => Math.round(m.firstMs)), liveMs: mcp.map((m) => Math.round(m.liveMs)) };
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), corpus: values.corpus, questions: QUESTIONS, rows, mcp: mcpMs }, null, 2)}\n`);
  } finally {
    fs.rmSync(path.dirname(root), { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
