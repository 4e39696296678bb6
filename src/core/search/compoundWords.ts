// Compound words with no separator (`isnumeric`, `readall`, `getattr`, `uppercase`) never meet the
// words a question uses ("is numeric", "read all", "upper case") — issue 34. They are split by the
// repository's own vocabulary: a word counts as a part only when the repository's identifiers use it
// as a separate part (`is_valid`, `read_bytes`, `allFiles`) at least twice. A split word is kept whole
// too, so exact names still match exactly. Deterministic (the same names give the same splits) and
// cheap: one pass over the names, then a memoized lookup per distinct word.
import { identifierWords } from './identifiers';

/** Shortest word considered for splitting: `isnan` (is + nan) is five letters. */
const MIN_WORD = 5;
/** Parts are at least this long, but for a leading two-letter verb or preposition (`is`, `to`, `as`). */
const MIN_PART = 3;
const MIN_LEADING_PART = 2;
/** Identifiers that must use a word as a part before it counts as one (once may be a typo or a one-off). */
const MIN_USES = 2;
const MAX_PARTS = 3;

export class CompoundWords {
  private readonly uses = new Map<string, number>();
  private readonly names = new Set<string>();
  /** Memo: the parts of each word asked, null when it is no compound. */
  private readonly splits = new Map<string, string[] | null>();

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.learn(name);
  }

  /** Learns the parts of an identifier, each distinct name once; splits are to be asked once the names are learnt. */
  learn(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    const parts = identifierWords(name);
    if (parts.length < 2) return;
    for (const part of parts) if (/^[a-z]+$/.test(part)) this.uses.set(part, (this.uses.get(part) ?? 0) + 1);
  }

  /** Whether the repository's identifiers use the word as a part of a name. */
  isWord(word: string): boolean {
    return (this.uses.get(word) ?? 0) >= MIN_USES;
  }

  /**
   * The parts of a compound word (`readall` → read, all), or undefined when it is not one: a word the
   * identifiers use on its own is a word, not a compound. Fewest parts first; among splits of as many
   * parts, the one whose rarest part is most used.
   */
  split(word: string): string[] | undefined {
    // Most words are short: no lookup at all (this runs once per indexed token).
    if (word.length < MIN_WORD) return undefined;
    let parts = this.splits.get(word);
    if (parts === undefined) {
      parts = (/^[a-z]+$/.test(word) && !this.isWord(word) && this.best(word, MAX_PARTS, true)?.parts) || null;
      this.splits.set(word, parts);
    }
    return parts ?? undefined;
  }

  /** Every word, followed by its parts when it is a compound. */
  expand(words: string[]): string[] {
    let out: string[] | undefined;
    for (let i = 0; i < words.length; i++) {
      const parts = this.split(words[i]);
      if (parts) (out ??= words.slice(0, i)).push(words[i], ...parts);
      else out?.push(words[i]);
    }
    // No compound among them (the usual case): the same array, nothing copied.
    return out ?? words;
  }

  private best(rest: string, maxParts: number, leading: boolean): { parts: string[]; weakest: number } | undefined {
    // A tail that is a word is the fewest parts it can be (the whole word was no word: split() checked).
    if (!leading && rest.length >= MIN_PART && this.isWord(rest)) return { parts: [rest], weakest: this.uses.get(rest)! };
    if (maxParts < 2) return undefined;
    let found: { parts: string[]; weakest: number } | undefined;
    for (let cut = leading ? MIN_LEADING_PART : MIN_PART; cut <= rest.length - MIN_PART; cut++) {
      const head = rest.slice(0, cut);
      if (!this.isWord(head)) continue;
      const tail = this.best(rest.slice(cut), maxParts - 1, false);
      if (!tail) continue;
      const candidate = { parts: [head, ...tail.parts], weakest: Math.min(this.uses.get(head)!, tail.weakest) };
      if (!found || candidate.parts.length < found.parts.length || (candidate.parts.length === found.parts.length && candidate.weakest > found.weakest)) found = candidate;
    }
    return found;
  }
}
