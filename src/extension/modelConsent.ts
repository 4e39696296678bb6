// Whether search models may be downloaded, without `vscode`: the `cartograph.search.downloadModels`
// setting ("ask", "always", "never") and the answer the user gave to the one question ("ask" asks once
// per machine; the answer is remembered in global state). Nothing is fetched before that.

export type DownloadSetting = 'ask' | 'always' | 'never';
/** What the user answered: remembered ('always', 'never') or for this window only ('not-now'). */
export type DownloadAnswer = 'always' | 'never' | 'not-now';

export function downloadSetting(value: unknown): DownloadSetting {
  return value === 'always' || value === 'never' ? value : 'ask';
}

/** 'download', 'skip' (with why, for the status line) or 'ask' the user first. */
export function downloadDecision(setting: DownloadSetting, answer: DownloadAnswer | undefined): { kind: 'download' } | { kind: 'skip'; why: string } | { kind: 'ask' } {
  if (setting === 'always') return { kind: 'download' };
  if (setting === 'never') return { kind: 'skip', why: 'downloads are off (cartograph.search.downloadModels is "never")' };
  if (answer === 'always') return { kind: 'download' };
  if (answer === 'never') return { kind: 'skip', why: 'you chose not to download the search models (set cartograph.search.downloadModels to "always" to change it)' };
  if (answer === 'not-now') return { kind: 'skip', why: 'the search models were not downloaded ("Not now"; asked again in the next window)' };
  return { kind: 'ask' };
}
