// Semantic lifting in a real VS Code against the OpenAI-compatible test server, started here in the
// extension host: turning `cartograph.lifting.enabled` on describes the folder's code in the
// background, and Find Where Implemented then finds a method by words only its description holds.
const assert = require('assert');
const vscode = require('vscode');
const { OpenAiTestServer } = require('../../support/openaiTestServer.js');
const { until } = require('../wait.js');

describe('Cartograph semantic lifting in a real VS Code', function () {
  let server;
  const config = () => vscode.workspace.getConfiguration('cartograph');

  before(async function () {
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    await until('folders ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
    server = new OpenAiTestServer();
    const endpoint = await server.listen();
    server.script((body) => {
      const prompt = body.messages ? body.messages[body.messages.length - 1].content : '';
      return { text: /^Method \S*Scientific\.divide in /.test(prompt) ? 'Performs quotient computation via reciprocal scaling.' : 'Does its job.' };
    });
    await config().update('completion.endpoint', endpoint, vscode.ConfigurationTarget.Global);
    await config().update('completion.model', 'tiny-chat', vscode.ConfigurationTarget.Global);
  });

  after(async function () {
    for (const key of ['lifting.enabled', 'completion.endpoint', 'completion.model']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  it('is off by default: no code is sent until it is enabled, then search finds code by its description', async function () {
    const ask = async () => {
      const pick = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'quotient reciprocal scaling');
      const names = pick.items.map((i) => i.id);
      pick.hide();
      return names;
    };
    assert.ok(!(await ask()).some((id) => id.endsWith('Scientific.divide')));
    await new Promise((r) => setTimeout(r, 2500));
    assert.strictEqual(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0, 'nothing sent while lifting is off');
    await config().update('lifting.enabled', true, vscode.ConfigurationTarget.Global);
    const found = await until('the description to be searchable', async () => (await ask())[0], 30000);
    assert.ok(found.endsWith('extended.py#Scientific.divide'), found);
    const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.ok(chats.length >= 8, `every function and class of the python folder described (${chats.length} requests)`);
    assert.strictEqual(chats[0].body.model, 'tiny-chat');
  });
});
