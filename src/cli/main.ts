// `cartograph`: the engine from a terminal. index | stats | show, each with --json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { Engine, recordedRoot, type EngineStats, type IndexProgress } from '../core/engine';
import { createSearcher, filesQuery, type Searcher } from '../core/search';
import { chatDescriber } from '../core/lifting/chatDescriber';
import { DescriptionCache } from '../core/lifting/descriptionCache';
import { liftGraph } from '../core/lifting/lifter';
import { sourceReader } from '../core/lifting/source';
import { DESCRIPTIONS_FILE } from '../core/store/storeFolder';
import { loadQueryModels, MODEL_FLAG_OPTIONS, wantsModels, type ModelFlags, type QueryModels } from './models';
import { describeNode, findNodes } from '../core/graph/describe';
import { parseCommandLine, positiveInteger, UsageError } from './flags';
import { serveMcp } from './mcp';
import { version as VERSION } from '../../package.json';

const USAGE = `Usage:
  cartograph index <dir> [--store DIR] [--exclude PATTERN]... [--max-file-size BYTES] [--include-minified] [--json]
      --include-minified: also index minified JavaScript (*.min.js, very long lines) and .js files in vendor/ folders
  cartograph stats [--store DIR] [--json]
  cartograph show <name | qualified.name | node id> [--store DIR] [--json]
  cartograph query "<name, structural question or plain English>" [--store DIR] [--json] [--limit N] [--mcts]
      [--embedding-model ID] [--reranker-model ID] [--models-dir DIR] [--embedding-endpoint URL]
      with a model flag: transformers.js models (e.g. Xenova/all-MiniLM-L6-v2, Xenova/ms-marco-MiniLM-L-6-v2),
      from DIR/<id>/ offline with --models-dir, else downloaded once to ~/.cache/cartograph/models;
      or an OpenAI-compatible embeddings endpoint (--embedding-model names its model, key from
      $CARTOGRAPH_API_KEY). The store's nodes are embedded first and the vectors kept for later queries;
      a model that cannot be loaded is reported and the query answers without it
  cartograph mcp [--root DIR]... [--store DIR]
      an MCP server over stdio (tools: search_code, fetch_node, explore_graph, repo_overview,
      edit_context, impact) for the given folders (default: the current one); indexes them like
      'index', keeps the graph warm and follows file changes
  cartograph describe --endpoint URL --model NAME [--store DIR] [--max-calls N]
      semantic lifting: a one-line purpose description of every function and class, written by an
      OpenAI-compatible chat endpoint (API key from $CARTOGRAPH_API_KEY), cached by content hash
      and used by query
  cartograph query "files: <issue or task text>" [--files] [--store DIR] [--json] [--limit N]
      issue → file localization: the files the text concerns, ranked by their definitions' evidence
      and their whole text (string literals and comments included), with the definitions that counted

The store defaults to <dir>/.cartograph; stats and show find it from the current folder upwards.`;

const STORE_FOLDER = '.cartograph';

