// Worker thread entry: parses batches of files posted by WorkerParser (parseService.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from '../backgroundPriority';
import { parseInProcess, type ParseJob, type ParseOutcome } from './parseService';
import { ParserPool } from './parser';

runInBackground();
const pool = new ParserPool((workerData as { grammarsDir: string }).grammarsDir);

parentPort?.on('message', async ({ id, jobs }: { id: number; jobs: ParseJob[] }) => {
  const outcomes: ParseOutcome[] = [];
  for (const job of jobs) outcomes.push(await parseInProcess(pool, job));
  parentPort?.postMessage({ id, json: JSON.stringify(outcomes) });
});
