// Behavioural phrases matched against features ("send request", "render template"): the entities whose
// features say most of a query's words, and the areas whose key terms and entities do. Model-free: the
// query and the features are compared word for word after the search's own stop words and stemming.
import { searchableWords } from '../search/lexical';
import { memoizedStemmer } from '../search/stems';
import type { FeatureHierarchy } from './hierarchy';

export interface FeatureHit {
  id: string;
  /** The feature phrase that matched best. */
  feature: string;
  /** Share of the query's words the phrase says, in (0, 1]. */
  score: number;
}

export interface AreaHit {
  area: string;
  /** Query words among the area's key terms, plus a share of the entities under it that matched. */
  score: number;
  entities: number;
}

/** A phrase must say at least this share of the query's words (and one at least). */
const MIN_SHARE = 0.5;
const stem = memoizedStemmer(100_000);

const stems = (text: string) => [...new Set(searchableWords(text).map(stem))];

export class FeatureSearch {
  private index: { version: number; postings: Map<string, Array<{ id: string; feature: string }>> } | undefined;

  constructor(private readonly hierarchy: FeatureHierarchy) {}

  /** Entities whose features match the query best, best first (ties by id). */
  entities(query: string, limit: number): FeatureHit[] {
    const words = stems(query);
    if (words.length === 0) return [];
    const best = new Map<string, FeatureHit>();
    const matched = new Map<string, { id: string; count: number }>();
    for (const word of words) {
      for (const p of this.postings().get(word) ?? []) {
        const key = `${p.id}\u0000${p.feature}`;
        const m = matched.get(key) ?? { id: p.id, count: 0 };
        m.count++;
        matched.set(key, m);
      }
    }
    for (const [key, { id, count }] of matched) {
      const score = count / words.length;
      if (score < MIN_SHARE) continue;
      const feature = key.slice(key.indexOf('\u0000') + 1);
      if ((best.get(id)?.score ?? 0) < score) best.set(id, { id, feature, score });
    }
    return [...best.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }

  /** Areas (leaves and inner ones) the query is about: by their key terms and by their matching entities. */
  areas(query: string, limit: number): AreaHit[] {
    const words = stems(query);
    if (words.length === 0) return [];
    const h = this.hierarchy;
    const hitsByFile = new Map<string, number>();
    for (const hit of this.entities(query, 1000)) {
      const path = h.entityPath(hit.id);
      if (path) hitsByFile.set(path, (hitsByFile.get(path) ?? 0) + 1);
    }
    const hits: AreaHit[] = [];
    for (const area of h.areas.values()) {
      if (area.id === '') continue;
      const terms = new Set(area.terms.flatMap(stems));
      const named = words.filter((w) => terms.has(w)).length / words.length;
      const entities = h.filesUnder(area.id).reduce((n, f) => n + (hitsByFile.get(f) ?? 0), 0);
      const total = h.entityCount(area.id);
      const score = named + (total > 0 ? entities / total : 0);
      if (named > 0 || entities > 0) hits.push({ area: area.id, score, entities });
    }
    return hits.sort((a, b) => b.score - a.score || (a.area < b.area ? -1 : 1)).slice(0, limit);
  }

  private postings() {
    if (this.index?.version === this.hierarchy.version) return this.index.postings;
    const postings = new Map<string, Array<{ id: string; feature: string }>>();
    for (const [id, entity] of this.hierarchy.allFeatures()) {
      for (const feature of entity.features) {
        for (const w of stems(feature)) {
          let list = postings.get(w);
          if (!list) postings.set(w, (list = []));
          list.push({ id, feature });
        }
      }
    }
    this.index = { version: this.hierarchy.version, postings };
    return postings;
  }
}
