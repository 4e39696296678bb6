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

/** Relative luminance and contrast ratio (WCAG), CIE76 colour distance: what "distinct" and "dim" mean here. */
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
function luminance(hex) {
  const [r, g, b] = rgb(hex).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
function lab(hex) {
  const [r, g, b] = rgb(hex).map(linear);
  const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const [x, y, z] = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883].map(f);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a, b) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]));
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
  /** What VS Code does on a theme switch: the body's class and the root's --vscode-* variables. */
  const setTheme = async (cls, vars) => {
    await page.evaluate(([c, v]) => {
      document.body.className = c;
      for (const [k, value] of Object.entries(v)) document.documentElement.style.setProperty(`--vscode-${k}`, value);
    }, [cls, vars]);
    await page.waitForFunction((bg) => window.cartographExplorer.palette().background === bg, vars['editor-background']);
  };

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
    // the externals group starts hidden (its filter is off): the hub would tie every module into one ball
    for (const id of drawn) assert.equal(await shown(id), id !== 'ext:', `${id} drawn`);
    assert.equal(await page.locator('input[data-node-kind="Externals"]').isChecked(), false);
    await settle();
  });

  check('the first view is fitted: every drawn node lies inside the graph area, and labels do not overlap', async () => {
    const box = await page.locator('#graph').boundingBox();
    const ids = await host(() => window.cartographExplorer.graph.filterNodes((id) => window.cartographExplorer.isShown(id)));
    for (const id of ids) {
      const p = await at(id);
      assert.ok(p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height, `${id} at ${JSON.stringify(p)} inside ${JSON.stringify(box)}`);
    }
    const labels = await host(() => window.cartographExplorer.drawnLabels());
    assert.ok(labels.length >= Math.min(10, ids.length), `${labels.length} labels drawn for ${ids.length} nodes`);
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i], labels[j]];
        const overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
        assert.ok(!overlap, `labels ${a.label} and ${b.label} overlap`);
      }
    }
    // and none is cut by the edges of the view (boxes are in the graph area's pixels, margin included)
    for (const l of labels) assert.ok(l.x0 >= -3 && l.x1 <= box.width + 3 && l.y0 >= -3 && l.y1 <= box.height + 3, `label ${l.key} ${JSON.stringify(l)} outside ${box.width}x${box.height}`);
  });

  check('node-kind and edge-kind filters hide and show exactly their kind', async () => {
    const ids = await host(() => window.cartographExplorer.graph.mapNodes((id, a) => [id, a.view.kind]));
    const counted = async () => Number((await page.locator('#status').textContent()).match(/(\d+) of \d+ nodes shown/)[1]);
    const visible = ids.filter(([, kind]) => kind !== 'Externals');
    assert.equal(await counted(), visible.length, 'the counter counts what is drawn');
    await label('Module').click();
    for (const [id, kind] of ids) assert.equal(await shown(id), kind !== 'Module' && kind !== 'Externals', `${id} (${kind}) with modules hidden`);
    assert.equal(await counted(), visible.filter(([, kind]) => kind !== 'Module').length, 'the counter follows the filter');
    await label('Module').click();
    for (const [id, kind] of ids) assert.equal(await shown(id), kind !== 'Externals', `${id} back`);
    assert.equal(await counted(), visible.length);
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

  check('opening a class zooms in on it once its members settle: its members are labelled, not dots; past a page, "+N more"', async () => {
    // Before, leaves had no label at the fitted zoom at all. Config (10 members): at least half are labelled.
    // Flask (109 members): when all were drawn, 5-12 labels fitted uncut; now its 20 most connected and
    // one "+89 more" node are drawn: 18-19 of the 21 labelled here, at least half however short the layout's
    // burst on a loaded machine; and the "+89 more" opens the next 20.
    const camera = () => host(() => ({ ratio: window.cartographExplorer.renderer.getCamera().ratio }));
    for (const [id, atLeast] of [['config.py#Config', 5], ['app.py#Flask', 11]]) {
      try {
        const before = (await camera()).ratio;
        const n = await rendered();
        // select it (as a search pick does), then open it with the keyboard
        await host((i) => window.fakeHost.cursor(i), id);
        await page.waitForFunction((i) => window.cartographExplorer.selected() === i, id);
        await page.locator('#graph').press('+');
        await waitRendered(n);
        await settle();
        // the zoom starts once the layout has settled, and animates
        await page.waitForFunction((r) => {
          const c = window.cartographExplorer.renderer.getCamera();
          return !c.isAnimated() && c.ratio < r;
        }, before, { timeout: 15000 });
        const members = await host((i) => window.cartographExplorer.graph.filterNodes((m, a) => a.view.parent === i && window.cartographExplorer.isShown(m)).map((m) => window.cartographExplorer.graph.getNodeAttribute(m, 'view').label), id);
        const labelled = await host((names) => {
          const drawn = new Set(window.cartographExplorer.drawnLabels().map((l) => l.key));
          return names.filter((name) => drawn.has(name)).length;
        }, members);
        console.log(`    ${id}: ${labelled} of ${members.length} members labelled`);
        assert.ok(members.length >= 10 && labelled >= atLeast, `${id}: ${labelled} of ${members.length} members labelled`);
        if (id === 'app.py#Flask') {
          const more = await host(() => window.cartographExplorer.graph.getNodeAttribute('more:app.py#Flask', 'view'));
          assert.equal(members.length, 21);
          assert.equal(more.label, `+${more.children} more`);
          assert.ok(members.includes(more.label), 'the "+N more" node is among the drawn members');
          // opening it (selected, then +) draws the next page beside the first
          const m = await rendered();
          const spot = await at('more:app.py#Flask');
          await page.mouse.click(spot.x, spot.y);
          await page.waitForFunction(() => window.cartographExplorer.selected() === 'more:app.py#Flask');
          await page.locator('#graph').press('+');
          await waitRendered(m);
          const now = await host((i) => window.cartographExplorer.graph.filterNodes((_, a) => a.view.parent === i).length, id);
          assert.equal(now, 41);
          assert.equal(await host(() => window.cartographExplorer.graph.getNodeAttribute('more:app.py#Flask', 'view').children), more.children - 20);
        }
      } finally {
        // the next class, and the rest of the checks, start from the fitted view with the class closed
        if (await host((i) => window.cartographExplorer.graph.filterNodes((m, a) => a.view.parent === i).length > 0, id)) {
          const m = await rendered();
          await page.locator('#graph').press('-');
          await waitRendered(m);
        }
        await page.locator('#graph').press('0');
        await page.waitForFunction(() => !window.cartographExplorer.renderer.getCamera().isAnimated());
        await settle();
      }
    }
  });

  check('search finds a method inside a closed class and brings it into view', async () => {
    await page.keyboard.press('/');
    await page.keyboard.type('make_response');
    const option = page.locator('#results li[data-id="app.py#Flask.make_response"]');
    await option.waitFor({ timeout: 5000 });
    const n = await rendered();
    const index = await page.locator('#results li').evaluateAll((lis) => lis.findIndex((li) => li.dataset.id === 'app.py#Flask.make_response'));
    assert.ok(index <= 1, 'both make_response definitions come first');
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
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
    assert.deepEqual({ id: reveal.id, path: reveal.path, line: reveal.line, preview: reveal.preview }, { id, path: 'app.py', line: expectedLine, preview: true }, 'a click previews');
    await page.locator('#graph').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.fakeHost.received.filter((m) => m.type === 'reveal').length > n + 1, earlier);
    assert.deepEqual((await received('reveal')).at(-1), { ...reveal, preview: false, at: (await received('reveal')).at(-1).at }, 'Enter opens');
  });

  check('source lines the host sends for a preview show in the details of their node only, and go with another selection', async () => {
    const id = await host(() => window.cartographExplorer.selected());
    assert.ok(id, 'a node is selected');
    const send = (m) => host((message) => window.dispatchEvent(new MessageEvent('message', { data: message })), m);
    await send({ type: 'source', id: `${id}-other`, line: 0, lines: ['not this one'] });
    await send({ type: 'source', id, line: 9, lines: ['def make_response(self, rv):', '    return rv'] });
    await page.waitForFunction(() => !document.getElementById('details-source').hidden);
    assert.equal(await page.locator('#details-source').textContent(), '10  def make_response(self, rv):\n11      return rv');
    await send({ type: 'select', id: 'app.py', reason: 'search' });
    await page.waitForFunction(() => document.getElementById('details-source').hidden);
    await settle();
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
    const earlier = (await received('collapse')).length;
    await page.keyboard.press('-');
    await waitRendered(n);
    assert.deepEqual((await received('collapse')).slice(earlier).map((m) => m.id), ['app.py#Flask']);
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

  check('selecting a node off the find-where path (a click) ends its highlight; the path\'s own hit keeps it', async () => {
    const path = ['app.py#Flask.make_response', 'app.py#Flask.finalize_request'];
    await host((p) => window.fakeHost.found(p[1], p), path);
    await page.waitForFunction(() => window.cartographExplorer.foundPath().length === 2 && window.cartographExplorer.selected() === 'app.py#Flask.finalize_request');
    // the hit was centred (zoomed in): fit, so the node to click is in view
    await page.locator('#graph').press('0');
    await page.waitForTimeout(500);
    await settle();
    const other = await at('json/tag.py');
    await page.mouse.click(other.x, other.y);
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'json/tag.py');
    assert.deepEqual(await host(() => window.cartographExplorer.foundPath()), []);
    await settle();
  });

  check('in a narrow split the toolbar wraps and the node counter is shown whole', async () => {
    try {
      // Fitted at full width, then split (a group opened beside, the panel un-maximised): still fitted, no label cut
      await page.locator('#graph').press('0');
      await page.waitForTimeout(500);
      await page.setViewportSize({ width: 520, height: 700 });
      await page.waitForFunction(() => document.body.clientWidth === 520);
      await page.waitForTimeout(300);
      const refitted = await page.locator('#graph').boundingBox();
      const drawn = await host(() => window.cartographExplorer.drawnLabels());
      assert.ok(drawn.length > 0);
      for (const l of drawn) assert.ok(l.x0 >= -3 && l.x1 <= refitted.width + 3, `after the resize, label ${l.key} ${JSON.stringify(l)} outside ${refitted.width}x${refitted.height}`);
      const counter = await page.evaluate(() => {
        const status = document.getElementById('status');
        const box = status.getBoundingClientRect();
        return { text: status.textContent, cut: status.scrollWidth > status.clientWidth, right: box.right, width: window.innerWidth };
      });
      assert.match(counter.text, /\d+ of \d+ nodes shown/);
      assert.ok(!counter.cut && counter.right <= counter.width, JSON.stringify(counter));
      // Fit in the narrow view: no label is cut by its edges
      await page.locator('#graph').press('0');
      await page.waitForTimeout(500);
      const box = await page.locator('#graph').boundingBox();
      const labels = await host(() => window.cartographExplorer.drawnLabels());
      assert.ok(labels.length > 0);
      for (const l of labels) assert.ok(l.x0 >= -3 && l.x1 <= box.width + 3 && l.y0 >= -3 && l.y1 <= box.height + 3, `label ${l.key} ${JSON.stringify(l)} outside ${box.width}x${box.height}`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await settle();
  });

  check('host messages never move the keyboard focus: a followed cursor, a find-where pick, a new graph', async () => {
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.focusCalls = [];
      const original = HTMLElement.prototype.focus;
      HTMLElement.prototype.focus = function (...args) {
        window.focusCalls.push(this.id || this.tagName);
        return original.apply(this, args);
      };
    });
    const n = await rendered();
    await host(() => window.fakeHost.cursor('app.py#Flask.make_response'));
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'app.py#Flask.make_response');
    await host(() => window.fakeHost.cursor('json/tag.py'));
    await page.waitForFunction(() => window.cartographExplorer.selected() === 'json/tag.py');
    await host(() => window.fakeHost.found('app.py#Flask.finalize_request', ['app.py#Flask.make_response', 'app.py#Flask.finalize_request']));
    await host(() => window.fakeHost.act({ type: 'ready' })); // the host sends the whole graph again
    await waitRendered(n);
    await page.waitForTimeout(300);
    assert.deepEqual(await page.evaluate(() => window.focusCalls), []);
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'nothing inside the webview took focus');
    await page.evaluate(() => delete window.focusCalls);
    await settle();
  });

  check('Dark Modern: a selection dims the rest toward the background, never toward white', async () => {
    // VS Code's Dark Modern values; disabledForeground (translucent light grey) used to be the dim colour
    await setTheme('vscode-dark', { 'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc', 'disabledForeground': '#cccccc80' });
    const selectedId = 'app.py#Flask';
    await host((id) => window.fakeHost.cursor(id), selectedId);
    await page.waitForFunction((id) => window.cartographExplorer.selected() === id, selectedId);
    const far = await host((id) => {
      const x = window.cartographExplorer;
      const node = x.graph.findNode((n) => n !== id && !x.graph.areNeighbors(n, id) && x.isShown(n));
      const edge = x.graph.findEdge((e) => !x.graph.hasExtremity(e, id) && x.isEdgeShown(e));
      return { node: x.renderer.getNodeDisplayData(node).color, nodeKind: x.graph.getNodeAttribute(node, 'view').kind, edge: x.renderer.getEdgeDisplayData(edge).color, edgeKind: x.graph.getEdgeAttribute(edge, 'view').kind };
    }, selectedId);
    const palette = await host(() => window.cartographExplorer.palette());
    const background = luminance('#1f1f1f');
    for (const [dimmed, full] of [[far.node, palette.nodes[far.nodeKind]], [far.edge, palette.edges[far.edgeKind]]]) {
      assert.ok(luminance(dimmed) < luminance(full), `${dimmed} is darker than ${full}`);
      assert.ok(contrast(dimmed, '#1f1f1f') < 1.6, `${dimmed} sits close to the background (contrast ${contrast(dimmed, '#1f1f1f').toFixed(2)})`);
      assert.ok(luminance(dimmed) >= background, `${dimmed} is not darker than the background either`);
    }
  });

  check('every node kind and every edge kind has its own colour, in light and in dark themes', async () => {
    for (const [theme, vars] of [['vscode-light', { 'editor-background': '#ffffff', 'editor-foreground': '#3b3b3b' }], ['vscode-dark', { 'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc' }]]) {
      await setTheme(theme, vars);
      const palette = await host(() => window.cartographExplorer.palette());
      for (const set of [palette.nodes, palette.edges]) {
        const entries = Object.entries(set);
        assert.ok(entries.length >= 7);
        for (let i = 0; i < entries.length; i++) {
          for (let j = i + 1; j < entries.length; j++) {
            const d = deltaE(entries[i][1], entries[j][1]);
            assert.ok(d >= 15, `${theme}: ${entries[i][0]} ${entries[i][1]} and ${entries[j][0]} ${entries[j][1]} are too alike (ΔE ${d.toFixed(1)})`);
          }
        }
        // every kind stands out from the background
        for (const [kind, colour] of entries) assert.ok(contrast(colour, vars['editor-background']) >= 1.5, `${theme}: ${kind} ${colour} on ${vars['editor-background']}`);
      }
    }
    await setTheme('vscode-dark', { 'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc' });
  });

  check('search ranks the class before a field of the same name', async () => {
    await page.locator('#search').fill('');
    await page.locator('#search').type('config');
    await page.locator('#results li').first().waitFor();
    await page.waitForFunction(() => window.fakeHost.sent.filter((m) => m.type === 'searchResults').at(-1)?.query === 'config');
    const ids = await page.locator('#results li').evaluateAll((lis) => lis.map((li) => li.dataset.id));
    assert.equal(ids[0], 'config.py#Config');
    assert.ok(ids.indexOf('app.py#Flask.config') > 0, 'the field Flask.config comes later');
    await page.keyboard.press('Escape');
  });

  check('Areas switches the view to the functional hierarchy (areas, then their files and definitions) and back to folders', async () => {
    const kinds = () => host(() => window.cartographExplorer.nodeKinds());
    const graphs = async () => (await received('setViewBy')).length;
    const before = await graphs();
    let n = await rendered();
    await page.locator('#by-areas').check();
    await waitRendered(n);
    assert.equal((await lastSent('graph')).viewBy, 'areas');
    assert.equal(await graphs(), before + 1);
    const byAreas = await kinds();
    assert.ok(byAreas.includes('Area') && !byAreas.includes('Folder'), byAreas.join(', '));
    // every module drawn hangs under an area; an area opens into its sub-areas or files
    const modules = await host(() => window.cartographExplorer.graph.filterNodes((id, a) => a.view.kind === 'Module').map((id) => window.cartographExplorer.graph.getNodeAttribute(id, 'view').parent));
    assert.ok(modules.length > 0 && modules.every((p) => p && p.startsWith('area:')), JSON.stringify(modules));
    await settle();
    n = await rendered();
    await page.locator('#by-areas').uncheck();
    await waitRendered(n);
    assert.equal((await lastSent('graph')).viewBy, 'folders');
    const byFolders = await kinds();
    assert.ok(byFolders.includes('Folder') && !byFolders.includes('Area'), byFolders.join(', '));
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
