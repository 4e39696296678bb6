// `npm run test:integration`: the extension's mocha suite inside a REAL VS Code (code-server 4.100.3,
// driven by headless Debian Chromium through playwright-core), offline. Installs what it needs into a
// cache folder outside node_modules (test/integration/setup.sh), copies the fixture workspace to a temp
// folder, starts code-server, opens the workbench with VS Code's test hooks and relays the suite's
// output. Ends with the suite's plain `N passed, N failed` line; exit code 0 only when all passed.
// Env: CARTOGRAPH_E2E_CACHE (cache folder), CARTOGRAPH_E2E_FOLDER + CARTOGRAPH_E2E_TESTS (another
// folder and tests index, e.g. test/integration/perf/index.js on Django), CARTOGRAPH_E2E_GREP (mocha grep), CARTOGRAPH_E2E_KEEP=1 (keep temp),
// CARTOGRAPH_E2E_SETTINGS (JSON of user settings to add, e.g. {"cartograph.engineWorker": true}),
// CARTOGRAPH_E2E_DRIVER (a module whose default export drives the page while the suite runs: the picker benchmark).
// A suite line `[screenshot] some/file.png` saves a PNG of the workbench there (relative to the repo).
// A suite line `[input] text` (`[input]`: nothing) types text into the open input box (showInputBox) and presses Enter, as
// a user would: an extension's own input box cannot be answered through VS Code's API.
// A suite line `[keys] {"steps": [...], "done": "/abs/file.json"}` presses keys in the page (scripts/pageKeys.mjs).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeFixtureWorkspace } from '../test/integration/workspace.mjs';
import { launchChromium, waitForCodeServer } from './codeServerHarness.mjs';
import { answerKeysLine } from './pageKeys.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => console.log(`[integration] ${m}`);

