// The extension in a real VS Code (code-server): a multi-root workspace of three fixture folders
// (ranger-py, ranger-ts, ranger-go, copied to a temp folder per run by test/integration/workspace.mjs).
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const EXTENSION_ID = 'cartograph.cartograph';
const { sleep, until } = require('../wait.js');

function folderNamed(suffix) {
  const folder = (vscode.workspace.workspaceFolders || []).find((f) => f.name.endsWith(suffix));
  assert.ok(folder, `workspace folder *${suffix} is open`);
  return folder;
}

/** Names of the nodes in the folder's indexed files. */
async function namesIn(repository) {
  const names = new Set();
  for (const file of await repository.filePaths()) for (const n of await repository.nodesInFile(file)) names.add(n.name);
  return names;
}

/** Appends `text` to the file through a WorkspaceEdit and saves it, as a user's edit would. */
async function appendAndSave(uri, text) {
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await doc.save());
}

/** Runs a Node script with the extension host's binary (as Node under Electron too); resolves with its exit code and output. */
function runNode(script, args, cwd) {
  return new Promise((resolve) => {
    const child = require('child_process').spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Whether folders share their graph with the CLI and agents: cartograph.shareIndex, hosted by the engine worker. */
function sharing() {
  const config = vscode.workspace.getConfiguration('cartograph');
  return config.get('shareIndex', true) !== false && config.get('engineWorker', true) !== false;
}

async function pathsIn(repository) {
  return new Set(await repository.filePaths());
}

describe('Cartograph in a real VS Code', function () {
  let api;
  let py;
  let ts;

  before(async function () {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    api = await extension.activate();
    py = folderNamed('py');
    ts = folderNamed('ts');
    await until('every folder ready', () => api.indexes().length === vscode.workspace.workspaceFolders.length && api.indexes().every((i) => i.state.kind === 'ready'), 60000);
  });

  it('activates on startup with one index per workspace folder', async function () {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.strictEqual(extension.isActive, true);
    assert.strictEqual(vscode.workspace.workspaceFolders.length, 3);
    assert.strictEqual(api.indexes().length, 3);
    const all = await vscode.commands.getCommands(true);
    for (const c of ['cartograph.reindex', 'cartograph.showStatus', 'cartograph.showSymbolGraph']) assert.ok(all.includes(c), c);
  });

  it('indexes every folder to ready with the expected counts', async function () {
    await until('every folder ready', () => api.indexes().every((i) => i.state.kind === 'ready'), 60000);
    for (const folder of [py, ts]) {
      const repository = api.repositoryFor(folder.uri);
      assert.ok(repository, `repository for ${folder.name}`);
      const stats = await repository.stats();
      assert.strictEqual(stats.files, 2, `${folder.name} files`);
      assert.deepStrictEqual(
        { Module: stats.nodes.Module, Class: stats.nodes.Class, Function: stats.nodes.Function, Method: stats.nodes.Method, GlobalVariable: stats.nodes.GlobalVariable },
        { Module: 2, Class: 2, Function: 3, Method: 3, GlobalVariable: 1 },
        `${folder.name} node counts`,
      );
      assert.strictEqual(stats.edges.INHERITS, 1);
      assert.strictEqual(stats.edges.IMPORTS, 2);
      if (sharing()) {
        assert.strictEqual(stats.store.dir, path.join(folder.uri.fsPath, '.cartograph'), 'the store is the folder\'s, where the CLI and agents look');
        assert.match(fs.readFileSync(path.join(stats.store.dir, '.gitignore'), 'utf8'), /^\*$/m, 'and git ignores it');
      } else {
        assert.notStrictEqual(stats.store.dir, null, 'store lives in the workspace storage');
        assert.ok(!stats.store.dir.startsWith(folder.uri.fsPath), 'store is outside the repository');
      }
      assert.notStrictEqual(stats.store.status, 'unavailable');
    }
  });

  it('a function renamed through WorkspaceEdit + save changes the graph', async function () {
    const repository = api.repositoryFor(py.uri);
    assert.ok((await namesIn(repository)).has('quick_add'));
    const uri = vscode.Uri.joinPath(py.uri, 'extended.py');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    const text = document.getText();
    for (let i = text.indexOf('quick_add'); i >= 0; i = text.indexOf('quick_add', i + 1)) {
      edit.replace(uri, new vscode.Range(document.positionAt(i), document.positionAt(i + 'quick_add'.length)), 'quick_sum');
    }
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    await until('quick_sum in the graph', async () => (await namesIn(api.repositoryFor(py.uri))).has('quick_sum'));
    const names = await namesIn(api.repositoryFor(py.uri));
    assert.ok(!names.has('quick_add'), 'old name is gone');
    // the caller's CALLS edge follows the rename
    // same repository: a save updates it in place
    const renamed = await repository.node('extended.py#quick_sum');
    const description = await repository.describeAt('extended.py', renamed.range.startLine, renamed.range.startCol);
    assert.strictEqual(description.node.id, 'extended.py#quick_sum');
    const callers = description.incoming.filter((e) => e.kind === 'CALLS').map((e) => e.id);
    assert.deepStrictEqual(callers, ['extended.py#demo']);
  });

  it('files created and deleted on disk reach the graph through the watcher', async function () {
    const root = ts.uri.fsPath;
    fs.writeFileSync(path.join(root, 'extra.ts'), 'export function tripled(x: number): number {\n  return x * 3;\n}\n');
    await until('extra.ts in the graph', async () => (await namesIn(api.repositoryFor(ts.uri))).has('tripled'));
    fs.unlinkSync(path.join(root, 'extended.ts'));
    fs.unlinkSync(path.join(root, 'extra.ts'));
    await until('extended.ts gone from the graph', async () => {
      const paths = await pathsIn(api.repositoryFor(ts.uri));
      return !paths.has('extended.ts') && !paths.has('extra.ts');
    });
    const names = await namesIn(api.repositoryFor(ts.uri));
    assert.ok(!names.has('Scientific') && !names.has('quickAdd') && !names.has('tripled'));
    assert.ok(names.has('Calculator'), 'base.ts stays');
  });

  it('a folder moved in and deleted as a whole reaches the graph through the watcher, dots in its name or not', async function () {
    const root = py.uri.fsPath;
    const outside = fs.mkdtempSync(path.join(require('os').tmpdir(), 'cartograph-pkg-'));
    fs.mkdirSync(path.join(outside, 'pkg'));
    fs.writeFileSync(path.join(outside, 'pkg', 'geometry.py'), 'def area(w, h):\n    return w * h\n');
    fs.renameSync(path.join(outside, 'pkg'), path.join(root, 'pkg'));
    await until('pkg/geometry.py in the graph', async () => (await pathsIn(api.repositoryFor(py.uri))).has('pkg/geometry.py'));
    assert.ok((await namesIn(api.repositoryFor(py.uri))).has('area'));
    fs.rmSync(path.join(root, 'pkg'), { recursive: true, force: true });
    await until('pkg/geometry.py gone', async () => !(await pathsIn(api.repositoryFor(py.uri))).has('pkg/geometry.py'));
    assert.ok(!(await namesIn(api.repositoryFor(py.uri))).has('area'));
    // a folder whose name has a dot is a folder too
    fs.mkdirSync(path.join(outside, 'api.v2'));
    fs.writeFileSync(path.join(outside, 'api.v2', 'routes.py'), 'def list_routes():\n    return []\n');
    fs.renameSync(path.join(outside, 'api.v2'), path.join(root, 'api.v2'));
    await until('api.v2/routes.py in the graph', async () => (await pathsIn(api.repositoryFor(py.uri))).has('api.v2/routes.py'));
    fs.rmSync(path.join(root, 'api.v2'), { recursive: true, force: true });
    await until('api.v2/routes.py gone', async () => !(await pathsIn(api.repositoryFor(py.uri))).has('api.v2/routes.py'));
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('every command runs', async function () {
    // Show Symbol Graph on `divide` in py/extended.py
    const uri = vscode.Uri.joinPath(py.uri, 'extended.py');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    const line = document.getText().split('\n').findIndex((l) => l.includes('return self.multiply'));
    editor.selection = new vscode.Selection(line, 12, line, 12);
    const description = await vscode.commands.executeCommand('cartograph.showSymbolGraph');
    assert.ok(description, 'a node under the cursor');
    assert.strictEqual(description.node.qname.endsWith('Scientific.divide'), true, description.node.qname);
    assert.ok(description.outgoing.some((e) => e.kind === 'CALLS' && e.qname.endsWith('Calculator.multiply')), JSON.stringify(description.outgoing));
    assert.ok(description.incoming.some((e) => e.kind === 'HAS_METHOD'));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');

    const status = await vscode.commands.executeCommand('cartograph.showStatus');
    assert.match(status, /Node kind/);
    assert.match(status, /\| Class \| 2 \|/);
    assert.match(status, /Skipped files/);
    await vscode.commands.executeCommand('cartograph.showLog');
    await vscode.commands.executeCommand('cartograph.reindex');
    assert.ok(api.indexes().every((i) => i.state.kind === 'ready'), JSON.stringify(api.indexes().map((i) => i.state)));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Find Where Implemented answers names, structural questions and prose, and reveals the pick', async function () {
    const pick = await vscode.commands.executeCommand('cartograph.findWhereImplemented', 'callers of Calculator.add');
    assert.ok(pick, 'the command returns its QuickPick');
    assert.match(pick.title, /^Callers of Calculator\.add \(graph edges\) · /);
    const labels = pick.items.map((i) => `${i.label} ${i.description}`);
    // (earlier tests renamed quick_add to quick_sum and deleted ts/extended.ts)
    assert.ok(labels.some((l) => /quick_sum/.test(l) && /extended\.py:\d+/.test(l)), labels.join('\n'));
    pick.value = 'Calculator';
    await until('entity results from both folders', () => /^Code named Calculator/.test(pick.title || '') && pick.items.some((i) => /base\.ts:\d+/.test(i.description)) && pick.items.some((i) => /base\.py:\d+/.test(i.description)));
    pick.value = 'Scientific';
    await until('entity results for Scientific', () => /^Code named Scientific/.test(pick.title || '') && pick.items.some((i) => /Scientific/.test(i.label)));
    // `files:` ranks files (issue → file localization), each with the definitions that counted
    pick.value = 'files: dividing uses multiplication by the inverse';
    await until('ranked files', () => /^Files ranked/.test(pick.title || '') && pick.items.some((i) => /extended\.py$/.test(i.label) && /Scientific\.divide/.test(i.detail)));
    pick.value = 'Scientific';
    await until('entity results again', () => /^Code named Scientific/.test(pick.title || '') && pick.items.some((i) => /Scientific/.test(i.label)));
    // each result carries its file and line, and revealing it opens the definition there
    const item = pick.items.find((i) => /extended\.py:\d+/.test(i.description));
    assert.ok(item && item.file && typeof item.line === 'number', JSON.stringify(pick.items.map((i) => i.description)));
    pick.hide();
    const document = await vscode.workspace.openTextDocument(item.file);
    assert.ok(document.lineAt(item.line).text.includes('class Scientific'), document.lineAt(item.line).text);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("answers the cartograph CLI from the editor's graph: the folder is indexed once", async function () {
    // The service is hosted by the engine worker: with the engine in the extension host nothing is shared.
    if (!sharing()) this.skip();
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID).extensionPath, 'dist', 'cli.js');
    await api.whenIdle();
    const store = (await api.repositoryFor(py.uri).stats()).store.dir;
    assert.strictEqual(store, path.join(py.uri.fsPath, '.cartograph'), 'the folder keeps its graph where the CLI and agents look');
    // The extension host's own binary as Node (electron needs telling), in the folder as a user's shell is.
    const run = (...args) => runNode(cli, args, py.uri.fsPath);
    const answer = JSON.parse((await run('query', 'Calculator', '--json')).stdout);
    assert.strictEqual(answer.index.source, 'service', 'answered by a service, not from a snapshot in the CLI process');
    assert.ok(answer.hits.some((h) => /Calculator/.test(h.qname)), JSON.stringify(answer.hits));
    const [service] = JSON.parse((await run('service', 'status', '--json')).stdout);
    assert.strictEqual(service.pid, process.pid, 'the service is this extension host (its engine worker)');
    assert.strictEqual(service.hostedBy, vscode.env.appName);
    // and a client cannot stop it
    const stop = await run('service', 'stop');
    assert.strictEqual(stop.code, 1, stop.stdout + stop.stderr);
    assert.match(stop.stdout, /Left the service .* running/);
  });

  it('a corrupt store is recovered by Reindex', async function () {
    const before = await api.repositoryFor(py.uri).stats();
    const storeDir = before.store.dir;
    await api.whenIdle();
    await api.repositoryFor(py.uri).flush();
    let overwritten = 0;
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else {
          fs.writeFileSync(p, 'garbage\0garbage\0' + 'x'.repeat(100));
          overwritten++;
        }
      }
    };
    walk(storeDir);
    assert.ok(overwritten > 0, 'store had files');
    await vscode.commands.executeCommand('cartograph.reindex');
    const index = api.indexFor(py.uri);
    assert.strictEqual(index.state.kind, 'ready', JSON.stringify(index.state));
    const after = await api.repositoryFor(py.uri).stats();
    assert.strictEqual(after.files, before.files);
    assert.deepStrictEqual(after.nodes, before.nodes);
    assert.notStrictEqual(after.store.status, 'unavailable', JSON.stringify(after.store));
    // and the repaired store warm-starts on the next open
    await vscode.commands.executeCommand('cartograph.reindex');
    const reopened = await api.repositoryFor(py.uri).stats();
    assert.strictEqual(reopened.store.status, 'opened', JSON.stringify(reopened.store));
    assert.strictEqual(index.lastReport.parsed, 0, 'warm start re-parses nothing');
    assert.deepStrictEqual(reopened.nodes, before.nodes);
  });
  it('a store deleted while running is recreated by the next save', async function () {
    const storeDir = (await api.repositoryFor(py.uri).stats()).store.dir;
    await api.whenIdle();
    fs.rmSync(storeDir, { recursive: true, force: true });
    await appendAndSave(vscode.Uri.joinPath(py.uri, 'base.py'), '\n\ndef after_store_loss():\n    return 1\n');
    await until('the save reached the graph', async () => (await namesIn(api.repositoryFor(py.uri))).has('after_store_loss'));
    await api.whenIdle();
    await api.repositoryFor(py.uri).flush();
    assert.ok(fs.existsSync(storeDir), 'the store folder exists again');
    // what was written is the whole graph, not only the saved file: a warm start finds everything
    await vscode.commands.executeCommand('cartograph.reindex');
    const reopened = await api.repositoryFor(py.uri).stats();
    assert.strictEqual(reopened.store.status, 'opened', JSON.stringify(reopened.store));
    assert.ok((await namesIn(api.repositoryFor(py.uri))).has('after_store_loss'));
    assert.ok((await namesIn(api.repositoryFor(py.uri))).has('Calculator'));
  });

  it('an engine worker that dies puts the folder in error, and Reindex brings it back', async function () {
    const index = api.indexFor(py.uri);
    const worker = index.repository.worker;
    // With cartograph.engineWorker off the engine runs in this thread: nothing to kill.
    if (!worker) this.skip();
    const nodes = (await index.repository.stats()).nodes;
    await api.whenIdle();
    await worker.terminate();
    await until('the folder in error', () => index.state.kind === 'error');
    assert.match(index.state.message, /engine worker stopped/);
    await assert.rejects(index.repository.counts(), /engine worker stopped/);
    await vscode.commands.executeCommand('cartograph.reindex');
    assert.strictEqual(index.state.kind, 'ready', JSON.stringify(index.state));
    assert.deepStrictEqual((await api.repositoryFor(py.uri).stats()).nodes, nodes);
  });

  it('a store that cannot open at all leaves a working in-memory index, and Reindex recovers once it can (window-only store)', async function () {
    // With cartograph.shareIndex off the window keeps the folder's store in its workspace storage: the
    // layout where a storage folder that cannot be created makes every attempt fail, Reindex's too.
    const config = vscode.workspace.getConfiguration('cartograph');
    // The socket the folder's engine worker serves the CLI and agents on, if it does.
    const servedOn = (folder) => api.indexFor(folder.uri).repository?.opened?.socket;
    const privateStore = async () => {
      await api.whenIdle();
      const stats = await api.repositoryFor(py.uri)?.stats().catch(() => undefined);
      return stats && api.indexFor(py.uri).state.kind === 'ready' && stats.store.dir && !stats.store.dir.startsWith(py.uri.fsPath) ? stats : undefined;
    };
    await config.update('shareIndex', false, vscode.ConfigurationTarget.Workspace);
    try {
      const { store, nodes } = await until('the folder re-opened on a window-only store', privateStore, 60000);
      assert.strictEqual(servedOn(py), undefined, 'and serves no one');
      // The storage folder becomes a plain file: every attempt to create the store fails (ENOTDIR),
      // the way a read-only disk or a LanceDB build that will not load on this CPU fails on every try.
      const parent = path.dirname(store.dir);
      const saved = `${parent}.saved`;
      fs.renameSync(parent, saved);
      fs.writeFileSync(parent, 'not a folder');
      try {
        await vscode.commands.executeCommand('cartograph.reindex');
        const index = api.indexFor(py.uri);
        assert.strictEqual(index.state.kind, 'ready', JSON.stringify(index.state));
        const stats = await api.repositoryFor(py.uri).stats();
        assert.strictEqual(stats.store.status, 'unavailable', JSON.stringify(stats.store));
        assert.deepStrictEqual(stats.nodes, nodes, 'the graph is whole, in memory');
        assert.ok(index.storeProblem, 'the problem is recorded for the status command and the warning');
        // saves keep working on the in-memory graph
        await appendAndSave(vscode.Uri.joinPath(py.uri, 'base.py'), '\n\ndef in_memory_only():\n    return 2\n');
        await until('the save reached the in-memory graph', async () => (await namesIn(api.repositoryFor(py.uri))).has('in_memory_only'));
        await vscode.commands.executeCommand('cartograph.showStatus');
      } finally {
        fs.rmSync(parent, { force: true });
        fs.renameSync(saved, parent);
      }
      await vscode.commands.executeCommand('cartograph.reindex');
      const after = await api.repositoryFor(py.uri).stats();
      assert.notStrictEqual(after.store.status, 'unavailable', JSON.stringify(after.store));
      assert.strictEqual(api.indexFor(py.uri).storeProblem, undefined);
      assert.ok((await namesIn(api.repositoryFor(py.uri))).has('in_memory_only'));
    } finally {
      await config.update('shareIndex', undefined, vscode.ConfigurationTarget.Workspace);
    }
    // Shared again: the folder's own store, served to the CLI, with the edit made meanwhile.
    if (!sharing()) return;
    await until('the folder served from its .cartograph again', async () => {
      await api.whenIdle();
      return api.indexFor(py.uri).state.kind === 'ready' && servedOn(py) !== undefined;
    }, 60000);
    assert.ok((await namesIn(api.repositoryFor(py.uri))).has('in_memory_only'));
  });
});
