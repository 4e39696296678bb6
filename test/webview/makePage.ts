// Builds the explorer as a static page for headless Chromium: the real webview bundle and HTML (same
// CSP) with the fake host in front of it and a real repository graph as its data. Used by
// scripts/test-webview.mjs (the Flask fixture, plus a real edit as an update) and by
// bench/explorer-bench.ts (Django).
//   node --import tsx test/webview/makePage.ts <repository folder> <out dir> [--edit]
import { build } from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../src/core/engine';
import { explorerPage } from '../../src/core/explorer/page';
import { currentHierarchy } from '../../src/core/features/featureStore';
import type { FixtureData } from './fakeHost';

const repo = path.resolve(__dirname, '../..');

/** The edit the page's update applies: one function renamed and one added, in app.py. */
export const EDIT = { file: 'app.py', renamed: ['_make_timedelta', '_make_timedelta_renamed'], added: 'explorer_probe' } as const;

export interface PageInfo {
  dir: string;
  indexMs: number;
  graphNodes: number;
  graphEdges: number;
}

export async function makePage(folder: string, outDir: string, options: { edit?: boolean; cap?: number } = {}): Promise<PageInfo> {
  // index a copy: the edit must not touch the source folder, and no store is written into it
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-webview-src-'));
  const root = path.join(tmp, path.basename(folder));
  fs.cpSync(folder, root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  const started = performance.now();
  const engine = await Engine.open(root, { storeDir: null });
  try {
    await engine.index();
    const indexMs = performance.now() - started;
    // the functional areas the host builds for the view by areas (model-free), as of this graph
    const { hierarchy } = await currentHierarchy(engine.graph, null);
    const data: FixtureData = { folder: path.basename(folder), graph: engine.graph.graph.export(), areas: [...hierarchy.areas.values()], cap: options.cap };
    if (options.edit) {
      const file = path.join(root, EDIT.file);
      const text = fs.readFileSync(file, 'utf8');
      const edited = `${text.replace(`\ndef ${EDIT.renamed[0]}(`, `\ndef ${EDIT.renamed[1]}(`)}\n\ndef ${EDIT.added}():\n    return ${EDIT.renamed[1]}(1)\n`;
      if (edited.split(EDIT.renamed[1]).length !== 3) throw new Error(`the edit did not apply to ${EDIT.file}`);
      data.update = await engine.updateFile(file, edited);
    }
    await writePage(outDir, data);
    return { dir: outDir, indexMs, graphNodes: engine.graph.graph.order, graphEdges: engine.graph.graph.size };
  } finally {
    await engine.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The page itself: the built webview, the fake host bundle, the data, and the real HTML. */
export async function writePage(outDir: string, data: FixtureData): Promise<void> {
  const webview = path.join(repo, 'dist/webview');
  if (!fs.existsSync(path.join(webview, 'explorer.js'))) throw new Error('dist/webview is missing: run npm run build first');
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(webview)) fs.copyFileSync(path.join(webview, f), path.join(outDir, f));
  fs.writeFileSync(path.join(outDir, 'fixture-data.js'), `window.fixtureData = ${JSON.stringify(data)};\n`);
  await build({ entryPoints: [path.join(__dirname, 'fakeHost.ts')], outfile: path.join(outDir, 'fake-host.js'), bundle: true, platform: 'browser', format: 'iife', target: 'es2020', logLevel: 'warning' });
  const html = explorerPage({ nonce: 'webviewtestnonce', cspSource: "'self'", styleUri: 'explorer-style.css', scriptUris: ['fixture-data.js', 'fake-host.js', 'explorer.js'] });
  fs.writeFileSync(path.join(outDir, 'index.html'), html);
}

if (require.main === module) {
  const [folder, out] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!folder || !out) {
    console.error('usage: makePage.ts <repository folder> <out dir> [--edit]');
    process.exit(2);
  }
  makePage(path.resolve(folder), path.resolve(out), { edit: process.argv.includes('--edit') }).then(
    (info) => console.log(JSON.stringify(info)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
