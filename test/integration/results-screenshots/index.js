// extensionTestsPath for the results view screenshots in docs/: on the fixture workspace, a structural
// answer of Find Where Implemented kept in the Cartograph panel beside the code, in Light Modern and
// Dark Modern, with CodeLens on.
//   CARTOGRAPH_E2E_TESTS=test/integration/results-screenshots/index.js CARTOGRAPH_SHOTS=docs/results-view \
//   node scripts/test-integration.mjs
// Writes <CARTOGRAPH_SHOTS>-light.png and -dark.png. Prints a plain `N passed, N failed` line.
const path = require('path');
const vscode = require('vscode');
const { screenshot, until } = require('../wait');

exports.run = async function run() {
  let passed = 0;
  let failed = 0;
  const global = vscode.ConfigurationTarget.Global;
  try {
    const base = process.env.CARTOGRAPH_SHOTS;
    if (!base) throw new Error('CARTOGRAPH_SHOTS (the screenshots\' path without -light.png) is not set');
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await until('every folder ready', () => api.indexes().length > 0 && api.indexes().every((i) => i.state.kind === 'ready'), 120000, 200);
    const py = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    await vscode.workspace.getConfiguration('cartograph').update('codeLens.enabled', true, global);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(py.uri.fsPath, 'base.py')), { preview: false });
    const answered = new Promise((resolve) => {
      const sub = api.onDidShowFindAnswer((a) => a.query === 'callers of Calculator.add' && a.rows > 0 && (sub.dispose(), resolve()));
    });
    await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.add');
    await answered;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await until('the answer kept', () => api.results.kept.length > 0, 5000);
    const theme = vscode.workspace.getConfiguration('workbench');
    await theme.update('colorTheme', 'Default Light Modern', global);
    await screenshot(`${base}-light.png`);
    await theme.update('colorTheme', 'Default Dark Modern', global);
    await screenshot(`${base}-dark.png`);
    await theme.update('colorTheme', undefined, global);
    await vscode.workspace.getConfiguration('cartograph').update('codeLens.enabled', undefined, global);
    passed++;
  } catch (err) {
    console.log(String((err && err.stack) || err));
    failed++;
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) throw new Error('results view screenshots failed');
};
