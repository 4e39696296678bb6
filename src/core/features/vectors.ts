// Lexical similarity of file summaries: sparse TF-IDF vectors (log term frequency, unit length) and
// their cosine. The document frequencies are frozen when the hierarchy is built, so that routing a
// changed file later weighs words as the build did.
export type Vector = Map<string, number>;

export interface TermStats {
  /** Files that hold each term, at build time. */
  df: Map<string, number>;
  files: number;
}

export function termStats(summaries: Iterable<Map<string, number>>): TermStats {
  const df = new Map<string, number>();
  let files = 0;
  for (const terms of summaries) {
    files++;
    for (const term of terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  return { df, files };
}

/** A unit TF-IDF vector; a term the build never saw counts as if one file held it. */
export function tfidf(terms: Map<string, number>, stats: TermStats): Vector {
  const v: Vector = new Map();
  let norm = 0;
  for (const [term, count] of terms) {
    const w = (1 + Math.log(count)) * Math.log(1 + stats.files / (stats.df.get(term) ?? 1));
    v.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [term, w] of v) v.set(term, w / norm);
  return v;
}

export function dot(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, w] of small) {
    const other = large.get(term);
    if (other !== undefined) sum += w * other;
  }
  return sum;
}

/** Adds `sign` × `v` into `into` (an area's centroid as the sum of its files' vectors). */
export function accumulate(into: Vector, v: Vector, sign: 1 | -1): void {
  for (const [term, w] of v) {
    const next = (into.get(term) ?? 0) + sign * w;
    if (Math.abs(next) < 1e-12) into.delete(term);
    else into.set(term, next);
  }
}

export function norm(v: Vector): number {
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return Math.sqrt(sum);
}

/**
 * Each file's most similar files (at most `k`, cosine at least `min`), found through an inverted index
 * that skips terms most files hold: they would make it quadratic and say little about function.
 */
export function nearestNeighbours(vectors: ReadonlyMap<string, Vector>, stats: TermStats, k: number, min: number): Map<string, Array<[string, number]>> {
  const commonDf = Math.max(8, stats.files / 10);
  const postings = new Map<string, Array<[string, number]>>();
  for (const [path, v] of vectors) {
    for (const [term, w] of v) {
      if ((stats.df.get(term) ?? 0) > commonDf) continue;
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push([path, w]);
    }
  }
  const out = new Map<string, Array<[string, number]>>();
  for (const [path, v] of vectors) {
    const scores = new Map<string, number>();
    for (const [term, w] of v) {
      for (const [other, ow] of postings.get(term) ?? []) if (other !== path) scores.set(other, (scores.get(other) ?? 0) + w * ow);
    }
    const best = [...scores].filter(([, s]) => s >= min).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    out.set(path, best.slice(0, k));
  }
  return out;
}
