// `npm test`: the unit suites under node's test runner (TypeScript through tsx), ending with a plain
// `N passed, N failed` line that CI reads.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = readdirSync('test/unit').filter((f) => f.endsWith('.test.ts')).sort().map((f) => `test/unit/${f}`);
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
process.stdout.write(run.stdout);
const count = (name) => Number((run.stdout.match(new RegExp(`ℹ ${name} (\\d+)`)) ?? [])[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + (run.status !== 0 && count('fail') === 0 ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
