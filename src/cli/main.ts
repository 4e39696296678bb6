// `cartograph`: the engine from a terminal. index | stats | show | query | describe | features | mcp |
// service, each with --json. This bundle holds only what a question answered by the repository's
// service needs (the command line, the socket, the printing): answering from the query snapshot is in
// localAnswers.ts (dist/cliLocal.js), everything that needs the engine in engineCommands.ts
// (dist/cliEngine.js), each loaded on demand.
import { filesQuery } from '../core/search/filesQuery';
import { isUsageError, parseCommandLine, positiveInteger } from './commandLine';
import { describeRequest, MODEL_FLAG_OPTIONS, USAGE, type Flags } from './flags';
import { followParent, isEngineProcess, runInEngineProcess } from './engineProcess';
import { locateStore } from './locateStore';
import { askService, snapshotCannotAnswer, type Question } from './question';
import { loadBundle } from './bundles';
import { reachService, serviceCommand, serviceWanted, startServiceIfAbsent, wantedBy } from './service';
import { mcpFolders } from './mcpFolders';
import { printDescribed, printFeatures, printStats } from './printAnswers';
import type { FeaturesAnswer, FeaturesRequest } from '../core/features/featuresAnswer';
import { compatible, connectService, type ServiceConnection } from '../core/service/serviceClient';
import type { DescribeReply, StatsReply } from '../core/service/serviceProtocol';

const OPTIONS = {
  store: { type: 'string' },
  json: { type: 'boolean', default: false },
  exclude: { type: 'string', multiple: true },
  'max-file-size': { type: 'string' },
  'include-minified': { type: 'boolean', default: false },
  'reset-options': { type: 'boolean', default: false },
  'follow-symlinks': { type: 'boolean', default: false },
  limit: { type: 'string' },
  mcts: { type: 'boolean', default: false },
  files: { type: 'boolean', default: false },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  'max-calls': { type: 'string' },
  root: { type: 'string', multiple: true },
  'no-service': { type: 'boolean', default: false },
  'model-free': { type: 'boolean', default: false },
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
        if (isEngineProcess()) return await loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').index(rest[0], values);
        return (await loadBundle<typeof import('./indexWithoutEngine')>('cliIndex.js', './indexWithoutEngine').indexWithoutEngine(rest[0], values)) ?? (await runInEngineProcess());
      case 'stats':
        return isEngineProcess() ? await loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').stats(values) : await stats(values);
      case 'show':
        return await show(rest.join(' '), values);
      case 'query':
        return await query(rest.join(' '), values);
      case 'describe':
        return isEngineProcess() ? await loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').describe(values) : await describe(values);
      case 'features':
        return isEngineProcess() ? await loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').features(rest.join(' '), values) : await features(rest.join(' '), values);
      case 'mcp': {
        const folders = mcpFolders([...(values.root ?? []), ...rest], values.store);
        if (typeof folders === 'string') {
          console.error(`cartograph mcp: ${folders}`);
          return 2;
        }
        // Each root's service starts before the MCP half loads, so that both load at once.
        const started = new Set(folders.filter((folder) => startServiceIfAbsent(folder, values)).map((folder) => folder.root));
        return await loadBundle<typeof import('./mcp')>('cliMcp.js', './mcp').mcp(folders, values, started);
      }
      case 'service':
        // `run` is the service itself (started by reachService); its log file takes any panic text.
        return rest[0] === 'run' ? await loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').serviceRun(rest[1], values) : await serviceCommand(rest, values);
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
  return answer(flags, { kind: 'show', query });
}

async function query(text: string, flags: Flags): Promise<number> {
  if (!text.trim()) {
    console.error(`cartograph query: what are you looking for?\n\n${USAGE}`);
    return 2;
  }
  const limit = positiveInteger('limit', flags.limit) ?? 10;
  const question = flags.files ? (filesQuery(text) ?? text) : filesQuery(text);
  if (question === undefined) return answer(flags, { kind: 'search', text, limit });
  if (!question.trim()) {
    console.error(`cartograph query: "files:" needs the text of an issue or task after it\n\n${USAGE}`);
    return 2;
  }
  return answer(flags, { kind: 'files', question, limit });
}

/** The repository's running service, when it reads the folder as these flags ask (and has loaded the graph, when `ready`). */
async function runningService(flags: Flags, ready: boolean): Promise<ServiceConnection | undefined> {
  const found = locateStore(flags.store);
  const service = found && serviceWanted(flags) ? await connectService(found.storeDir) : undefined;
  if (service && compatible(service.hello, wantedBy(flags)) && (service.hello.ready || !ready)) return service;
  service?.close();
  return undefined;
}

/** The running service's counts (it holds the graph already); else the store, read in an engine process. */
async function stats(flags: Flags): Promise<number> {
  const service = await runningService(flags, true);
  if (!service) return runInEngineProcess();
  try {
    const { stats: counts, storeBytes } = await service.call<StatsReply>('stats');
    // A store the service cannot use is reported as a reader finds it (with what to run, exit 3).
    if (counts.store.status === 'damaged' || counts.store.status === 'unavailable') return runInEngineProcess();
    if (flags.json) console.log(JSON.stringify({ ...counts, storeBytes, service: { pid: service.hello.pid } }, null, 2));
    else printStats(counts, storeBytes);
    return 0;
  } finally {
    service.close();
  }
}

/**
 * The functional view from the running service (it keeps the hierarchy current and is the one writer
 * of the store's copy, so it is waited for while it loads); else from the store in an engine process.
 */
async function features(target: string, flags: Flags): Promise<number> {
  const service = await runningService(flags, false);
  if (!service) return runInEngineProcess();
  try {
    const request: FeaturesRequest = { target, cwd: process.cwd(), json: Boolean(flags.json) };
    return printFeatures(await service.call<FeaturesAnswer>('features', [request]));
  } finally {
    service.close();
  }
}

/**
 * Semantic lifting by the running service (its graph, its searches, the one writer of the store's
 * descriptions); else from the store in an engine process.
 */
async function describe(flags: Flags): Promise<number> {
  const request = describeRequest(flags);
  if (!request) return 2;
  const service = await runningService(flags, false);
  if (!service) return runInEngineProcess();
  try {
    console.error(`cartograph describe: described by the repository's service (pid ${service.hello.pid})`);
    return printDescribed(await service.call<DescribeReply>('describe', [request]), Boolean(flags.json));
  } finally {
    service.close();
  }
}

/**
 * Answers through the repository's service when one is ready, which is all this bundle needs; else in
 * this process (localAnswers.ts, its own bundle), which starts the service for the next command.
 * `--mcts` runs in this process: the service's searcher runs MCTS only with a model.
 */
async function answer(flags: Flags, question: Question): Promise<number> {
  const found = locateStore(flags.store);
  if (!found) {
    console.error(`cartograph: no index found${flags.store ? ` at ${flags.store}` : ' here or above'}; run 'cartograph index <dir>' first.`);
    return 1;
  }
  const useService = !isEngineProcess() && !flags.mcts && serviceWanted(flags);
  if (useService) {
    const needsStore = snapshotCannotAnswer(question, flags);
    const service = await reachService(found, flags, needsStore ? 'wait' : 'background');
    if (service && (service.hello.ready || needsStore)) return askService(service, question, flags);
    service?.close();
  }
  return loadBundle<typeof import('./localAnswers')>('cliLocal.js', './localAnswers').answerHere(found, flags, question, useService ? 'join' : undefined);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(`cartograph: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
