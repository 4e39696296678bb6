// Ranking metrics for the search benchmark. Plain functions over ranked key lists so they can be
// unit-tested by hand (test/unit/searchMetrics.test.ts). Binary relevance; ranks are 1-based.

/** 1-based rank of the first relevant key in `ranked`, or 0 when none is there. */
export function firstRelevantRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  for (let i = 0; i < ranked.length; i++) if (relevant.has(ranked[i])) return i + 1;
  return 0;
}

/** NDCG@k with binary gains: DCG = Σ 1/log2(rank+1) over relevant items in the top k, divided by the ideal DCG. */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  let dcg = 0;
  const seen = new Set<string>();
  for (let i = 0; i < Math.min(k, ranked.length); i++) {
    const key = ranked[i];
    if (relevant.has(key) && !seen.has(key)) {
      seen.add(key);
      dcg += 1 / Math.log2(i + 2);
    }
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Recall@k: the share of relevant items found in the top k. */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((key) => relevant.has(key)));
  return found.size / relevant.size;
}

/** Reciprocal rank of the first relevant item within the top k (0 when absent). */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>, k = Infinity): number {
  const rank = firstRelevantRank(ranked.slice(0, k), relevant);
  return rank === 0 ? 0 : 1 / rank;
}

/** Hit@k (top-1, top-5 accuracy): 1 when a relevant item is in the top k. */
export function hitAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const rank = firstRelevantRank(ranked, relevant);
  return rank > 0 && rank <= k ? 1 : 0;
}

/** Keeps the first occurrence of each key (overloads or duplicate hits mapping to one key). */
export function dedupe(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((k) => (seen.has(k) ? false : (seen.add(k), true)));
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface RankingMetrics {
  queries: number;
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

/** Mean NDCG@10, Recall@10 and MRR@10 over queries with one or more relevant keys each. */
export function rankingMetrics(runs: readonly { ranked: readonly string[]; relevant: ReadonlySet<string> }[]): RankingMetrics {
  return {
    queries: runs.length,
    ndcg10: mean(runs.map((r) => ndcgAt(r.ranked, r.relevant, 10))),
    recall10: mean(runs.map((r) => recallAt(r.ranked, r.relevant, 10))),
    mrr10: mean(runs.map((r) => reciprocalRank(r.ranked, r.relevant, 10))),
  };
}

/** A docstring's first paragraph on one line: lines up to a blank line, a tag (`@since`), an RST field, a section underline or a code fence. */
export function leadingParagraph(doc: string): string {
  const lines: string[] = [];
  for (const line of doc.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('@') || /^:[A-Za-z_]+(\s[^:`]*)?:(\s|$)/.test(t) || /^[-=~`]{3,}$/.test(t) || t.startsWith('```')) break;
    lines.push(t);
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

/** First sentence of a docstring: its first paragraph up to the first `.`, `!` or `?` followed by space or end; tags (`@since`) and RST fields excluded. */
export function firstSentence(doc: string): string {
  const para = leadingParagraph(doc);
  const m = /^(.+?[.!?])(?=\s|$)/.exec(para);
  return (m ? m[1] : para).trim();
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
}
