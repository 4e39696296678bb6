// esbuild options every Node bundle shares (scripts/build.mjs, and benchmarks that run bundled so
// that their worker threads start from dist/ as in the extension). LanceDB's JavaScript and
// apache-arrow are bundled together (one copy of Arrow, which LanceDB checks tables against); only
// its platform package with the native `.node` binary stays external. transformers.js stays
// external too: an ES module that finds its files through import.meta.url, loaded with import() by
// the model worker.
export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // code with \u escapes for anything non-ASCII (esbuild's default, relied on by build.mjs's asciiOnly)
  charset: 'ascii',
  // jsonc-parser's UMD build requires its own files at run time; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  // web-tree-sitter's ESM build finds its files through import.meta.url, which a CJS bundle lacks.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
  sourcemap: true,
  logLevel: 'warning',
  external: ['@lancedb/lancedb-*', '*.node', 'vscode', 'onnxruntime-node', 'sharp', '@xenova/transformers'],
};
