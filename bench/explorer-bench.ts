// `npm run bench:explorer [-- --json FILE] [--corpus NAME] [--runs N]`: the graph explorer on a
// Django-size repository. Host side (Node): building the first view, expanding, following an edit,
// message sizes. Webview side (headless Chromium, WebGL through SwiftShader since this machine has
// no GPU): time from the host's graph message to the first drawn frame, and frames per second while
// the camera pans continuously, for the first (folder/module level) view and for a view filled to
// the node cap. The webview runs the real bundle behind the test's fake host (test/webview).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { ExplorerView } from '../src/core/explorer/viewModel';
import { writePage } from '../test/webview/makePage';

const { values } = parseArgs({ options: { json: { type: 'string' }, corpus: { type: 'string' }, runs: { type: 'string' }, 'pan-ms': { type: 'string' } } });
const corpus = values.corpus ?? 'django';
const RUNS = Number(values.runs ?? 3);
const PAN_MS = Number(values['pan-ms'] ?? 4000);
const root = path.join(__dirname, '.corpora', corpus);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, performance.now() - t];
}

async function hostSide(engine: Engine) {
  const graph = engine.graph.graph;
  const [view, buildMs] = timed(() => new ExplorerView(graph));
  const first = view.snapshot();
  const firstBytes = Buffer.byteLength(JSON.stringify({ type: 'graph', graph: first, stats: view.stats() }));
  // the module with the most definitions: the biggest single expansion a click can ask for
  let biggest = '';
  let most = -1;
  graph.forEachNode((id, n) => {
    if (n.kind !== 'Module') return;
    const count = engine.graph.nodesInFile(id).length;
    if (count > most) [biggest, most] = [id, count];
  });
  const [expandDiff, expandMs] = timed(() => view.focus(biggest));
  // an edit of that module, as a save sends it: engine update, then the view diff
  const file = path.join(root, biggest);
  const original = fs.readFileSync(file, 'utf8');
  const graphDiff = await engine.updateFile(file, `${original}\n\ndef explorer_bench_probe():\n    return 1\n`);
  const [updateDiff, updateMs] = timed(() => view.update(graphDiff));
  const updateBytes = Buffer.byteLength(JSON.stringify({ type: 'diff', diff: updateDiff }));
  await engine.updateFile(file, original);
  return {
    graphNodes: graph.order,
    graphEdges: graph.size,
    firstView: { nodes: first.nodes.length, edges: first.edges.length, buildMs: round(buildMs), messageKB: round(firstBytes / 1024) },
    expand: { module: biggest, upsertNodes: expandDiff.nodes.upsert.length, ms: round(expandMs) },
    update: { ms: round(updateMs), upsertNodes: updateDiff.nodes.upsert.length, messageKB: round(updateBytes / 1024, 2) },
  };
}

