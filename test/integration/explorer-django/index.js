// extensionTestsPath for the explorer on Django in a real VS Code (code-server):
//   CARTOGRAPH_E2E_FOLDER=bench/.corpora/django CARTOGRAPH_E2E_TESTS=test/integration/explorer-django/index.js \
//   CARTOGRAPH_E2E_TIMEOUT_MS=900000 CARTOGRAPH_E2E_SCREENSHOT=test/.artifacts/explorer-vscode-django.png node scripts/test-integration.mjs
// Waits for the index, opens the explorer, and reports how long the real webview took to draw the
// first view and an expansion. Prints a plain `N passed, N failed` line.
const vscode = require('vscode');
const { nextRender } = require('../wait');

exports.run = async function run() {
  let passed = 0;
  let failed = 0;
  try {
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    const deadline = Date.now() + 600000;
    while (!(api.indexes().length > 0 && api.indexes().every((i) => i.state.kind === 'ready'))) {
      if (Date.now() > deadline) throw new Error('Django never became ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    const counts = await api.indexes()[0].repository.counts();
    const t0 = Date.now();
    await vscode.commands.executeCommand('cartograph.openGraphExplorer');
    const panel = api.explorer.current();
    const first = await nextRender(panel, 'the first view');
    console.log(`explorer on Django (${counts.nodes} graph nodes): command → first frame ${Date.now() - t0} ms, ${first.nodes} nodes, ${first.edges} edges (webview draw ${Math.round(first.ms)} ms)`);
    const t1 = Date.now();
    const expanded = nextRender(panel, 'the expansion');
    panel.handle({ type: 'focus', id: 'db/models/query.py#QuerySet.filter' });
    const second = await expanded;
    console.log(`focus on QuerySet.filter: ${Date.now() - t1} ms to the drawn diff, now ${second.nodes} nodes, ${second.edges} edges`);
    if (!(first.nodes > 0 && second.nodes > first.nodes)) throw new Error('the explorer did not draw Django');
    passed++;
    await new Promise((r) => setTimeout(r, 4000)); // let the layout settle for the screenshot
  } catch (err) {
    console.log(String(err && err.stack || err));
    failed++;
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) throw new Error('explorer on Django failed');
};
