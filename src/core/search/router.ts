// RANGER's query router: code-entity queries and structural questions go to graph lookups, everything
// else is natural language. The decision and its reason travel with the result.

export type Relation = 'callers' | 'callees' | 'subclasses' | 'superclasses' | 'dependencies' | 'dependents' | 'members';

export type Routed =
  | { route: 'structural'; relation: Relation; subject: string; reason: string }
  | { route: 'entity'; subject: string; reason: string }
  | { route: 'natural-language'; reason: string };

const RELATION_WORDS: Record<string, Relation> = {
  callers: 'callers', callees: 'callees', subclasses: 'subclasses', subtypes: 'subclasses', implementations: 'subclasses',
  superclasses: 'superclasses', bases: 'superclasses', parents: 'superclasses', dependencies: 'dependencies', deps: 'dependencies',
  imports: 'dependencies', dependents: 'dependents', usages: 'dependents', uses: 'dependents', users: 'dependents',
  references: 'dependents', members: 'members', methods: 'members', fields: 'members',
};

const STRUCTURAL: Array<[RegExp, Relation | null]> = [
  [/^(\w+)\s+of\s+(.+)$/i, null],
  [/^(?:who|what)\s+calls\s+(.+)$/i, 'callers'],
  [/^what\s+does\s+(.+?)\s+call$/i, 'callees'],
  [/^(?:who|what)\s+(?:inherits\s+from|extends|implements|subclasses)\s+(.+)$/i, 'subclasses'],
  [/^where\s+is\s+(.+?)\s+(?:used|referenced|called)$/i, 'dependents'],
  [/^what\s+does\s+(.+?)\s+(?:depend\s+on|import|use)$/i, 'dependencies'],
];

/** A name, qualified with `.`, `#`, `/` or Rust's `::` (`Runtime::new`). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:::|[.#/:])[A-Za-z_$][\w$@]*)*(?:\(\))?$/;

/** `exists(subject)`: whether the graph has an entity by that name (an identifier naming nothing is prose). */
export function routeQuery(query: string, exists: (subject: string) => boolean): Routed {
  const q = query.trim().replace(/[?.!]+$/, '').replace(/[`'"]/g, '');
  for (const [pattern, fixed] of STRUCTURAL) {
    const m = pattern.exec(q);
    if (!m) continue;
    const relation = fixed ?? RELATION_WORDS[m[1].toLowerCase()];
    const subject = (fixed ? m[1] : m[2]).trim();
    if (relation && IDENTIFIER.test(subject) && exists(subject)) {
      return { route: 'structural', relation, subject, reason: `"${relation} of ${subject}" is a question about the graph's edges` };
    }
  }
  if (IDENTIFIER.test(q) && !/\s/.test(q)) {
    if (exists(q)) return { route: 'entity', subject: q, reason: `"${q}" names code in the graph` };
    return { route: 'natural-language', reason: `"${q}" looks like a name but nothing in the graph is called that` };
  }
  return { route: 'natural-language', reason: 'prose: searched by meaning' };
}
