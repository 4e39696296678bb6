// Benchmarks that report peak RSS measure each corpus in a process of its own (maxRSS never goes
// down): the parent re-runs the same script with `--corpus NAME --json TMP --child` per corpus and
// reads the result back.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface IsolationOptions {
  /** The benchmark script (its `__filename`). */
  script: string;
  /** Set in the child processes. */
  child?: boolean;
  /** Where a child writes its result. */
  json?: string;
  /** Arguments passed on to the children. */
  args: string[];
}

/** One result per corpus with its process's peak RSS; undefined in a child, whose result went to the parent. */
export async function resultsPerCorpus<T>(corpora: string[], options: IsolationOptions, bench: (corpus: string) => Promise<T>): Promise<(T & { peakRssMB: number })[] | undefined> {
  if (options.child || corpora.length === 1) {
    // maxRSS covers worker threads too: they share the process.
    const result = { ...(await bench(corpora[0])), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) };
    if (!options.child) return [result];
    fs.writeFileSync(options.json!, JSON.stringify({ results: [result] }));
    return undefined;
  }
  return corpora.map((corpus) => {
    const tmp = path.join(os.tmpdir(), `cartograph-bench-${process.pid}-${path.basename(corpus)}.json`);
    execFileSync(process.execPath, ['--import', 'tsx', options.script, '--corpus', corpus, '--json', tmp, ...options.args, '--child'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const result = JSON.parse(fs.readFileSync(tmp, 'utf8')).results[0] as T & { peakRssMB: number };
    fs.rmSync(tmp);
    return result;
  });
}
