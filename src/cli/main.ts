// `cartograph`: the engine from a terminal. index | stats | show, each with --json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { Engine, recordedRoot, type EngineStats, type IndexProgress } from '../core/engine';
import { createSearcher, type SearchGraph, type Searcher } from '../core/search';
import { descriptionsStamp, openQuerySnapshot, saveEngineSnapshot } from '../core/search/querySnapshot';
import { chatDescriber } from '../core/lifting/chatDescriber';
import { DescriptionCache } from '../core/lifting/descriptionCache';
import { liftGraph } from '../core/lifting/lifter';
import { sourceReader } from '../core/lifting/source';
import { DESCRIPTIONS_FILE } from '../core/store/storeVersion';
import { loadQueryModels, MODEL_FLAG_OPTIONS, wantsModels, type ModelFlags, type QueryModels } from './models';
import { describeNode, findNodes } from '../core/graph/describe';

const USAGE = `Usage:
  cartograph index <dir> [--store DIR] [--exclude PATTERN]... [--max-file-size BYTES] [--json]
  cartograph stats [--store DIR] [--json]
  cartograph show <name | qualified.name | node id> [--store DIR] [--json]
  cartograph query "<name, structural question or plain English>" [--store DIR] [--json] [--limit N] [--mcts]
      [--embedding-model ID] [--reranker-model ID] [--models-dir DIR] [--embedding-endpoint URL]
      with a model flag: transformers.js models (e.g. Xenova/all-MiniLM-L6-v2, Xenova/ms-marco-MiniLM-L-6-v2),
      from DIR/<id>/ offline with --models-dir, else downloaded once to ~/.cache/cartograph/models;
      or an OpenAI-compatible embeddings endpoint (--embedding-model names its model, key from
      $CARTOGRAPH_API_KEY). The store's nodes are embedded first and the vectors kept for later queries;
      a model that cannot be loaded is reported and the query answers without it
  cartograph describe --endpoint URL --model NAME [--store DIR] [--max-calls N]
      semantic lifting: a one-line purpose description of every function and class, written by an
      OpenAI-compatible chat endpoint (API key from $CARTOGRAPH_API_KEY), cached by content hash
      and used by query

The store defaults to <dir>/.cartograph; stats and show find it from the current folder upwards.`;

const STORE_FOLDER = '.cartograph';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      store: { type: 'string' },
      json: { type: 'boolean', default: false },
      exclude: { type: 'string', multiple: true },
      'max-file-size': { type: 'string' },
      limit: { type: 'string' },
      mcts: { type: 'boolean', default: false },
      endpoint: { type: 'string' },
      model: { type: 'string' },
      'max-calls': { type: 'string' },
      ...MODEL_FLAG_OPTIONS,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  switch (command) {
    case 'index':
      return index(rest[0], values);
    case 'stats':
      return stats(values);
    case 'show':
      return show(rest.join(' '), values);
    case 'query':
      return query(rest.join(' '), values);
    case 'describe':
      return describe(values);
    default:
      console.error(`cartograph: unknown command '${command}'\n\n${USAGE}`);
      return 2;
  }
}

type Flags = ModelFlags & { store?: string; json?: boolean; exclude?: string[]; 'max-file-size'?: string; limit?: string; mcts?: boolean; endpoint?: string; model?: string; 'max-calls'?: string };

