// Polling helpers shared by the real-VS-Code suites.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

module.exports = { sleep, until };
