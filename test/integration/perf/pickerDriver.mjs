// The page's half of the picker benchmark (bench/extension-bench.mjs --picker), run by
// scripts/test-integration.mjs (CARTOGRAPH_E2E_DRIVER) once the workbench is loaded: types the same
// query into Cartograph's Find Where Implemented, Quick Open and Go to Symbol in Workspace, as a user
// would (one key at a time, through the browser), and measures in the page: frames over 100 ms and the
// longest frame (requestAnimationFrame), the time until the last key reached the page, and the time
// until the picker's list stopped changing. Prints one `CARTOGRAPH_PICKER {json}` line.
import * as fs from 'node:fs';

// Plain English (44 characters, as in issue 14) and a structural question whose prefixes are names.
const QUERIES = ['where do we check that a string is an email?', 'subclasses of ZodType'];
const ROUNDS = Number(process.env.CARTOGRAPH_PICKER_ROUNDS || 2);
const KEY_DELAY_MS = 30;
/** The list counts as settled once it has not changed for this long. */
const QUIET_MS = 1500;
const PICKERS = [
  { name: 'Cartograph: Find Where Implemented', key: 'Control+Shift+Alt+F' },
  { name: 'Quick Open (files)', key: 'Control+P' },
  { name: 'Go to Symbol in Workspace', key: 'Control+T' },
];

/** Installed in the page: a requestAnimationFrame loop and a watch on the quick input's DOM. */
function installProbe() {
  const probe = { recording: false, frames: [], lastMutation: 0, start: 0 };
  let previous = performance.now();
  const tick = (now) => {
    if (probe.recording) probe.frames.push(now - previous);
    previous = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // The quick input's rows and progress bar (the editor's blinking cursor would never let it settle).
  probe.watch = () => {
    probe.observer?.disconnect();
    probe.observer = new MutationObserver(() => (probe.lastMutation = performance.now()));
    probe.observer.observe(document.querySelector('.quick-input-widget'), { subtree: true, childList: true, characterData: true, attributes: true });
  };
  window.cartographProbe = probe;
}

async function measure(page, picker, query) {
  await page.keyboard.press(picker.key);
  await page.waitForSelector('.quick-input-widget:not([style*="display: none"]) .quick-input-box input', { timeout: 15000 });
  await page.waitForTimeout(600);
  await page.evaluate(() => {
    const p = window.cartographProbe;
    p.watch();
    Object.assign(p, { recording: true, frames: [], start: performance.now(), lastMutation: performance.now() });
  });
  const started = Date.now();
  await page.keyboard.type(query, { delay: KEY_DELAY_MS });
  const typedMs = Date.now() - started;
  // settled: nothing in the workbench changed for QUIET_MS (list rows, progress bar, previews)
  for (;;) {
    const quietFor = await page.evaluate(() => performance.now() - window.cartographProbe.lastMutation);
    if (quietFor >= QUIET_MS || Date.now() - started > 60000) break;
    await page.waitForTimeout(100);
  }
  const figures = await page.evaluate(() => {
    const p = window.cartographProbe;
    p.recording = false;
    const rows = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].length;
    return { frames: p.frames, settleMs: Math.round(p.lastMutation - p.start), rows, value: document.querySelector('.quick-input-box input')?.value };
  });
  await page.keyboard.press('Escape');
  await page.waitForTimeout(800);
  const over100 = figures.frames.filter((f) => f > 100);
  return {
    picker: picker.name,
    query,
    typedMs,
    settleMs: figures.settleMs,
    framesOver100ms: over100.length,
    longestFrameMs: Math.round(Math.max(0, ...figures.frames)),
    frames: figures.frames.length,
    rows: figures.rows,
    typedValueOk: Boolean(figures.value?.endsWith(query)),
  };
}

/** `waitForLine(regex)`: the next line the extension host printed that matches. */
export default async function drive(page, { waitForLine }) {
  await waitForLine(/^CARTOGRAPH_PICKER_READY/);
  await page.evaluate(installProbe);
  // Focus the editor the host opened, as a user reading code would have it.
  await page.click('.monaco-editor .view-lines');
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of QUERIES) for (const picker of PICKERS) results.push({ round: round + 1, ...(await measure(page, picker, query)) });
  }
  console.log(`CARTOGRAPH_PICKER ${JSON.stringify({ queries: QUERIES, keyDelayMs: KEY_DELAY_MS, quietMs: QUIET_MS, results })}`);
  fs.writeFileSync(process.env.CARTOGRAPH_PICKER_DONE, 'done\n');
}
