// `cartograph`: the engine from a terminal. index | stats | show | query | describe, each with --json.
// This bundle holds only what `query` and `show` need to answer from the query snapshot (graphology,
// the search indexes): everything that needs the engine is in engineCommands.ts, loaded on demand.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describeNode, findNodes } from '../core/graph/describe';
import { createSearcher, filesQuery, type Searcher } from '../core/search';
import { openQuerySnapshot } from '../core/search/querySnapshot';
import { isUsageError, parseCommandLine, positiveInteger } from './commandLine';
import { MODEL_FLAG_OPTIONS, USAGE, wantsModels, type Flags } from './flags';
import { followParent, isEngineProcess, runInEngineProcess } from './engineProcess';
import { locateStore } from './locateStore';
import type { QueryModels } from './models';
import type { QueryView } from './queryView';

const OPTIONS = {
  store: { type: 'string' },
  json: { type: 'boolean', default: false },
  exclude: { type: 'string', multiple: true },
  'max-file-size': { type: 'string' },
  'include-minified': { type: 'boolean', default: false },
  'follow-symlinks': { type: 'boolean', default: false },
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
    if (isEngineProcess()) followParent();
    switch (command) {
      case 'index':
        return isEngineProcess() ? await engineCommands().index(rest[0], values) : await runInEngineProcess();
      case 'stats':
        return isEngineProcess() ? await engineCommands().stats(values) : await runInEngineProcess();
      case 'show':
        return await show(rest.join(' '), values);
      case 'query':
        return await query(rest.join(' '), values);
      case 'describe':
        return isEngineProcess() ? await engineCommands().describe(values) : await runInEngineProcess();
      case 'features':
        return isEngineProcess() ? await engineCommands().features(rest.join(' '), values) : await runInEngineProcess();
      case 'mcp':
        return await engineCommands().mcp([...(values.root ?? []), ...rest], values);
      default:
        console.error(`cartograph: unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (!isUsageError(error)) throw error;
    console.error(`cartograph${command ? ` ${command}` : ''}: ${error.message}`);
    return 2;
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
  const limit = positiveInteger('limit', flags.limit) ?? 10;
  const question = flags.files ? (filesQuery(text) ?? text) : filesQuery(text);
  // The file ranking reads every file's per-file graph, which the snapshot does not carry: from the store.
  if (question !== undefined) return answer(flags, true, (view) => queryFiles(view, question, limit, Boolean(flags.json)));
  // Models need the store (node vectors): a query with a model flag always opens it.
  return answer(flags, wantsModels(flags), async (view) => {
    const { graph, loadModels, source } = view;
    const searcher = view.searcher();
    let loaded: QueryModels | undefined;
    try {
      // Models serve natural-language questions only: a name or a structural question is answered from
      // the graph without loading them or embedding the repository first.
      if (loadModels && wantsModels(flags) && (await searcher.route(text)).route === 'natural-language') loaded = await loadModels();
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

async function queryFiles({ graph, searcher }: QueryView, question: string, limit: number, json: boolean): Promise<number> {
  if (!question.trim()) {
    console.error(`cartograph query: "files:" needs the text of an issue or task after it\n\n${USAGE}`);
    return 2;
  }
  const ranking = await searcher().files(question, limit);
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

/**
 * Runs `work` on the query snapshot when it is valid (no LanceDB, no re-stitching, no index builds),
 * else on an engine opened from the store as before, which saves a fresh snapshot for the next call.
 * `needsStore`: skip the snapshot (models read vectors from the store).
 */
async function answer(flags: Flags, needsStore: boolean, work: (view: QueryView) => Promise<number>): Promise<number> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return 1;
  }
  const started = performance.now();
  if (!needsStore) {
    const opened = await openQuerySnapshot(found.storeDir, found.root);
    if (opened.ok) {
      const { graph, repo, entities, lexical } = opened.snapshot;
      const source: QueryView['source'] = { source: 'snapshot', ms: Math.round(performance.now() - started) };
      let searcher: Searcher | undefined;
      const searcherOnce = () => {
        if (searcher) return searcher;
        const building = performance.now();
        searcher = createSearcher({ graph: repo() }, { prebuilt: { entities, lexical }, ...(flags.mcts ? { mcts: { enabled: true } } : {}) });
        source.ms += Math.round(performance.now() - building); // graphology's graph is part of loading
        return searcher;
      };
      try {
        return await work({ graph, searcher: searcherOnce, source });
      } catch (err) {
        // An index section that fails its checksum is found only when a query first reads it.
        if (!(err instanceof Error && err.message.startsWith('query snapshot damaged'))) throw err;
        if (!isEngineProcess()) return runInEngineProcess();
        console.error(`cartograph: ${err.message}; loading the graph from the store instead`);
      }
    } else if (isEngineProcess()) {
      console.error(`cartograph: ${opened.reason}; loading the graph from the store${opened.reason.startsWith('no query') ? '' : ' instead'}`);
    }
  }
  // The store is read in a child process (engineProcess.ts), which says why the snapshot did not answer.
  if (!isEngineProcess()) return runInEngineProcess();
  return engineCommands().answerFromStore(found, flags, started, work);
}

/**
 * The engine's half of the CLI (engineCommands.ts), required only by the commands that need it:
 * bundled as dist/cliEngine.js beside this file, or the TypeScript source when run unbundled.
 */
function engineCommands(): typeof import('./engineCommands') {
  const bundled = path.join(__dirname, 'cliEngine.js');
  // createRequire, not require: esbuild would otherwise pull the engine into this bundle.
  return createRequire(__filename)(fs.existsSync(bundled) ? bundled : './engineCommands') as typeof import('./engineCommands');
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(`cartograph: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
