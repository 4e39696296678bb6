// bench:agent — the agent tools through the real MCP client, as an agent meets them.
//  1. Django with a warm server (`cartograph mcp` spawned on a copy, its store in a temp folder):
//     p50/p95 of each tool over varied inputs, answer size in tokens (o200k_base via gpt-tokenizer),
//     server start -> first answer from a cold and from a warm store, and edit on disk -> visible.
//  2. Tool use, scripted: for each documented function of the dev corpora (docstrings stripped from
//     the indexed copy, as in bench:search), "search_code with the docstring's first sentence, then
//     fetch_node of the first hit" against "ripgrep for the sentence's words, then read ±40 lines
//     around the best line": success@1/@3 and tokens read per success.
// Usage: npm run build && npm run bench:agent -- [--corpus flask ...] [--per-corpus N] [--calls N] [--json FILE]
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { encode } from 'gpt-tokenizer';
import { Engine } from '../src/core/engine';
import { ParserPool } from '../src/core/parse/parser';
import { codeTokens } from './search/bm25';
import { CORPORA, ensureTsPackage, groundTruth, keyOf, stripCopy, type GroundTruth } from './search/corpus';
import { percentile, mean } from './search/metrics';
import { gone } from '../test/support/serviceProbe';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true },
    'per-corpus': { type: 'string', default: '150' },
    calls: { type: 'string', default: '40' },
    'skip-django': { type: 'boolean', default: false },
    'skip-tool-use': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const PER_CORPUS = Number(values['per-corpus']);
const CALLS = Number(values.calls);
const tokens = (text: string) => encode(text).length;

/** Deterministic sampling (a fixed LCG), so reruns ask the same questions. */
function sampler(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return <T>(items: readonly T[], n: number): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  };
}

interface Server {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; structured: Record<string, unknown>; ms: number }>;
  close(): Promise<void>;
}

async function startServer(root: string, store: string): Promise<Server> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--root', root, '--store', store], stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-agent', version: '0' });
  await client.connect(transport);
  return {
    client,
    async call(name, args) {
      const t = performance.now();
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
      return { isError: Boolean(r.isError), text: r.content.map((c) => c.text).join('\n'), structured: r.structuredContent ?? {}, ms: performance.now() - t };
    },
    close: () => client.close(),
  };
}

/** What the snapshot answers besides search_code, asked the same way in every start measured. */
const GRAPH_TOOL_CALLS = [
  ['fetch_node', { name: 'get_object_or_404', source: false }],
  ['explore_graph', { name: 'get_object_or_404', direction: 'in', depth: 2 }],
  ['impact', { names: ['get_object_or_404'] }],
  ['repo_overview', {}],
] as const;

/**
 * The repository's service outlives the server that started it: stopped, so that the next server
 * starts one from the store, and waited for until its process is gone (it winds down its model
 * thread after answering the stop), so that the next start is not timed beside it.
 */
async function stopServices(): Promise<void> {
  const status = spawnSync(process.execPath, [CLI, 'service', 'status', '--all', '--json'], { encoding: 'utf8' });
  const pids = (JSON.parse(status.stdout || '[]') as Array<{ pid: number }>).map((s) => s.pid);
  spawnSync(process.execPath, [CLI, 'service', 'stop', '--all'], { stdio: 'ignore' });
  await Promise.all(pids.map(gone));
}

/**
 * Each tool as an agent's first call: spawn -> its answer, on a server started for it alone (and its
 * service stopped after), from the store the cold run left.
 */
async function firstCalls(root: string, store: string): Promise<Array<{ tool: string; ms: number; fromSnapshot: boolean }>> {
  const out = [];
  for (const [tool, args] of [['search_code', { query: 'get_object_or_404', limit: 1 }], ...GRAPH_TOOL_CALLS] as const) {
    const t = performance.now();
    const server = await startServer(root, store);
    const answer = await server.call(tool, args);
    if (answer.isError) throw new Error(answer.text);
    out.push({ tool, ms: performance.now() - t, fromSnapshot: answer.structured.indexing !== undefined });
    await server.close();
    await stopServices();
  }
  return out;
}

