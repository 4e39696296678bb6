// Find Where Implemented as a user meets it in a real VS Code (code-server): its key chord, the
// preview and Escape, where a pick lands, and the rows that are not results. The picker is driven
// through VS Code's own quick-input commands (select next, accept, close), as the keyboard would.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { pressKeys } = require('../keys.js');
const { sleep, until } = require('../wait.js');

const FIND = 'cartograph.findWhereImplemented';
// the chord's own id: one no extension activates on, so VS Code runs it at once (findCommand.ts)
const FIND_KEY = 'cartograph.findWhereImplemented.key';
const CHORD = 'ctrl+shift+alt+f';
const PREVIEW_SCHEME = 'cartograph-preview';
const WHEN = 'workspaceFolderCount > 0 && !terminalFocus && !inQuickOpen';
// Written into the Python folder by this suite: two `load` methods in one file, one under decorators
// whose arguments span lines, and a call of `json.loads` (an External symbol).
const LOADERS = [
  '"""Loaders for the picker\'s tests."""',
  'import functools',
  'import json',
  '',
  '',
  'class JsonLoader:',
  '    def load(self, text):',
  '        return json.loads(text)',
  '',
  '',
  'class CachedLoader:',
  '    @staticmethod',
  '    @functools.lru_cache(',
  '        maxsize=None,',
  '    )',
  '    def load(text):',
  '        loader = JsonLoader()',
  '        return loader.load(text)',
  '',
  // long enough that the editor scrolls: Escape must bring the scroll back too
  ...Array.from({ length: 120 }, (_, i) => `# notes ${i}`),
  '',
].join('\n');

const previewTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === PREVIEW_SCHEME);

const editorAt = () => {
  const editor = vscode.window.activeTextEditor;
  return editor && { file: editor.document.uri.fsPath, line: editor.selection.active.line, text: editor.document.lineAt(editor.selection.active.line).text };
};

async function find(query) {
  const pick = await vscode.commands.executeCommand(FIND, query);
  assert.ok(pick, 'the command returns its QuickPick');
  return pick;
}

/** Moves the highlight down (as the Down key does) until `predicate` holds for the highlighted row. */
async function highlight(pick, predicate) {
  // The rows can arrive a moment before the picker highlights the first of them.
  await until('a highlighted row', () => pick.activeItems.length > 0, 10000);
  for (let i = 0; i <= pick.items.length; i++) {
    if (pick.activeItems[0] && predicate(pick.activeItems[0])) return pick.activeItems[0];
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await sleep(30);
  }
  throw new Error(`no row matched among ${pick.items.map((i) => `${i.label} ${i.description}`).join(' | ')}`);
}

