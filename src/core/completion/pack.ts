// GRACE phase 2, second half: merged candidates (graph and similar code) are chosen greedily by
// maximal marginal relevance — λ·relevance − (1−λ)·(highest similarity to what is already chosen) —
// so five near-identical windows do not crowd out the definition the cursor needs; each pick takes
// its richest rendering that still fits the token budget.
import { codeTerms } from './codeWindows';
import type { Rendering } from './snippets';
import type { Triple } from './structural';

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
}

export function packContext(candidates: Candidate[], options: PackOptions): Chosen[] {
  const terms = new Map(candidates.map((c) => [c.key, new Set(codeTerms(c.renderings[0].code))]));
  const remaining = [...candidates];
  const chosen: Chosen[] = [];
  const maxSim = new Map<string, number>(candidates.map((c) => [c.key, 0]));
  let used = 0;
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
    // Coverage first: every pick enters in its most compact form.
    const compact = pick.renderings[pick.renderings.length - 1];
    const tokens = options.cost(pick, compact, chosen);
    if (used + tokens > options.budgetTokens) continue;
    chosen.push({ candidate: pick, rendering: compact, tokens });
    used += tokens;
    const picked = terms.get(pick.key)!;
    for (const c of remaining) maxSim.set(c.key, Math.max(maxSim.get(c.key)!, jaccard(picked, terms.get(c.key)!)));
  }
  // Then depth: the most relevant picks get their richer renderings while the budget lasts.
  const byRelevance = [...chosen].sort((a, b) => b.candidate.relevance - a.candidate.relevance);
  for (const ch of byRelevance) {
    for (const rendering of ch.candidate.renderings.slice(0, -1)) {
      const others = chosen.filter((o) => o !== ch);
      const tokens = options.cost(ch.candidate, rendering, others);
      if (used - ch.tokens + tokens > options.budgetTokens) continue;
      used += tokens - ch.tokens;
      ch.rendering = rendering;
      ch.tokens = tokens;
      break;
    }
  }
  return chosen;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return common / (a.size + b.size - common);
}