/** Frames drawn per second while the camera pans back and forth for PAN_MS, plus the 95th-percentile frame gap. */
async function pan(page: any): Promise<{ fps: number; p95FrameMs: number; frames: number }> {
  return page.evaluate(async (ms: number) => {
    const { renderer } = (window as any).cartographExplorer;
    const camera = renderer.getCamera();
    const start = { ...camera.getState() };
    const stamps: number[] = [];
    const onRender = () => stamps.push(performance.now());
    renderer.on('afterRender', onRender);
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const step = () => {
        const t = performance.now() - t0;
        if (t > ms) return resolve();
        camera.setState({ x: start.x + 0.3 * Math.sin((t / 1000) * Math.PI), y: start.y + 0.15 * Math.cos((t / 1000) * Math.PI) });
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    renderer.off('afterRender', onRender);
    camera.setState(start);
    const gaps = stamps.slice(1).map((s, i) => s - stamps[i]).sort((a, b) => a - b);
    return { fps: Math.round((stamps.length / ms) * 1000 * 10) / 10, p95FrameMs: Math.round((gaps[Math.floor(gaps.length * 0.95)] ?? NaN) * 10) / 10, frames: stamps.length };
  }, PAN_MS);
}

async function webviewSide(engine: Engine) {
  const harness = await import(pathToFileURL(path.join(__dirname, '../scripts/codeServerHarness.mjs')).href);
  const pages = await import(pathToFileURL(path.join(__dirname, '../scripts/webviewPage.mjs')).href);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-explorer-bench-'));
  await writePage(dir, { folder: corpus, graph: engine.graph.graph.export() });
  const server = await pages.serve(dir);
  const { chromium } = await pages.loadPlaywright();
  const { context, userDataDir } = await harness.launchChromium(chromium);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 800 });
    // tsx compiles the functions handed to page.evaluate with esbuild's keep-names helper
    await page.addInitScript('window.__name = (f) => f;');
    const firstRender: number[] = [];
    const pageLoad: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto(server.url);
      await page.waitForFunction(() => (window as any).fakeHost.received.some((m: any) => m.type === 'rendered'), null, { timeout: 120000 });
      const t = await page.evaluate(() => {
        const host = (window as any).fakeHost;
        const graph = host.sent.find((m: any) => m.type === 'graph');
        const rendered = host.received.find((m: any) => m.type === 'rendered');
        return { sent: graph.at, rendered: rendered.at };
      });
      firstRender.push(t.rendered - t.sent);
      pageLoad.push(t.rendered);
    }
    const settle = () => page.waitForFunction(() => !(window as any).cartographExplorer.layoutRunning(), null, { timeout: 60000 });
    await settle();
    const firstNodes = await page.evaluate(() => (window as any).cartographExplorer.graph.order);
    const panFirst = await pan(page);
    // the same pan with every kind filtered out: what sigma's canvas stack costs here with nothing to draw
    const checked = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLInputElement>('input[data-node-kind], input[data-edge-kind]')).map((b) => b.checked));
    await page.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[data-node-kind], input[data-edge-kind]').forEach((b) => b.checked && b.click()));
    const panEmpty = await pan(page);
    await page.evaluate((states: boolean[]) => document.querySelectorAll<HTMLInputElement>('input[data-node-kind], input[data-edge-kind]').forEach((b, i) => b.checked !== states[i] && b.click()), checked);
    // fill the view to the cap: open the largest closed nodes until the host refuses
    const filled = await page.evaluate(async () => {
      const { graph } = (window as any).cartographExplorer;
      const host = (window as any).fakeHost;
      const renders = () => host.received.filter((m: any) => m.type === 'rendered').length;
      for (let i = 0; i < 400; i++) {
        const closed = graph.filterNodes((_: string, a: any) => a.view.children > 0 && !a.view.expanded && a.view.kind !== 'Externals');
        const next = closed.sort((a: string, b: string) => graph.getNodeAttribute(a, 'view').children - graph.getNodeAttribute(b, 'view').children)[0];
        if (!next) break;
        const before = renders();
        host.act({ type: 'expand', id: next });
        const t = performance.now();
        while (renders() === before && performance.now() - t < 5000) await new Promise((r) => setTimeout(r, 20));
        const last = host.sent.at(-1);
        if (last?.stats?.capped) break;
      }
      return { nodes: graph.order, edges: graph.size, cap: host.sent.at(-1)?.stats?.cap };
    });
    await settle();
    const panFull = await pan(page);
    await page.screenshot({ path: path.join(__dirname, '..', 'test/.artifacts', `explorer-${corpus}.png`) });
    return {
      firstRenderMs: { median: round(median(firstRender)), runs: firstRender.map((x) => round(x)) },
      pageLoadToFirstFrameMs: { median: round(median(pageLoad)), runs: pageLoad.map((x) => round(x)) },
      panFirstView: { nodes: firstNodes, ...panFirst },
      panNothingDrawn: panEmpty,
      panFullView: { ...filled, ...panFull },
    };
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(root)) throw new Error(`${root} is missing: run npm run fetch:corpora`);
  fs.mkdirSync(path.join(__dirname, '..', 'test/.artifacts'), { recursive: true });
  const t = performance.now();
  const engine = await Engine.open(root, { storeDir: null });
  await engine.index();
  const indexMs = performance.now() - t;
  try {
    const host = await hostSide(engine);
    const webview = await webviewSide(engine);
    const result = { corpus, date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model}`, indexMs: round(indexMs, 0), runs: RUNS, panMs: PAN_MS, host, webview };
    const rows: Array<[string, string]> = [
      ['repository graph', `${host.graphNodes} nodes, ${host.graphEdges} edges`],
      ['first view (host)', `${host.firstView.nodes} nodes, ${host.firstView.edges} edges, built in ${host.firstView.buildMs} ms, ${host.firstView.messageKB} KB`],
      ['graph message → first frame (webview)', `${webview.firstRenderMs.median} ms median (${webview.firstRenderMs.runs.join(', ')})`],
      ['time to first render (host build + webview)', `${round(host.firstView.buildMs + webview.firstRenderMs.median)} ms`],
      [`expand biggest module (${host.expand.module})`, `${host.expand.ms} ms, ${host.expand.upsertNodes} nodes sent`],
      ['save → view diff (host)', `${host.update.ms} ms, ${host.update.upsertNodes} nodes, ${host.update.messageKB} KB`],
      [`panning, first view (${webview.panFirstView.nodes} nodes)`, `${webview.panFirstView.fps} fps, p95 frame ${webview.panFirstView.p95FrameMs} ms`],
      ['panning, everything filtered out (floor)', `${webview.panNothingDrawn.fps} fps, p95 frame ${webview.panNothingDrawn.p95FrameMs} ms`],
      [`panning, view at cap (${webview.panFullView.nodes} nodes, ${webview.panFullView.edges} edges)`, `${webview.panFullView.fps} fps, p95 frame ${webview.panFullView.p95FrameMs} ms`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`Graph explorer on ${corpus} (${result.machine})`);
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
    if (values.json) {
      fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
      fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`wrote ${values.json}`);
    }
  } finally {
    await engine.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
