// Token counts for the completion prompt, in real BPE tokens: o200k_base (GPT-4o's vocabulary). A
// chars-per-token constant cannot keep a budget: per-context chars/token ran from 3.3 to 4.3 over the
// corpora, so a constant at the 5th percentile (3.4) still let one zod context reach 2,430 tokens of
// 2,048 and left most contexts 10-30% under their budget. Counting for real keeps every context within
// its budget and every prompt within its window, and spends the budget.
//
// Why o200k: it is what bench:context measures with, and the tokenizer of no code model is
// shippable here. Local code models' vocabularies (Qwen2.5-Coder's is a cl100k descendant,
// DeepSeek-Coder and StarCoder2 are smaller) count code within some 10-20% of it: window.ts keeps
// headroom for that.
//
// The encoding is read on first use, not at import (o200k.ts: a packed table, a few milliseconds).
import { O200k } from './o200k';

let encoding: O200k | undefined;

/**
 * At least as many tokens as `text` has, by any count here (countTokens, blockTokens), without the
 * encoding: a byte-level BPE token is one byte or more, and blockTokens adds at most one line break.
 */
export function tokenBound(text: string): number {
  return Buffer.byteLength(text, 'utf8') + 1;
}

/** Exact o200k tokens of `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : (encoding ??= O200k.read()).count(text);
}

/** Per-line counts remembered across requests: the same buffer lines and snippet lines recur on every keystroke. */
const LINE_CACHE_LIMIT = 50_000;
const lineCache = new Map<string, number>();

/**
 * Tokens of one line and the line break after it. Lines joined by '\n' split into BPE pre-tokens at
 * the break (the break is a pre-token of its own, or joins the whitespace before it), so a text's
 * count is the sum of its lines' counts, or a little less where blank lines merge: summing lines is
 * exact enough to cut a buffer by, and never undercounts in practice (window.ts checks the result).
 */
export function lineTokens(line: string): number {
  let n = lineCache.get(line);
  if (n === undefined) {
    n = countTokens(`${line}\n`);
    if (lineCache.size >= LINE_CACHE_LIMIT) lineCache.delete(lineCache.keys().next().value!);
    lineCache.set(line, n);
  }
  return n;
}

/** Tokens of a block of lines (each counted with its line break), from the per-line cache. */
export function blockTokens(text: string): number {
  let n = 0;
  for (const line of (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')) n += lineTokens(line);
  return n;
}
