// Graph-fused inline completion in a real VS Code against the OpenAI-compatible test server, started
// here in the extension host: a completion is offered in an editor of the fixture workspace (accepted
// into the buffer), its request carried the fused context, and the transparency command shows it.
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { OpenAiTestServer } = require('../../support/openaiTestServer.js');

const { sleep, until } = require('../wait.js');

describe('Cartograph completion in a real VS Code', function () {
  let server;
  let api;
  let document;
  let original;
  const config = () => vscode.workspace.getConfiguration('cartograph');

  before(async function () {
    // VS Code for the web saves after a delay by default: the edit below must stay unsaved
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await until('folders ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
    server = new OpenAiTestServer();
    const endpoint = await server.listen();
    await config().update('completion.endpoint', endpoint, vscode.ConfigurationTarget.Global);
    await config().update('completion.model', 'qwen2.5-coder-1.5b', vscode.ConfigurationTarget.Global);
    await config().update('completion.delay', 0, vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    // the fixture file back as it was, on disk and in the graph (other suites count its nodes)
    if (document && original !== undefined && document.getText() !== original) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), original);
      await vscode.workspace.applyEdit(edit);
      await document.save();
      await api.whenIdle();
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const key of ['completion.endpoint', 'completion.model', 'completion.delay']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  it('offers a completion whose request carried the cross-file definition and the triple linking it', async function () {
    const folder = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'extended.py')));
    original = document.getText();
    const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    // unsaved text: the query graph must see it
    const end = document.lineAt(document.lineCount - 1).range.end;
    await editor.edit((b) => b.insert(end, '\n\n\ndef triple_sum(a, b, c):\n    calc = Calculator()\n    return calc.'));
    const cursor = document.lineAt(document.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(cursor, cursor);
    server.script({ text: 'add(calc.add(a, b), c)' });
    const seen = server.requests.length;

    const accepted = await until('the inline completion to be offered and accepted', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await sleep(400);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      return document.getText().includes('return calc.add(calc.add(a, b), c)');
    }, 45000);
    assert.ok(accepted);

    const request = server.requests[seen];
    assert.ok(request, 'the test server received the request');
    assert.strictEqual(request.path, '/v1/completions');
    const prompt = request.body.prompt;
    assert.ok(prompt.startsWith('<|fim_prefix|>'), 'Qwen FIM prompt');
    assert.ok(prompt.includes('def add(self, a, b) -> float'), 'definition from base.py');
    assert.ok(prompt.includes('# extended.py: triple_sum CALLS base.py: Calculator'), 'triple linking the unsaved function to Calculator');

    const record = await vscode.commands.executeCommand('cartograph.showLastCompletion');
    assert.ok(record && record.outcome === 'completed', 'the transparency command returns the last record');
    const shown = vscode.window.activeTextEditor.document.getText();
    assert.ok(shown.includes('## Triples') && shown.includes('extended.py: triple_sum CALLS base.py: Calculator'), 'the transparency document shows the triples');
    assert.ok(shown.includes(prompt), 'and exactly the prompt that was sent');
    assert.match(shown, /- queryGraph: \d+\.\d ms/);
    assert.ok(document.isDirty, 'the completion came from unsaved text');
  });

  it('is off for a language switched off in its language settings: no request leaves', async function () {
    const python = vscode.workspace.getConfiguration('cartograph', { languageId: 'python' });
    await python.update('completion.enabled', false, vscode.ConfigurationTarget.Global, true);
    try {
      const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
      const cursor = document.lineAt(document.lineCount - 1).range.end;
      await editor.edit((b) => b.insert(cursor, '\n    total = calc.'));
      const end = document.lineAt(document.lineCount - 1).range.end;
      editor.selection = new vscode.Selection(end, end);
      const seen = server.requests.length;
      for (let i = 0; i < 5; i++) {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        await sleep(300);
      }
      assert.strictEqual(server.requests.length, seen, 'no completion request while python is switched off');
      // control: switched back on, the next keystroke does send one
      await python.update('completion.enabled', undefined, vscode.ConfigurationTarget.Global, true);
      await editor.edit((b) => b.insert(end, 'a'));
      const typed = document.lineAt(document.lineCount - 1).range.end;
      editor.selection = new vscode.Selection(typed, typed);
      await until('a request once python is on again', async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        await sleep(300);
        return server.requests.length > seen;
      }, 20000);
    } finally {
      await python.update('completion.enabled', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });
});
