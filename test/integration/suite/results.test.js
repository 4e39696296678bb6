// The Cartograph results view in a real VS Code: a structural answer of the picker stays as a tree
// whose rows open path:line and expand into the same question about themselves, and Show Impact of
// My Changes lists what the working tree's uncommitted changes affect.
const assert = require('assert');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { until } = require('../wait.js');

describe('The results view', function () {
  let api;
  let py;

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    py = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  afterEach(async function () {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('keeps the picker\'s structural answer as a tree: rows open path:line and expand into callers of callers', async function () {
    const shown = new Promise((resolve) => {
      const sub = api.onDidShowFindAnswer((a) => a.query === 'callers of Calculator.add' && a.rows > 0 && (sub.dispose(), resolve()));
    });
    await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.add');
    await shown;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const answer = await until('the answer kept', () => api.results.kept.find((a) => a.title === 'callers of Calculator.add'), 5000);
    assert.strictEqual(api.results.kept.filter((a) => a.title === answer.title).length, 1, 'kept once (a question asked again replaces its older answer)');
    // Closes are counted for this picker only: an earlier one's close (after its preview is gone) can
    // still arrive on a loaded machine.
    const closes = [];
    const closed = api.onDidCloseFind((pick) => closes.push(pick));
    const picker = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.add');
    assert.ok(picker, 'the command answers with its picker');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await until('the picker closed', () => closes.includes(picker), 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    closed.dispose();
    assert.strictEqual(closes.filter((p) => p === picker).length, 1, 'one close for one Escape');
    const [top] = await api.results.getChildren(undefined);
    assert.strictEqual(top.answer.title, answer.title, 'the newest answer first');
    const rows = await api.results.getChildren(top);
    // the Python caller (quick_add, unless an earlier suite renamed it), at its call of add
    const quickAdd = rows.find((r) => r.row.file && r.row.file.fsPath === path.join(py.uri.fsPath, 'extended.py'));
    assert.ok(quickAdd, rows.map((r) => r.row.label).join(', '));
    const item = api.results.getTreeItem(quickAdd);
    assert.strictEqual(item.command.command, 'vscode.open');
    assert.strictEqual(item.command.arguments[0].fsPath, path.join(py.uri.fsPath, 'extended.py'));
    assert.strictEqual(item.command.arguments[1].selection.start.line, 15, 'the call site, extended.py:16');
    assert.strictEqual(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const callersOfQuickAdd = await api.results.getChildren(quickAdd);
    assert.deepStrictEqual(callersOfQuickAdd.map((r) => r.row.label), ['demo']);
    await vscode.commands.executeCommand(item.command.command, ...item.command.arguments);
    await until('the row opened at its line', () => vscode.window.activeTextEditor && vscode.window.activeTextEditor.document.uri.fsPath.endsWith('extended.py') && vscode.window.activeTextEditor.selection.active.line === 15, 5000);
  });

  it('Show Impact of My Changes: each changed definition, and under it what depends on it', async function () {
    const root = py.uri.fsPath;
    // VS Code's git extension would start watching the repository made here, and fail once it is removed
    const gitSettings = vscode.workspace.getConfiguration('git');
    await gitSettings.update('enabled', false, vscode.ConfigurationTarget.Global);
    const git = (...args) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@e', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-q', '-m', 'fixture');
    const file = path.join(root, 'base.py');
    const before = fs.readFileSync(file, 'utf8');
    try {
      const document = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((b) => b.replace(new vscode.Range(11, 0, 11, document.lineAt(11).text.length), '        return float(a + b)'));
      await document.save();
      await api.whenIdle();
      const answers = await vscode.commands.executeCommand('cartograph.showImpact');
      const answer = answers.find((a) => a.title.startsWith(`Impact of the changes in ${py.name}`));
      assert.ok(answer, JSON.stringify(answers.map((a) => a.title)));
      assert.deepStrictEqual(answer.rows.map((r) => [r.label, r.description, r.line]), [['base.Calculator.add', 'changed · base.py:10', 9]]);
      const affected = answer.rows[0].children.map((c) => [c.label.replace(/^extended\.quick_\w+$/, 'extended.quick_add'), c.description]);
      assert.deepStrictEqual(affected, [['extended.quick_add', 'directly · extended.py:13'], ['extended.demo', '2 steps · extended.py:19']]);
      assert.strictEqual(api.results.kept[0], answer, 'shown on top of the view');
    } finally {
      fs.writeFileSync(file, before);
      fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
      await gitSettings.update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
