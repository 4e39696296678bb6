// What the status-bar item says, as pure functions (no `vscode`): the index's progress as one figure
// that only grows across the indexer's phases (read → parse → resolve → store), and the completion
// state that the same item carries.
import { missingKeyText } from './endpointKeys';
import type { IndexState } from './workspaceIndex';

/**
 * Each phase's share of a folder's index. The counters of the phases differ (files read, files that
 * needed parsing, one step each for resolve and store), so shown raw they jumped 194/332 → 332/332 →
 * 80/332 → 0/1; weighted into one percentage they only go up.
 */
const PHASES: Record<string, { start: number; share: number; label: string }> = {
  scan: { start: 0, share: 0.02, label: 'finding files' },
  read: { start: 0.02, share: 0.18, label: 'reading files' },
  parse: { start: 0.2, share: 0.65, label: 'parsing' },
  resolve: { start: 0.85, share: 0.1, label: 'linking' },
  store: { start: 0.95, share: 0.05, label: 'saving' },
};

/** A folder's indexing state as a fraction of the whole index (0..1). */
export function indexFraction(state: Extract<IndexState, { kind: 'indexing' }>): number {
  const phase = PHASES[state.phase];
  if (!phase) return 0;
  const within = state.total > 0 ? Math.min(1, Math.max(0, state.done / state.total)) : 0;
  return phase.start + phase.share * within;
}

/** The plain-words name of an indexer phase ("parsing"), for tooltips. */
export function phaseLabel(phase: string): string {
  return PHASES[phase]?.label ?? phase;
}

/** A folder's state in words, for the tooltip and Show Index Status (the state object is an internal). */
export function indexStateText(s: IndexState): string {
  switch (s.kind) {
    case 'opening':
      return 'opening';
    case 'indexing':
      return s.total > 0 ? `indexing — ${phaseLabel(s.phase)} ${s.done} of ${s.total}` : `indexing — ${phaseLabel(s.phase)}`;
    case 'ready':
      return `ready — ${s.files} files, ${s.nodes} symbols and files, ${s.edges} links`;
    case 'error':
      return `stopped — ${s.message}`;
  }
}

/** Whole percent over all folders still opening or indexing (a folder that is opening counts as 0). */
export function indexPercent(states: readonly IndexState[]): number | undefined {
  const busy = states.filter((s) => s.kind === 'opening' || s.kind === 'indexing');
  if (busy.length === 0) return undefined;
  const sum = busy.reduce((n, s) => n + (s.kind === 'indexing' ? indexFraction(s) : 0), 0);
  return Math.floor((sum / busy.length) * 100);
}

/** What completion is doing, for the one Cartograph status-bar item. */
export type CompletionStatus =
  /** `why` says which of the two it is, so the hover never offers both readings next to the menu's toggle. */
  | { kind: 'off'; why?: 'switched off' | 'no endpoint' }
  | { kind: 'idle' }
  | { kind: 'busy' }
  /** The endpoint refused the key (401/403): the user has something to do. */
  | { kind: 'unauthorized'; message: string }
  /** The setting cannot work as written (an endpoint without a scheme). */
  | { kind: 'misconfigured'; message: string }
  /** The endpoint does not answer; requests back off and resume on their own. */
  | { kind: 'failing'; message: string };

/**
 * What a failed request means for the user, from its HTTP status (undefined: no answer at all).
 * `keylessOrigin`: the request went without a key because none is kept for that origin, which a
 * refusal then names, since a key set for another endpoint is not sent here.
 */
export function completionProblem(endpoint: string, httpStatus: number | undefined, error: string | undefined, keylessOrigin?: string): CompletionStatus {
  const detail = error ? ` (${error})` : '';
  const noKey = keylessOrigin && `: ${missingKeyText(keylessOrigin)}`;
  if (httpStatus === 401) return { kind: 'unauthorized', message: `${endpoint} answered 401 unauthorized${noKey || ': the API key is missing or wrong'}` };
  if (httpStatus === 403) return { kind: 'unauthorized', message: `${endpoint} answered 403 forbidden${noKey || ': the API key may not use this model'}` };
  if (httpStatus === 404) return { kind: 'failing', message: `${endpoint} answered 404 not found: check the endpoint's path (usually ending in /v1) and cartograph.completion.model${detail}` };
  if (httpStatus !== undefined) return { kind: 'failing', message: `${endpoint} answered HTTP ${httpStatus}${detail}; retrying with back-off` };
  return { kind: 'failing', message: `${endpoint} is not answering${detail}; retrying with back-off` };
}

/** The hover's completion line when completion is off, saying why (the menu below the hover holds the toggle). */
export function offLine(why: 'switched off' | 'no endpoint' | undefined): string {
  if (why === 'switched off') return 'Completion: switched off (Turn Completions On in the menu)';
  if (why === 'no endpoint') return 'Completion: no server set (Open Settings: Cartograph › Completion: Endpoint)';
  return 'Completion: off';
}
