// String literals and comments, by the innermost definition they sit in. Error messages, dict keys and
// comments say in words what identifiers do not ("cannot reindex", 'get_%s_display'), and an issue
// report quotes them; search reads them as a low-weight field. Capped per definition, so a table of
// strings (a vendored bundle, a data module) cannot bloat the per-file graph.
import type { ScopeText } from './fileGraph';

/** A longer literal is data, not a message: its first words are kept. */
const MAX_PIECE_CHARS = 160;
/** Per definition and field: enough for the messages and comments of a long constructor (Flask.__init__: ~2,500). */
const MAX_SCOPE_CHARS = 4_000;
/** A piece with no run of two letters (`', '`, `'%s'`, `'\n'`) has no word to find. */
const HAS_WORD = /[A-Za-z]{2}/;
/** Comments addressed to tools (`# type: ignore`, `// eslint-disable-line`), not to readers. */
const TOOL_DIRECTIVE = /^(?:type:|pragma\b|noqa\b|pylint:|fmt:|isort:|eslint|@ts-|istanbul\b|prettier-ignore|c8\b)/i;

interface Pieces {
  literals: string[];
  comments: string[];
  chars: { literals: number; comments: number };
  seen: Set<string>;
}

export class SourceTextCollector {
  private readonly byScope = new Map<string | null, Pieces>();

  add(from: string | null, field: 'literals' | 'comments', raw: string): void {
    let text = raw.replace(/\s+/g, ' ').trim();
    if (!HAS_WORD.test(text) || (field === 'comments' && TOOL_DIRECTIVE.test(text))) return;
    if (text.length > MAX_PIECE_CHARS) text = text.slice(0, MAX_PIECE_CHARS);
    let pieces = this.byScope.get(from);
    if (!pieces) this.byScope.set(from, (pieces = { literals: [], comments: [], chars: { literals: 0, comments: 0 }, seen: new Set() }));
    if (pieces.chars[field] + text.length > MAX_SCOPE_CHARS || pieces.seen.has(text)) return;
    pieces.seen.add(text);
    pieces[field].push(text);
    pieces.chars[field] += text.length + 1;
  }

  /** In order of first appearance, so the same text always gives the same per-file graph. */
  result(): ScopeText[] {
    return [...this.byScope].map(([from, p]) => ({ from, literals: p.literals.join('\n'), comments: p.comments.join('\n') }));
  }
}
