// Search models in a real VS Code: by default the shipped code-search model (models/) embeds every
// folder with no download and nothing else is fetched; a cross-encoder opted into, unreachable here (no
// internet), is reported missing with its reason; pointing `cartograph.models.localPath` at the RANDOM-weight stand-ins that
// test/unit/modelFixtures.ts generates (test/.cache/random-models) loads them without a download and embeds the
// folders' nodes in the background. Nothing here is about retrieval quality.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { until } = require('../wait.js');

const LOCAL_MODELS = path.resolve(__dirname, '..', '..', '.cache', 'random-models');
/** The "Search" line of each folder in Show Index Status: how search runs, with which models. */
async function modelLines() {
  const text = await vscode.commands.executeCommand('cartograph.showStatus');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return text.split('\n').filter((l) => l.startsWith('- Search: '));
}

/** The Search lines once both folders' nodes are embedded by `embedder` (earlier models' lines do not count). */
async function embeddedBy(embedder) {
  let seen = [];
  return until(`every folder embedded by ${embedder}`, async () => {
    seen = await modelLines();
    return seen.length === vscode.workspace.workspaceFolders.length && seen.every((s) => s.startsWith(`- Search: embeddings ${embedder}`) && /; [1-9]\d* nodes embedded$/.test(s)) && seen;
  }, 120000, 500).catch((err) => {
    throw new Error(`${err.message}; last status: ${seen.join(' | ')}`);
  });
}

describe('Search models in a real VS Code', function () {
  const config = () => vscode.workspace.getConfiguration('cartograph');

  before(async function () {
    assert.ok(fs.existsSync(path.join(LOCAL_MODELS, '.ready')), `${LOCAL_MODELS} holds the random-weight models (scripts/test-integration.mjs generates it)`);
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    // Downloads are asked for by default; this suite wants the attempt (which fails offline).
    await config().update('search.downloadModels', 'always', vscode.ConfigurationTarget.Global);
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  after(async function () {
    for (const key of ['models.localPath', 'embedding.model', 'reranker.model', 'search.downloadModels']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('embeds with the shipped model and its shipped reranker by default, downloading nothing', async function () {
    this.timeout(150000);
    const lines = await embeddedBy('cartograph-code-search-v5');
    // No reranker model named: the learned reranker trained for the shipped model orders the hits (the CLI's and agents' default too).
    for (const line of lines) assert.match(line, /^- Search: embeddings cartograph-code-search-v5; \d+ nodes embedded$/);
  });

  it('says why an opted-in cross-encoder is missing when it cannot be downloaded', async function () {
    this.timeout(150000);
    await config().update('reranker.model', 'Xenova/ms-marco-MiniLM-L-6-v2', vscode.ConfigurationTarget.Global);
    let seen = [];
    await until('the missing cross-encoder reported', async () => {
      seen = await modelLines();
      return seen.length === vscode.workspace.workspaceFolders.length && seen.every((l) => /no reranker \(reranker model Xenova\/ms-marco-MiniLM-L-6-v2 is not available/.test(l));
    }, 120000, 500).catch((err) => {
      throw new Error(`${err.message}; last status: ${seen.join(' | ')}`);
    });
    for (const line of seen) assert.match(line, /^- Search: embeddings cartograph-code-search-v5; no reranker \(reranker model Xenova\/ms-marco-MiniLM-L-6-v2 is not available.*\); \d+ nodes embedded$/);
  });

  it('loads models from the local folder and embeds every folder in the background', async function () {
    this.timeout(150000);
    await config().update('models.localPath', LOCAL_MODELS, vscode.ConfigurationTarget.Global);
    await config().update('embedding.model', 'synthetic/minilm-l6-shape-embed', vscode.ConfigurationTarget.Global);
    await config().update('reranker.model', 'synthetic/minilm-l6-shape-rerank', vscode.ConfigurationTarget.Global);
    const lines = await embeddedBy('synthetic/minilm-l6-shape-embed');
    for (const line of lines) assert.match(line, /^- Search: embeddings synthetic\/minilm-l6-shape-embed, reranker synthetic\/minilm-l6-shape-rerank; \d+ nodes embedded$/);
  });
});
