// Keys pressed in the workbench page as a user presses them (through the browser, so the editor, the
// keybinding service and the quick input see real key events, in the order a person produces them).
// A suite running inside the extension host cannot press keys: it prints `[keys] {json}` and
// scripts/test-integration.mjs plays the steps here, then writes what the page showed to `done`.
// The picker benchmark (test/integration/perf/pickerDriver.mjs) plays its chords with this too.
//
// Steps: {press: 'Control+Shift+Alt+F'}, {type: 'text', delay: 30}, {wait: ms},
// {read: 'name'}: the quick input's value then (null when it is hidden). Also measured: for every
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

/** Plays `steps`; returns {reads: {name: value}, opens: [ms from a chord's keydown to the box focused]}. */
export async function playKeys(page, steps) {
  await page.evaluate(installProbe);
  const reads = {};
  const start = await page.evaluate(() => performance.now());
  for (const step of steps) {
    if (step.press) await page.keyboard.press(step.press);
    else if (step.type !== undefined) await page.keyboard.type(step.type, { delay: step.delay ?? 30 });
    else if (step.wait) await page.waitForTimeout(step.wait);
    else if (step.read) reads[step.read] = await page.evaluate(quickInputValue);
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
