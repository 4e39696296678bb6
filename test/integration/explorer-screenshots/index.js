// extensionTestsPath for the explorer screenshots in docs/: the explorer on one folder, in Light Modern
// and Dark Modern, as a new user sees it (by functional areas, nothing clicked), then by folders, and
// by folders with a class selected (dimming).
//   CARTOGRAPH_E2E_FOLDER=bench/.corpora/django CARTOGRAPH_E2E_TESTS=test/integration/explorer-screenshots/index.js \
//   CARTOGRAPH_E2E_TIMEOUT_MS=900000 CARTOGRAPH_SHOTS=docs/explorer-django CARTOGRAPH_SHOT_SELECT=db/models/query.py#QuerySet \
//   CARTOGRAPH_E2E_SETTINGS='{"git.openRepositoryInParentFolders":"never"}' node scripts/test-integration.mjs
// Writes <CARTOGRAPH_SHOTS>-areas-light.png and -areas-dark.png (the first view), then by folders
// -dark.png, -dark-selected.png (when CARTOGRAPH_SHOT_SELECT names a node) and -light.png.
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
    // The explorer opens by functional areas (the model-free hierarchy, built on first use)
    const areas = await nextRender(panel, 'the first view, by areas');
    console.log(`explorer on ${api.indexes()[0].folder.name} (${counts.nodes} graph nodes): by areas ${areas.nodes} nodes, ${areas.edges} edges`);
    await sleep(1000);
    await screenshot(`${base}-areas-light.png`);
    await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    await screenshot(`${base}-areas-dark.png`);
    // One toggle away: the folders
    const byFolders = nextRender(panel, 'the view by folders');
    panel.handle({ type: 'setViewBy', viewBy: 'folders' });
    const first = await byFolders;
    console.log(`by folders: ${first.nodes} nodes, ${first.edges} edges`);
    await sleep(1000);
    await screenshot(`${base}-dark.png`);
    const select = process.env.CARTOGRAPH_SHOT_SELECT;
    if (select) {
      panel.handle({ type: 'focus', id: select });
      await sleep(3000); // any new nodes' layout burst and the camera's move
      if (panel.selectedNode !== select) throw new Error(`${select} was not selected`);
      await screenshot(`${base}-dark-selected.png`);
    }
    await config.update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
    await screenshot(`${base}-light.png`);
    await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    passed++;
  } catch (err) {
    console.log(String((err && err.stack) || err));
    failed++;
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) throw new Error('explorer screenshots failed');
};
