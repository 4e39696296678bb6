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
    for (const key of ['lifting.enabled', 'lifting.provider', 'lifting.chatModel', 'completion.endpoint', 'completion.model']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
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
    // each folder is described on its own: the Python one's divide is found once its run got to it (the
    // TypeScript twin, described the same, may come first or second)
    const top = await until('the description to be searchable', async () => {
      const names = (await ask()).slice(0, 2);
      return names.some((id) => id.endsWith('extended.py#Scientific.divide')) && names;
    }, 30000);
    assert.ok(top[0].endsWith('#Scientific.divide'), `first: ${top.join(', ')}`);
    const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.ok(chats.length >= 8, `every function and class of the python folder described (${chats.length} requests)`);
    assert.strictEqual(chats[0].body.model, 'tiny-chat');
  });

  it('with the VS Code chat model as provider, nothing goes to the endpoint; switched back, only the new function does', async function () {
    const api = await vscode.extensions.getExtension('cartograph.cartograph').activate();
    const folder = vscode.workspace.workspaceFolders.find((f) => f.name.endsWith('py'));
    const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const quiet = async () => {
      const before = chats().length;
      await new Promise((r) => setTimeout(r, 1500));
      return chats().length === before;
    };
    await config().update('lifting.provider', 'vscode', vscode.ConfigurationTarget.Global);
    // new code to describe: a function saved to the Python folder
    const uri = vscode.Uri.joinPath(folder.uri, 'lifting_probe.py');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('def lifting_probe(x):\n    return x * 3\n'));
    await until('the probe is indexed', async () => (await api.repositoryFor(folder.uri).findNodes('lifting_probe')).length > 0, 30000);
    // every folder's earlier run (the first test enabled lifting for all of them) has ended
    await until('no request for 1.5 s', quiet, 60000);
    const sent = chats().length;
    // a lifting setting changed: a run in 2 s, with VS Code's chat model (code-server offers none: nothing is sent anywhere)
    await config().update('lifting.chatModel', 'no-such-family', vscode.ConfigurationTarget.Global);
    await new Promise((r) => setTimeout(r, 5000));
    assert.strictEqual(chats().length, sent, 'the endpoint got nothing while the provider is VS Code');
    await config().update('lifting.provider', 'endpoint', vscode.ConfigurationTarget.Global);
    await until('the new function is described by the endpoint', () => chats().length > sent, 30000);
    await until('the run is over', quiet, 30000);
    // descriptions, then the names of the upper areas whose files changed (the new file joined one)
    const describing = (r) => r.body.messages[0].content.startsWith('You describe code');
    const subjects = chats().slice(sent).filter(describing).map((r) => /^\w+ (\S+) in /.exec(r.body.messages[r.body.messages.length - 1].content)[1]);
    assert.deepStrictEqual(subjects, ['lifting_probe.lifting_probe'], 'only what was not described before');
    const naming = chats().slice(sent).filter((r) => !describing(r));
    assert.ok(naming.length <= 2 && naming.every((r) => r.body.messages[0].content.startsWith('You name the parts')), `${naming.length} other requests`);
    await vscode.workspace.fs.delete(uri);
  });
});
