// Bundles the CLI (its front door and the halves it loads on demand), the workers (parse, model, engine) and the extension with esbuild (options shared
// with benchmarks in bundleOptions.mjs), and the explorer's webview.
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { common } from './bundleOptions.mjs';
import { writeO200kTable } from './o200kTable.mjs';

const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // the CLI's engine half, required by dist/cli.js only for the commands that need it (src/cli/main.ts)
  { entryPoints: ['src/cli/engineCommands.ts'], outfile: 'dist/cliEngine.js' },
  // answers from the query snapshot, required by dist/cli.js only when the repository's service does not answer
  { entryPoints: ['src/cli/localAnswers.ts'], outfile: 'dist/cliLocal.js' },
  // `index` through the repository's service, or with nothing changed told from its record: required by dist/cli.js before it starts the engine's process
  { entryPoints: ['src/cli/indexWithoutEngine.ts'], outfile: 'dist/cliIndex.js' },
  // `cartograph mcp`, a relay to the repository's service: it loads the engine's half only where no service can run
  { entryPoints: ['src/cli/mcp.ts'], outfile: 'dist/cliMcp.js' },
  { entryPoints: ['src/core/parse/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  { entryPoints: ['src/core/models/modelWorker.ts'], outfile: 'dist/modelWorker.js' },
  { entryPoints: ['src/core/service/repositoryWorker.ts'], outfile: 'dist/repositoryWorker.js' },
];
if (existsSync('src/extension/extension.ts')) entries.push({ entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' });

// the graph explorer's webview: a browser bundle (script + its CSS) loaded from dist/webview
const webview = { entryPoints: { explorer: 'webview-ui/src/main.ts', 'explorer-style': 'webview-ui/explorer.css' }, outdir: 'dist/webview', bundle: true, platform: 'browser', format: 'iife', target: 'es2020', sourcemap: true, logLevel: 'warning' };

await Promise.all([...entries.map((e) => build({ ...common, ...e })), build(webview)]);
for (const { outfile } of entries) asciiOnly(outfile);
// the token counter's rank table (src/core/completion/o200k.ts)
writeO200kTable('dist/o200k.bin');
console.log(`built ${[...entries.map((e) => e.outfile), 'dist/webview/', 'dist/o200k.bin'].join(', ')}`);

/**
 * esbuild escapes every non-ASCII character in code (its default charset) but copies comments as
 * written. Those, one '?' per UTF-16 unit (the source maps' columns stay right), make the bundle
 * ASCII, which V8 holds as a one-byte string: decoding dist/cliEngine.js's 4.3 MB took 60-70 ms
 * with its 82 non-ASCII characters, 7-30 ms without (every process that loads it: the service first).
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => '?'.repeat(c.length));
  if (ascii !== text) writeFileSync(file, ascii);
}
