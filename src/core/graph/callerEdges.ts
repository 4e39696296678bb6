// What a "caller" of a function is. A CALLS edge is a call expression; but a property is read
// (`request.path`), a decorator applied (`@cached_property`), a callback passed (`map(str.strip, …)`)
// with no call written, and the graph draws those as USES. Asked for callers of such a function,
// CALLS alone answered "no edges" and said nothing of why: USES into a function counts too, its kind shown.
import type { NodeKind } from '../model/schema';

const FUNCTIONS: ReadonlySet<NodeKind> = new Set(['Function', 'Method']);

/** The edge kinds to walk for `kinds`, with USES beside CALLS where the node walked into is a function. */
export function callerKinds<K extends string>(kinds: readonly K[], into: NodeKind): readonly K[] {
  return kinds.includes('CALLS' as K) && !kinds.includes('USES' as K) && FUNCTIONS.has(into) ? [...kinds, 'USES' as K] : kinds;
}
