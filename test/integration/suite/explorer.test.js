// The graph explorer in a real VS Code (code-server): the command opens the panel, the webview draws
// the graph the host sends (it answers with what it rendered), a save reaches it as a diff, and a
// reveal message opens the right file at the right line.
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { nextRender, openExplorer, until } = require('../wait');

const EXTENSION_ID = 'cartograph.cartograph';

describe('Graph explorer in a real VS Code', function () {
  let api;
  let folder;
  let repository;
  let panel;

  before(async function () {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    folder = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    const deadline = Date.now() + 60000;
    while (!api.indexes().every((i) => i.state.kind === 'ready')) {
      if (Date.now() > deadline) throw new Error('folders never became ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    repository = api.repositoryFor(folder.uri);
    // the panel shows the folder of the active editor
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'extended.py')));
  });

  after(() => api.explorer.current()?.dispose());

  it('the command opens the panel by functional areas; one toggle shows the folder and module level', async function () {
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.includes('cartograph.openGraphExplorer'));
    // the panel exists once the command returns; its webview loads and asks for the graph
    let first;
    ({ panel, first } = await openExplorer(api));
    assert.ok(panel, 'a panel is open');
    const stats = await repository.stats();
    const modules = stats.nodes.Module || 0;
    const externals = stats.nodes.External ? 1 : 0;
    // by areas: every module under its area (at least one area, at most one per module), no folder level
    assert.strictEqual(panel.viewBy, 'areas', 'the first view is by areas');
    assert.ok(first.nodes > modules + externals && first.nodes <= 2 * modules + externals, `drawn ${JSON.stringify(first)} vs ${JSON.stringify(stats.nodes)}`);
    const byFolders = nextRender(panel, 'the view by folders');
    panel.handle({ type: 'setViewBy', viewBy: 'folders' });
    const folders = await byFolders;
    // expected: the root folder, every module, and one group for the external symbols
    const expected = (stats.nodes.Folder || 0) + modules + externals;
    assert.strictEqual(folders.nodes, expected, `drawn ${JSON.stringify(folders)} vs ${JSON.stringify(stats.nodes)}`);
    assert.ok(folders.edges >= 3, 'folder containment and the import between the modules are drawn');
    assert.strictEqual(panel.viewBy, 'folders');
  });

  it('expanding a module and saving a new function there reach the webview as diffs', async function () {
    // saves and watcher batches of earlier suites are in the graph before the view is counted
    await api.whenIdle();
    // every render is kept: a failure then says what the webview drew, and in which order
    const renders = [];
    const sub = panel.onDidRender((m) => renders.push(`${m.of} of ${m.nodes}`));
    const drawn = (what, expected) => until(what, () => renders.includes(expected), 30000).catch(() => assert.fail(`${what}: wanted "${expected}", the webview drew ${renders.join(', ')}`));
    try {
      const shown = nextRender(panel, 'the expansion');
      panel.handle({ type: 'expand', id: 'base.py' });
      const expanded = await shown;
      assert.strictEqual(expanded.of, 'diff');
      const definitions = (await repository.nodesInFile('base.py')).filter((n) => n.kind !== 'Module' && n.kind !== 'Method').length;
      assert.ok(definitions >= 3);
      const uri = vscode.Uri.file(path.join(folder.uri.fsPath, 'base.py'));
      const document = await vscode.workspace.openTextDocument(uri);
      const original = document.getText();
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, document.positionAt(original.length), '\n\ndef explorer_probe():\n    return 1\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      renders.length = 0;
      assert.ok(await document.save());
      await drawn('the saved edit: one new function node', `diff of ${expanded.nodes + 1}`);
      // restore the fixture for the suites that follow
      const restore = new vscode.WorkspaceEdit();
      restore.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
      assert.ok(await vscode.workspace.applyEdit(restore));
      renders.length = 0;
      assert.ok(await document.save());
      await drawn('the restored file', `diff of ${expanded.nodes}`);
    } finally {
      sub.dispose();
    }
  });

  it('a reveal message opens the right file at the right line', async function () {
    const target = await repository.node('extended.py#Scientific.divide');
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'base.py')));
    panel.handle({ type: 'reveal', id: target.id, path: target.path, line: target.range.startLine });
    const deadline = Date.now() + 10000;
    let editor;
    for (;;) {
      editor = vscode.window.activeTextEditor;
      if (editor && editor.document.uri.fsPath.endsWith('extended.py') && editor.selection.active.line === target.range.startLine) break;
      if (Date.now() > deadline) throw new Error(`active editor ${editor && editor.document.uri.fsPath}:${editor && editor.selection.active.line}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.strictEqual(editor.document.uri.fsPath, path.join(folder.uri.fsPath, 'extended.py'));
    assert.ok(editor.document.lineAt(target.range.startLine).text.includes('def divide'));
  });

  it('with Follow cursor on, the definition under the cursor is opened up to and selected', async function () {
    const target = await repository.node('extended.py#Scientific.divide');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'extended.py')));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    panel.handle({ type: 'collapse', id: 'extended.py' });
    panel.handle({ type: 'setFollow', on: true });
    const shown = nextRender(panel, 'the followed method');
    editor.selection = new vscode.Selection(target.range.startLine + 1, 4, target.range.startLine + 1, 4);
    await shown;
    const deadline = Date.now() + 5000;
    while (panel.selectedNode !== target.id && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.strictEqual(panel.selectedNode, target.id);
    panel.handle({ type: 'setFollow', on: false });
  });

  it('a Find Where Implemented pick is highlighted in the panel with the path that found it', async function () {
    const pick = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.add');
    const item = pick.items.find((i) => i.root === folder.uri.fsPath && i.path && i.path.length > 1);
    assert.ok(item, JSON.stringify(pick.items.map((i) => [i.id, i.path])));
    pick.activeItems = [item];
    // the QuickPick renders in the workbench asynchronously: accept once it has the item active
    const deadline = Date.now() + 15000;
    while (panel.selectedNode !== item.id && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      if (pick.activeItems[0] !== item) pick.activeItems = [item];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      for (let i = 0; i < 20 && panel.selectedNode !== item.id; i++) await new Promise((r) => setTimeout(r, 50));
    }
    assert.strictEqual(panel.selectedNode, item.id);
    assert.deepStrictEqual(panel.foundPath, item.path);
  });

  it('with Follow cursor on, typing in the editor keeps the keyboard: every character lands in the file', async function () {
    this.timeout(60000);
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, 'extended.py'));
    const target = await repository.node('extended.py#Scientific.divide');
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    const original = editor.document.getText();
    panel.handle({ type: 'setFollow', on: true });
    editor.selection = new vscode.Selection(target.range.startLine + 1, 0, target.range.startLine + 1, 0);
    const typed = '# typed by user: abcdefghijklmnopqrstuvwxyz';
    const followed = nextRender(panel, 'the followed definition').catch(() => undefined);
    // ~3 s of typing: each keystroke moves the cursor, so the follow timer (250 ms) fires again and again
    for (const ch of typed) {
      await vscode.commands.executeCommand('type', { text: ch });
      await new Promise((r) => setTimeout(r, 3000 / typed.length));
      assert.ok(!panel.active, `the graph took the keyboard after "${ch}"`);
    }
    await followed;
    await new Promise((r) => setTimeout(r, 1500)); // the selection message has reached the webview
    try {
      assert.ok(panel.selectedNode, 'the explorer followed the cursor meanwhile');
      assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath, uri.fsPath, 'the editor is still the active one');
      assert.ok(!panel.active, 'the graph panel is not active');
      assert.ok(editor.document.lineAt(target.range.startLine + 1).text.startsWith(typed), `all of it reached the file: ${editor.document.lineAt(target.range.startLine + 1).text}`);
    } finally {
      panel.handle({ type: 'setFollow', on: false });
      const restore = new vscode.WorkspaceEdit();
      restore.replace(uri, new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), original);
      await vscode.workspace.applyEdit(restore);
      await editor.document.save();
    }
  });

  it('Reindex Workspace leaves the focus where it was: the editor stays active and an open Find picker stays open', async function () {
    this.timeout(90000);
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, 'base.py'));
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
    // the last find-where pick is re-selected in the new graph after the re-index (that is what stole focus)
    assert.ok(panel.selectedNode, 'a find-where pick is selected from the test before');
    const redrawn = nextRender(panel, 'the re-indexed graph', 60000);
    await vscode.commands.executeCommand('cartograph.reindex');
    await redrawn;
    await new Promise((r) => setTimeout(r, 1500));
    assert.strictEqual(vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath, uri.fsPath, 'the editor is still active');
    assert.ok(!panel.active, 'the graph panel did not take focus');

    const pick = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'Calculator');
    let hidden = false;
    const sub = pick.onDidHide(() => (hidden = true));
    try {
      await new Promise((r) => setTimeout(r, 500));
      const again = nextRender(panel, 'the graph re-indexed with the picker open', 60000);
      await vscode.commands.executeCommand('cartograph.reindex');
      await again;
      await new Promise((r) => setTimeout(r, 1500));
      assert.strictEqual(hidden, false, 'the picker stayed open');
      assert.ok(!panel.active, 'the graph panel did not take focus');
    } finally {
      sub.dispose();
      // closing the picker gives the user's editor back (its Escape convention): let that land
      const closed = new Promise((resolve) => {
        const done = api.onDidCloseFind(() => {
          done.dispose();
          resolve();
        });
      });
      pick.hide();
      await closed;
      repository = api.repositoryFor(folder.uri); // a re-index opens the folder's repository anew
    }
  });

  it('a click shows the first lines in the graph\'s details and opens no editor, maximised or not; Enter opens it beside', async function () {
    const target = await repository.node('base.py#Calculator');
    const deadline = Date.now() + 10000;
    const until = async (what, done) => {
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(done(), what);
    };
    const textTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText);
    // only the graph is left open: a preview must not split the window to show the source
    await vscode.window.tabGroups.close(textTabs());
    panel.reveal();
    await until('the graph is in view', () => panel.visible);
    const groups = vscode.window.tabGroups.all.length;
    const preview = async (node) => {
      panel.handle({ type: 'reveal', id: node.id, path: node.path, line: node.range.startLine, preview: true });
      await until(`${node.id}'s lines went to the details`, () => panel.previewedSource?.id === node.id);
      assert.strictEqual(panel.previewedSource.line, node.range.startLine);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepStrictEqual(textTabs().map((t) => t.label), [], 'no editor was opened');
      assert.strictEqual(vscode.window.tabGroups.all.length, groups, 'the layout is as it was');
    };
    await preview(target);
    assert.match(panel.previewedSource.lines[0], /class Calculator/);
    // Enter (and Reveal) open it, beside the graph
    panel.handle({ type: 'reveal', id: target.id, path: target.path, line: target.range.startLine });
    let editor;
    await until('base.py is open', () => (editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath.endsWith('base.py'))));
    assert.notStrictEqual(editor.viewColumn, panel.viewColumn, 'in a group of its own');
    assert.ok(panel.visible, 'the graph is still in view');
    assert.strictEqual(editor.selection.active.line, target.range.startLine);
    // The graph's group maximised over base.py's: a click keeps it so (an editor opened would bring the other group back)
    const focusGroup = ['workbench.action.focusFirstEditorGroup', 'workbench.action.focusSecondEditorGroup', 'workbench.action.focusThirdEditorGroup'];
    await vscode.commands.executeCommand(focusGroup[panel.viewColumn - 1]);
    await until('the graph\'s group is the active one', () => panel.active);
    await vscode.commands.executeCommand('workbench.action.toggleMaximizeEditorGroup');
    try {
      const tabs = textTabs().length;
      panel.handle({ type: 'reveal', id: 'extended.py#Scientific.divide', path: 'extended.py', line: (await repository.node('extended.py#Scientific.divide')).range.startLine, preview: true });
      await until('the lines went to the details', () => panel.previewedSource?.id === 'extended.py#Scientific.divide');
      await new Promise((r) => setTimeout(r, 300));
      assert.strictEqual(textTabs().length, tabs, 'no editor was opened');
      assert.ok(panel.active, 'the graph keeps the focus');
    } finally {
      await vscode.commands.executeCommand('workbench.action.toggleMaximizeEditorGroup');
    }
  });

  it('the panel serializer brings the explorer back from its saved state (folder, Follow cursor, selection, view by folders)', async function () {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID).packageJSON;
    assert.ok(manifest.activationEvents.includes('onWebviewPanel:cartograph.explorer'), 'VS Code activates the extension to restore the panel');
    const target = 'extended.py#Scientific.divide';
    const restored = vscode.window.createWebviewPanel('cartograph.explorer', 'Cartograph Graph', { viewColumn: vscode.ViewColumn.Two, preserveFocus: true }, { enableScripts: true });
    const state = { folder: folder.uri.toString(), follow: true, selected: target, viewBy: 'folders' };
    await api.explorer.serializer.deserializeWebviewPanel(restored, state);
    const revived = api.explorer.current();
    assert.ok(revived && revived !== panel, 'a new explorer adopted the restored panel');
    panel = revived;
    await nextRender(panel, 'the restored graph');
    const deadline = Date.now() + 15000;
    while (panel.selectedNode !== target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.strictEqual(panel.selectedNode, target, 'the selection is back');
    assert.strictEqual(panel.following, true, 'Follow cursor is back on');
    assert.strictEqual(panel.viewBy, 'folders', 'the view is by folders again (a new panel would open by areas)');
    panel.handle({ type: 'setFollow', on: false });
  });

  it('a reveal outside the folder opens nothing', async function () {
    const opened = () => vscode.workspace.textDocuments.map((d) => d.uri.fsPath).filter((f) => f.endsWith('passwd'));
    panel.handle({ type: 'reveal', id: 'x', path: '../../etc/passwd', line: 0 });
    await new Promise((r) => setTimeout(r, 500));
    assert.deepStrictEqual(opened(), []);
  });
});
