// What a new user meets in a real VS Code (issue 14): completion errors that say what is wrong and
// offer the fix, no Authorization header without a key, a key sent only to the server it was set for, answers from the model that is configured
// now, Show Last Completion Request as a read-only document showing the accepted completion, one
// status-bar item with a menu, a rendered Show Index Status and the contributed walkthrough. Runs
// against the OpenAI-compatible test server, started here in the extension host.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { OpenAiTestServer } = require('../../support/openaiTestServer.js');
const { sleep, until } = require('../wait.js');

describe('A new user in a real VS Code', function () {
  let server;
  let endpoint;
  let api;
  let document;
  let editor;
  const config = () => vscode.workspace.getConfiguration('cartograph');
  const global = vscode.ConfigurationTarget.Global;

  /** Types `text` at the end of the file (unsaved) and puts the cursor after it. */
  async function typeAtEnd(text) {
    editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    const end = document.lineAt(document.lineCount - 1).range.end;
    await editor.edit((b) => b.insert(end, text));
    const cursor = document.lineAt(document.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(cursor, cursor);
  }
  /** Triggers inline completion until the server has seen a new request (or `done` holds). */
  async function triggerUntil(what, done, timeoutMs = 30000) {
    return until(what, async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await sleep(300);
      return done();
    }, timeoutMs);
  }

  before(async function () {
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', global);
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await until('folders ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
    server = new OpenAiTestServer();
    endpoint = await server.listen();
    await config().update('completion.endpoint', endpoint, global);
    await config().update('completion.model', 'model-a', global);
    await config().update('completion.delay', 0, global);
    const folder = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder.uri.fsPath, 'extended.py')));
  });

  after(async function () {
    if (document?.isDirty) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const key of ['completion.endpoint', 'completion.model', 'completion.delay']) await config().update(key, undefined, global);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, global);
    await server?.close();
  });

  it('sends no Authorization header without a key, and a 401 reads as unauthorized with Set API Key offered', async function () {
    server.script({ text: '', status: 401 });
    await typeAtEnd('\n\n\ndef ux_total(a, b):\n    return ');
    const seen = server.requests.length;
    await triggerUntil('a request that the server refuses', () => server.requests.length > seen);
    assert.strictEqual(server.requests[seen].headers.authorization, undefined, 'no Authorization header at all (was `Bearer none`)');
    const shown = await until('the status bar to say unauthorized', () => /unauthorized/.test(api.statusBar().text) && api.statusBar());
    // No key is stored for this endpoint's origin: the tooltip names the origin that needs one.
    assert.match(shown.tooltip, /401 unauthorized: no API key is set for http:\/\/127\.0\.0\.1:\d+/);
    assert.doesNotMatch(shown.tooltip, /Connection error/);
    const menu = await vscode.commands.executeCommand('cartograph.statusMenu');
    try {
      const setKey = menu.items.find((i) => /Set API Key/.test(i.label));
      assert.ok(setKey, menu.items.map((i) => i.label).join(', '));
      assert.match(setKey.description, /401 unauthorized/, 'the menu offers the key, with the reason');
      for (const label of ['Show Index Status', 'Open Graph Explorer', 'Turn Completions Off', 'Open Settings', 'Reindex Workspace']) assert.ok(menu.items.some((i) => i.label.includes(label)), label);
    } finally {
      menu.hide();
    }
    // A settings change clears the warning: it described the old settings.
    await config().update('completion.model', 'model-b', global);
    await until('the warning to clear after the settings changed', () => !/unauthorized/.test(api.statusBar().text));
  });

  it('sends a key only to the server it was set for: once the endpoint moves to another server, no Authorization header', async function () {
    const other = new OpenAiTestServer();
    const otherEndpoint = await other.listen();
    server.script({ text: 'from_a()' });
    other.script({ text: 'from_b()' });
    /** Sets the key of the endpoint configured now (empty: removes it) through the command's input box, typed as a user would. */
    const setKey = (value) => {
      const done = vscode.commands.executeCommand('cartograph.setApiKey');
      console.log(value ? `[input] ${value}` : '[input]');
      return done;
    };
    try {
      await setKey('sk-test-a');
      await typeAtEnd('\n    keyed = ');
      let seen = server.requests.length;
      await triggerUntil('a request to server A', () => server.requests.length > seen);
      assert.deepStrictEqual(server.requests.slice(seen).map((r) => r.headers.authorization), server.requests.slice(seen).map(() => 'Bearer sk-test-a'), 'A gets its key');
      await config().update('completion.endpoint', otherEndpoint, global);
      await typeAtEnd('\n    moved = ');
      seen = other.requests.length;
      await triggerUntil('a request to server B', () => other.requests.length > seen);
      assert.deepStrictEqual(other.requests.map((r) => r.headers.authorization), other.requests.map(() => undefined), 'B never saw A\'s key');
    } finally {
      await config().update('completion.endpoint', endpoint, global);
      await setKey('');
      await other.close();
    }
  });

  it('refuses an endpoint without a scheme with a clear status, sending nothing', async function () {
    const bare = endpoint.replace(/^http:\/\//, '');
    await config().update('completion.endpoint', bare, global);
    try {
      const seen = server.requests.length;
      await typeAtEnd('a');
      const shown = await triggerUntil('the status bar to say misconfigured', () => /misconfigured/.test(api.statusBar().text) && api.statusBar());
      assert.match(shown.tooltip, /has no scheme: write it as http:\/\/127\.0\.0\.1/);
      assert.strictEqual(server.requests.length, seen, 'nothing was sent to a scheme-less endpoint');
    } finally {
      await config().update('completion.endpoint', endpoint, global);
    }
    await until('the warning to clear', () => !/misconfigured/.test(api.statusBar().text));
  });

  it('answers with the model configured now, not a cached answer of the previous model', async function () {
    server.script((body) => ({ text: body.model === 'model-a' ? 'a_answer(a, b)' : 'b_answer(a, b)' }));
    await config().update('completion.model', 'model-a', global);
    await typeAtEnd('\n    value = ');
    let seen = server.requests.length;
    await triggerUntil('model-a to be asked', () => server.requests.slice(seen).some((r) => r.body.model === 'model-a'));
    await config().update('completion.model', 'model-b', global);
    seen = server.requests.length;
    // The same text and cursor (a character typed and deleted makes VS Code ask again): only the model differs.
    await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
    const cursor = editor.selection.active;
    await editor.edit((b) => b.insert(cursor, 'x'));
    await editor.edit((b) => b.delete(new vscode.Range(cursor, cursor.translate(0, 1))));
    editor.selection = new vscode.Selection(cursor, cursor);
    await triggerUntil('model-b to be asked for the same position', () => server.requests.slice(seen).some((r) => r.body.model === 'model-b'));
    await until('the offered completion to be model-b\'s', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await sleep(300);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      return document.getText().includes('value = b_answer(a, b)');
    });
    assert.ok(!document.getText().includes('a_answer'), 'the old model\'s cached answer was not offered');
  });

  it('Show Last Completion Request shows the accepted completion in a read-only document, in the active group, nothing dirty', async function () {
    server.script({ text: 'accepted_one()' });
    await typeAtEnd('\n    first = ');
    await until('a completion to be accepted', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await sleep(300);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      return document.getText().includes('first = accepted_one()');
    });
    // A newer request that the user does not accept.
    server.script({ text: 'never_accepted()' });
    await typeAtEnd('\n    second = ');
    const seen = server.requests.length;
    await triggerUntil('a newer request', () => server.requests.length > seen);
    await sleep(300);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');

    const groups = vscode.window.tabGroups.all.length;
    const dirtyBefore = vscode.workspace.textDocuments.filter((d) => d.isDirty).length;
    const record = await vscode.commands.executeCommand('cartograph.showLastCompletion');
    assert.strictEqual(record.completion, 'accepted_one()', 'the accepted completion, not the request fired after it');
    const shown = vscode.window.activeTextEditor.document;
    assert.strictEqual(shown.uri.scheme, 'cartograph-completion');
    assert.strictEqual(shown.isDirty, false);
    assert.strictEqual(shown.isUntitled, false);
    assert.strictEqual(vscode.window.tabGroups.all.length, groups, 'no new editor group');
    assert.strictEqual(vscode.workspace.textDocuments.filter((d) => d.isDirty).length, dirtyBefore, 'no new dirty document');
    assert.match(shown.getText(), /completion you last accepted/);
    assert.match(shown.getText(), /## Recent requests/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.strictEqual(vscode.workspace.textDocuments.filter((d) => d.isDirty).length, dirtyBefore, 'closing asked nothing and left nothing');
  });

  it('Show Index Status renders as a Markdown preview, without the internal state line', async function () {
    const text = await vscode.commands.executeCommand('cartograph.showStatus');
    assert.doesNotMatch(text, /State: \{/);
    assert.match(text, /- State: ready — \d+ files/);
    const isPreview = (tab) => tab && tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType);
    await until('a rendered preview tab', () => isPreview(vscode.window.tabGroups.activeTabGroup.activeTab), 15000).catch((err) => {
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => `${t.label} (${t.input && (t.input.viewType || t.input.uri)})`));
      throw new Error(`${err.message}; tabs: ${tabs.join(', ')}`);
    });
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'cartograph-status')), 'not the Markdown source');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('contributes a walkthrough whose pages ship with the extension, and opens it', async function () {
    const extension = vscode.extensions.getExtension('cartograph.cartograph');
    const [walkthrough] = extension.packageJSON.contributes.walkthroughs;
    assert.strictEqual(walkthrough.id, 'cartograph.gettingStarted');
    assert.deepStrictEqual(walkthrough.steps.map((s) => s.id), ['indexStatus', 'find', 'complete', 'explore']);
    for (const step of walkthrough.steps) assert.ok(fs.existsSync(path.join(extension.extensionPath, step.media.markdown)), step.media.markdown);
    assert.ok(fs.existsSync(path.join(extension.extensionPath, extension.packageJSON.icon)), 'the icon');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'cartograph.cartograph#cartograph.gettingStarted', false);
    await until('the walkthrough to open', () => /Welcome|Walkthrough|Cartograph/i.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
