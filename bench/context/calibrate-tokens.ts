// Calibrates completion's chars-per-token estimate (src/core/completion/tokens.ts) against a real
// BPE tokenizer: OpenAI's o200k_base through gpt-tokenizer (a dev dependency only). Code LLM
// tokenizers (Qwen2.5-Coder, DeepSeek-Coder, StarCoder2) are different BPE vocabularies of similar
// size; the figure is an estimate of their counts, not their exact count.
// Run: npx tsx bench/context/calibrate-tokens.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
// gpt-tokenizer's default encoding is o200k_base (GPT-4o and later).
import { encode } from 'gpt-tokenizer';

const corpora = path.join(__dirname, '..', '.corpora');
const sets: Record<string, { dirs: string[]; ext: RegExp }> = {
  python: { dirs: ['flask', 'werkzeug', 'click', 'requests', 'django'], ext: /\.py$/ },
  typescript: { dirs: ['effect', 'rxjs'], ext: /\.ts$/ },
};

function* files(dir: string, ext: RegExp): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(abs, ext);
    else if (ext.test(entry.name)) yield abs;
  }
}

for (const [language, { dirs, ext }] of Object.entries(sets)) {
  let chars = 0;
  let tokens = 0;
  let n = 0;
  for (const d of dirs) {
    for (const file of files(path.join(corpora, d), ext)) {
      // Sample up to 40 KB per file so one huge module does not dominate.
      const text = fs.readFileSync(file, 'utf8').slice(0, 40000);
      chars += text.length;
      tokens += encode(text).length;
      n++;
    }
  }
  console.log(`${language}: ${n} files, ${chars} chars, ${tokens} tokens, ${(chars / tokens).toFixed(3)} chars/token`);
}