async function index(dir: string | undefined, flags: Flags): Promise<number> {
  if (!dir) {
    console.error(`cartograph index: which folder?\n\n${USAGE}`);
    return 2;
  }
  const root = path.resolve(dir);
  const maxFileSize = flags['max-file-size'] ? Number(flags['max-file-size']) : undefined;
  if (maxFileSize !== undefined && !(maxFileSize > 0)) {
    console.error(`cartograph index: --max-file-size must be a positive number of bytes`);
    return 2;
  }
  const engine = await Engine.open(root, {
    storeDir: flags.store ? path.resolve(flags.store) : undefined,
    exclude: flags.exclude,
    maxFileSize,
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
    // The next `query` or `show` then starts from the snapshot (on Django the lexical index's build is most of this).
    const stamp = descriptionsStamp(engine.storeInfo().dir ?? '');
    const snapshot = await saveSnapshot(engine, createSearcher(engine, { descriptions: await DescriptionCache.open(descriptionsFile(engine)) }), stamp);
    const s = engine.stats();
    const storeBytes = await engine.storeSize();
    if (flags.json) {
      console.log(JSON.stringify({ report, stats: s, storeBytes, snapshot }, null, 2));
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

/** Saves the query snapshot (see querySnapshot.ts); a failure is reported and changes nothing else. */
async function saveSnapshot(engine: Engine, searcher: Searcher, descriptionsStamp: string): Promise<{ saved: boolean; ms: number }> {
  const started = performance.now();
  const saved = await saveEngineSnapshot(engine, searcher, descriptionsStamp).then(
    () => true,
    (err: unknown) => {
      console.error(`cartograph: query snapshot not saved: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    },
  );
  return { saved, ms: Math.round(performance.now() - started) };
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
  return answer(flags, false, async ({ graph }) => {
    const described = findNodes(graph, query).map((id) => describeNode(graph, id));
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
  });
}

async function query(text: string, flags: Flags): Promise<number> {
  if (!text.trim()) {
    console.error(`cartograph query: what are you looking for?\n\n${USAGE}`);
    return 2;
  }
  const limit = flags.limit ? Number(flags.limit) : 10;
  // Models need the store (node vectors): a query with a model flag always opens it.
  return answer(flags, wantsModels(flags), async ({ graph, searcher, engine, source }) => {
    let loaded: QueryModels | undefined;
    try {
      // Models serve natural-language questions only: a name or a structural question is answered from
      // the graph without loading them or embedding the repository first.
      if (engine && wantsModels(flags) && (await searcher.route(text)).route === 'natural-language') loaded = await loadQueryModels(engine, flags, Boolean(flags.json));
      const models = loaded?.models;
      const result = await searcher.search(text, limit);
      const hits = result.hits.map((h) => {
        const n = graph.getNodeAttributes(h.id);
        return { ...h, kind: n.kind, qname: n.qname, path: n.path, line: n.range ? n.range.startLine + 1 : null, signature: n.signature, trail: h.path };
      });
      if (flags.json) {
        const embedding = loaded?.embedding && { embedded: loaded.embedding.embedded, reused: loaded.embedding.reused, persisted: loaded.embedding.persisted, ms: loaded.embedding.ms };
        console.log(JSON.stringify({ ...result, ...(models ? { models: models.status, embedding: embedding ?? null } : {}), index: source, hits }, null, 2));
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
    }
  });
}

/** What `show` and `query` answer from: the graph, a searcher over it, and the engine when it was opened. */
interface QueryView {
  graph: SearchGraph['graph'];
  searcher: Searcher;
  engine?: Engine;
  /** Where the graph and indexes came from, and what that took (for --json). */
  source: { source: 'snapshot' | 'store'; ms: number; snapshotSaved?: boolean };
}

/**
 * Runs `work` on the query snapshot when it is valid (no LanceDB, no re-stitching, no index builds),
 * else on an engine opened from the store as before; the second way saves a fresh snapshot for the
 * next call. `needsStore`: skip the snapshot (models read vectors from the store).
 */
async function answer(flags: Flags, needsStore: boolean, work: (view: QueryView) => Promise<number>): Promise<number> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return 1;
  }
  const started = performance.now();
  const mctsOption = flags.mcts ? { mcts: { enabled: true } } : {};
  if (!needsStore) {
    const opened = await openQuerySnapshot(found.storeDir, found.root);
    if (opened.ok) {
      const { repo, entities, lexical } = opened.snapshot;
      const searcher = createSearcher({ graph: repo }, { prebuilt: { entities, lexical }, ...mctsOption });
      const ms = performance.now() - started;
      try {
        return await work({ graph: repo.graph, searcher, source: { source: 'snapshot', ms: Math.round(ms) } });
      } catch (err) {
        // An index section that fails its checksum is found only when a query first reads it.
        if (!(err instanceof Error && err.message.startsWith('query snapshot damaged'))) throw err;
        console.error(`cartograph: ${err.message}; loading the graph from the store instead`);
      }
    } else {
      console.error(`cartograph: ${opened.reason}; loading the graph from the store${opened.reason.startsWith('no query') ? '' : ' instead'}`);
    }
  }
  const stamp = descriptionsStamp(found.storeDir);
  const engine = await Engine.open(found.root, { storeDir: found.storeDir, log: (m) => console.error(`cartograph: ${m}`) });
  try {
    const descriptions = await DescriptionCache.open(descriptionsFile(engine));
    const searcher = createSearcher(engine, { descriptions, ...mctsOption });
    const ms = performance.now() - started;
    // Saved before answering (the process ends at the same time either way) so that --json can say so.
    const snapshot = await saveSnapshot(engine, searcher, stamp);
    return await work({ graph: engine.graph.graph, searcher, engine, source: { source: 'store', ms: Math.round(ms), snapshotSaved: snapshot.saved } });
  } finally {
    await engine.close();
  }
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
  const maxCalls = flags['max-calls'] ? Number(flags['max-calls']) : undefined;
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
