// The CLI's bundles: dist/cli.js is the thin front door; the commands that need more require their
// bundle beside it on demand (scripts/build.mjs lists them).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/**
 * One of the CLI's other bundles (dist/<bundle> beside this one), or its TypeScript source when run
 * unbundled; required only by the commands that need it: what a call through the service never loads,
 * it never compiles (createRequire, not require: esbuild would otherwise pull it into this bundle).
 */
export function loadBundle<T>(bundle: string, source: string): T {
  const bundled = path.join(__dirname, bundle);
  return createRequire(__filename)(fs.existsSync(bundled) ? bundled : source) as T;
}
