// Held-out discipline (issue 34): every dev set is split by repository or package into a tuning half
// and a held-out half, fixed by a seed written here. Constants are tuned on the tuning half only; the
// benches report both halves, and a change made because of the held-out half is not allowed.

export type Half = 'tuning' | 'heldOut';
export const HALVES: Half[] = ['tuning', 'heldOut'];

/** The seed of every split. Changing it is a new split: the held-out figures before it were seen. */
export const SPLIT_SEED = 34;

/** FNV-1a of the text: a stable order that no one chose by hand. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Groups in seeded order, each to whichever half holds less weight so far (ties: tuning): halves of
 * about equal weight (instances, queries) that no one picked.
 */
export function splitHalves(weights: Record<string, number>, seed = SPLIT_SEED): Record<string, Half> {
  const order = Object.keys(weights).sort((a, b) => hash(`${seed}:${a}`) - hash(`${seed}:${b}`) || (a < b ? -1 : 1));
  const load = { tuning: 0, heldOut: 0 };
  const out: Record<string, Half> = {};
  for (const name of order) {
    const half: Half = load.tuning <= load.heldOut ? 'tuning' : 'heldOut';
    out[name] = half;
    load[half] += weights[name];
  }
  return out;
}
