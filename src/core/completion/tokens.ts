// Token counts for the context budget without shipping a tokenizer: characters per token measured
// per language with a real BPE tokenizer (o200k_base via gpt-tokenizer) over the benchmark corpora
// by bench/context/calibrate-tokens.ts (python: 957 files, 4.562 chars/token; typescript: 614
// files, 3.649). Code-model vocabularies (Qwen2.5-Coder, DeepSeek-Coder, StarCoder2, CodeLlama)
// split code into somewhat more tokens than o200k, so the budget is an estimate, not a hard limit.
import type { Language } from '../graph/schema';

const CHARS_PER_TOKEN: Record<Language, number> = {
  python: 4.56,
  typescript: 3.65,
  tsx: 3.65,
  javascript: 3.65,
};

export function estimateTokens(text: string, language: Language): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN[language]);
}
