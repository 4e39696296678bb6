// `show` and `query` answered in the CLI's own process (a bundle of its own, dist/cliLocal.js, which a
// call answered by the repository's service never loads): from the query snapshot when it is valid (no
// LanceDB, no re-stitching, no index builds), else by waiting for the service to load the store, or,
// with none, from the store in an engine process as before (which saves a fresh snapshot for the next call).
import { createSearcher, type Searcher } from '../core/search';
import { filesAnswer, searchAnswer, showAnswer } from '../core/service/answers';
import { openQuerySnapshot } from '../core/search/querySnapshot';
import { isEngineProcess, runInEngineProcess } from './engineProcess';
import { inProcessModels, wantsModels, type Flags, type StoreLocation } from './flags';
import type { QueryModels } from './models';
import { printFiles, printSearch, printShow } from './printAnswers';
import { askService, snapshotCannotAnswer, type Question } from './question';
import { loadBundle } from './bundles';
import { reachService } from './service';
import type { QueryView } from './queryView';

/** `service`: how to reach the repository's service when the snapshot cannot answer (undefined: not at all). */
export async function answerHere(found: StoreLocation, flags: Flags, question: Question, service: 'join' | undefined): Promise<number> {
  const work = workFor(question, flags);
  const started = performance.now();
  if (!snapshotCannotAnswer(question, flags)) {
    const opened = await openQuerySnapshot(found.storeDir, found.root);
    if (opened.ok) {
      const { graph, repo, entities, lexical } = opened.snapshot;
      const source: QueryView['source'] = { source: 'snapshot', ms: Math.round(performance.now() - started) };
      let searcher: Searcher | undefined;
      const searcherOnce = () => {
        if (searcher) return searcher;
        const building = performance.now();
        const status = inProcessModels(flags);
        searcher = createSearcher({ graph: repo() }, { prebuilt: { version: opened.snapshot.version, entities, lexical }, models: () => ({ status }), ...(flags.mcts ? { mcts: { enabled: true } } : {}) });
        source.ms += Math.round(performance.now() - building); // the searcher's setup is part of loading
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
    } else if (service) {
      // No snapshot to answer from: the service (started by main.ts) loads the store once for this command and the next.
      const joined = await reachService(found, flags, service);
      if (joined) return askService(joined, question, flags);
    } else if (isEngineProcess()) {
      console.error(`cartograph: ${opened.reason}; loading the graph from the store${opened.reason.startsWith('no query') ? '' : ' instead'}`);
    }
  }
  // The store is read in a child process (engineProcess.ts), which says why the snapshot did not answer.
  if (!isEngineProcess()) return runInEngineProcess();
  return loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').answerFromStore(found, flags, started, work);
}

/** The answer to `question` from a graph and a searcher in this process, printed. */
function workFor(question: Question, flags: Flags): (view: QueryView) => Promise<number> {
  const json = Boolean(flags.json);
  switch (question.kind) {
    case 'show':
      return async ({ graph }) => printShow(question.query, showAnswer(graph, question.query), json);
    case 'files':
      return async ({ graph, searcher }) => (printFiles(filesAnswer(graph, await searcher().files(question.question, question.limit)), {}, json), 0);
    case 'search':
      return async (view) => {
        const { graph, loadModels, source } = view;
        const searcher = view.searcher();
        let loaded: QueryModels | undefined;
        try {
          // Models serve natural-language questions only: a name or a structural question is answered from
          // the graph without loading them or embedding the repository first.
          if (loadModels && wantsModels(flags) && (await searcher.route(question.text)).route === 'natural-language') loaded = await loadModels();
          const models = loaded?.models;
          const found = searchAnswer(graph, await searcher.search(question.text, question.limit));
          const embedding = loaded?.embedding && { embedded: loaded.embedding.embedded, reused: loaded.embedding.reused, persisted: loaded.embedding.persisted, ms: loaded.embedding.ms };
          const used = models ? { models: models.status, embedding: embedding ?? null } : found.route === 'natural-language' ? { models: inProcessModels(flags) } : {};
          printSearch(found, { ...used, index: source }, json);
          return 0;
        } finally {
          await loaded?.close();
        }
      };
  }
}
