// What the two real-VS-Code runners share: waiting for code-server to answer, and a headless
// Debian Chromium with the flags this offline machine needs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export async function waitForCodeServer(base) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (i > 300) throw new Error('code-server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A headless Chromium in a fresh profile; returns the context and the profile folder to remove. */
export async function launchChromium(chromium) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-udd-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    // without the background-networking flags Chromium keeps dialing hosts this machine cannot reach
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { context, userDataDir };
}
