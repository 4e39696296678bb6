// The lexical index's MiniSearch, with what the search needs beside its API: how many documents hold a
// term, whether a document's field holds one, and an OR query scored without MiniSearch's per-match
// objects. A pasted sentence matches most of a repository (Django: "Convert the self.deferred_loading
// data structure…" reaches 10,769 of 60k definitions through its terms' prefix and fuzzy expansions), and
// MiniSearch's `search` makes a result object, a terms array and a match record per document and term:
// 78 ms of that query's search, most of the time a sentence takes to answer.
import MiniSearch, { type Options } from 'minisearch';

/** One term of a query as MiniSearch's `search` takes it (its QuerySpec): the term, its boost, its expansions. */
export interface TermQuery {
  term: string;
  boost: number;
  /** Also the indexed terms it is a prefix of. */
  prefix: boolean;
  /** Also the indexed terms within this edit distance, as a fraction of its length (MiniSearch's `fuzzy`). */
  fuzzy: number | false;
}

// MiniSearch 7's defaults, which `search` scores with unless told otherwise (and the lexical index never does).
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

type FieldTermData = Map<number, Map<number, number>>;

export class TermIndex<T> extends MiniSearch<T> {
  /** MiniSearch.loadJSON builds a plain MiniSearch: the same index, given this class's methods. */
  static restore<T>(json: string, options: Options<T>): TermIndex<T> {
    return Object.setPrototypeOf(MiniSearch.loadJSON<T>(json, options), TermIndex.prototype) as TermIndex<T>;
  }

  documentFrequency(term: string): number {
    let df = 0;
    // Per field, the documents holding the term; the largest field's count is a floor of the union.
    for (const docs of this._index.get(term)?.values() ?? []) df = Math.max(df, docs.size);
    return df;
  }

  /** Whether the document's `field` holds the (processed) term: read from the inverted index, which a loaded index keeps (its texts it does not). */
  fieldHas(id: string, field: string, term: string): boolean {
    const shortId = this._idToShortId.get(id);
    const fieldId = this._fieldIds[field];
    return shortId !== undefined && fieldId !== undefined && (this._index.get(term)?.get(fieldId)?.has(shortId) ?? false);
  }

  /**
   * Every document matching any of `queries`, with the score MiniSearch's `search` gives it for them
   * combined with OR under these field boosts: per term, the BM25 of each field the term (or a prefix or
   * fuzzy expansion of it, weighted down by its distance) is in, summed in MiniSearch's order; the sum
   * times the number of query terms the document matches. Sums go into arrays indexed by MiniSearch's
   * short ids, so a query that matches most documents makes one object per document, at the end.
   * test/unit/termIndex.test.ts holds it to `search` on a real repository's index.
   */
  scoreAll(queries: readonly TermQuery[], fieldBoosts: Readonly<Record<string, number>>): Array<{ id: string; score: number }> {
    const { total, ofTerm, matched, seenIn } = this.sums();
    const order: number[] = [];
    let touched: number[] = [];
    const fields = Object.entries(fieldBoosts).map(([field, boost]) => ({ field, boost, id: this._fieldIds[field] }));
    try {
      queries.forEach((query, q) => {
        touched = [];
        const add = (derived: string, weight: number, data: FieldTermData | undefined) => {
          if (!data) return;
          for (const { boost, id: fieldId } of fields) {
            const postings = data.get(fieldId);
            if (!postings) continue;
            let matching = postings.size;
            const averageLength = this._avgFieldLength[fieldId];
            for (const [doc, frequency] of postings) {
              if (!this._documentIds.has(doc)) {
                // A discarded document: MiniSearch drops one of its occurrences as it meets it, and counts it out.
                (this as unknown as { removeTerm(fieldId: number, doc: number, term: string): void }).removeTerm(fieldId, doc, derived);
                matching -= 1;
                continue;
              }
              const length = this._fieldLength.get(doc)![fieldId];
              const idf = Math.log(1 + (this._documentCount - matching + 0.5) / (matching + 0.5));
              const bm25 = idf * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / averageLength)));
              ofTerm[doc] += weight * query.boost * boost * bm25;
              if (seenIn[doc] !== q + 1) {
                seenIn[doc] = q + 1;
                touched.push(doc);
              }
            }
          }
        };
        add(query.term, 1, this._index.get(query.term));
        const distance = query.fuzzy === false ? 0 : Math.min(MAX_FUZZY, Math.round(query.term.length * query.fuzzy));
        const fuzzy = distance > 0 ? this._index.fuzzyGet(query.term, distance) : undefined;
        if (query.prefix) {
          for (const [term, data] of this._index.atPrefix(query.term)) {
            const distance = term.length - query.term.length;
            if (distance === 0) continue;
            fuzzy?.delete(term); // scored as a prefix
            add(term, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance), data);
          }
        }
        for (const [term, [data, distance]] of fuzzy ?? []) {
          if (distance !== 0) add(term, (FUZZY_WEIGHT * term.length) / (term.length + distance), data);
        }
        for (const doc of touched) {
          if (matched[doc] === 0) order.push(doc);
          total[doc] += ofTerm[doc];
          ofTerm[doc] = 0;
          matched[doc]++;
        }
      });
      return order.map((doc) => ({ id: this._documentIds.get(doc) as string, score: total[doc] * matched[doc] }));
    } finally {
      // Zeroed where this query wrote, for the next one.
      for (const doc of order) total[doc] = matched[doc] = seenIn[doc] = 0;
      for (const doc of touched) ofTerm[doc] = seenIn[doc] = 0;
    }
  }

  /**
   * The per-document sums of scoreAll, kept from one query to the next (allocating four arrays of the
   * index's size was two thirds of a one-term query over 300,000 documents: 0.9 -> 0.3 ms), with room
   * for documents added since.
   */
  private sums(): { total: Float64Array; ofTerm: Float64Array; matched: Uint16Array; seenIn: Uint32Array } {
    const size = this._nextId;
    if (!this.scratch || this.scratch.total.length < size) {
      const room = size + (size >> 3);
      this.scratch = { total: new Float64Array(room), ofTerm: new Float64Array(room), matched: new Uint16Array(room), seenIn: new Uint32Array(room) };
    }
    return this.scratch;
  }

  private scratch: ReturnType<TermIndex<T>['sums']> | undefined;
}
