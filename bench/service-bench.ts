// `npm run bench:service [-- --json FILE] [--runs N] [--corpus NAME] [--calls N] [--edits N] [--no-model] [--no-editor]`
// The repository's service as clients meet it, on a corpus (default Django): wall time and CPU of a
// fresh `cartograph query|show` process per call, for every mode, (a) with no service and the query
// snapshot present (`--no-service`), (b) with the service warm; then one `cartograph mcp` relaying
// `--calls` concurrent mixed tool calls to the service (latency p50/p95, the service's memory before,
// at the peak and after), and read-your-writes: `--edits` creates, appends, renames and deletes, each
// asked about through MCP with no pause after the write, counted when the answer reflects it.
// `--codegraph BIN` (the peer @colbymchenry/codegraph's CLI, installed from npm) indexes the same copy
// and times its own fresh-process name, callers and explore queries beside ours, in the same run.
// Last, the editor hosting the service (`--no-editor` skips it): VS Code's engine worker takes the
// repository over from the running service (its open and index: nothing re-parsed is the point) and
// the same CLI calls are timed against the editor's graph.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { connectService } from '../src/core/service/serviceClient';
import { WorkerRepository } from '../src/core/service/workerRepository';
import { version as VERSION } from '../package.json';
import { startMcp } from '../test/support/mcpProcess';
import { CORPORA } from './search/corpus';
import { percentile } from './search/metrics';
import { CODEGRAPH_ENV, rssMb, summarize, type Timed, timed } from './processTiming';

const { values } = parseArgs({
  allowNegative: true,
  options: {
    json: { type: 'string' },
    runs: { type: 'string', default: '10' },
    corpus: { type: 'string', default: 'django' },
    calls: { type: 'string', default: '1000' },
    edits: { type: 'string', default: '25' },
    // --no-model (allowNegative): the service searches model-free.
    model: { type: 'boolean', default: true },
    codegraph: { type: 'string' },
    editor: { type: 'boolean', default: true },
  },
});
const RUNS = Number(values.runs);
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const source = path.join(CORPORA, values.corpus!);

const SENTENCE = 'validate that the value is a well-formed email address';
const MODES: Array<{ mode: string; args: string[]; snapshot: boolean }> = [
  { mode: 'name', args: ['query', 'QuerySet.filter'], snapshot: true },
  { mode: 'structural', args: ['query', 'callers of get_object_or_404'], snapshot: true },
  // The default: the service searches with the shipped model; answered from the snapshot (--no-service) it is model-free.
  { mode: 'sentence', args: ['query', SENTENCE], snapshot: true },
  ...(!values.model ? [] : [{ mode: 'sentence, --model-free', args: ['query', SENTENCE, '--model-free'], snapshot: false }]),
  { mode: 'show', args: ['show', 'QuerySet.filter'], snapshot: true },
  { mode: 'files:', args: ['query', 'files: the admin changelist ignores list_select_related when ordering by a related field'], snapshot: false },
];

