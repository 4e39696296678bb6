// The whole prompt inside the model's context window. Sending the file untruncated made the median
// prompt 11k tokens on jinja2 and up to 54k on sqlalchemy; a local server with a 4k-8k window then
// cuts from the front, which is exactly where the repository context sits. So the window is split
// before anything is sent: the answer first, then repository context, the code before the cursor
// (the nearest lines matter most) and the code after it.
import type { Language } from '../graph/schema';
import { estimateTokens } from './tokens';

/** Ollama's default window is 2k-8k depending on version; llama.cpp servers are often started with 4k-8k. */
export const DEFAULT_CONTEXT_WINDOW = 8192;

/**
 * Estimates are calibrated on contexts (about 95% fit); plain TypeScript source runs denser (5th
 * percentile 2.99 chars per o200k token against the estimate's 3.4), and code models' vocabularies
 * differ from o200k: a tenth of the window stays free.
 */
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
  language: Language;
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
  const suffixTokens = estimateTokens(req.suffix, req.language);
  // The suffix gets its share, or less when it is short; the prefix everything else.
  const suffixBudget = Math.min(suffixTokens, Math.floor(code * (1 - PREFIX_SHARE)));
  const prefix = keepEnd(req.prefix, code - suffixBudget, req.language);
  const prefixUsed = estimateTokens(prefix, req.language);
  const suffix = keepStart(req.suffix, code - prefixUsed, req.language);
  return { contextTokens, prefix, suffix };
}

/** The longest tail of `text` within `tokens`, starting at a line start (the cursor's own line always kept whole up to the cursor, if it fits at all). */
function keepEnd(text: string, tokens: number, language: Language): string {
  if (estimateTokens(text, language) <= tokens) return text;
  if (tokens <= 0) return '';
  let start = Math.max(0, text.length - Math.floor(tokens * charsPerTokenOf(language)));
  const lineStart = text.indexOf('\n', start - 1);
  if (lineStart >= 0 && lineStart < text.length - 1) start = lineStart + 1;
  let out = text.slice(start);
  while (out.length > 0 && estimateTokens(out, language) > tokens) out = out.slice(Math.max(1, out.indexOf('\n') + 1));
  return out;
}

/** The longest head of `text` within `tokens`, ending at a line end. */
function keepStart(text: string, tokens: number, language: Language): string {
  if (estimateTokens(text, language) <= tokens) return text;
  if (tokens <= 0) return '';
  let out = text.slice(0, Math.floor(tokens * charsPerTokenOf(language)));
  const lineEnd = out.lastIndexOf('\n');
  if (lineEnd > 0) out = out.slice(0, lineEnd + 1);
  while (out.length > 0 && estimateTokens(out, language) > tokens) out = out.slice(0, out.lastIndexOf('\n', out.length - 2) + 1);
  return out;
}

/** The estimate's characters per token, read back from estimateTokens so the two never disagree. */
function charsPerTokenOf(language: Language): number {
  return 10000 / estimateTokens('x'.repeat(10000), language);
}
