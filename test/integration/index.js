// extensionTestsPath for VS Code's test API: runs the mocha suites under ./suite inside the real
// extension host and prints a final plain `N passed, N failed` line. mocha comes from the e2e cache
// folder (CARTOGRAPH_E2E_CACHE), never from the extension's own dependencies.
const fs = require('fs');
const path = require('path');

exports.run = async function run() {
  const paths = [process.env.CARTOGRAPH_E2E_CACHE && path.join(process.env.CARTOGRAPH_E2E_CACHE, 'node_modules'), __dirname].filter(Boolean);
  const Mocha = require(require.resolve('mocha', { paths }));
  const mocha = new Mocha({ ui: 'bdd', timeout: 90000, color: false, reporter: 'spec' });
  const grep = process.env.CARTOGRAPH_E2E_GREP;
  if (grep) mocha.grep(grep);
  const dir = path.join(__dirname, 'suite');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(dir, f));
  await new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const passed = runner.stats ? runner.stats.passes : 0;
      const failed = runner.stats ? runner.stats.failures : failures;
      console.log(`${passed} passed, ${failed} failed`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
};
