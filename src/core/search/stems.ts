// Porter stems (`stemmer`), memoized: a repository's words are a few thousand distinct ones, each
// stemmed once (on Django 380k words are 6.9k distinct ones: stemming them all took ~200 ms of each
// lexical build, memoized ~25 ms).
import { stemmer } from 'stemmer';

/** A memoized stemmer of its own; a cache that lives as long as the process is cleared at `maxEntries`. */
export function memoizedStemmer(maxEntries = Infinity): (word: string) => string {
  const stems = new Map<string, string>();
  return (word) => {
    let stem = stems.get(word);
    if (stem === undefined) {
      if (stems.size >= maxEntries) stems.clear();
      stems.set(word, (stem = stemmer(word)));
    }
    return stem;
  };
}