interface Answered extends Timed {
  source: string;
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Answered {
  const run = timed(process.execPath, [CLI, ...args, '--json'], { cwd, env });
  const out = JSON.parse(run.stdout) as { index?: { source: string } } | unknown[];
  return { ...run, source: Array.isArray(out) ? 'n/a' : (out.index?.source ?? 'n/a') };
}

/** The peer's query for each of our modes that it has. */
const PEER: Record<string, string[]> = {
  name: ['query', 'QuerySet.filter'],
  structural: ['callers', 'get_object_or_404'],
  sentence: ['explore', 'validate that the value is a well-formed email address'],
};

function peer(bin: string, args: string[], cwd: string): Answered {
  return { ...timed(bin, args, { cwd, env: CODEGRAPH_ENV }), source: 'codegraph' };
}

function summary(runs: Answered[]) {
  return { ...summarize(runs), sources: [...new Set(runs.map((r) => r.source))].join(',') };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  if (!fs.existsSync(source)) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-service-bench-'));
  const root = path.join(tmp, values.corpus!);
  fs.cpSync(source, root, { recursive: true, filter: (p) => path.basename(p) !== '.cartograph' });
  // This run's services only, in a folder of their own (the MCP relay and the probes below read it too).
  process.env.CARTOGRAPH_SERVICE_DIR = path.join(tmp, 'sockets');
  delete process.env.CARTOGRAPH_NO_SERVICE;
  // --no-model: the service this run starts searches without its default model.
  if (!values.model) process.env.CARTOGRAPH_MODEL_FREE = '1';
  const env = process.env;
  const storeDir = path.join(root, '.cartograph');
  try {
    execFileSync(process.execPath, [CLI, 'index', root, '--no-service'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const rows: Array<{ mode: string; noService: ReturnType<typeof summary> | null; service: ReturnType<typeof summary>; firstServiceMs?: number }> = [];

    // (a) No service, snapshot present: the modes the snapshot answers.
    const noService: Record<string, ReturnType<typeof summary>> = {};
    for (const m of MODES.filter((x) => x.snapshot)) {
      cli([...m.args, '--no-service'], root, env);
      noService[m.mode] = summary(Array.from({ length: RUNS }, () => cli([...m.args, '--no-service'], root, env)));
    }

    // (b) The service: started by the first query, then warm.
    cli(['query', 'files: warm up'], root, env);
    const hello = (await connectService(storeDir))!.hello;
    // The service embeds the corpus in the background with its default model: timed once that is done.
    const embedding = performance.now();
    let embeddedMs: number | undefined;
    if (values.model) {
      for (let models = ''; !/^embeddings .*; \d+ nodes embedded$/.test(models); await new Promise((r) => setTimeout(r, 1_000))) {
        models = (JSON.parse(timed(process.execPath, [CLI, 'query', SENTENCE, '--json'], { cwd: root, env }).stdout) as { models?: string }).models ?? '';
      }
      embeddedMs = Math.round(performance.now() - embedding);
    }
    for (const m of MODES) {
      const first = cli(m.args, root, env); // a model loads on the first question that names it
      rows.push({ mode: m.mode, noService: noService[m.mode] ?? null, service: summary(Array.from({ length: RUNS }, () => cli(m.args, root, env))), firstServiceMs: Math.round(first.ms) });
    }

    // The peer, on the same copy, fresh process per call as it is used from a terminal.
    const peerRows: Record<string, ReturnType<typeof summary>> = {};
    if (values.codegraph) {
      peer(values.codegraph, ['init', '.'], root);
      for (const [mode, args] of Object.entries(PEER)) {
        peer(values.codegraph, args, root);
        peerRows[mode] = summary(Array.from({ length: RUNS }, () => peer(values.codegraph!, args, root)));
      }
    }

    // MCP: concurrent mixed calls through one relay, the service's memory around them.
    const rssBefore = rssMb(hello.pid);
    const mcp = startMcp(root);
    const kinds: Array<[string, Record<string, unknown>]> = [
      ['search_code', { query: 'QuerySet.filter', limit: 5 }],
      ['search_code', { query: 'validate an email address', limit: 5 }],
      ['fetch_node', { id: 'db/models/query.py#QuerySet.filter' }],
      ['explore_graph', { name: 'get_object_or_404', direction: 'in', depth: 1 }],
      ['repo_overview', { maxTokens: 400 }],
    ];
    await mcp.call('search_code', { query: 'warm up', limit: 1 });
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(hello.pid))), 50);
    const calls = Number(values.calls);
    const latencies = await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        const [name, args] = kinds[i % kinds.length];
        const started = performance.now();
        await mcp.call(name, args);
        return performance.now() - started;
      }),
    );
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 2_000));
    const rssAfter = rssMb(hello.pid);

    // Read-your-writes: write, then ask at once.
    const edits = Number(values.edits);
    const seen = { create: 0, append: 0, rename: 0, delete: 0 };
    const target = path.join(root, 'utils', 'text.py');
    const original = fs.readFileSync(target, 'utf8');
    for (let i = 0; i < edits; i++) {
      const file = path.join(root, 'utils', `rw_bench_${i}.py`);
      const text = async (q: string) => (await mcp.call('search_code', { query: q, limit: 5 })).text;
      fs.writeFileSync(file, `def rw_created_${i}(x):\n    return x\n`);
      if ((await text(`rw_created_${i}`)).includes(`#rw_created_${i}`)) seen.create++;
      fs.appendFileSync(target, `\n\ndef rw_appended_${i}():\n    return ${i}\n`);
      if ((await text(`rw_appended_${i}`)).includes(`#rw_appended_${i}`)) seen.append++;
      fs.writeFileSync(file, `def rw_renamed_${i}(x):\n    return x\n`);
      const renamed = await text(`rw_renamed_${i}`);
      if (renamed.includes(`#rw_renamed_${i}`) && !(await text(`rw_created_${i}`)).includes(`#rw_created_${i}`)) seen.rename++;
      fs.rmSync(file);
      if (!(await text(`rw_renamed_${i}`)).includes(`rw_bench_${i}.py`)) seen.delete++;
    }
    fs.writeFileSync(target, original);
    await mcp.close();

    // (c) The editor hosts the service: VS Code's engine worker (WorkerRepository with `share`, as the
    // extension opens it) takes the repository over from the running service and warm-starts from its
    // store; then the same CLI calls, answered by the editor's graph.
    const editorRows: Record<string, ReturnType<typeof summary>> = {};
    let editorOpen: { takeOverAndOpenMs: number; indexMs: number; parsed: number; reused: number; served: boolean } | undefined;
    if (values.editor) {
      const started = performance.now();
      const editor = await WorkerRepository.open(root, { storeDir: path.join(tmp, 'editor-own-store') }, undefined, { storeDir, version: VERSION, hostedBy: 'bench editor' });
      const takeOverAndOpenMs = Math.round(performance.now() - started);
      const report = await editor.index();
      editorOpen = { takeOverAndOpenMs, indexMs: report.timings.total ?? 0, parsed: report.parsed, reused: report.reused, served: editor.opened.socket !== undefined };
      for (const m of MODES.filter((x) => !x.mode.includes('--model-free'))) {
        const first = cli(m.args, root, env);
        if (m.args[0] === 'query' && first.source !== 'service') throw new Error(`${m.mode} was not answered by the editor's service (${first.source})`);
        editorRows[m.mode] = summary(Array.from({ length: RUNS }, () => cli(m.args, root, env)));
      }
      await editor.close();
    }

    const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`cartograph service on ${values.corpus}, ${RUNS} runs per mode, load ${load} (${os.cpus().length} cores)`);
    console.log(`${'mode'.padEnd(22)} ${'no service p50/p95 ms'.padStart(22)} ${'CPU'.padStart(5)}   ${'service p50/p95 ms'.padStart(19)} ${'CPU'.padStart(5)}  ${'codegraph p50/p95 ms'.padStart(21)} ${'CPU'.padStart(5)}  first call via service`);
    for (const r of rows) {
      const a = r.noService ? `${r.noService.p50} / ${r.noService.p95}` : '(store path)';
      const p = peerRows[r.mode];
      console.log(
        `${r.mode.padEnd(22)} ${a.padStart(22)} ${String(r.noService?.cpuP50 ?? '-').padStart(5)}   ${`${r.service.p50} / ${r.service.p95}`.padStart(19)} ${String(r.service.cpuP50).padStart(5)}  ` +
          `${(p ? `${p.p50} / ${p.p95}` : '-').padStart(21)} ${String(p?.cpuP50 ?? '-').padStart(5)}  ${r.firstServiceMs} ms`,
      );
    }
    if (embeddedMs !== undefined) console.log(`the service's default model embedded the corpus in the background: ${(embeddedMs / 1000).toFixed(1)} s after the service answered its first question`);
    const mcpRow = { calls, p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)), max: Math.round(Math.max(...latencies)), rssBeforeMb: rssBefore, rssPeakMb: peak, rssAfterMb: rssAfter };
    console.log(`MCP, ${calls} concurrent mixed calls through one relay: p50 ${mcpRow.p50} ms, p95 ${mcpRow.p95} ms, max ${mcpRow.max} ms; service RSS ${rssBefore} → peak ${peak} → ${rssAfter} MB`);
    if (editorOpen) {
      console.log(
        `editor-hosted: took over and opened in ${editorOpen.takeOverAndOpenMs} ms, index ${editorOpen.indexMs} ms (${editorOpen.parsed} parsed, ${editorOpen.reused} unchanged), serving: ${editorOpen.served}; ` +
          `CLI p50/p95 ms: ${Object.entries(editorRows).map(([mode, r]) => `${mode} ${r.p50}/${r.p95}`).join(', ')}`,
      );
    }
    console.log(`read-your-writes at a 0 ms gap (${edits} each): create ${seen.create}/${edits}, append ${seen.append}/${edits}, rename ${seen.rename}/${edits}, delete ${seen.delete}/${edits}`);
    if (values.json) {
      fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
      fs.writeFileSync(values.json, `${JSON.stringify({ corpus: values.corpus, runs: RUNS, loadavg: os.loadavg(), node: process.version, embeddedMs: embeddedMs ?? null, rows, codegraph: values.codegraph ? peerRows : null, editor: editorOpen ? { ...editorOpen, rows: editorRows } : null, mcp: mcpRow, readYourWrites: { edits, ...seen } }, null, 2)}\n`);
    }
  } finally {
    spawnSync(process.execPath, [CLI, 'service', 'stop', '--all'], { env, stdio: 'ignore' });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
