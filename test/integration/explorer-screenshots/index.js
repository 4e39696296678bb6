// extensionTestsPath for the explorer screenshots in docs/: the explorer on one folder, in Light Modern
// and Dark Modern, as a new user sees it (nothing clicked), then with a class selected (dimming).
//   CARTOGRAPH_E2E_FOLDER=bench/.corpora/django CARTOGRAPH_E2E_TESTS=test/integration/explorer-screenshots/index.js \
//   CARTOGRAPH_E2E_TIMEOUT_MS=900000 CARTOGRAPH_SHOTS=docs/explorer-django CARTOGRAPH_SHOT_SELECT=db/models/query.py#QuerySet \
//   CARTOGRAPH_E2E_SETTINGS='{"git.openRepositoryInParentFolders":"never"}' node scripts/test-integration.mjs
// Writes <CARTOGRAPH_SHOTS>-light.png, -dark.png and -dark-selected.png (when CARTOGRAPH_SHOT_SELECT
// names a node), then the view by functional areas: -areas-light.png and -areas-dark.png.
// Prints a plain `N passed, N failed` line.
const vscode = require('vscode');
const { nextRender, screenshot, sleep } = require('../wait');

exports.run = async function run() {
  let passed = 0;
  let failed = 0;
  try {
    const base = process.env.CARTOGRAPH_SHOTS;
    if (!base) throw new Error('CARTOGRAPH_SHOTS (the screenshots\' path without -light.png) is not set');
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    const deadline = Date.now() + 800000;
    while (!(api.indexes().length > 0 && api.indexes().every((i) => i.state.kind === 'ready'))) {
      if (Date.now() > deadline) throw new Error('the folder never became ready');
      await sleep(200);
    }
    const counts = await api.indexes()[0].repository.counts();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const config = vscode.workspace.getConfiguration('workbench');
    await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('cartograph.openGraphExplorer');
    const panel = api.explorer.current();
    const first = await nextRender(panel, 'the first view');
    console.log(`explorer on ${api.indexes()[0].folder.name} (${counts.nodes} graph nodes): first view ${first.nodes} nodes, ${first.edges} edges`);
    await screenshot(`${base}-light.png`);
    await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    await screenshot(`${base}-dark.png`);
    const select = process.env.CARTOGRAPH_SHOT_SELECT;
    if (select) {
      panel.handle({ type: 'focus', id: select });
      await sleep(3000); // any new nodes' layout burst and the camera's move
      if (panel.selectedNode !== select) throw new Error(`${select} was not selected`);
      await screenshot(`${base}-dark-selected.png`);
    }
    // The view by functional areas (the Areas toggle): built model-free on first use.
    const byAreas = nextRender(panel, 'the view by areas');
    panel.handle({ type: 'setViewBy', viewBy: 'areas' });
    const areas = await byAreas;
    console.log(`by areas: first view ${areas.nodes} nodes, ${areas.edges} edges`);
    await sleep(1000);
    await screenshot(`${base}-areas-dark.png`);
    await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
    await screenshot(`${base}-areas-light.png`);
    await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    passed++;
  } catch (err) {
    console.log(String((err && err.stack) || err));
    failed++;
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) throw new Error('explorer screenshots failed');
};
