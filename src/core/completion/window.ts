// The whole prompt inside the model's context window. Sending the file untruncated made the median
// prompt 11k tokens on jinja2 and up to 54k on sqlalchemy; a local server with a 4k-8k window then
// cuts from the front, which is exactly where the repository context sits. So the window is split
// before anything is sent: the answer first, then repository context, the code before the cursor
// (the nearest lines matter most) and the code after it. Counted in real tokens (tokens.ts).
import { countTokens, lineTokens } from './tokens';

/** Ollama's default window is 2k-8k depending on version; llama.cpp servers are often started with 4k-8k. */
export const DEFAULT_CONTEXT_WINDOW = 8192;

/** Counts are o200k tokens; code models' vocabularies count the same code up to some 10-20% higher: a tenth of the window stays free. */
const HEADROOM = 0.9;
/** FIM sentinels and the chat fallback's instructions. */
const TEMPLATE_TOKENS = 64;
/** Repository context takes at most this share of what the answer and template leave. */
const CONTEXT_SHARE = 0.3;
/** The code before the cursor gets this share of what context leaves; the suffix the rest (and what the prefix does not use). */
const PREFIX_SHARE = 0.75;

export interface WindowPlan {
  /** Tokens the repository context may use (never more than asked). */
  contextTokens: number;
  /** The buffer before the cursor, cut from the front at a line start when too long. */
  prefix: string;
  /** The buffer after the cursor, cut at a line end when too long. */
  suffix: string;
}

export interface WindowRequest {
  prefix: string;
  suffix: string;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Tokens the answer may use (the request's max_tokens). */
  answerTokens: number;
  /** Tokens of repository context wanted (the `budgetTokens` setting). */
  contextBudget: number;
}

/** Splits the window; the prompt built from the plan (context + prefix + suffix + template + answer) fits `contextWindow`. */
export function planWindow(req: WindowRequest): WindowPlan {
  const available = Math.max(0, Math.floor(req.contextWindow * HEADROOM) - req.answerTokens - TEMPLATE_TOKENS);
  const contextTokens = Math.max(0, Math.min(req.contextBudget, Math.floor(available * CONTEXT_SHARE)));
  const code = available - contextTokens;
  // The suffix gets its share, or less when it is short; the prefix everything else.
  const suffixWanted = keepStart(req.suffix, Math.floor(code * (1 - PREFIX_SHARE))).tokens;
  const prefix = keepEnd(req.prefix, code - suffixWanted);
  const suffix = keepStart(req.suffix, code - prefix.tokens);
  return { contextTokens, prefix: prefix.text, suffix: suffix.text };
}

interface Kept {
  text: string;
  /** Its tokens, counted line by line (at least the exact count in practice; see lineTokens). */
  tokens: number;
}

/** The longest tail of `text` within `tokens`, starting at a line start; the cursor's own line, when it alone is over, keeps its end. */
function keepEnd(text: string, tokens: number): Kept {
  const lines = text.split('\n');
  let used = 0;
  let first = lines.length;
  while (first > 0 && used + lineTokens(lines[first - 1]) <= tokens) used += lineTokens(lines[--first]);
  if (first === lines.length) return tailWithin(lines[lines.length - 1], tokens);
  return { text: lines.slice(first).join('\n'), tokens: used };
}

/** The longest head of `text` within `tokens`, ending at a line end. */
function keepStart(text: string, tokens: number): Kept {
  const lines = text.split('\n');
  let used = 0;
  let end = 0;
  while (end < lines.length && used + lineTokens(lines[end]) <= tokens) used += lineTokens(lines[end++]);
  if (end === lines.length) return { text, tokens: used };
  return { text: lines.slice(0, end).map((l) => `${l}\n`).join(''), tokens: used };
}

/** The longest end of one over-long line (a minified bundle's) within `tokens`, by bisection on its length. */
function tailWithin(line: string, tokens: number): Kept {
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(line.slice(line.length - mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  const text = line.slice(line.length - lo);
  return { text, tokens: countTokens(text) };
}
