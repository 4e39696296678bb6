// A `show` or `query` question as the CLI's two halves pass it: main.ts asks the repository's service,
// localAnswers.ts answers in the process. Both print through printAnswers.ts.
import type { NodeDescription } from '../core/graph/describe';
import type { FilesAnswer } from '../core/service/answers';
import type { ServiceConnection } from '../core/service/serviceClient';
import { NO_MODELS, type QueryReply, type QueryRequest } from '../core/service/serviceProtocol';
import { runInEngineProcess } from './engineProcess';
import { wantsModels, type Flags } from './flags';
import { modelSettings } from './modelSettings';
import { printFiles, printSearch, printShow } from './printAnswers';

export type Question =
  | { kind: 'show'; query: string }
  | { kind: 'search'; text: string; limit: number }
  | { kind: 'files'; question: string; limit: number };

/** `files:` and models read what only the store holds (per-file graphs, vectors): the snapshot cannot answer. */
export function snapshotCannotAnswer(question: Question, flags: Flags): boolean {
  return question.kind === 'files' || (question.kind === 'search' && wantsModels(flags));
}

/** The service's answer, printed; a service that stops while answering leaves the question to an engine process. */
export async function askService(service: ServiceConnection, question: Question, flags: Flags): Promise<number> {
  const json = Boolean(flags.json);
  try {
    switch (question.kind) {
      case 'show':
        return printShow(question.query, await service.call<NodeDescription[]>('show', [question.query]), json);
      case 'files':
        printFiles(await service.call<FilesAnswer>('files', [question.question, question.limit]), { index: { source: 'service' } }, json);
        return 0;
      case 'search': {
        const request: QueryRequest = { text: question.text, limit: question.limit, models: wantsModels(flags) ? modelSettings(flags) : flags['model-free'] ? NO_MODELS : undefined };
        const { models, index, ...found } = await service.call<QueryReply>('query', [request]);
        printSearch(found, { ...(models ? { models } : {}), index }, json);
        return 0;
      }
    }
  } catch (err) {
    if (service.open) throw err;
    console.error(`cartograph: the service stopped while answering (${err instanceof Error ? err.message : String(err)}); answering here`);
    return runInEngineProcess();
  } finally {
    service.close();
  }
}

