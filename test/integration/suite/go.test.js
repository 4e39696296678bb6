// Go in a real VS Code: the workspace's third folder is the RANGER example in Go as a module
// (fixture-go: test/fixtures/ranger-go plus a go.mod). The graph, Show Symbol Graph, a save, Find Where
// Implemented and graph-fused FIM completion work on it as they do on Python and TypeScript.
const assert = require('assert');
const vscode = require('vscode');
const { OpenAiTestServer } = require('../../support/openaiTestServer.js');
const { sleep, until } = require('../wait.js');

describe('Go in a real VS Code', function () {
  let api;
  let folder;
  const repository = () => api.repositoryFor(folder.uri);
  const open = (name) => vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, name));

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    folder = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('go'));
    assert.ok(folder, 'the Go folder is open');
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  after(async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Show Symbol Graph on a method: its type across files, the call promoted through the embedded struct', async function () {
    const document = await open('extended.go');
    const editor = await vscode.window.showTextDocument(document);
    const line = document.getText().split('\n').findIndex((l) => l.includes('s.Multiply(quotient, b)'));
    editor.selection = new vscode.Selection(line, 4, line, 4);
    const description = await vscode.commands.executeCommand('cartograph.showSymbolGraph');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(description, 'a node under the cursor');
    assert.strictEqual(description.node.id, 'extended.go#Scientific.Divide');
    assert.ok(description.incoming.some((e) => e.kind === 'HAS_METHOD' && e.id === 'extended.go#Scientific'), JSON.stringify(description.incoming));
    assert.ok(description.outgoing.some((e) => e.kind === 'CALLS' && e.id === 'base.go#Calculator.Multiply'), JSON.stringify(description.outgoing));

    const stats = await repository().stats();
    assert.strictEqual(stats.files, 2);
    assert.strictEqual(stats.edges.INHERITS, 1, 'Scientific embeds Calculator');
    const subtract = await repository().describeAt('extended.go', (await repository().node('extended.go#Calculator.Subtract')).range.startLine, 0);
    assert.ok(subtract.incoming.some((e) => e.kind === 'HAS_METHOD' && e.id === 'base.go#Calculator'), 'a method declared in another file belongs to its type');
  });

  it('a save reaches the graph, and Find Where Implemented answers names and callers', async function () {
    const document = await open('base.go');
    const original = document.getText();
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(document.lineCount, 0), '\n// Negate returns -a.\nfunc Negate(a float64) float64 {\n\treturn -a\n}\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    try {
      await until('Negate in the graph', async () => (await repository().nodesInFile('base.go')).some((n) => n.name === 'Negate'));
    } finally {
      const undo = new vscode.WorkspaceEdit();
      undo.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), original);
      await vscode.workspace.applyEdit(undo);
      await document.save();
    }
    await until('Negate gone again', async () => !(await repository().nodesInFile('base.go')).some((n) => n.name === 'Negate'));

    const pick = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.Add');
    assert.ok(pick, 'the command returns its QuickPick');
    await until('callers of Calculator.Add from the Go folder', () => {
      const labels = pick.items.map((i) => `${i.label} ${i.description}`);
      return labels.some((l) => /QuickAdd/.test(l) && /extended\.go:\d+/.test(l)) && labels.some((l) => /Subtract/.test(l) && /extended\.go:\d+/.test(l));
    });
    pick.value = 'Scientific';
    await until('the Go type by name', () => pick.items.some((i) => /Scientific/.test(i.label) && /extended\.go:\d+/.test(i.description)));
    pick.hide();
  });

  it('a completion in a Go file is a FIM request carrying the definition from the other file of the package', async function () {
    const config = () => vscode.workspace.getConfiguration('cartograph');
    const server = new OpenAiTestServer();
    await config().update('completion.endpoint', await server.listen(), vscode.ConfigurationTarget.Global);
    await config().update('completion.model', 'qwen2.5-coder-1.5b', vscode.ConfigurationTarget.Global);
    await config().update('completion.delay', 0, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const document = await open('extended.go');
    try {
      const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
      const end = document.lineAt(document.lineCount - 1).range.end;
      await editor.edit((b) => b.insert(end, '\n// TripleSum adds three numbers.\nfunc TripleSum(a, b, c float64) float64 {\n\tcalc := &Calculator{}\n\treturn calc.'));
      const cursor = document.lineAt(document.lineCount - 1).range.end;
      editor.selection = new vscode.Selection(cursor, cursor);
      server.script({ text: 'Add(calc.Add(a, b), c)' });
      const seen = server.requests.length;
      await until('a completion request', async () => {
        await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
        await sleep(400);
        return server.requests.length > seen;
      }, 45000);
      const prompt = server.requests[seen].body.prompt;
      assert.ok(prompt.startsWith('<|fim_prefix|>'), 'Qwen FIM prompt');
      assert.ok(prompt.includes('func (c *Calculator) Add(a, b float64) float64'), 'the method from base.go');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      for (const key of ['completion.endpoint', 'completion.model', 'completion.delay']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await server.close();
    }
  });
});
