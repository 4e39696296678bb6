// Bundles the CLI, the parse worker and the extension with esbuild. Native or instance-sensitive
// packages stay external: LanceDB's native module, and apache-arrow (LanceDB checks Arrow tables
// against its own copy of the library), and transformers.js (an ES module that finds its files
// through import.meta.url; loaded with import() by the model worker).
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
  external: ['@lancedb/lancedb', 'apache-arrow', 'vscode', 'onnxruntime-node', 'sharp', '@xenova/transformers'],
};

const entries = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/core/parse/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  { entryPoints: ['src/core/models/modelWorker.ts'], outfile: 'dist/modelWorker.js' },
];
if (existsSync('src/extension/extension.ts')) entries.push({ entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' });

await Promise.all(entries.map((e) => build({ ...common, ...e })));
console.log(`built ${entries.map((e) => e.outfile).join(', ')}`);
