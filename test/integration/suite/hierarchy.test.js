// VS Code's Call Hierarchy and Type Hierarchy from the graph, in a real VS Code: answered for Python
// (no language server here), left to TypeScript's own language server for TypeScript (VS Code asks
// one provider: its items come once, from it), and the opt-in CodeLens that fills the results view.
const assert = require('assert');
const path = require('path');
const vscode = require('vscode');
const { until } = require('../wait.js');

describe('Call and type hierarchies, CodeLens', function () {
  let api;
  let folder;
  const at = (name, file, line, col) => [vscode.Uri.file(path.join(folder(name).uri.fsPath, file)), new vscode.Position(line, col)];

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    folder = (suffix) => vscode.workspace.workspaceFolders.find((f) => f.name.endsWith(suffix));
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  after(async function () {
    await vscode.workspace.getConfiguration('cartograph').update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Python: incoming and outgoing calls, subtypes and supertypes from the graph', async function () {
    const [uri, position] = at('py', 'base.py', 9, 8); // def add
    await vscode.window.showTextDocument(uri);
    const [add] = await vscode.commands.executeCommand('vscode.prepareCallHierarchy', uri, position);
    assert.strictEqual(add.name, 'add');
    const incoming = await vscode.commands.executeCommand('vscode.provideIncomingCalls', add);
    // quick_add (unless an earlier suite renamed it), at its call
    assert.deepStrictEqual(incoming.map((c) => [c.from.name.replace(/^quick_\w+$/, 'quick_add'), path.basename(c.from.uri.fsPath), c.fromRanges[0].start.line]), [['quick_add', 'extended.py', 15]]);
    const [quickAdd] = await vscode.commands.executeCommand('vscode.prepareCallHierarchy', ...at('py', 'extended.py', 12, 4));
    const outgoing = await vscode.commands.executeCommand('vscode.provideOutgoingCalls', quickAdd);
    assert.ok(outgoing.some((c) => c.to.name === 'add'), outgoing.map((c) => c.to.name).join(', '));
    const [calculator] = await vscode.commands.executeCommand('vscode.prepareTypeHierarchy', ...at('py', 'base.py', 6, 6));
    assert.strictEqual(calculator.name, 'Calculator');
    const subtypes = await vscode.commands.executeCommand('vscode.provideSubtypes', calculator);
    assert.deepStrictEqual(subtypes.map((t) => t.name), ['Scientific']);
    const supertypes = await vscode.commands.executeCommand('vscode.provideSupertypes', subtypes[0]);
    assert.deepStrictEqual(supertypes.map((t) => t.name), ['Calculator']);
  });

  it('TypeScript: its language server answers, once; the graph does not add a second item', async function () {
    const [uri, position] = at('ts', 'base.ts', 3, 2); // add(
    await vscode.window.showTextDocument(uri);
    // TypeScript's extension registers its providers when it starts, after the file opened: wait
    // for its document symbols (Cartograph provides none)
    await until('the TypeScript server', async () => ((await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri)) || []).length > 0, 90000, 1000);
    const items = await vscode.commands.executeCommand('vscode.prepareCallHierarchy', uri, position);
    assert.strictEqual(items.length, 1, items.map((i) => `${i.name} ${i.detail}`).join(' | '));
    assert.strictEqual(items[0].name, 'add');
    assert.notStrictEqual(items[0].detail, 'base.Calculator.add', 'the language server\'s item, not the graph\'s');
  });

  it('CodeLens, once switched on: "1 caller", and a click lists them in the results view', async function () {
    await vscode.workspace.getConfiguration('cartograph').update('codeLens.enabled', true, vscode.ConfigurationTarget.Global);
    const [uri] = at('py', 'base.py', 0, 0);
    await vscode.window.showTextDocument(uri);
    const lenses = await until('the lenses', async () => {
      const found = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 20);
      return found && found.some((l) => l.command && /callers?/.test(l.command.title)) && found;
    }, 20000, 500);
    const titles = lenses.filter((l) => l.command && l.command.command === 'cartograph.showRelated').map((l) => [l.range.start.line, l.command.title]);
    assert.ok(titles.some(([line, title]) => line === 6 && title === '1 subclass · 1 caller'), JSON.stringify(titles));
    assert.ok(titles.some(([line, title]) => line === 9 && title === '1 caller'), JSON.stringify(titles));
    const add = lenses.find((l) => l.range.start.line === 9 && l.command && l.command.command === 'cartograph.showRelated');
    await vscode.commands.executeCommand(add.command.command, ...add.command.arguments);
    assert.strictEqual(api.results.kept[0].title, 'callers of base.Calculator.add');
    assert.deepStrictEqual(api.results.kept[0].rows.map((r) => [r.label.replace(/^quick_\w+$/, 'quick_add'), r.description]), [['quick_add', 'extended.py:16']]);
  });
});
