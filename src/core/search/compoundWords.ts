// Compound words with no separator (`isnumeric`, `readall`, `getattr`, `uppercase`) never meet the
// words a question uses ("is numeric", "read all", "upper case"). They are split by the
// repository's own vocabulary: a word counts as a part only when the repository's identifiers use it
// as a separate part (`is_valid`, `read_bytes`, `allFiles`) at least twice. A split word is kept whole
// too, so exact names still match exactly. Deterministic: a split depends only on which words are
// parts (not on how often), so the same names give the same splits, and an edit that leaves the set of
// part words as it was leaves every split as it was. Cheap: one pass over the names, then a memoized
// lookup per distinct word.
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
  /** Part → distinct names using it. */
  private readonly uses = new Map<string, number>();
  /** Name → definitions so named (a name counts once however many definitions share it). */
  private readonly names = new Map<string, number>();
  /** Memo: the parts of each word asked, null when it is no compound. */
  private readonly splits = new Map<string, string[] | null>();
  private partsChanged = false;

  /** Whether a word became or stopped being a part since the splits were first asked: they may differ now. */
  get changed(): boolean {
    return this.partsChanged;
  }

  constructor(names: Iterable<string> = []) {
    for (const name of names) this.learn(name);
  }

  /**
   * The vocabulary as {@link parts} listed it: the same splits, without a pass over every name (a
   * one-shot query on a million lines spent 0.28 s learning them). It cannot follow edits.
   */
  static ofParts(parts: Iterable<string>): CompoundWords {
    const words = new CompoundWords();
    for (const part of parts) words.uses.set(part, MIN_USES);
    words.fixed = true;
    return words;
  }

  /** The words that count as parts: all a split depends on. */
  parts(): string[] {
    return [...this.uses].filter(([, n]) => n >= MIN_USES).map(([part]) => part).sort();
  }

  /** Made from a list of parts, without the names: learning or unlearning one would count from nothing. */
  private fixed = false;

  /** One more definition of this name. */
  learn(name: string): void {
    if (this.fixed) throw new Error('a vocabulary read from its parts cannot learn names');
    const n = this.names.get(name) ?? 0;
    this.names.set(name, n + 1);
    if (n === 0) this.count(name, 1);
  }

  /** One definition of this name fewer (it was learnt). */
  unlearn(name: string): void {
    if (this.fixed) throw new Error('a vocabulary read from its parts cannot unlearn names');
    const n = this.names.get(name) ?? 0;
    if (n > 1) this.names.set(name, n - 1);
    else if (n === 1) {
      this.names.delete(name);
      this.count(name, -1);
    }
  }

  private count(name: string, delta: 1 | -1): void {
    const parts = identifierWords(name);
    if (parts.length < 2) return;
    for (const part of parts) {
      if (!/^[a-z]+$/.test(part)) continue;
      const before = this.uses.get(part) ?? 0;
      const after = before + delta;
      if (after > 0) this.uses.set(part, after);
      else this.uses.delete(part);
      if (this.splits.size > 0 && before >= MIN_USES !== after >= MIN_USES) this.partsChanged = true;
    }
  }

  /** Whether the repository's identifiers use the word as a part of a name. */
  isWord(word: string): boolean {
    return (this.uses.get(word) ?? 0) >= MIN_USES;
  }

  /**
   * The parts of a compound word (`readall` → read, all), or undefined when it is not one: a word the
   * identifiers use on its own is a word, not a compound. Fewest parts first; among splits of as many
   * parts, the longest first part (then second): greedy, and independent of how often each part is used.
   */
  split(word: string): string[] | undefined {
    // Most words are short: no lookup at all (this runs once per indexed token).
    if (word.length < MIN_WORD) return undefined;
    let parts = this.splits.get(word);
    if (parts === undefined) {
      parts = (/^[a-z]+$/.test(word) && !this.isWord(word) && this.best(word, MAX_PARTS, true)) || null;
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

  private best(rest: string, maxParts: number, leading: boolean): string[] | undefined {
    // A tail that is a word is the fewest parts it can be (the whole word was no word: split() checked).
    if (!leading && rest.length >= MIN_PART && this.isWord(rest)) return [rest];
    if (maxParts < 2) return undefined;
    let found: string[] | undefined;
    // Longest head first: the first split found with the fewest parts wins.
    for (let cut = rest.length - MIN_PART; cut >= (leading ? MIN_LEADING_PART : MIN_PART); cut--) {
      const head = rest.slice(0, cut);
      if (!this.isWord(head)) continue;
      const tail = this.best(rest.slice(cut), maxParts - 1, false);
      if (tail && (!found || tail.length + 1 < found.length)) found = [head, ...tail];
    }
    return found;
  }
}
