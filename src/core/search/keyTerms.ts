// Which words of a query the lexical index searches for, and how much each counts. A one-line question
// is searched word for word; a pasted issue (thousands of characters, hundreds of distinct words, a
// traceback) cannot be: every word is one pass over its postings, and a prefix or fuzzy expansion is
// a walk of the whole vocabulary. So every query keeps its most telling words only: the rarest in the
// index (BM25's IDF), those it repeats, and those written as code (`get_FOO_display`, `QuerySet.filter`,
// `parseArgs()`), which name what the text is about. The cost of a query is then bounded whatever its
// length, and a short question keeps every word it has.
import { identifierWords } from './identifiers';

/** Words searched per query, at most: a short question has fewer; a long text keeps its most telling ones. */
export const MAX_QUERY_TERMS = 24;
/** Words also matched by prefix and typo (fuzzy) expansion: the most telling few. */
export const EXPANDED_TERMS = 8;
/**
 * Past the expanded terms, words are added only while the postings they make the index score stay
 * under this many per indexed document: the cost of a query is its postings, and the commonest words
 * (last by IDF) add the most postings and the least score.
 */
const POSTINGS_PER_DOCUMENT = 3;
/** A word written as code in the query counts this much more than one in prose. */
const CODE_WEIGHT = 2;

/** A name or name chain as code writes it: `QuerySet.filter`, `get_FOO_display`, `parseArgs()`. */
const RAW_TOKEN = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?/g;
const CODE_LIKE = /_|[a-z][A-Z]|\.|\(\)/;

export interface KeyTerm {
  /** The processed (stemmed) term as the index holds it. */
  term: string;
  /** Relative weight in (0, 1]: how often the query says it and whether as code (the index adds IDF itself). */
  boost: number;
  /** Whether prefix and fuzzy matches count too. */
  expand: boolean;
}

export interface TermStatistics {
  /** The words of a name as the index splits them (compound words too); identifierWords by default. */
  words?(raw: string): string[];
  /** The index's term processing (stop words dropped, stemmed): undefined drops the word. */
  process(word: string): string | undefined;
  /** Documents holding the processed term, in any field. */
  documentFrequency(term: string): number;
  documentCount: number;
}

/**
 * The query's key terms, most telling first: weight = IDF × (1 + ln repeats) × (2 if written as code);
 * the first {@link EXPANDED_TERMS} are kept and expanded; after those, words the index lacks are dropped
 * (an exact search for them finds nothing), and so are words whose documents would take the query past
 * its postings budget; at most {@link MAX_QUERY_TERMS} are kept.
 */
export function keyTerms(text: string, stats: TermStatistics): KeyTerm[] {
  const seen = new Map<string, { repeats: number; code: boolean; df: number }>();
  for (const [raw] of text.matchAll(RAW_TOKEN)) {
    const code = CODE_LIKE.test(raw);
    for (const word of stats.words?.(raw) ?? identifierWords(raw)) {
      if (/^\d+$/.test(word)) continue;
      const term = stats.process(word);
      if (!term) continue;
      const entry = seen.get(term);
      if (entry) {
        entry.repeats++;
        entry.code ||= code;
      } else seen.set(term, { repeats: 1, code, df: stats.documentFrequency(term) });
    }
  }
  const n = stats.documentCount;
  const ranked = [...seen].map(([term, { repeats, code, df }]) => {
    const local = (1 + Math.log(repeats)) * (code ? CODE_WEIGHT : 1);
    return { term, df, local, weight: Math.log(1 + (n - df + 0.5) / (df + 0.5)) * local };
  });
  ranked.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  let postings = POSTINGS_PER_DOCUMENT * n;
  const kept = [];
  for (const [i, t] of ranked.entries()) {
    if (kept.length === MAX_QUERY_TERMS) break;
    if (i >= EXPANDED_TERMS && (t.df === 0 || t.df > postings)) continue;
    kept.push(t);
    postings -= t.df;
  }
  const top = Math.max(...kept.map((t) => t.local));
  return kept.map((t, i) => ({ term: t.term, boost: t.local / top, expand: i < EXPANDED_TERMS }));
}
