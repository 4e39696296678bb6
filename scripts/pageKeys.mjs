// Keys pressed in the workbench page as a user presses them (through the browser, so the editor, the
// keybinding service and the quick input see real key events, in the order a person produces them).
// A suite running inside the extension host cannot press keys: it prints `[keys] {json}` and
// scripts/test-integration.mjs plays the steps here, then writes what the page showed to `done`.
// The picker benchmark (test/integration/perf/pickerDriver.mjs) plays its chords with this too.
//
// Steps: {press: 'Control+Shift+Alt+F'}, {type: 'text', delay: 30}, {wait: ms},
// {read: 'name'}: the quick input's value then (null when it is hidden); {read, expect: 'value', within: ms}: waits
// for that value (up to `within`) before reading. Also measured: for every
// chord pressed (a key with ctrl or cmd), how long after its keydown the quick input's box had the focus.
import * as fs from 'node:fs';

/** Installed in the page once: when each key went down, and when the quick input's box got the focus. */
function installProbe() {
  if (window.cartographKeys) return;
  const probe = { chords: [], focused: [] };
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && !['Control', 'Shift', 'Alt', 'Meta'].includes(e.key)) probe.chords.push(performance.now());
  }, true);
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof Element && e.target.closest('.quick-input-box')) probe.focused.push(performance.now());
  }, true);
  window.cartographKeys = probe;
}

function quickInputValue() {
  const widget = document.querySelector('.quick-input-widget');
  const visible = widget && widget.style.display !== 'none' && !widget.classList.contains('quick-input-widget-closing');
  return visible ? document.querySelector('.quick-input-widget .quick-input-box input')?.value ?? null : null;
}

/**
 * The quick input's value; with `expect`, the first time it is that, or what it is once `within` ms
 * (default 10 s) have passed: keys taken back from the editor reach the box after pauses of their own,
 * later on a loaded machine, and the step after a read should not race them.
 */
async function readBox(page, { expect, within = 10000 }) {
  if (expect === undefined) return page.evaluate(quickInputValue);
  const deadline = Date.now() + within;
  for (;;) {
    const value = await page.evaluate(quickInputValue);
    if (value === expect || Date.now() > deadline) return value;
    await page.waitForTimeout(50);
  }
}

/** Plays `steps`; returns {reads: {name: value}, opens: [ms from a chord's keydown to the box focused]}. */
export async function playKeys(page, steps) {
  await page.evaluate(installProbe);
  const reads = {};
  const start = await page.evaluate(() => performance.now());
  for (const step of steps) {
    if (step.press) await page.keyboard.press(step.press);
    else if (step.type !== undefined) await page.keyboard.type(step.type, { delay: step.delay ?? 30 });
    else if (step.wait) await page.waitForTimeout(step.wait);
    else if (step.read) reads[step.read] = await readBox(page, step);
  }
  const probe = await page.evaluate(() => window.cartographKeys);
  // each chord pressed here, to the first time the box got the focus after it
  const opens = probe.chords.filter((at) => at >= start).map((at) => {
    const focused = probe.focused.find((f) => f >= at);
    return focused === undefined ? null : Math.round(focused - at);
  });
  return { reads, opens };
}

/** The suite's `[keys] {json}` line: plays it and writes the result where the suite waits for it. */
export function answerKeysLine(page, json, say) {
  const { steps, done } = JSON.parse(json);
  playKeys(page, steps).then(
    (result) => fs.writeFileSync(done, JSON.stringify(result)),
    (error) => {
      say(`keys failed: ${error.message}`);
      fs.writeFileSync(done, JSON.stringify({ error: error.message }));
    },
  );
}