/**
 * Spawn -> first answered search_code (from the query snapshot when the store has a usable one, else
 * once the engine is ready), then, asked in turn, the GRAPH_TOOL_CALLS (the snapshot
 * answers them too), and spawn -> first answer that needs the engine (edit_context, asked last).
 */
async function firstAnswer(root: string, store: string): Promise<{ ms: number; fromSnapshot: boolean; graphTools: Array<{ tool: string; ms: number; fromSnapshot: boolean }>; engineMs: number; server: Server }> {
  const t = performance.now();
  const server = await startServer(root, store);
  const answer = await server.call('search_code', { query: 'get_object_or_404', limit: 1 });
  if (answer.isError) throw new Error(answer.text);
  const ms = performance.now() - t;
  const graphTools = [];
  for (const [tool, args] of GRAPH_TOOL_CALLS) {
    const a = await server.call(tool, args);
    if (a.isError) throw new Error(a.text);
    graphTools.push({ tool, ms: performance.now() - t, fromSnapshot: a.structured.indexing !== undefined });
  }
  const engine = await server.call('edit_context', { path: 'shortcuts.py', line: 60 });
  if (engine.isError) throw new Error(engine.text);
  return { ms, fromSnapshot: answer.structured.indexing !== undefined, graphTools, engineMs: performance.now() - t, server };
}

interface ToolStats {
  tool: string;
  firstCallMs: number;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
  max: number;
  tokensMean: number;
  tokensP95: number;
  /** Each call's time in the order asked (ms, 0.1 ms steps): which calls the percentiles come from. */
  msByCall: number[];
}

