// Compiled twins in a real VS Code: a package as published on npm (zod 4.6.7's src/v3/ZodError.ts and
// the v3/ZodError.js, .cjs, .d.ts, .d.cts built from it; test/fixtures/real/zod-package) is added to
// the workspace. Find Where Implemented answers each definition once, at the TypeScript source, and
// says what it was compiled to; the explorer does not draw the compiled copies, and a cursor in one of
// them selects the source's definition.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { nextRender, openExplorer, until } = require('../wait');

const FIND = 'cartograph.findWhereImplemented';
const FIXTURE = path.resolve(__dirname, '../../fixtures/real/zod-package');
const COMPILED = ['v3/ZodError.cjs', 'v3/ZodError.d.cts', 'v3/ZodError.d.ts', 'v3/ZodError.js'];

describe('Compiled twins (zod as published on npm)', function () {
  let api;
  let tmp;
  let dir;
  let index;

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-twins-'));
    dir = path.join(tmp, 'zod-package');
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const at = vscode.workspace.workspaceFolders.length;
    assert.ok(vscode.workspace.updateWorkspaceFolders(at, 0, { uri: vscode.Uri.file(dir), name: 'zod-package' }));
    index = await until('the package indexed', () => api.indexes().find((i) => i.root === dir && i.state.kind === 'ready'), 60000);
  });

  after(async function () {
    api.explorer.current()?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const at = vscode.workspace.workspaceFolders.findIndex((f) => f.uri.fsPath === dir);
    if (at >= 0) vscode.workspace.updateWorkspaceFolders(at, 1);
    // the suites after this one see the workspace as it was
    await until('the package removed', () => !api.indexes().some((i) => i.root === dir), 30000);
    // Its index closes after it leaves the list, saving into the folder's store: deleted once it has.
    await api.whenIdle();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  const rowsOf = async (query) => {
    const pick = await vscode.commands.executeCommand(FIND, query);
    await until(`the answer to ${query}`, () => !pick.busy && pick.items.some((i) => i.root === dir), 15000);
    return pick.items.filter((i) => i.root === dir);
  };

  it('Find Where Implemented names the class once, at its TypeScript source, and says what it was compiled to', async function () {
    const rows = (await rowsOf('ZodError')).filter((i) => / ZodError$/.test(i.label));
    const described = rows.map((i) => `${i.label} ${i.description}`).join(' | ');
    assert.strictEqual(rows.length, 1, described);
    assert.strictEqual(rows[0].file.fsPath, path.join(dir, 'src/v3/ZodError.ts'), described);
    assert.match(rows[0].description, new RegExp(`^src/v3/ZodError\\.ts:\\d+ · also compiled to ${COMPILED.join(', ').replace(/\./g, '\\.')}$`));
  });

  it('callers are listed once each, in the source, never in a compiled copy', async function () {
    const rows = await rowsOf('callers of flatten');
    const described = rows.map((i) => `${i.label} ${i.description}`).join(' | ');
    assert.ok(rows.some((i) => / formErrors$/.test(i.label)), described);
    assert.strictEqual(new Set(rows.map((i) => i.qname)).size, rows.length, `each caller once: ${described}`);
    for (const row of rows) assert.ok(row.file.fsPath.startsWith(path.join(dir, 'src') + path.sep), `${row.label} in ${row.file.fsPath}`);
  });

  it('the explorer draws no compiled copy, and a cursor in one selects the source', async function () {
    const compiled = vscode.Uri.file(path.join(dir, 'v3/ZodError.cjs'));
    const editor = await vscode.window.showTextDocument(compiled);
    // the panel opens on the active editor's folder
    api.explorer.current()?.dispose();
    const { panel } = await openExplorer(api);
    const byFolders = nextRender(panel, 'the view by folders');
    await panel.handle({ type: 'setViewBy', viewBy: 'folders' });
    const drawn = await byFolders;
    const stats = await index.repository.stats();
    // every folder and module, less the v3 folder and the four files in it that were built from src/v3/ZodError.ts
    const externals = stats.nodes.External ? 1 : 0;
    assert.strictEqual(drawn.nodes, (stats.nodes.Folder - 1) + (stats.nodes.Module - COMPILED.length) + externals, `drawn ${JSON.stringify(drawn)} of ${JSON.stringify(stats.nodes)}`);

    const line = editor.document.getText().split('\n').findIndex((text) => /^class ZodError\b/.test(text));
    assert.ok(line >= 0);
    await panel.handle({ type: 'setFollow', on: true });
    editor.selection = new vscode.Selection(line, 6, line, 6);
    await until('the source definition selected', () => panel.selectedNode === 'src/v3/ZodError.ts#ZodError', 15000)
      .catch(() => assert.fail(`selected ${panel.selectedNode}`));
    await panel.handle({ type: 'setFollow', on: false });
  });
});