async function accept(pick, predicate) {
  await highlight(pick, predicate);
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

describe('Find Where Implemented, the picker', function () {
  let api;
  let py;
  let loaders;

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    py = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
    loaders = vscode.Uri.file(path.join(py.uri.fsPath, 'loaders.py'));
    await vscode.workspace.fs.writeFile(loaders, Buffer.from(LOADERS));
    const repository = () => api.repositoryFor(py.uri);
    await until('loaders.py indexed', async () => (await repository().nodesInFile('loaders.py')).filter((n) => n.name === 'load').length === 2, 30000);
  });

  afterEach(async function () {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async function () {
    await vscode.workspace.fs.delete(loaders).then(undefined, () => undefined);
  });

  it('has a chord no default keybinding uses, scoped by a when clause', async function () {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const text = await until('the default keybindings', () => {
      const document = vscode.window.activeTextEditor && vscode.window.activeTextEditor.document;
      return document && /"command":\s*"cartograph\./.test(document.getText()) && document.getText();
    });
    const bindings = [...text.matchAll(/\{\s*"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"(?:,\s*"when":\s*"((?:[^"\\]|\\.)*)")?/g)].map((m) => ({ key: m[1], command: m[2], when: m[3] }));
    assert.ok(bindings.length > 500, `${bindings.length} default keybindings read`);
    const onChord = bindings.filter((b) => b.key === CHORD || b.key.startsWith(`${CHORD} `));
    // VS Code prints a when clause normalized (its terms may be reordered)
    const terms = (when) => (when || '').split(' && ').sort();
    assert.deepStrictEqual(onChord.map((b) => [b.key, b.command, terms(b.when)]), [[CHORD, FIND_KEY, terms(WHEN)]]);
    // the chord it had before is VS Code's own (the Explorer's find here, Replace on macOS)
    assert.ok(bindings.some((b) => b.key === 'ctrl+alt+f' && b.command === 'list.find'));
    const contributed = vscode.extensions.getExtension('cartograph.cartograph').packageJSON.contributes.keybindings.find((k) => k.command === FIND_KEY);
    assert.deepStrictEqual({ key: contributed.key, mac: contributed.mac, when: contributed.when }, { key: CHORD, mac: 'cmd+shift+alt+f', when: WHEN });
  });

  it('previews the highlighted row beside the editor, and Escape returns to the editor, selection and scroll the user left', async function () {
    const document = await vscode.workspace.openTextDocument(loaders);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const selection = new vscode.Selection(7, 4, 7, 12);
    editor.selection = selection;
    editor.revealRange(new vscode.Range(60, 0, 60, 0), vscode.TextEditorRevealType.AtTop);
    const top = () => vscode.window.activeTextEditor.visibleRanges[0].start.line;
    await until('the scroll to apply', () => top() > 20, 5000);
    await sleep(200);
    const scrolledTo = top();
    const pick = await find('Calculator');
    // move the highlight around with pauses shorter and longer than the preview's delay: whatever
    // the order the previews finish in, the editor ends on the highlighted row
    for (const pause of [0, 200, 10, 170, 0, 250, 0]) {
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await sleep(pause);
    }
    const highlighted = await highlight(pick, (i) => i.target && !/loaders\.py/.test(i.description));
    // beside the user's editor, a read-only copy of the file, the row's line in view, nothing selected in it
    const previewed = await until('the preview of the highlighted row', () => vscode.window.visibleTextEditors.find((now) =>
      now.document.uri.scheme === PREVIEW_SCHEME && now.document.uri.fsPath === highlighted.file.fsPath
      && now.visibleRanges.some((r) => r.contains(new vscode.Position(highlighted.line, 0)))), 10000);
    assert.notStrictEqual(previewed.viewColumn, editor.viewColumn, 'the preview is beside the user\'s editor');
    assert.ok(previewed.selections.every((s) => s.isEmpty), 'a preview selects nothing');
    assert.strictEqual(previewed.document.getText(), fs.readFileSync(highlighted.file.fsPath, 'utf8'));
    assert.strictEqual(pick.activeItems[0], highlighted, 'the highlight did not move meanwhile');
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document === document && e.selection.isEqual(selection)), 'the user\'s editor stays as it was');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const back = () => {
      const now = vscode.window.activeTextEditor;
      return now && now.document.uri.fsPath === loaders.fsPath && now.selection.isEqual(selection) && top() === scrolledTo;
    };
    await until('the editor the user left', back, 10000).catch((error) => {
      throw new Error(`${error.message}: ${JSON.stringify({ at: editorAt(), selection: vscode.window.activeTextEditor && vscode.window.activeTextEditor.selection, top: vscode.window.activeTextEditor && top(), scrolledTo })}`);
    });
    await until('no preview tab left', () => !previewTabs().length, 5000);
  });

  it('keys typed right after the chord go into the box, never into code (and after Escape, a chord 100 ms later)', async function () {
    const document = await vscode.workspace.openTextDocument(loaders);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    // "CachedLoader" selected: a key that reached the editor would replace it
    const selection = new vscode.Selection(10, 6, 10, 18);
    editor.selection = selection;
    const texts = () => new Map(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file').map((d) => [d.uri.fsPath, d.getText()]));
    const before = texts();
    const onDisk = fs.readFileSync(loaders.fsPath, 'utf8');
    const previews = [];
    const opened = vscode.workspace.onDidOpenTextDocument((d) => d.uri.scheme === PREVIEW_SCHEME && previews.push(d.uri.fsPath));
    let result;
    try {
      // the issue's sequence: the chord and a query with no pause, its answer and preview, Escape,
      // and 100 ms later the chord and another query. The box is an extension's: it shows after a
      // round trip to the extension host, and keys that reach the editor before are taken back.
      result = await pressKeys([
        // (a read waits for the expected value: keys taken back from the editor come after pauses of their own)
        { press: 'Control+Shift+Alt+F' }, { type: 'Calculator', delay: 30 }, { wait: 1500 }, { read: 'first', expect: 'Calculator' },
        { press: 'Escape' }, { wait: 100 },
        { press: 'Control+Shift+Alt+F' }, { type: 'callers of JsonLoader.load', delay: 30 }, { wait: 1500 }, { read: 'second', expect: 'callers of JsonLoader.load' },
        { press: 'Escape' },
      ]);
    } finally {
      opened.dispose();
    }
    console.log(`    chord to a focused box: ${result.opens.join(', ')} ms; previewed ${previews.map((p) => path.basename(p)).join(', ')}`);
    assert.deepStrictEqual(result.reads, { first: 'Calculator', second: 'callers of JsonLoader.load' });
    assert.ok(previews.length > 0, 'the highlighted rows were previewed');
    await until('the editor the user left', () => vscode.window.activeTextEditor && vscode.window.activeTextEditor.document === document && vscode.window.activeTextEditor.selection.isEqual(selection), 5000);
    for (const [file, text] of texts()) if (before.has(file)) assert.strictEqual(text, before.get(file), file);
    // VS Code for the Web saves after a delay by default: keys that sat in the editor that long were
    // saved, and the text put back is saved in turn
    await until('every file saved as it was', () => vscode.workspace.textDocuments.every((d) => !d.isDirty) && fs.readFileSync(loaders.fsPath, 'utf8') === onDisk, 10000)
      .catch(() => assert.fail(`unsaved: ${vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()).join(', ') || 'none'}; loaders.py on disk as before: ${fs.readFileSync(loaders.fsPath, 'utf8') === onDisk}`));
    await until('no preview tab left', () => !previewTabs().length, 5000);
  });

  it('keys typed into the editor while the box is slow to show come back in the order typed, across pauses', async function () {
    const document = await vscode.workspace.openTextDocument(loaders);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const selection = new vscode.Selection(10, 6, 10, 18);
    editor.selection = selection;
    const onDisk = fs.readFileSync(loaders.fsPath, 'utf8');
    // As on a loaded machine (1,076 ms in the run that lost keys), the box shows long after the chord:
    // "callers " pauses long enough in the editor to be put back, "of Json" comes while that put back
    // may still be on its way (either side of it, both are taken back), and the rest goes into the box.
    process.env.CARTOGRAPH_TEST_HOLD_PICKER_MS = '2000';
    // auto save off (the desktop default; the test above has the Web's): the file is marked saved again
    // by a revert once its text is what the disk holds
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      const result = await pressKeys([
        { press: 'Control+Shift+Alt+F' }, { type: 'callers ', delay: 30 }, { wait: 1000 }, { type: 'of Json', delay: 30 },
        { wait: 1500 }, { type: 'Loader.load', delay: 30 }, { wait: 2000 }, { read: 'query', expect: 'callers of JsonLoader.load' }, { press: 'Escape' },
      ]);
      delete process.env.CARTOGRAPH_TEST_HOLD_PICKER_MS;
      assert.deepStrictEqual(result.reads, { query: 'callers of JsonLoader.load' });
      await until('the editor the user left', () => vscode.window.activeTextEditor && vscode.window.activeTextEditor.document === document && vscode.window.activeTextEditor.selection.isEqual(selection), 5000);
      assert.strictEqual(document.getText(), onDisk);
      await until('the file marked saved, as it was', () => !document.isDirty, 10000);
      assert.strictEqual(fs.readFileSync(loaders.fsPath, 'utf8'), onDisk);
    } finally {
      delete process.env.CARTOGRAPH_TEST_HOLD_PICKER_MS;
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('typing fast searches once the keys pause, and the answer on screen is the final query\'s', async function () {
    const final = 'CachedLoader.load';
    const repository = api.repositoryFor(py.uri);
    // watch the searches the picker asks of the Python folder (each still runs as it would)
    const searched = [];
    const search = repository.search;
    repository.search = function (query, ...rest) {
      searched.push(query);
      return search.call(this, query, ...rest);
    };
    const answers = [];
    const shown = api.onDidShowFindAnswer((answer) => answers.push(answer));
    try {
      const pick = await vscode.commands.executeCommand(FIND);
      // one key every 30 ms, as a quick typist; VS Code reports each value as a change, as for keys
      for (let i = 1; i <= final.length; i++) {
        pick.value = final.slice(0, i);
        await sleep(30);
      }
      const lastKey = Date.now();
      const answer = await until('the answer to the whole query', () => answers.find((a) => a.query === final), 15000);
      assert.ok(answer.at >= lastKey - 30, 'answered after the typing stopped');
      // the rows and title on screen are the final query's, not a prefix's
      assert.match(pick.title, /^Code named CachedLoader\.load · /);
      assert.ok(pick.items.some((i) => /^CachedLoader · loaders\.py:/.test(i.description || '')), pick.items.map((i) => `${i.label} ${i.description}`).join(' | '));
      assert.ok(!pick.busy, 'no search is pending');
      // searched once the keys paused, not per key; the last search was for the final value
      assert.strictEqual(searched[searched.length - 1], final);
      assert.ok(searched.length <= final.length / 2, `${searched.length} searches for ${final.length} keys: ${searched.join(' | ')}`);
      // an answer to a prefix never replaced the final one afterwards
      await sleep(500);
      assert.strictEqual(answers[answers.length - 1].query, final, answers.map((a) => a.query).join(' | '));
    } finally {
      repository.search = search;
      shown.dispose();
    }
  });

  it('"callers of X" lands on the call, not on the caller\'s definition', async function () {
    const pick = await find('callers of JsonLoader.load');
    const caller = pick.items.find((i) => /^\$\(symbol-method\) load$/.test(i.label) && /^CachedLoader · loaders\.py:18$/.test(i.description));
    assert.ok(caller, pick.items.map((i) => `${i.label} ${i.description}`).join(' | '));
    await accept(pick, (i) => i === caller);
    await until('the call site', () => {
      const at = editorAt();
      return at && at.file === loaders.fsPath && at.line === 17 && at.text.includes('loader.load(text)');
    }, 10000);
  });

  it('a decorated method lands on its def, not on the decorator', async function () {
    const pick = await find('CachedLoader.load');
    await accept(pick, (i) => /^CachedLoader · loaders\.py:/.test(i.description || ''));
    await until('the def line', () => {
      const at = editorAt();
      return at && at.line === 15 && at.text.trim() === 'def load(text):';
    }, 10000);
    const { selection } = vscode.window.activeTextEditor;
    // the cursor at the name, not the name selected: a key typed too early must not replace it
    assert.ok(selection.isEmpty && selection.active.character === 8, JSON.stringify(selection));
  });

  it('rows with the same name say which class they are in', async function () {
    const pick = await find('load');
    const loads = pick.items.filter((i) => /loaders\.py/.test(i.description || ''));
    assert.deepStrictEqual(loads.map((i) => i.description.split(' · ')[0]).sort(), ['CachedLoader', 'JsonLoader']);
    assert.strictEqual(new Set(loads.map((i) => i.description)).size, loads.length);
  });

  it('an empty result is a row that says so, and picking it keeps the picker open', async function () {
    const pick = await find('xyzzy plugh frobnicate');
    assert.strictEqual(pick.items.length, 1);
    assert.match(pick.items[0].label, /Nothing found for "xyzzy plugh frobnicate"/);
    assert.match(pick.title, /nothing found/);
    // (what is shown, not the active editor: that one can read undefined for a moment while the focus is in the box)
    const shown = () => vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()).sort().join(' ');
    const before = shown();
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sleep(300);
    assert.strictEqual(shown(), before, 'nothing opened');
    assert.strictEqual(pick.items.length, 1, 'the picker is still there');
  });

  it('picking an External row says it is outside the workspace', async function () {
    const pick = await find('what does JsonLoader.load call');
    const external = pick.items.find((i) => i.id.startsWith('ext:'));
    assert.ok(external, pick.items.map((i) => `${i.id} ${i.description}`).join(' | '));
    assert.match(external.description, /^outside the workspace/);
    await accept(pick, (i) => i === external);
    const explained = await until('the explanation', () => pick.items.find((i) => i.id === external.id && /is outside the workspace \(ext:/.test(i.detail || '')), 5000);
    assert.strictEqual(pick.activeItems[0], explained);
    assert.ok(!vscode.window.activeTextEditor, 'nothing opened');
  });

  it('after Reindex, "Indexing…" turns into results by itself when the index is ready', async function () {
    let opened;
    let reopened;
    const reopening = new Promise((resolve) => {
      const sub = api.onDidChangeState((index) => {
        if (index.state.kind !== 'opening' || opened) return;
        sub.dispose();
        reopened = index;
        opened = vscode.commands.executeCommand(FIND, 'Calculator');
        resolve();
      });
    });
    const reindex = vscode.commands.executeCommand('cartograph.reindex');
    await reopening;
    const pick = await opened;
    // (what the graphs hold meanwhile is shown too, above the row that says they are being indexed)
    assert.ok(pick.items.some((i) => /Indexing… .*fixture-/.test(i.label)), pick.items.map((i) => i.label).join(' | '));
    await reindex;
    await until('results without a key pressed', () => pick.items.some((i) => i.root === reopened.root && /Calculator/.test(i.label)) && !pick.items.some((i) => /Indexing…/.test(i.label)), 30000);
    assert.strictEqual(pick.value, 'Calculator');
    assert.match(pick.title, /^Code named Calculator/);
  });
});
