// Standard Okapi BM25, written out so every bench measures against the same baseline (issue 34).
// Scoring as Lucene's BM25Similarity: idf = ln(1 + (N − n + 0.5) / (n + 0.5)), term weight
// idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl)). Each occurrence of a term in the query
// counts (a term said three times weighs three times), as in Lucene and rank_bm25's BM25Okapi; the
// `distinct` option counts each query term once, the baseline the benches had before. The caller
// tokenizes: the same tokens for documents and queries.

export interface OkapiParams {
  k1: number;
  b: number;
  /** true: each distinct query term once (the benches' earlier baseline); false: every occurrence counts. */
  distinct: boolean;
}

/** Lucene's defaults. rank_bm25's BM25Okapi defaults to k1 1.5 (its idf differs only for terms in over half the documents). */
export const LUCENE: OkapiParams = { k1: 1.2, b: 0.75, distinct: false };

export class OkapiBm25<K> {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: number[] = [];
  private readonly keys: K[] = [];
  private readonly averageLength: number;

  constructor(documents: Iterable<[K, string[]]>, readonly params: OkapiParams = LUCENE) {
    for (const [key, terms] of documents) {
      const doc = this.keys.length;
      this.keys.push(key);
      this.lengths.push(terms.length);
      for (const t of terms) {
        let posting = this.postings.get(t);
        if (!posting) this.postings.set(t, (posting = new Map()));
        posting.set(doc, (posting.get(doc) ?? 0) + 1);
      }
    }
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  get documents(): number {
    return this.keys.length;
  }

  /** Every document sharing a term with the query, with its score. */
  scores(queryTerms: string[]): Map<K, number> {
    const { k1, b, distinct } = this.params;
    const n = this.keys.length;
    const weights = new Map<string, number>();
    for (const t of queryTerms) weights.set(t, distinct ? 1 : (weights.get(t) ?? 0) + 1);
    const byDoc = new Map<number, number>();
    for (const [term, times] of weights) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [doc, tf] of posting) {
        const part = (times * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.lengths[doc]) / this.averageLength));
        byDoc.set(doc, (byDoc.get(doc) ?? 0) + part);
      }
    }
    return new Map([...byDoc].map(([doc, s]) => [this.keys[doc], s]));
  }

  /** The best `limit` documents, ties in insertion order (deterministic). */
  search(queryTerms: string[], limit: number): K[] {
    const order = new Map(this.keys.map((k, i) => [k, i]));
    return [...this.scores(queryTerms)]
      .sort((a, b) => b[1] - a[1] || order.get(a[0])! - order.get(b[0])!)
      .slice(0, limit)
      .map(([k]) => k);
  }
}