async function djangoLatency() {
  const source = path.join(CORPORA, 'django');
  if (!fs.existsSync(source)) throw new Error(`${source} is missing: run npm run fetch:corpora`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-agent-bench-'));
  const root = path.join(work, 'django');
  fs.cpSync(source, root, { recursive: true, filter: (p) => path.basename(p) !== '.cartograph' });
  const store = path.join(work, 'store');
  try {
    const cold = await firstAnswer(root, store);
    await cold.server.close();
    await stopServices();
    const first = await firstCalls(root, store);
    const warm = await firstAnswer(root, store);
    const server = warm.server;

    // Inputs drawn from the graph itself (an in-process open of the same store, read-only use).
    const engine = await Engine.open(root, { storeDir: null });
    await engine.index();
    const defs: Array<{ id: string; qname: string; path: string; line: number; doc: string }> = [];
    engine.graph.graph.forEachNode((id, n) => {
      if ((n.kind === 'Function' || n.kind === 'Method' || n.kind === 'Class') && n.range) defs.push({ id, qname: n.qname, path: n.path, line: n.range.startLine + 2, doc: n.doc });
    });
    const folders = [...new Set(engine.graph.filePaths().map((f) => f.split('/').slice(0, 2).join('/')).filter((f) => f.includes('/')))];
    await engine.close();
    const pick = sampler(7);
    const named = pick(defs, CALLS);
    const documented = pick(defs.filter((d) => d.doc.split(/\s+/).length > 4), CALLS);
    const inputs: Record<string, Array<Record<string, unknown>>> = {
      search_code: [
        ...named.slice(0, CALLS / 2).map((d) => ({ query: d.qname.split('.').slice(-2).join('.') })),
        ...documented.slice(0, CALLS / 2).map((d) => ({ query: d.doc.split(/(?<=[.!?])\s/)[0].slice(0, 300) })),
      ],
      fetch_node: named.map((d) => ({ id: d.id })),
      explore_graph: named.map((d, i) => ({ id: d.id, direction: 'both', depth: i % 4 === 0 ? 2 : 1 })),
      repo_overview: [{}, ...pick(folders, 9).map((f) => ({ path: f }))],
      edit_context: named.map((d) => ({ path: d.path, line: d.line })),
      impact: named.map((d) => ({ ids: [d.id], depth: 2 })),
    };
    // Timed once the server's embedding pass is over: the cold run stops before it has written every
    // vector, so the warm server embeds the rest first, in its model thread, on the same two cores.
    const settled = performance.now();
    // Still embedding, or the model loaded and its pass not yet begun (0 nodes embedded).
    while (/embedding \d+\/\d+|; 0 nodes embedded/.test((await server.call('search_code', { query: 'what reads the settings module', limit: 1 })).text)) {
      if (performance.now() - settled > 600_000) throw new Error('the embedding pass was still running after 10 minutes: no tool timed');
      await new Promise((r) => setTimeout(r, 500));
    }
    const embeddingSettledMs = performance.now() - settled;
    const stats: ToolStats[] = [];
    for (const [tool, list] of Object.entries(inputs)) {
      // The first calls build what the tool caches (search indexes, centrality): timed apart, as firstCallMs.
      const first = await server.call(tool, list[0]);
      const firstProse = tool === 'search_code' ? await server.call(tool, list[list.length - 1]) : undefined;
      const ms: number[] = [];
      const sizes: number[] = [];
      let errors = 0;
      for (const args of list) {
        const r = await server.call(tool, args);
        if (r.isError) errors++;
        ms.push(r.ms);
        sizes.push(tokens(r.text));
      }
      stats.push({ tool, firstCallMs: Math.max(first.ms, firstProse?.ms ?? 0), calls: list.length, errors, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms), tokensMean: mean(sizes), tokensP95: percentile(sizes, 95), msByCall: ms.map((m) => Math.round(m * 10) / 10) });
    }

    // Edit on disk -> the next call sees it: a new caller of an existing function, polled. Then, once
    // the new definition's vector is made (400 ms: one node, in the model thread), a sentence: what an
    // agent asks after its own edit, on a graph version and vectors no question has met yet.
    const visible: number[] = [];
    const afterEdit: number[] = [];
    const afterEditQuestions = sampler(8)(defs.filter((d) => d.doc.split(/\s+/).length > 4), 10).map((d) => d.doc.split(/(?<=[.!?])\s/)[0].slice(0, 300));
    for (const d of pick(defs.filter((x) => x.path.endsWith('.py') && !x.qname.includes('.__')), 10)) {
      const file = path.join(root, d.path);
      const before = fs.readFileSync(file, 'utf8');
      const marker = `bench_probe_${visible.length}`;
      const t = performance.now();
      fs.writeFileSync(file, `${before}\n\ndef ${marker}():\n    return None\n`);
      for (;;) {
        const r = await server.call('search_code', { query: marker, limit: 1 });
        if (r.text.includes(`${marker}  ${d.path}`)) break;
        if (performance.now() - t > 10_000) throw new Error(`${marker} not visible after 10 s`);
      }
      visible.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 400));
      afterEdit.push((await server.call('search_code', { query: afterEditQuestions[afterEdit.length] })).ms);
      fs.writeFileSync(file, before);
    }
    await server.close();
    return { coldStartMs: cold.ms, firstCalls: first, embeddingSettledMs, warmStartMs: warm.ms, warmFromSnapshot: warm.fromSnapshot, warmGraphTools: warm.graphTools, warmEngineMs: warm.engineMs, tools: stats, editVisibleMs: { p50: percentile(visible, 50), p95: percentile(visible, 95), max: Math.max(...visible), n: visible.length }, sentenceAfterEditMs: { p50: percentile(afterEdit, 50), p95: percentile(afterEdit, 95), max: Math.max(...afterEdit), n: afterEdit.length } };
  } finally {
    // The service the warm server started outlives it: stopped, not left embedding a deleted copy.
    await stopServices();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

interface PolicyResult {
  corpus: string;
  policy: 'cartograph' | 'ripgrep';
  queries: number;
  success1: number;
  success3: number;
  tokensRead: number;
  tokensPerSuccess3: number;
}

/** The gold definition's header line (one-based) and file, for judging a grep window. */
interface Gold extends GroundTruth {
  line: number;
  endLine: number;
}

async function toolUse(corpus: string, dir: string, pool: ParserPool): Promise<PolicyResult[]> {
  const original = await Engine.open(dir, { storeDir: null });
  await original.index();
  const gt = groundTruth(original);
  const strip = await stripCopy(dir, pool);
  await original.close();
  const stripped = await Engine.open(strip.dir, { storeDir: null });
  await stripped.index();
  const golds: Gold[] = sampler(11)(gt, PER_CORPUS).flatMap((g) => {
    const n = stripped.graph.graph.hasNode(g.id) ? stripped.graph.graph.getNodeAttributes(g.id) : undefined;
    return n?.range ? [{ ...g, line: n.range.startLine + 1, endLine: n.range.endLine + 1 }] : [];
  });
  await stripped.close();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-agent-store-'));
  const server = await startServer(strip.dir, store);
  const ours = { s1: 0, s3: 0, tokens: 0 };
  const grep = { s1: 0, s3: 0, tokens: 0 };
  try {
    for (const g of golds) {
      const found = await server.call('search_code', { query: g.query, limit: 3 });
      const hits = (found.structured.hits as Array<{ id: string }> | undefined) ?? [];
      const keys = hits.map((h) => keyOf(h.id));
      if (keys[0] === g.key) ours.s1++;
      if (keys.slice(0, 3).includes(g.key)) ours.s3++;
      ours.tokens += tokens(found.text);
      if (hits[0]) ours.tokens += tokens((await server.call('fetch_node', { id: hits[0].id })).text);

      const result = ripgrepPolicy(strip.dir, g);
      grep.s1 += result.s1;
      grep.s3 += result.s3;
      grep.tokens += result.tokens;
    }
  } finally {
    await server.close();
    fs.rmSync(store, { recursive: true, force: true });
    fs.rmSync(path.dirname(strip.dir), { recursive: true, force: true });
  }
  const row = (policy: PolicyResult['policy'], r: typeof ours): PolicyResult => ({
    corpus,
    policy,
    queries: golds.length,
    success1: r.s1 / golds.length,
    success3: r.s3 / golds.length,
    tokensRead: r.tokens,
    tokensPerSuccess3: r.s3 ? r.tokens / r.s3 : Infinity,
  });
  return [row('cartograph', ours), row('ripgrep', grep)];
}

/**
 * `rg -n -i -w` for the sentence's words (stop words dropped), lines ranked by how many distinct
 * words they hold; the agent reads the top 10 result lines, then ±40 lines around the best one.
 * Success@k: the gold definition's header lies within ±40 lines of one of the k best lines.
 */
function ripgrepPolicy(root: string, g: Gold): { s1: number; s3: number; tokens: number } {
  const words = [...new Set(codeTokens(g.query).filter((w) => w.length > 2))].slice(0, 12);
  if (words.length === 0) return { s1: 0, s3: 0, tokens: 0 };
  let out = '';
  try {
    out = execFileSync('rg', ['-n', '-i', '-w', '--no-heading', '--max-columns', '300', ...words.flatMap((w) => ['-e', w]), '.'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = (err as { stdout?: string }).stdout ?? ''; // exit 1: no match
  }
  const lines = out.split('\n').filter(Boolean).flatMap((l) => {
    const m = /^(?:\.\/)?(.+?):(\d+):(.*)$/.exec(l);
    if (!m) return [];
    const text = m[3].toLowerCase();
    const score = words.filter((w) => new RegExp(`\\b${w}\\b`).test(text)).length;
    return [{ file: m[1], line: Number(m[2]), score, raw: l }];
  });
  lines.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.line - b.line);
  const near = (l: { file: string; line: number }) => l.file === g.path && Math.abs(l.line - g.line) <= 40;
  let tokensRead = tokens(lines.slice(0, 10).map((l) => l.raw).join('\n'));
  const best = lines[0];
  if (best) {
    const text = fs.readFileSync(path.join(root, best.file), 'utf8').split('\n');
    tokensRead += tokens(text.slice(Math.max(0, best.line - 41), best.line + 40).join('\n'));
  }
  return { s1: best && near(best) ? 1 : 0, s3: lines.slice(0, 3).some(near) ? 1 : 0, tokens: tokensRead };
}

async function main() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build');
  execFileSync('rg', ['--version'], { stdio: 'ignore' });
  const django = values['skip-django'] ? undefined : await djangoLatency();
  if (django) {
    console.log(`\nDjango, warm MCP server (${CALLS} calls per tool): start -> first answer cold ${(django.coldStartMs / 1000).toFixed(2)} s, warm ${(django.warmStartMs / 1000).toFixed(2)} s${django.warmFromSnapshot ? ' (from the query snapshot)' : ''}, then ${django.warmGraphTools.map((g) => `${g.tool} ${(g.ms / 1000).toFixed(2)} s${g.fromSnapshot ? ' (snapshot)' : ''}`).join(', ')}; warm engine ready for edit_context ${(django.warmEngineMs / 1000).toFixed(2)} s; embedding pass over ${(django.embeddingSettledMs / 1000).toFixed(1)} s after that; edit on disk -> visible p50 ${django.editVisibleMs.p50.toFixed(0)} ms, p95 ${django.editVisibleMs.p95.toFixed(0)} ms; a sentence after each edit p50 ${django.sentenceAfterEditMs.p50.toFixed(0)} ms, p95 ${django.sentenceAfterEditMs.p95.toFixed(0)} ms`);
    console.log(`Each tool as the first call of a server started for it: ${django.firstCalls.map((f) => `${f.tool} ${(f.ms / 1000).toFixed(2)} s${f.fromSnapshot ? ' (snapshot)' : ''}`).join(', ')}`);
    console.log('| tool | first call ms | calls | errors | p50 ms | p95 ms | max ms | tokens mean | tokens p95 |\n|---|---|---|---|---|---|---|---|---|');
    for (const s of django.tools) console.log(`| ${s.tool} | ${s.firstCallMs.toFixed(0)} | ${s.calls} | ${s.errors} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} | ${s.tokensMean.toFixed(0)} | ${s.tokensP95.toFixed(0)} |`);
  }
  const pool = new ParserPool();
  const corpora = values['skip-tool-use'] ? [] : (values.corpus ?? ['flask', 'requests', 'click', 'werkzeug', 'rxjs']);
  const results: PolicyResult[] = [];
  for (const corpus of corpora) {
    const dir = corpus === 'rxjs' ? path.join(ensureTsPackage(), 'src') : path.join(CORPORA, corpus);
    results.push(...(await toolUse(corpus, dir, pool)));
  }
  const overall = (policy: PolicyResult['policy']) => {
    const rows = results.filter((r) => r.policy === policy);
    const q = rows.reduce((n, r) => n + r.queries, 0);
    const s3 = rows.reduce((n, r) => n + r.success3 * r.queries, 0);
    const tokensRead = rows.reduce((n, r) => n + r.tokensRead, 0);
    return { corpus: 'overall', policy, queries: q, success1: rows.reduce((n, r) => n + r.success1 * r.queries, 0) / q, success3: s3 / q, tokensRead, tokensPerSuccess3: tokensRead / s3 };
  };
  if (results.length > 0) results.push(overall('cartograph'), overall('ripgrep'));
  if (results.length > 0) console.log('\nTool use: search_code + fetch_node vs ripgrep + read ±40 lines (docstrings stripped)\n| corpus | policy | queries | success@1 | success@3 | tokens read per success@3 |\n|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.corpus} | ${r.policy} | ${r.queries} | ${r.success1.toFixed(3)} | ${r.success3.toFixed(3)} | ${r.tokensPerSuccess3.toFixed(0)} |`);
  const ours = results.find((r) => r.corpus === 'overall' && r.policy === 'cartograph');
  const rg = results.find((r) => r.corpus === 'overall' && r.policy === 'ripgrep');
  if (ours && rg) console.log(`\nsuccess@3 ratio ${(ours.success3 / rg.success3).toFixed(2)}x (target >= 1.5x); tokens per success ratio ${(ours.tokensPerSuccess3 / rg.tokensPerSuccess3).toFixed(2)}x (target <= 0.5x)`);
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), cpus: os.cpus().length, load: os.loadavg(), django, toolUse: results }, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