function setup() {
  const r = spawnSync('bash', [path.join(repo, 'test/integration/setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`test/integration/setup.sh failed (${r.status})`);
  return r.stdout.trim().split('\n').pop();
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function main() {
  const started = Date.now();
  const cache = setup();
  if (!fs.existsSync(path.join(repo, 'dist/extension.js'))) spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  // the "Search models" tests load the random-weight stand-ins from test/.cache/random-models (built here if absent)
  const models = spawnSync(process.execPath, ['--import', 'tsx', 'test/unit/modelFixtures.ts'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  if (models.status !== 0) throw new Error(`test/unit/modelFixtures.ts failed (${models.status})`);
  const require = createRequire(path.join(cache, 'node_modules', 'x.js'));
  const { chromium } = require('playwright-core');
  const codeServer = path.join(cache, 'node_modules/.bin/code-server');

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-e2e-'));
  // CARTOGRAPH_E2E_FOLDER / CARTOGRAPH_E2E_TESTS: another folder and suite (the Django measurement)
  const folder = process.env.CARTOGRAPH_E2E_FOLDER ? path.resolve(process.env.CARTOGRAPH_E2E_FOLDER) : undefined;
  const workspaceFile = folder ?? makeFixtureWorkspace(repo, path.join(tmp, 'workspace'));
  const testsIndex = path.resolve(repo, process.env.CARTOGRAPH_E2E_TESTS || 'test/integration/index.js');
  const udd = path.join(tmp, 'udd');
  fs.mkdirSync(path.join(udd, 'User'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'ext'));
  // without workspace trust disabled, code-server never activates a non-builtin extension
  fs.writeFileSync(path.join(udd, 'User/settings.json'), JSON.stringify({
    'security.workspace.trust.enabled': false, 'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off', 'workbench.startupEditor': 'none', 'cartograph.watcherDelay': 100,
    ...JSON.parse(process.env.CARTOGRAPH_E2E_SETTINGS || '{}'),
  }));
  const port = await freePort();
  fs.writeFileSync(path.join(tmp, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const serverLog = fs.openSync(path.join(tmp, 'server.log'), 'w');
  const server = spawn(codeServer, ['--config', path.join(tmp, 'config.yaml'), '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--user-data-dir', udd, '--extensions-dir', path.join(tmp, 'ext'), workspaceFile], {
    stdio: ['ignore', serverLog, serverLog],
    env: { ...process.env, CARTOGRAPH_E2E_CACHE: cache },
    detached: true,
  });
  let ctx;
  let browserUdd;
  let code = 1;
  let summary;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForCodeServer(base);
    // the workbench config in the page names the remote authority
    const html = await (await fetch(`${base}/`)).text();
    const m = html.match(/vscode-workbench-web-configuration" data-settings="([^"]*)"/);
    const cfg = m ? JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&')) : {};
    const host = cfg.remoteAuthority || `127.0.0.1:${port}`;
    const remote = (p) => `vscode-remote://${host}${p}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(repo)],
      ['extensionTestsPath', remote(testsIndex)],
      ['skipWelcome', 'true'],
    ]);
    const url = `${base}/?${folder ? 'folder' : 'workspace'}=${encodeURIComponent(workspaceFile)}&payload=${encodeURIComponent(payload)}`;
    ({ context: ctx, userDataDir: browserUdd } = await launchChromium(chromium));
    const page = ctx.pages()[0] || (await ctx.newPage());
    let done;
    const exited = new Promise((r) => (done = r));
    const lineWaiters = [];
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const a = args || [];
      const line = typeof a[0] === 'string' ? util.format(...a) : a.map(String).join(' ');
      const s = line.match(/^(\d+) passed, (\d+) failed$/m);
      // a suite asks for a picture of the workbench as it is now (the explorer screenshots in docs/)
      const shot = line.match(/^\[screenshot\] (\S+\.png)$/);
      const input = line.match(/^\[input\](?: (.*))?$/);
      const keys = line.match(/^\[keys\] (\{.*\})$/);
      if (s) summary = { passed: Number(s[1]), failed: Number(s[2]) };
      else if (input) {
        const box = page.locator('.quick-input-widget .quick-input-box input');
        void box.fill(input[1] ?? '').then(() => box.press('Enter')).catch((e) => say(`input failed: ${e.message}`));
      }
      else if (keys) answerKeysLine(page, keys[1], say);
      else if (shot) void page.screenshot({ path: path.resolve(repo, shot[1]) }).then(() => say(`screenshot ${shot[1]}`), (e) => say(`screenshot failed: ${e.message}`));
      else console.log(line);
      for (const waiter of lineWaiters.filter((w) => w.pattern.test(line))) {
        lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    });
    await page.exposeFunction('codeAutomationExit', (c) => done(c));
    say(`code-server 4.100.3 on ${base}; workspace ${workspaceFile}`);
    await page.goto(url);
    if (process.env.CARTOGRAPH_E2E_DRIVER) {
      const { default: drive } = await import(pathToFileURL(path.resolve(repo, process.env.CARTOGRAPH_E2E_DRIVER)).href);
      const waitForLine = (pattern) => new Promise((resolve) => lineWaiters.push({ pattern, resolve }));
      drive(page, { waitForLine }).catch((error) => {
        say(`page driver failed: ${error.stack || error}`);
        done(1);
      });
    }
    const timeoutMs = Number(process.env.CARTOGRAPH_E2E_TIMEOUT_MS || 300000);
    const timer = setTimeout(() => { say('timed out waiting for the extension tests'); done(124); }, timeoutMs);
    code = await exited;
    clearTimeout(timer);
    // CARTOGRAPH_E2E_SCREENSHOT: a PNG of the workbench as the suite ends (a failure, or the explorer on Django)
    if (process.env.CARTOGRAPH_E2E_SCREENSHOT) await page.screenshot({ path: process.env.CARTOGRAPH_E2E_SCREENSHOT }).catch(() => undefined);
  } finally {
    await ctx?.close().catch(() => undefined);
    try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ }
    if (browserUdd) fs.rmSync(browserUdd, { recursive: true, force: true });
    if (code !== 0 || process.env.CARTOGRAPH_E2E_DEBUG) {
      const logText = fs.readFileSync(path.join(tmp, 'server.log'), 'utf8');
      say(`code-server log (last 3000 chars):\n${logText.slice(-3000)}`);
    }
    if (!process.env.CARTOGRAPH_E2E_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
    else say(`kept ${tmp}`);
  }
  if (!summary) summary = { passed: 0, failed: 1 };
  if (code !== 0 && summary.failed === 0) summary.failed = 1;
  say(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${code})`);
  console.log(`${summary.passed} passed, ${summary.failed} failed`);
  process.exitCode = code === 0 && summary.failed === 0 ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
});
