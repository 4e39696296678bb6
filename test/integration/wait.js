// Polling helpers shared by the real-VS-Code suites: the extension indexes and embeds in the
// background, so tests wait for the state they expect instead of sleeping a guessed time.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the first truthy value of `predicate`, polled every `everyMs`; throws after `timeoutMs`. */
async function until(what, predicate, timeoutMs = 30000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Resolves with the explorer panel's next `rendered` report (a graph or a diff drawn by the webview). */
function nextRender(panel, what, timeoutMs = 60000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for the webview to render ${what}`));
    }, timeoutMs);
    const sub = panel.onDidRender((m) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(m);
    });
  });
}

/**
 * Asks the runner (scripts/test-integration.mjs) for a PNG of the workbench, and gives it time to take
 * it (the screenshot scripts print `[screenshot] <file>`; notifications are cleared first).
 */
async function screenshot(file) {
  const vscode = require('vscode');
  await vscode.commands.executeCommand('notifications.clearAll');
  await sleep(1500);
  console.log(`[screenshot] ${file}`);
  await sleep(2500);
}

/**
 * Runs Open Graph Explorer and resolves with the panel and the webview's first render. The render is
 * waited for from the moment the panel exists (before the command returns), so it cannot be missed.
 */
async function openExplorer(api) {
  const vscode = require('vscode');
  const first = new Promise((resolve) => {
    const wait = setInterval(() => {
      const p = api.explorer.current();
      if (!p) return;
      clearInterval(wait);
      resolve(nextRender(p, 'the first graph'));
    }, 10);
  });
  await vscode.commands.executeCommand('cartograph.openGraphExplorer');
  return { panel: api.explorer.current(), first: await first };
}

module.exports = { sleep, until, nextRender, screenshot, openExplorer };
