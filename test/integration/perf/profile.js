// With CARTOGRAPH_PERF_PROFILE=1 the perf probe samples the extension host's thread with V8's CPU
// profiler (the `inspector` module, every 0.5 ms) and says what ran during each long block: the
// functions with the most samples of their own, and Cartograph's functions (dist/extension.js) with
// the most samples under them. A block with few samples is a thread that waited for a core.
const inspector = require('inspector');

const post = (session, method, params) =>
  new Promise((resolve, reject) => session.post(method, params || {}, (err, result) => (err ? reject(err) : resolve(result))));

/** Starts sampling; the returned function stops it and describes the given blocks ({ endUs, ms }). */
async function startProfile() {
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 500 });
  await post(session, 'Profiler.start');
  return async (blocks) => {
    const { profile } = await post(session, 'Profiler.stop');
    session.disconnect();
    return blocks.map((block) => ({ ...block, ...describe(profile, block.endUs - (block.ms + 5) * 1000, block.endUs) }));
  };
}

function describe(profile, fromUs, toUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children || []) parent.set(child, n.id);
  const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  const self = new Map();
  const ours = new Map();
  let samples = 0;
  let t = profile.startTime;
  for (let k = 0; k < profile.samples.length; k++) {
    t += profile.timeDeltas[k];
    if (t < fromUs || t > toUs) continue;
    samples++;
    const leaf = byId.get(profile.samples[k]);
    self.set(label(leaf), (self.get(label(leaf)) || 0) + 1);
    const seen = new Set();
    for (let n = leaf; n; n = byId.get(parent.get(n.id))) {
      if (!n.callFrame.url.endsWith('extension.js') || seen.has(label(n))) continue;
      seen.add(label(n));
      ours.set(label(n), (ours.get(label(n)) || 0) + 1);
    }
  }
  const top = (counts) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([fn, n]) => `${fn} (${n})`);
  return { samples, self: top(self), cartograph: top(ours) };
}

module.exports = { startProfile };
