// `npm run test:electron`: the same integration suite in desktop VS Code downloaded by
// @vscode/test-electron (needs internet: the VS Code update service). Offline CI uses
// `npm run test:integration` (code-server) instead.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { makeFixtureWorkspace } from './workspace.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cache = spawnSync('bash', [path.join(repo, 'test/integration/setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).stdout.trim().split('\n').pop();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-electron-'));
const workspace = makeFixtureWorkspace(repo, tmp, { 'cartograph.watcherDelay': 100 });
try {
  await runTests({
    extensionDevelopmentPath: repo,
    extensionTestsPath: path.join(repo, 'test/integration/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { CARTOGRAPH_E2E_CACHE: cache },
  });
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
