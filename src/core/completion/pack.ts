// GRACE phase 2, second half: merged candidates (graph and similar code) are chosen greedily by
// maximal marginal relevance — λ·relevance − (1−λ)·(highest similarity to what is already chosen) —
// so five near-identical windows do not crowd out the definition the cursor needs; each pick takes
// its richest rendering that still fits the token budget. No source line is shown twice: overlapping
// windows of one file, a member next to its own class skeleton and repeated docstrings are cut to
// what the other snippets do not already show.
import { codeTerms } from './codeWindows';
import { outlineTextKey, withoutShown, type Rendering } from './snippets';
import type { Triple } from './structural';

/**
 * A similar-code window (a guess, ranked below graph evidence) whose lines repeat text the context
 * already shows beyond this share is left out for the next candidate: what repeats is boilerplate
 * (an import block, `} else {`, the same deprecation comment over each overload, a sibling
 * operator's skeleton), not the specific code a window is there for. Windows were 0.7-0.9 of the
 * lines whose text repeated in a context (2.1-6.6% of its snippet lines); at 0.15 that is under 2%.
 */
const MAX_WINDOW_REPEATS = 0.15;

export interface Candidate {
  key: string;
  path: string;
  /** How the snippet is titled in the prompt: `flask/scaffold.py: Scaffold`. */
  title: string;
  origin: 'graph' | 'similar';
  relevance: number;
  renderings: Rendering[];
  triples: Triple[];
}

export interface Chosen {
  candidate: Candidate;
  rendering: Rendering;
  tokens: number;
}

export interface PackOptions {
  budgetTokens: number;
  /** 1: relevance only; 0: diversity only. */
  lambda: number;
  /** Tokens `rendering` of `candidate` adds to the serialized context, given what is chosen already. */
  cost(candidate: Candidate, rendering: Rendering, chosen: readonly Chosen[]): number;
  /** Called for each candidate that had something to show but did not fit the budget even at its most compact. */
  overBudget?(candidate: Candidate): void;
}

export function packContext(candidates: Candidate[], options: PackOptions): Chosen[] {
  const terms = new Map(candidates.map((c) => [c.key, new Set(codeTerms(c.renderings[0].code))]));
  const remaining = [...candidates];
  const chosen: Chosen[] = [];
  const maxSim = new Map<string, number>(candidates.map((c) => [c.key, 0]));
  let used = 0;
  // What the picks so far show (source lines; text of meaningful lines), kept up to date pick by pick (the coverage phase is the hot loop).
  const shown = new Map<string, 'code' | 'outline'>();
  const shownText = new Set<string>();
  while (remaining.length > 0) {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const c = remaining[i];
      const score = options.lambda * c.relevance - (1 - options.lambda) * maxSim.get(c.key)!;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const [pick] = remaining.splice(best, 1);
    // Coverage first: every pick enters in its most compact form, less what is already shown.
    const compact = withoutShown(pick.renderings[pick.renderings.length - 1], pick.path, shown);
    if (!compact) continue;
    if (pick.origin === 'similar' && repeatedShare(compact, shownText) > MAX_WINDOW_REPEATS) continue;
    const tokens = options.cost(pick, compact, chosen);
    if (used + tokens > options.budgetTokens) {
      options.overBudget?.(pick);
      continue;
    }
    chosen.push({ candidate: pick, rendering: compact, tokens });
    addShown(shown, pick.path, compact);
    for (const line of meaningfulLines(compact.code)) shownText.add(line);
    used += tokens;
    const picked = terms.get(pick.key)!;
    for (const c of remaining) maxSim.set(c.key, Math.max(maxSim.get(c.key)!, jaccard(picked, terms.get(c.key)!)));
  }
  // Then depth: the most relevant picks get their richer renderings while the budget lasts.
  const byRelevance = [...chosen].sort((a, b) => b.candidate.relevance - a.candidate.relevance);
  for (const ch of byRelevance) {
    for (const richer of ch.candidate.renderings.slice(0, -1)) {
      const others = chosen.filter((o) => o !== ch);
      const rendering = withoutShown(richer, ch.candidate.path, shownLines(others));
      if (!rendering) continue;
      const tokens = options.cost(ch.candidate, rendering, others);
      if (used - ch.tokens + tokens > options.budgetTokens) continue;
      used += tokens - ch.tokens;
      ch.rendering = rendering;
      ch.tokens = tokens;
      break;
    }
  }
  // Outlines chosen before the verbatim code of the same lines give those lines up.
  for (const ch of chosen) {
    if (!ch.rendering.outline) continue;
    const others = chosen.filter((o) => o !== ch && !o.rendering.outline);
    const trimmed = withoutShown(ch.rendering, ch.candidate.path, shownLines(others));
    if (trimmed === ch.rendering) continue;
    ch.rendering = trimmed ?? { ...ch.rendering, code: '', lines: [] };
    ch.tokens = trimmed ? options.cost(ch.candidate, trimmed, others) : 0;
  }
  return chosen.filter((ch) => ch.rendering.code !== '');
}

/** Source lines the chosen renderings show (`path:line`), verbatim or as an outline. */
function shownLines(chosen: readonly Chosen[]): Map<string, 'code' | 'outline'> {
  const shown = new Map<string, 'code' | 'outline'>();
  for (const ch of chosen) addShown(shown, ch.candidate.path, ch.rendering);
  return shown;
}

function addShown(shown: Map<string, 'code' | 'outline'>, path: string, rendering: Rendering): void {
  const code = rendering.outline ? rendering.code.split('\n') : [];
  for (const [i, line] of (rendering.lines ?? []).entries()) {
    if (line === null) {
      // A skeleton's `… 14 more` line: a second skeleton showing the same one names its owner (withoutShown).
      if (rendering.namedMarker !== undefined) shown.set(outlineTextKey(code[i]), 'outline');
      continue;
    }
    if (rendering.outline) shown.set(outlineTextKey(code[i]), 'outline');
    const key = `${rendering.lineFiles?.[i] ?? path}:${line}`;
    if (!rendering.outline) shown.set(key, 'code');
    else if (!shown.has(key)) shown.set(key, 'outline');
  }
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return common / (a.size + b.size - common);
}

/** Lines long enough to say something (`)`, `}`, `end` repeat everywhere and cost next to nothing), trimmed. */
function meaningfulLines(code: string): string[] {
  return code
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 3);
}

/** The share of a rendering's meaningful lines whose text the context (or the rendering itself, above them) already shows. */
function repeatedShare(rendering: Rendering, shownText: ReadonlySet<string>): number {
  const lines = meaningfulLines(rendering.code);
  const seen = new Set<string>();
  let repeated = 0;
  for (const l of lines) {
    if (shownText.has(l) || seen.has(l)) repeated++;
    seen.add(l);
  }
  return lines.length === 0 ? 0 : repeated / lines.length;
}
