// What the webview test and the explorer benchmark share: building the static explorer page (real
// bundle, real CSP, fake host, a real graph) and serving it on 127.0.0.1 to headless Chromium.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

/** node --import tsx test/webview/makePage.ts FOLDER OUT [--edit]; returns what it printed. */
export function makePage(folder, out, args = []) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'test/webview/makePage.ts'), folder, out, ...args], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`makePage failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** A static server for one folder on a free loopback port; resolves to { url, close }. */
export function serve(dir) {
  const server = http.createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.join(dir, path.normalize(name));
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}/index.html`, close: () => new Promise((r) => server.close(r)) });
  }));
}

/** playwright-core from the e2e cache folder (test/integration/setup.sh fills it). */
export async function loadPlaywright() {
  const setup = spawnSync('bash', [path.join(repo, 'test/integration/setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`test/integration/setup.sh failed (${setup.status})`);
  const cache = setup.stdout.trim().split('\n').pop();
  const { createRequire } = await import('node:module');
  return createRequire(path.join(cache, 'node_modules', 'x.js'))('playwright-core');
}
