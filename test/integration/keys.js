// Real key presses for the suites: the extension host cannot press keys, so it asks the page runner
// (scripts/test-integration.mjs, `[keys]` lines, scripts/pageKeys.mjs) and waits for its answer.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { until } = require('./wait.js');

let asked = 0;
/** Plays `steps` in the page; resolves with {reads, opens} (see scripts/pageKeys.mjs). */
async function pressKeys(steps, timeoutMs = 60000) {
  const done = path.join(os.tmpdir(), `cartograph-keys-${process.pid}-${++asked}.json`);
  fs.rmSync(done, { force: true });
  console.log(`[keys] ${JSON.stringify({ steps, done })}`);
  const result = JSON.parse(await until('the keys pressed in the page', () => fs.existsSync(done) && fs.readFileSync(done, 'utf8'), timeoutMs));
  fs.rmSync(done, { force: true });
  if (result.error) throw new Error(`pressing keys: ${result.error}`);
  return result;
}

module.exports = { pressKeys };
