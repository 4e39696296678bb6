// `npm test`: the unit suites under node's test runner (TypeScript through tsx), then the extension's
// integration suite inside a real VS Code (scripts/test-integration.mjs: code-server + headless
// Chromium, installed into a cache folder on first run; once with the engine in its worker thread,
// the default, and once in the extension host's own thread), then the packaged .vsix installed into
// code-server (scripts/test-vsix.mjs); the explorer webview in headless Chromium (scripts/test-webview.mjs). Ends with ONE plain `N passed, N failed`
// line that CI reads. CARTOGRAPH_SKIP_E2E=1 skips the browser and real-VS-Code parts (printing why).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = readdirSync('test/unit').filter((f) => f.endsWith('.test.ts')).sort().map((f) => `test/unit/${f}`);
const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/support/testEnv.mjs', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
process.stdout.write(run.stdout);
const count = (name) => Number((run.stdout.match(new RegExp(`ℹ ${name} (\\d+)`)) ?? [])[1] ?? 0);
let passed = count('pass');
let failed = count('fail') + (run.status !== 0 && count('fail') === 0 ? 1 : 0);
console.log(`unit: ${passed} passed, ${failed} failed`);

const parts = [
  // the graph explorer's webview as a static page in headless Chromium, with a fake host
  ['webview', 'scripts/test-webview.mjs'],
  ['integration', 'scripts/test-integration.mjs'],
  // the same suite with the engine in the extension host's own thread (cartograph.engineWorker off)
  ['integration, engine in the host', 'scripts/test-integration.mjs', { CARTOGRAPH_E2E_SETTINGS: JSON.stringify({ 'cartograph.engineWorker': false }) }],
  // the packaged .vsix installed into code-server, activating as users get it
  ['vsix', 'scripts/test-vsix.mjs'],
];
for (const [name, script, env = {}] of parts) {
  if (process.env.CARTOGRAPH_SKIP_E2E === '1') {
    console.log(`${name}: skipped (CARTOGRAPH_SKIP_E2E=1)`);
    continue;
  }
  const e2e = spawnSync(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  const out = e2e.stdout ?? '';
  const lines = out.trimEnd().split('\n');
  const last = lines.at(-1)?.match(/^(\d+) passed, (\d+) failed$/);
  process.stdout.write(`${(last ? lines.slice(0, -1) : lines).join('\n')}\n`);
  const ip = last ? Number(last[1]) : 0;
  const iff = last ? Number(last[2]) : 1;
  const extra = e2e.status !== 0 && iff === 0 ? 1 : 0;
  console.log(`${name}: ${ip} passed, ${iff + extra} failed`);
  passed += ip;
  failed += iff + extra;
}
// CI keeps only the output's tail: the unit failures (node's own summary, without stack frames inside
// node) are said again here, after the browser parts' long logs.
const unitFailures = run.stdout.indexOf('✖ failing tests:');
if (unitFailures >= 0) {
  const summary = run.stdout.slice(unitFailures).split('\n').filter((line) => !/^\s+at (.*\()?node:/.test(line));
  console.log(`the unit failures again:\n${summary.join('\n').slice(0, 8000)}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
