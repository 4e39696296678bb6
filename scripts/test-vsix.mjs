// Installs a packaged .vsix into a fresh code-server extensions folder, opens a fixture workspace in
// headless Chromium (no test hooks: the extension as users get it) and waits for the extension's log
// to say the index is ready and that search loaded the shipped code-search model. Usage: node scripts/test-vsix.mjs [file.vsix]  (default: npm run package first)
// Prints `N passed, N failed` (one check).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, waitForCodeServer } from './codeServerHarness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => console.log(`[vsix] ${m}`);

async function main() {
  const cache = spawnSync('bash', [path.join(repo, 'test/integration/setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).stdout.trim().split('\n').pop();
  let vsix = process.argv[2];
  if (!vsix) {
    const r = spawnSync('npm', ['run', 'package'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error('npm run package failed');
    vsix = path.join(repo, 'cartograph-linux-x64.vsix');
  }
  say(`${path.basename(vsix)}: ${(fs.statSync(vsix).size / 1048576).toFixed(1)} MB`);
  const codeServer = path.join(cache, 'node_modules/.bin/code-server');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-vsix-'));
  const ext = path.join(tmp, 'ext');
  const udd = path.join(tmp, 'udd');
  fs.mkdirSync(path.join(udd, 'User'), { recursive: true });
  fs.writeFileSync(path.join(udd, 'User/settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'workbench.startupEditor': 'none' }));
  const install = spawnSync(codeServer, ['--user-data-dir', udd, '--extensions-dir', ext, '--install-extension', vsix], { encoding: 'utf8' });
  say(`install: ${(install.stdout + install.stderr).trim().split('\n').pop()}`);
  const ws = path.join(tmp, 'workspace');
  fs.cpSync(path.join(repo, 'test/fixtures/ranger-py'), ws, { recursive: true });
  const port = await new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
  fs.writeFileSync(path.join(tmp, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const server = spawn(codeServer, ['--config', path.join(tmp, 'config.yaml'), '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--user-data-dir', udd, '--extensions-dir', ext, ws], { stdio: 'ignore', detached: true });
  const { chromium } = createRequire(path.join(cache, 'node_modules', 'x.js'))('playwright-core');
  let ctx;
  let ok = false;
  let budu;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForCodeServer(base);
    ({ context: ctx, userDataDir: budu } = await launchChromium(chromium));
    const page = ctx.pages()[0] || (await ctx.newPage());
    await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`);
    // the LogOutputChannel writes <udd>/logs/<session>/exthost*/cartograph.cartograph/Cartograph.log
    const deadline = Date.now() + 90000;
    while (!ok && Date.now() < deadline) {
      const logs = spawnSync('bash', ['-c', `cat "${udd}"/logs/*/exthost*/cartograph.cartograph/*.log 2>/dev/null`], { encoding: 'utf8' }).stdout;
      const line = logs.split('\n').find((l) => l.includes('ready in'));
      if (line) { say(`activated: ${line.trim()}`); ok = true; }
      else await new Promise((r) => setTimeout(r, 500));
    }
    if (!ok) say('the installed extension did not report ready within 90 s');
    // The shipped code-search model must be in the .vsix and load with no download and no setting.
    let modelLine;
    while (ok && !modelLine && Date.now() < deadline + 60000) {
      const logs = spawnSync('bash', ['-c', `cat "${udd}"/logs/*/exthost*/cartograph.cartograph/*.log 2>/dev/null`], { encoding: 'utf8' }).stdout;
      modelLine = logs.split('\n').find((l) => l.includes('search models: '));
      if (!modelLine) await new Promise((r) => setTimeout(r, 500));
    }
    say(`models: ${modelLine?.trim() ?? 'no "search models:" line within 60 s'}`);
    if (!modelLine?.includes('search models: embeddings cartograph-code-search-v5')) ok = false;
  } finally {
    await ctx?.close().catch(() => undefined);
    try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ }
    if (budu) fs.rmSync(budu, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${ok ? 1 : 0} passed, ${ok ? 0 : 1} failed`);
  process.exitCode = ok ? 0 : 1;
}
main().catch((e) => { console.error(e); console.log('0 passed, 1 failed'); process.exitCode = 1; });
