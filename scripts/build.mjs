// Bundles the CLI, the workers (parse, model, engine) and the extension with esbuild. LanceDB's JavaScript and apache-arrow
// are bundled together (one copy of Arrow, which LanceDB checks tables against); only its platform
// package with the native `.node` binary stays external. transformers.js stays external too: an ES
// module that finds its files through import.meta.url, loaded with import() by the model worker.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // jsonc-parser's UMD build requires its own files at run time; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  // web-tree-sitter's ESM build finds its files through import.meta.url, which a CJS bundle lacks.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
  sourcemap: true,
  logLevel: 'warning',
  external: ['@lancedb/lancedb-*', '*.node', 'vscode', 'onnxruntime-node', 'sharp', '@xenova/transformers'],
};

const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/core/parse/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  { entryPoints: ['src/core/models/modelWorker.ts'], outfile: 'dist/modelWorker.js' },
  { entryPoints: ['src/core/service/repositoryWorker.ts'], outfile: 'dist/repositoryWorker.js' },
];
if (existsSync('src/extension/extension.ts')) entries.push({ entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' });

// the graph explorer's webview: a browser bundle (script + its CSS) loaded from dist/webview
const webview = { entryPoints: { explorer: 'webview-ui/src/main.ts', 'explorer-style': 'webview-ui/explorer.css' }, outdir: 'dist/webview', bundle: true, platform: 'browser', format: 'iife', target: 'es2020', sourcemap: true, logLevel: 'warning' };

await Promise.all([...entries.map((e) => build({ ...common, ...e })), build(webview)]);
console.log(`built ${[...entries.map((e) => e.outfile), 'dist/webview/'].join(', ')}`);
