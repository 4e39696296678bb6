// The key of the inline completion cache, without `vscode`. The same text asked of another endpoint,
// model or prompt shape is another question: keyed by text alone, a switched model kept answering
// with the old one's completions.
import type { CompletionSettings } from './settingsValues';

/** Characters of prefix and suffix that make two requests the same for the cache. */
const CACHE_PREFIX = 2000;
const CACHE_SUFFIX = 500;

export function cacheKey(uri: string, settings: Pick<CompletionSettings, 'endpoint' | 'assemble'>, prefix: string, suffix: string): string {
  const e = settings.endpoint;
  return [e.endpoint, e.model, e.promptFormat, e.contextWindow, settings.assemble.budgetTokens, settings.assemble.mmrLambda, uri, prefix.slice(-CACHE_PREFIX), suffix.slice(0, CACHE_SUFFIX)].join('\u0000');
}
