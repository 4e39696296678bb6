import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker script `name`: `<name>.js` next to the bundle in dist/, or else `<name>.ts` in
 * `sourceDir` (the caller's own folder) run through tsx, as tests and benchmarks run the sources.
 */
export function startWorkerScript(sourceDir: string, name: string, options: WorkerOptions = {}): Worker {
  const bundled = path.join(sourceDir, `${name}.js`);
  if (fs.existsSync(bundled)) return new Worker(bundled, options);
  const source = path.join(sourceDir, `${name}.ts`);
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { ...options, eval: true });
}
