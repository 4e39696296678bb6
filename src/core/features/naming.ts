// An area's name without a model: its most distinctive key terms among its siblings, ranked as the
// search ranks a query's words (keyTerms.ts: IDF × (1 + ln repeats)), with the area's files as the
// repeats and its parent's files as the documents. A word every sibling has says nothing of this area.
import { keyTerms } from '../search/keyTerms';
import type { SurfaceWords } from './profiles';

/** Key terms kept per area; the name is the first few. */
const KEY_TERMS = 6;
const NAME_TERMS = 3;

/** The key terms (surface words) of an area whose files have `terms`, among the files of its parent. */
export function areaTerms(
  files: readonly string[],
  parentFiles: readonly string[],
  termsOf: (file: string) => ReadonlyMap<string, number>,
  surface: SurfaceWords,
): string[] {
  const df = new Map<string, number>();
  for (const f of parentFiles) for (const t of termsOf(f).keys()) df.set(t, (df.get(t) ?? 0) + 1);
  // Each file says each of its terms once: an area is about what many of its files say, not one file many times.
  const text = files.flatMap((f) => [...termsOf(f).keys()]).join(' ');
  const stats = { process: (t: string) => t, documentFrequency: (t: string) => df.get(t) ?? 0, documentCount: parentFiles.length };
  return keyTerms(text, stats)
    .slice(0, KEY_TERMS)
    .map((k) => surface.word(k.term));
}

export function areaName(terms: readonly string[]): string {
  return terms.slice(0, NAME_TERMS).join(', ') || '(unnamed)';
}
