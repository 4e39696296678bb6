// Parallel structure: code next to the cursor is often written like its siblings. Where `ZodEmail`'s
// initializer calls `core.$ZodEmail.init` and `processors.emailProcessor`, the `ZodNanoID` being
// written calls `core.$ZodNanoID.init` and `processors.nanoidProcessor`; where `object(…)` takes
// `core.$ZodObjectParams`, `union(…)` takes `core.$ZodUnionParams`; `UserAdmin` pairs with
// `UserForm` as `GroupAdmin` with `GroupForm`. Nothing in the buffer names the analogue yet (the line
// is still to be typed, or the name sits among hundreds a namespace exports), but a sibling's use
// says where it lives and how it is spelled: the sibling's target with the sibling's own words
// replaced by the enclosing definition's, looked up among the top-level definitions of the target's file.
import type { GraphEdge } from '../model/schema';
import { isExternalId, symbolId } from '../model/schema';
import type { SymbolDef } from '../parse/fileGraph';
import { identifierWords } from '../search/identifiers';
import { spelling } from './definitionNames';
import type { QueryGraph } from './queryGraph';

/** A file's top-level definitions by spelling (DefinitionNames.inFile). */
export type SpelledIn = (path: string, key: string) => readonly string[];

export interface Analogue {
  id: string;
  /** Siblings whose use points to it (distinct sibling definitions). */
  votes: number;
  /** One sibling's use it is the analogue of: the fact that explains it. */
  edge: GraphEdge;
}

/** Siblings on each side of the definition being written that count: parallel code is near. */
const SIBLINGS_EACH_SIDE = 12;

/**
 * What tells two names apart: their words less the words both start and end with
 * (`ZodMiniEmail`, `ZodMiniCIDRv4` → `email`, `cidrv4`); undefined when either is left empty.
 */
function distinctParts(a: string, b: string): [string, string] | undefined {
  const x = identifierWords(a);
  const y = identifierWords(b);
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const own = x.slice(head, x.length - tail).join('');
  const other = y.slice(head, y.length - tail).join('');
  return own === '' || other === '' ? undefined : [own, other];
}

/**
 * For the innermost enclosing definition, the analogues of what its siblings (definitions of the same
 * kind under the same parent, the nearest on each side) use in other files, most votes first.
 */
export function analogues(q: QueryGraph, spelledIn: SpelledIn, nodeName: (id: string) => string | undefined): Analogue[] {
  const self = q.enclosing[0];
  if (!self) return [];
  // Per sibling, what tells its name from the enclosing one's (`email` / `nanoid`); siblings whose names say nothing apart are left out.
  const siblings = new Map<string, [string, string]>();
  for (const [id, name] of nearestSiblings(q.query.path, q.file.symbols, self)) {
    const parts = distinctParts(name, self.name);
    if (parts) siblings.set(id, parts);
  }
  if (siblings.size === 0) return [];
  const found = new Map<string, Analogue & { from: Set<string> }>();
  for (const edge of q.edges) {
    if (edge.kind !== 'CALLS' && edge.kind !== 'USES' && edge.kind !== 'INHERITS') continue;
    const parts = siblings.get(edge.source);
    if (parts === undefined) continue;
    const target = nodeName(edge.target);
    if (target === undefined) continue;
    const spelled = spelling(target);
    if (!spelled.includes(parts[0])) continue;
    const path = edge.target.slice(0, edge.target.indexOf('#'));
    for (const id of spelledIn(path, spelled.replace(parts[0], parts[1]))) {
      const a = found.get(id) ?? found.set(id, { id, votes: 0, edge, from: new Set() }).get(id)!;
      a.from.add(edge.source);
      a.votes = a.from.size;
    }
  }
  return [...found.values()].map(({ id, votes, edge }) => ({ id, votes, edge })).sort((a, b) => b.votes - a.votes || (a.id < b.id ? -1 : 1));
}

/** Share of the siblings a use must have to be their common one. */
const COMMON_USE_SHARE = 0.5;

/**
 * What most of the enclosing definition's nearest siblings use as is (`inst._zod.processJSONSchema = …`
 * in every schema's initializer, a base's method every override calls) and it does not use yet,
 * with the share of the siblings that do, most shared first.
 */
export function commonSiblingUses(q: QueryGraph): Array<{ id: string; share: number; edge: GraphEdge }> {
  const self = q.enclosing[0];
  if (!self) return [];
  const siblings = nearestSiblings(q.query.path, q.file.symbols, self);
  if (siblings.size < 2) return [];
  const selfId = symbolId(q.query.path, self.localId);
  const own = new Set(q.edges.filter((e) => e.source === selfId).map((e) => e.target));
  const users = new Map<string, { from: Set<string>; edge: GraphEdge }>();
  for (const edge of q.edges) {
    if ((edge.kind !== 'CALLS' && edge.kind !== 'USES' && edge.kind !== 'INHERITS') || !siblings.has(edge.source) || own.has(edge.target)) continue;
    const u = users.get(edge.target) ?? users.set(edge.target, { from: new Set(), edge }).get(edge.target)!;
    u.from.add(edge.source);
  }
  return [...users.entries()]
    .map(([id, u]) => ({ id, share: u.from.size / siblings.size, edge: u.edge }))
    .filter((u) => u.share >= COMMON_USE_SHARE)
    // At one share, the repository's own definitions first: an external (`warnings.warn`, which every
    // sibling's function-local `import warnings` reaches) has no code to put in the context.
    .sort((a, b) => b.share - a.share || Number(isExternalId(a.id)) - Number(isExternalId(b.id)) || (a.id < b.id ? -1 : 1));
}

/** Ids (in the buffer's file) of the definitions of `self`'s kind under its parent, the nearest on each side, with their names. */
export function nearestSiblings(path: string, symbols: readonly SymbolDef[], self: SymbolDef): Map<string, string> {
  const peers = symbols.filter((s) => s.parent === self.parent && s.kind === self.kind);
  const at = peers.indexOf(self);
  const near = peers.slice(Math.max(0, at - SIBLINGS_EACH_SIDE), at).concat(peers.slice(at + 1, at + 1 + SIBLINGS_EACH_SIDE));
  return new Map(near.filter((s) => s.name !== self.name).map((s) => [symbolId(path, s.localId), s.name]));
}
