// `cartograph`: the engine from a terminal. index | stats | show | query | describe, each with --json.
// This bundle holds only what `query` and `show` need to answer from the query snapshot (graphology,
// the search indexes): everything that needs the engine is in engineCommands.ts, loaded on demand.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { NodeDescription } from '../core/graph/describe';
import { createSearcher, filesQuery, type Searcher } from '../core/search';
import { filesAnswer, searchAnswer, showAnswer, type FilesAnswer } from '../core/service/answers';
import type { ServiceConnection } from '../core/service/serviceClient';
import type { QueryReply, QueryRequest } from '../core/service/serviceProtocol';
import { openQuerySnapshot } from '../core/search/querySnapshot';
import { isUsageError, parseCommandLine, positiveInteger } from './commandLine';
import { MODEL_FLAG_OPTIONS, USAGE, wantsModels, type Flags } from './flags';
import { followParent, isEngineProcess, runInEngineProcess } from './engineProcess';
import { locateStore } from './locateStore';
import { modelSettings } from './modelSettings';
import type { QueryModels } from './models';
import { printFiles, printSearch, printShow } from './printAnswers';
import { reachService, serviceCommand, serviceWanted } from './service';
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
  'no-service': { type: 'boolean', default: false },
  all: { type: 'boolean', default: false },
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
      case 'service':
        // `run` is the service itself (started by reachService); its log file takes any panic text.
        return rest[0] === 'run' ? await engineCommands().serviceRun(rest[1], values) : await serviceCommand(rest, values);
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
  return answer(
    flags,
    false,
    async (service) => printShow(query, await service.call<NodeDescription[]>('show', [query]), Boolean(flags.json)),
    async ({ graph }) => printShow(query, showAnswer(graph, query), Boolean(flags.json)),
  );
}

async function query(text: string, flags: Flags): Promise<number> {
  if (!text.trim()) {
    console.error(`cartograph query: what are you looking for?\n\n${USAGE}`);
    return 2;
  }
  const limit = positiveInteger('limit', flags.limit) ?? 10;
  const json = Boolean(flags.json);
  const question = flags.files ? (filesQuery(text) ?? text) : filesQuery(text);
  if (question !== undefined) {
    if (!question.trim()) {
      console.error(`cartograph query: "files:" needs the text of an issue or task after it\n\n${USAGE}`);
      return 2;
    }
    // The file ranking reads every file's per-file graph, which the snapshot does not carry: the service or the store.
    return answer(
      flags,
      true,
      async (service) => (printFiles(await service.call<FilesAnswer>('files', [question, limit]), { index: { source: 'service' } }, json), 0),
      async ({ graph, searcher }) => (printFiles(filesAnswer(graph, await searcher().files(question, limit)), {}, json), 0),
    );
  }
  // Models need the store (node vectors): a query with a model flag never answers from the snapshot.
  return answer(
    flags,
    wantsModels(flags),
    async (service) => {
      const reply = await service.call<QueryReply>('query', [{ text, limit, models: wantsModels(flags) ? modelSettings(flags) : undefined } satisfies QueryRequest]);
      const { models, index, ...found } = reply;
      printSearch(found, { ...(models ? { models } : {}), index }, json);
      return 0;
    },
    async (view) => {
      const { graph, loadModels, source } = view;
      const searcher = view.searcher();
      let loaded: QueryModels | undefined;
      try {
        // Models serve natural-language questions only: a name or a structural question is answered from
        // the graph without loading them or embedding the repository first.
        if (loadModels && wantsModels(flags) && (await searcher.route(text)).route === 'natural-language') loaded = await loadModels();
        const models = loaded?.models;
        const found = searchAnswer(graph, await searcher.search(text, limit));
        const embedding = loaded?.embedding && { embedded: loaded.embedding.embedded, reused: loaded.embedding.reused, persisted: loaded.embedding.persisted, ms: loaded.embedding.ms };
        printSearch(found, { ...(models ? { models: models.status, embedding: embedding ?? null } : {}), index: source }, json);
        return 0;
      } finally {
        await loaded?.close();
      }
    },
  );
}

/**
 * Answers through the repository's service when one is ready (`viaService`); else runs `work` on the
 * query snapshot when it is valid (no LanceDB, no re-stitching, no index builds) and starts the service
 * for the next command; else waits for a service to load the store, or, with none, opens the store in
 * an engine process as before (which saves a fresh snapshot for the next call).
 * `needsStore`: the snapshot cannot answer (`files:` and models read what only the store holds).
 * `--mcts` runs in this process: the service's searcher runs MCTS only with a model.
 */
async function answer(flags: Flags, needsStore: boolean, viaService: (service: ServiceConnection) => Promise<number>, work: (view: QueryView) => Promise<number>): Promise<number> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return 1;
  }
  const useService = !isEngineProcess() && !flags.mcts && serviceWanted(flags);
  if (useService) {
    const service = await reachService(found, flags, needsStore ? 'wait' : 'background');
    if (service && (service.hello.ready || needsStore)) return served(service, viaService);
    service?.close();
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
    } else if (useService) {
      // No snapshot to answer from: the service (started above) loads the store once for this command and the next.
      const service = await reachService(found, flags, 'wait');
      if (service) return served(service, viaService);
    } else if (isEngineProcess()) {
      console.error(`cartograph: ${opened.reason}; loading the graph from the store${opened.reason.startsWith('no query') ? '' : ' instead'}`);
    }
  }
  // The store is read in a child process (engineProcess.ts), which says why the snapshot did not answer.
  if (!isEngineProcess()) return runInEngineProcess();
  return engineCommands().answerFromStore(found, flags, started, work);
}

/** A service's answer; a service that stops while answering leaves the question to this process. */
async function served(service: ServiceConnection, viaService: (service: ServiceConnection) => Promise<number>): Promise<number> {
  try {
    return await viaService(service);
  } catch (err) {
    if (service.open) throw err;
    console.error(`cartograph: the service stopped while answering (${err instanceof Error ? err.message : String(err)}); answering here`);
    return runInEngineProcess();
  } finally {
    service.close();
  }
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
