// Renamed settings in a real VS Code: values under the old keys (user and workspace settings) move to
// the new keys and leave the old keys empty, once; a value already under the new key is kept.
const assert = require('assert');
const vscode = require('vscode');

describe('Renamed settings', function () {
  const { Global, Workspace } = vscode.ConfigurationTarget;
  const config = () => vscode.workspace.getConfiguration('cartograph');
  const keys = ['llm.model', 'completion.model', 'completion.mmrLambda', 'completion.contextFocus', 'llm.timeoutMs', 'completion.timeout'];
  let api;

  before(async function () {
    api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await api.settingsMigrated;
  });

  after(async function () {
    for (const key of keys) for (const target of [Global, Workspace]) await config().update(key, undefined, target);
  });

  it('moves old values to the new keys, empties the old keys, keeps a new value already set, and does it once', async function () {
    await config().update('llm.model', 'model-from-the-old-key', Global);
    await config().update('completion.mmrLambda', 0.4, Workspace);
    await config().update('llm.timeoutMs', 2000, Global);
    await config().update('completion.timeout', 3000, Global);
    const moved = await api.migrateSettings();
    assert.deepStrictEqual(moved.map((m) => `${m.from} → ${m.to} (${m.where})`).sort(), [
      'cartograph.completion.mmrLambda → cartograph.completion.contextFocus (workspace)',
      'cartograph.llm.model → cartograph.completion.model (user)',
      'cartograph.llm.timeoutMs → cartograph.completion.timeout (user)',
    ]);
    const at = (key) => config().inspect(key);
    assert.strictEqual(at('completion.model').globalValue, 'model-from-the-old-key');
    assert.strictEqual(at('completion.contextFocus').workspaceValue, 0.4);
    assert.strictEqual(at('completion.contextFocus').globalValue, undefined, 'moved to the same place, not to the user settings');
    assert.strictEqual(at('completion.timeout').globalValue, 3000, 'the value under the new key wins');
    for (const old of ['llm.model', 'completion.mmrLambda', 'llm.timeoutMs']) {
      const i = at(old);
      assert.deepStrictEqual([i.globalValue, i.workspaceValue], [undefined, undefined], `${old} is emptied`);
    }
    assert.deepStrictEqual(await api.migrateSettings(), [], 'nothing left to move');
  });
});
