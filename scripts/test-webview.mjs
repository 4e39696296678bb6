// The graph explorer's webview as a static page in headless Chromium (playwright-core): the real
// bundle and CSP, a fake host running the real ExplorerSession over the Flask fixture as indexed by
// the engine, and a real edit as the live update. Drives it as a person would (mouse, keyboard,
// search box) and checks what is drawn and what the webview sends back. Saves a screenshot to
// test/.artifacts/explorer-webview.png. Ends with one plain `N passed, N failed` line.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './codeServerHarness.mjs';
import { loadPlaywright, makePage, serve } from './webviewPage.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(repo, 'test/.artifacts');
const say = (m) => console.log(`[webview] ${m}`);

const checks = [];
const check = (name, fn) => checks.push([name, fn]);

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-webview-'));
  const info = makePage(path.join(repo, 'test/fixtures/real/flask'), tmp, ['--edit']);
  say(`Flask fixture: ${info.graphNodes} nodes, ${info.graphEdges} edges`);
  const server = await serve(tmp);
  const { chromium } = await loadPlaywright();
  const { context, userDataDir } = await launchChromium(chromium);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  await page.exposeFunction('reportCspViolation', (v) => problems.push(`CSP violation: ${v}`));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => window.reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`)));

  // ---- helpers running in the page --------------------------------------------------------------
  const host = (fn, arg) => page.evaluate(fn, arg);
  const lastSent = (type) => host((t) => window.fakeHost.sent.filter((m) => m.type === t).at(-1), type);
  const received = (type) => host((t) => window.fakeHost.received.filter((m) => m.type === t), type);
  const rendered = () => host(() => window.fakeHost.received.filter((m) => m.type === 'rendered').length);
  const shown = (id) => host((i) => window.cartographExplorer.isShown(i), id);
  const settle = () => page.waitForFunction(() => !window.cartographExplorer.layoutRunning(), null, { timeout: 15000 });
  const positions = () => host(() => Object.fromEntries(window.cartographExplorer.graph.mapNodes((id, a) => [id, [a.x, a.y]])));
  const at = (id) => host((i) => window.cartographExplorer.pagePosition(i), id);
  const waitRendered = (count) => page.waitForFunction((n) => window.fakeHost.received.filter((m) => m.type === 'rendered').length > n, count, { timeout: 15000 });
  const graphNode = (id) => host((i) => window.fakeHost.graphNode(i), id);
  const label = (kind) => page.locator(`label.kind:has(input[data-node-kind="${kind}"])`);
  const edgeLabel = (kind) => page.locator(`label.kind:has(input[data-edge-kind="${kind}"])`);

  check('renders the fixture graph the host sent, at folder and module level', async () => {
    await page.goto(server.url);
    await waitRendered(0);
    const sent = await lastSent('graph');
    const drawn = await host(() => window.cartographExplorer.graph.nodes().sort());
    assert.deepEqual(drawn, sent.graph.nodes.map((n) => n.id).sort());
    assert.ok(drawn.includes('app.py') && drawn.includes('dir:json') && drawn.includes('json/tag.py'));
    assert.ok(!drawn.includes('app.py#Flask'), 'classes wait for an expansion');
    const [first] = await received('rendered');
    assert.equal(first.nodes, sent.graph.nodes.length);
    assert.equal(first.edges, sent.graph.edges.length);
    for (const id of drawn) assert.ok(await shown(id), `${id} drawn`);
    await settle();
  });

  check('node-kind and edge-kind filters hide and show exactly their kind', async () => {
    const ids = await host(() => window.cartographExplorer.graph.mapNodes((id, a) => [id, a.view.kind]));
    await label('Module').click();
    for (const [id, kind] of ids) assert.equal(await shown(id), kind !== 'Module', `${id} (${kind}) with modules hidden`);
    await label('Module').click();
    for (const [id] of ids) assert.ok(await shown(id), `${id} back`);
    const edges = await host(() => window.cartographExplorer.graph.mapEdges((id, a) => [id, a.view.kind]));
    assert.ok(edges.some(([, k]) => k === 'IMPORTS'));
    await edgeLabel('IMPORTS').click();
    for (const [id, kind] of edges) {
      const visible = await host((i) => window.cartographExplorer.isEdgeShown(i), id);
      if (kind === 'IMPORTS') assert.equal(visible, false, `${id} hidden`);
      else if (kind === 'CONTAINS') assert.equal(visible, true, `${id} kept`);
    }
    await edgeLabel('IMPORTS').click();
    assert.ok(await host((i) => window.cartographExplorer.isEdgeShown(i), edges.find(([, k]) => k === 'IMPORTS')[0]));
  });

  check('double-clicking a module expands it; nodes already on screen keep their place', async () => {
    const before = await positions();
    const n = await rendered();
    const p = await at('app.py');
    await page.mouse.dblclick(p.x, p.y);
    await waitRendered(n);
    assert.deepEqual((await received('expand')).map((m) => m.id), ['app.py']);
    assert.ok(await shown('app.py#Flask'));
    await settle();
    const after = await positions();
    // Pinned nodes pass through ForceAtlas2's Float32Array matrices, which round their coordinates to
    // float32 (-10.323162078857422 becomes -10.323162120583547): a relative change near 1e-8. Allow
    // 1e-4 of the layout's extent, far below any real move of the layout (at least a node's size).
    const xs = Object.values(before).map(([x]) => x);
    const ys = Object.values(before).map(([, y]) => y);
    const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    assert.ok(extent > 0, 'the layout has an extent');
    for (const [id, [x, y]] of Object.entries(before)) {
      const moved = Math.hypot(after[id][0] - x, after[id][1] - y);
      assert.ok(moved <= 1e-4 * extent, `${id} moved by ${moved} (layout extent ${extent})`);
    }
    assert.ok(after['app.py#Flask'], 'the new class has a position');
  });

  check('search finds a method inside a closed class and brings it into view', async () => {
    await page.keyboard.press('/');
    await page.keyboard.type('make_response');
    const option = page.locator('#results li[data-id="app.py#Flask.make_response"]');
    await option.waitFor({ timeout: 5000 });
    const n = await rendered();
    await page.keyboard.press('ArrowDown'); // hits: helpers.make_response, then Flask.make_response
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    await waitRendered(n);
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'app.py#Flask.make_response');
    assert.ok(await shown('app.py#Flask.make_response'));
    assert.equal(await page.locator('#details-title').textContent(), 'make_response');
    await settle();
  });

  check('clicking a node posts reveal with its file and line; Enter on the graph does the same', async () => {
    await page.waitForTimeout(400); // the camera's move to the selection
    const id = 'app.py#Flask.make_response';
    const expectedLine = (await graphNode(id)).range.startLine;
    const earlier = (await received('reveal')).length; // the double-click's first click revealed app.py
    const p = await at(id);
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction((n) => window.fakeHost.received.filter((m) => m.type === 'reveal').length > n, earlier);
    const reveal = (await received('reveal'))[earlier];
    assert.deepEqual({ id: reveal.id, path: reveal.path, line: reveal.line }, { id, path: 'app.py', line: expectedLine });
    await page.locator('#graph').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.fakeHost.received.filter((m) => m.type === 'reveal').length > n + 1, earlier);
    assert.deepEqual((await received('reveal')).at(-1), { ...reveal, at: (await received('reveal')).at(-1).at });
  });

  check('a graph update arrives as a diff: renamed and added functions appear, the removed one goes, the rest stays put', async () => {
    const before = await positions();
    const graphsBefore = (await host(() => window.fakeHost.sent.filter((m) => m.type === 'graph').length));
    const n = await rendered();
    await host(() => window.fakeHost.applyUpdate());
    await waitRendered(n);
    const diff = await lastSent('diff');
    assert.equal(await host(() => window.fakeHost.sent.filter((m) => m.type === 'graph').length), graphsBefore, 'no full re-send');
    assert.ok(diff.diff.nodes.upsert.length < 10, `a small diff (${diff.diff.nodes.upsert.length} nodes)`);
    assert.ok(await shown('app.py#explorer_probe'));
    assert.ok(await shown('app.py#_make_timedelta_renamed'));
    assert.equal(await host(() => window.cartographExplorer.graph.hasNode('app.py#_make_timedelta')), false);
    assert.ok(diff.diff.changed.includes('app.py'));
    await settle();
    const after = await positions();
    for (const [id, xy] of Object.entries(before)) if (id !== 'app.py#_make_timedelta') assert.deepEqual(after[id], xy, `${id} did not move`);
  });

  check('collapsing with the keyboard sends collapse and removes the children', async () => {
    await page.locator('#search').fill('');
    await page.locator('#search').type('Flask');
    await page.locator('#results li[data-id="app.py#Flask"]').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'app.py#Flask');
    const n = await rendered();
    await page.keyboard.press('-');
    await waitRendered(n);
    assert.deepEqual((await received('collapse')).map((m) => m.id), ['app.py#Flask']);
    assert.equal(await host(() => window.cartographExplorer.graph.hasNode('app.py#Flask.make_response')), false);
    await page.keyboard.press('+');
    await page.waitForFunction(() => window.cartographExplorer.graph.hasNode('app.py#Flask.make_response'));
    await settle();
  });

  check('a find-where result is highlighted with the path that found it', async () => {
    // the structural search "callers of make_response" answers finalize_request by this path (unit-tested)
    const path = ['app.py#Flask.make_response', 'app.py#Flask.finalize_request'];
    await host((p) => window.fakeHost.found(p[1], p), path);
    await page.waitForFunction(() => window.cartographExplorer.foundPath().length === 2);
    assert.deepEqual(await host(() => window.cartographExplorer.foundPath()), path);
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'app.py#Flask.finalize_request');
    for (const id of path) assert.ok(await shown(id), `${id} shown`);
    const edge = 'CALLS|app.py#Flask.finalize_request|app.py#Flask.make_response';
    assert.ok(await host((e) => window.cartographExplorer.isEdgeShown(e), edge), 'the call that links them is drawn');
    await settle();
  });

  check('no CSP violation, page error or console error', async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    await page.locator('#search').fill('');
    await page.keyboard.press('Escape');
    await page.mouse.move(1, 790); // no hover tooltip over the picture
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(artifacts, 'explorer-webview.png') });
    assert.deepEqual(problems, []);
  });

  let passed = 0;
  let failed = 0;
  try {
    for (const [name, fn] of checks) {
      try {
        await fn();
        passed++;
        console.log(`  ✔ ${name}`);
      } catch (err) {
        failed++;
        console.log(`  ✘ ${name}\n${String(err?.stack ?? err).split('\n').map((l) => `      ${l}`).join('\n')}`);
      }
    }
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  say(`screenshot: ${path.relative(repo, path.join(artifacts, 'explorer-webview.png'))}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
});
