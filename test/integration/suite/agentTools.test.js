// The agent tools as VS Code language-model tools, called the way Copilot's agent mode calls them:
// vscode.lm.tools lists them, vscode.lm.invokeTool runs each one on the ranger fixtures, and an
// unsaved edit in an open editor is what fetch_node shows.
const assert = require('assert');
const vscode = require('vscode');
const { until } = require('../wait.js');

const TOOLS = ['search_code', 'fetch_node', 'explore_graph', 'repo_overview', 'edit_context', 'impact'].map((t) => `cartograph_${t}`);

async function invoke(name, input) {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => part.value).join('\n');
}

describe('Agent tools (vscode.lm)', function () {
  let api;

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  it('lists the six tools with their schemas', function () {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('cartograph_'));
    assert.deepStrictEqual(ours.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const tool of ours) {
      assert.strictEqual(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description.length > 80, tool.name);
    }
  });

  it('answers each tool from the graph, across both folders', async function () {
    assert.match(await invoke('cartograph_search_code', { query: 'subclasses of Calculator' }), /Class extended\.Scientific {2}extended\.py:5/);
    assert.match(await invoke('cartograph_fetch_node', { id: 'extended.py#Scientific.divide' }), /return self\.multiply\(a, 1 \/ b\)/);
    assert.match(await invoke('cartograph_explore_graph', { name: 'demo', direction: 'out' }), /CALLS\s+extended\.quick_add {2}extended\.py:13/);
    const map = await invoke('cartograph_repo_overview', {});
    assert.match(map, /## [^\n]*py[\s\S]*class Calculator/);
    assert.match(map, /## [^\n]*ts/);
    const py = api.indexes().find((i) => i.folder.name.endsWith('py'));
    assert.match(await invoke('cartograph_edit_context', { path: `${py.folder.uri.fsPath}/extended.py`, line: 10 }), /Calculator/);
    assert.match(await invoke('cartograph_impact', { names: ['Calculator.multiply'] }), /Method extended\.Scientific\.divide/);
  });

  it('reads an unsaved buffer and says the graph has not caught up with it', async function () {
    const py = api.indexes().find((i) => i.folder.name.endsWith('py'));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(py.folder.uri, 'base.py'));
    const original = doc.getText();
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(11, 0), '        # UNSAVED NOTE\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const text = await invoke('cartograph_fetch_node', { id: 'base.py#Calculator', maxLines: 40 });
      assert.match(text, /# UNSAVED NOTE/);
      assert.match(text, /Not yet re-indexed[^\n]*base\.py/);
    } finally {
      // Put the text back and save it (the same bytes as on disk), so no dirty editor outlives the test.
      const restore = new vscode.WorkspaceEdit();
      restore.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), original);
      await vscode.workspace.applyEdit(restore);
      await doc.save();
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === doc.uri.toString());
      await vscode.window.tabGroups.close(tabs);
      await api.whenIdle();
    }
  });

  it('bad input is a tool error with a message', async function () {
    await assert.rejects(invoke('cartograph_fetch_node', { id: 'no/such.py#Nothing' }), /no node with id/);
    await assert.rejects(invoke('cartograph_edit_context', { path: '/etc/passwd', line: 1 }), /none of the indexed folders|outside/);
  });
});