const OPTIONS = {
  store: { type: 'string' },
  json: { type: 'boolean', default: false },
  exclude: { type: 'string', multiple: true },
  'max-file-size': { type: 'string' },
  'include-minified': { type: 'boolean', default: false },
  limit: { type: 'string' },
  mcts: { type: 'boolean', default: false },
  files: { type: 'boolean', default: false },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  'max-calls': { type: 'string' },
  root: { type: 'string', multiple: true },
  ...MODEL_FLAG_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

async function main(argv: string[]): Promise<number> {
  let command: string | undefined;
  try {
    const { values, positionals } = parseCommandLine(argv, OPTIONS);
    const [first, ...rest] = positionals;
    command = first;
    if (values.help || !command) {
      console.log(USAGE);
      return command || values.help ? 0 : 2;
    }
    switch (command) {
      case 'index':
        return await index(rest[0], values);
      case 'stats':
        return await stats(values);
      case 'show':
        return await show(rest.join(' '), values);
      case 'query':
        return await query(rest.join(' '), values);
      case 'describe':
        return await describe(values);
      case 'mcp':
        return await mcp([...(values.root ?? []), ...rest], values);
      default:
        console.error(`cartograph: unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`cartograph${command ? ` ${command}` : ''}: ${error.message}`);
    return 2;
  }
}

type Flags = ModelFlags & { store?: string; json?: boolean; exclude?: string[]; 'max-file-size'?: string; 'include-minified'?: boolean; limit?: string; mcts?: boolean; endpoint?: string; model?: string; 'max-calls'?: string; files?: boolean };

async function index(dir: string | undefined, flags: Flags): Promise<number> {
  if (!dir) {
    console.error(`cartograph index: which folder?\n\n${USAGE}`);
    return 2;
  }
  const root = path.resolve(dir);
  const maxFileSize = positiveInteger('max-file-size', flags['max-file-size'], 'a whole number of bytes');
  const engine = await Engine.open(root, {
    storeDir: flags.store ? path.resolve(flags.store) : undefined,
    exclude: flags.exclude,
    maxFileSize,
    includeMinified: flags['include-minified'],
    log: (m) => console.error(`cartograph: ${m}`),
  });
  const bar = !flags.json && process.stderr.isTTY ? new SingleBar({ format: ' {phase} [{bar}] {value}/{total}', hideCursor: true, clearOnComplete: true, stream: process.stderr }, Presets.shades_classic) : undefined;
  let phase = '';
  const onProgress = (p: IndexProgress) => {
    if (!bar) return;
    if (p.phase !== phase) {
      phase = p.phase;
      if (bar.isActive) bar.stop();
      bar.start(Math.max(p.total, 1), p.done, { phase: p.phase.padEnd(7) });
    } else {
      bar.setTotal(Math.max(p.total, 1));
      bar.update(p.done);
    }
  };
  try {
    const report = await engine.index(onProgress);
    bar?.stop();
    const s = engine.stats();
    const storeBytes = await engine.storeSize();
    if (flags.json) {
      console.log(JSON.stringify({ report, stats: s, storeBytes }, null, 2));
    } else {
      console.log(
        `Indexed ${report.files} files in ${(report.timings.total! / 1000).toFixed(2)} s ` +
          `(${report.parsed} parsed, ${report.reused} unchanged, ${report.removed} removed, ${report.skipped.length} skipped).`,
      );
      printStats(s, storeBytes);
    }
    return 0;
  } finally {
    bar?.stop();
    await engine.close();
  }
}

/** The store named by --store, or the nearest `.cartograph` folder from the current directory up. */
function locateStore(flag: string | undefined): { root: string; storeDir: string } | undefined {
  if (flag) {
    const storeDir = path.resolve(flag);
    return fs.existsSync(storeDir) ? { root: recordedRoot(storeDir) ?? path.dirname(storeDir), storeDir } : undefined;
  }
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, STORE_FOLDER);
    if (fs.existsSync(candidate)) return { root: recordedRoot(candidate) ?? dir, storeDir: candidate };
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function openExisting(flags: Flags): Promise<Engine | undefined> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return undefined;
  }
  return Engine.open(found.root, { storeDir: found.storeDir, log: (m) => console.error(`cartograph: ${m}`) });
}

async function stats(flags: Flags): Promise<number> {
  const engine = await openExisting(flags);
  if (!engine) return 1;
  try {
    const s = engine.stats();
    const storeBytes = await engine.storeSize();
    if (flags.json) console.log(JSON.stringify({ ...s, storeBytes }, null, 2));
    else printStats(s, storeBytes);
    return 0;
  } finally {
    await engine.close();
  }
}

async function show(query: string, flags: Flags): Promise<number> {
  if (!query) {
    console.error(`cartograph show: which symbol?\n\n${USAGE}`);
    return 2;
  }
  const engine = await openExisting(flags);
  if (!engine) return 1;
  try {
    const ids = findNodes(engine.graph.graph, query);
    const described = ids.map((id) => describeNode(engine.graph.graph, id));
    if (flags.json) {
      console.log(JSON.stringify(described, null, 2));
    } else if (described.length === 0) {
      console.log(`No node named '${query}'.`);
    } else {
      for (const d of described) {
        const where = d.node.path ? `${d.node.path}${d.node.range ? `:${d.node.range.startLine + 1}` : ''}` : '(outside the repository)';
        console.log(`${d.node.kind} ${d.node.qname}  ${where}`);
        if (d.node.signature) console.log(`  ${d.node.signature}`);
        if (d.node.doc) console.log(`  ${d.node.doc.split('\n')[0]}`);
        for (const e of d.outgoing) console.log(`  → ${e.kind.padEnd(10)} ${e.qname}  ${e.location}`);
        for (const e of d.incoming) console.log(`  ← ${e.kind.padEnd(10)} ${e.qname}  ${e.location}`);
        console.log('');
      }
    }
    return described.length === 0 ? 1 : 0;
  } finally {
    await engine.close();
  }
}

async function query(text: string, flags: Flags): Promise<number> {
  if (!text.trim()) {
    console.error(`cartograph query: what are you looking for?\n\n${USAGE}`);
    return 2;
  }
  const limit = positiveInteger('limit', flags.limit) ?? 10;
  const engine = await openExisting(flags);
  if (!engine) return 1;
  let loaded: QueryModels | undefined;
  try {
    // --mcts runs RANGER's traversal even without a model (with the lexical stand-in scorers).
    const descriptions = await DescriptionCache.open(descriptionsFile(engine));
    const searcher = createSearcher(engine, { descriptions, models: () => loaded?.models, ...(flags.mcts ? { mcts: { enabled: true } } : {}) });
    const question = flags.files ? (filesQuery(text) ?? text) : filesQuery(text);
    if (question !== undefined) return await queryFiles(engine, searcher, question, limit, Boolean(flags.json));
    // Models serve natural-language questions only: a name or a structural question is answered from
    // the graph without loading them or embedding the repository first.
    if (wantsModels(flags) && (await searcher.route(text)).route === 'natural-language') loaded = await loadQueryModels(engine, flags, Boolean(flags.json));
    const models = loaded?.models;
    const result = await searcher.search(text, limit);
    const graph = engine.graph.graph;
    const hits = result.hits.map((h) => {
      const n = graph.getNodeAttributes(h.id);
      return { ...h, kind: n.kind, qname: n.qname, path: n.path, line: n.range ? n.range.startLine + 1 : null, signature: n.signature, trail: h.path };
    });
    if (flags.json) {
      const embedding = loaded?.embedding && { embedded: loaded.embedding.embedded, reused: loaded.embedding.reused, persisted: loaded.embedding.persisted, ms: loaded.embedding.ms };
      console.log(JSON.stringify({ ...result, ...(models ? { models: models.status, embedding: embedding ?? null } : {}), hits }, null, 2));
      return 0;
    }
    console.log(`${result.route}: ${result.reason}`);
    if (hits.length === 0) console.log('No matches.');
    for (const h of hits) {
      const where = h.path ? `${h.path}${h.line ? `:${h.line}` : ''}` : '(outside the repository)';
      console.log(`${h.score.toFixed(3)}  ${h.kind.padEnd(14)} ${h.qname}  ${where}  [${h.via}]`);
      if (h.signature) console.log(`       ${h.signature}`);
      if (h.trail && h.trail.length > 1) console.log(`       found along ${h.trail.join(' → ')}`);
    }
    return 0;
  } finally {
    await loaded?.close();
    await engine.close();
  }
}

async function mcp(dirs: string[], flags: Flags): Promise<number> {
  const roots = dirs.length > 0 ? dirs : [process.cwd()];
  for (const dir of roots) {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      console.error(`cartograph mcp: ${dir} is not a folder`);
      return 2;
    }
  }
  if (flags.store && roots.length > 1) {
    console.error('cartograph mcp: --store names one store; with several roots each keeps its own <root>/.cartograph');
    return 2;
  }
  return serveMcp({ roots, store: flags.store, version: VERSION });
}

async function queryFiles(engine: Engine, searcher: Searcher, question: string, limit: number, json: boolean): Promise<number> {
  if (!question.trim()) {
    console.error(`cartograph query: "files:" needs the text of an issue or task after it\n\n${USAGE}`);
    return 2;
  }
  const ranking = await searcher.files(question, limit);
  const graph = engine.graph.graph;
  const hits = ranking.hits.map((h) => ({
    ...h,
    definitions: h.definitions.map((d) => {
      const n = graph.getNodeAttributes(d.id);
      return { id: d.id, score: d.score, kind: n.kind, qname: n.qname, line: n.range ? n.range.startLine + 1 : null };
    }),
  }));
  if (json) {
    console.log(JSON.stringify({ ...ranking, mode: 'files', hits }, null, 2));
    return 0;
  }
  console.log('files: ranked by their definitions and their whole text');
  if (hits.length === 0) console.log('No matching files.');
  for (const h of hits) {
    console.log(`${h.score.toFixed(3)}  ${h.path}  (text ${h.text.toFixed(2)})`);
    for (const d of h.definitions) console.log(`       ${d.score.toFixed(3)}  ${d.kind.padEnd(14)} ${d.qname}${d.line ? `:${d.line}` : ''}`);
  }
  return 0;
}

/** Descriptions live with the store (regenerable, so a store rebuilt from scratch may drop them). */
function descriptionsFile(engine: Engine): string | null {
  const dir = engine.storeInfo().dir;
  return dir ? path.join(dir, DESCRIPTIONS_FILE) : null;
}

async function describe(flags: Flags): Promise<number> {
  if (!flags.endpoint || !flags.model) {
    console.error(`cartograph describe: --endpoint and --model are required\n\n${USAGE}`);
    return 2;
  }
  const maxCalls = positiveInteger('max-calls', flags['max-calls']);
  const engine = await openExisting(flags);
  if (!engine) return 1;
  try {
    const cache = await DescriptionCache.open(descriptionsFile(engine));
    const describer = chatDescriber({ baseURL: flags.endpoint, model: flags.model, apiKey: process.env.CARTOGRAPH_API_KEY });
    let done = 0;
    const report = await liftGraph(engine.graph.graph, describer, cache, {
      sourceOf: sourceReader(engine.root),
      maxCalls,
      onDescribed: (ids) => !flags.json && process.stderr.isTTY && process.stderr.write(`\r described ${(done += ids.length)}`),
    });
    if (flags.json) console.log(JSON.stringify(report, null, 2));
    else console.log(`\nDescribed ${report.described} (${report.cached} already described, ${report.failed} failed)${report.stopped ? `; stopped: ${report.stopped}` : ''}.`);
    return report.described + report.cached > 0 || !report.stopped ? 0 : 1;
  } finally {
    await engine.close();
  }
}

function printStats(s: EngineStats, storeBytes: number): void {
  const nonZero = (o: Record<string, number | undefined>) => Object.entries(o).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`Repository: ${s.root}`);
  console.log(`Files: ${s.files} (${s.lines} lines${s.syntaxErrorFiles ? `, ${s.syntaxErrorFiles} with syntax errors kept as recovered` : ''})`);
  console.log(`Nodes: ${nonZero(s.nodes)}`);
  console.log(`Edges: ${nonZero(s.edges)}`);
  console.log(`Internal imports resolved: ${s.imports.resolved}/${s.imports.internal} (${(s.imports.rate * 100).toFixed(1)}%)`);
  console.log(`Store: ${s.store.dir ?? '(none)'} — ${s.store.status}${s.store.error ? `: ${s.store.error}` : ''}, ${(storeBytes / 1024 / 1024).toFixed(1)} MB`);
  if (s.skipped.length) {
    const byReason = new Map<string, number>();
    for (const k of s.skipped) byReason.set(k.reason, (byReason.get(k.reason) ?? 0) + 1);
    console.log(`Skipped: ${[...byReason].map(([r, n]) => `${r} ${n}`).join(', ')}`);
    for (const k of s.skipped.slice(0, 20)) console.log(`  ${k.path}: ${k.reason}${k.detail ? ` (${k.detail})` : ''}`);
    if (s.skipped.length > 20) console.log(`  … and ${s.skipped.length - 20} more (--json lists all)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(`cartograph: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
