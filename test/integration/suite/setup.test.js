// Completion server setup in a real VS Code: Test Completion Connection against servers started here
// (the OpenAI-compatible test server, a closed port, a server that answers with one JSON reply) says
// exactly what failed, or which model answered and how.
const assert = require('assert');
const http = require('http');
const vscode = require('vscode');
const { OpenAiTestServer } = require('../../support/openaiTestServer.js');

describe('Completion server setup', function () {
  const config = () => vscode.workspace.getConfiguration('cartograph');
  const global = vscode.ConfigurationTarget.Global;
  let server;
  let endpoint;
  const test = async (url, model) => {
    await config().update('completion.endpoint', url, global);
    await config().update('completion.model', model, global);
    return vscode.commands.executeCommand('cartograph.testCompletionConnection');
  };

  before(async function () {
    await vscode.extensions.getExtension('cartograph.cartograph').activate();
    server = new OpenAiTestServer();
    endpoint = await server.listen();
  });

  after(async function () {
    for (const key of ['completion.endpoint', 'completion.model']) await config().update(key, undefined, global);
    await server?.close();
  });

  it('a working server: the model answers one token, through the route completion will use', async function () {
    server.script({ text: 'x' });
    const report = await test(endpoint, 'qwen2.5-coder-1.5b');
    assert.strictEqual(report.ok, true, report.message);
    assert.match(report.message, /^qwen2\.5-coder-1\.5b answered through \/completions in \d+ ms$/);
    const request = server.requests[server.requests.length - 1];
    assert.strictEqual(request.body.max_tokens, 1);
    assert.strictEqual(request.body.stream, true);
  });

  it('a refused port, a refused key and a missing model are each named', async function () {
    const closed = http.createServer();
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await test(`http://127.0.0.1:${port}/v1`, 'm');
    assert.ok(!refused.ok);
    assert.match(refused.message, new RegExp(`nothing listens on 127\\.0\\.0\\.1:${port} \\(connection refused\\)`));
    server.script({ status: 401 });
    const unauthorized = await test(endpoint, 'qwen2.5-coder-1.5b');
    assert.match(unauthorized.message, /^401 .*no API key is set for this server: scripted failure 401$/);
    server.script({ status: 404 });
    const missing = await test(endpoint, 'no-such-model');
    assert.match(missing.message, /the server has no model "no-such-model"/);
  });

  it('a reply that is not streamed is named', async function () {
    const plain = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url.endsWith('/models') ? { data: [{ id: 'llama3' }] } : { choices: [{ message: { content: 'OK' } }] }));
    });
    await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const report = await test(`http://127.0.0.1:${plain.address().port}/v1`, 'llama3');
      assert.ok(!report.ok);
      assert.match(report.message, /\/v1\/chat\/completions answered with one application\/json reply instead of a stream/);
    } finally {
      plain.close();
    }
  });
});
