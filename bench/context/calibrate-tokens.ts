// Calibrates completion's chars-per-token estimate (src/core/completion/tokens.ts) against a real
// BPE tokenizer: OpenAI's o200k_base through gpt-tokenizer (a dev dependency only). Code LLM
// tokenizers (Qwen2.5-Coder, DeepSeek-Coder, StarCoder2) are different BPE vocabularies of similar
// size; the figure is an estimate of their counts, not their exact count.
//
// What completion counts is the serialized context: every line behind a comment marker (`# `, `// `),
// which tokenizes differently from plain source (Python denser, TypeScript lighter). So the corpora
// are cut into 8,000-character chunks (about a 2,048-token context), commented the way fuse.ts does,
// and the figure kept is the 5th percentile of chars/token over chunks: 95% of contexts fit their
// budget in o200k tokens.
// Run: npx tsx bench/context/calibrate-tokens.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
// gpt-tokenizer's default encoding is o200k_base (GPT-4o and later).
import { encode } from 'gpt-tokenizer';

const corpora = path.join(__dirname, '..', '.corpora');
const sets: Record<string, { dirs: string[]; ext: RegExp; comment: string }> = {
  python: { dirs: ['flask', 'werkzeug', 'click', 'requests', 'django'], ext: /\.py$/, comment: '# ' },
  typescript: { dirs: ['effect', 'rxjs', 'zod'], ext: /\.ts$/, comment: '// ' },
};
const CHUNK = 8000;

function* files(dir: string, ext: RegExp): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(abs, ext);
    else if (ext.test(entry.name)) yield abs;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

for (const [language, { dirs, ext, comment }] of Object.entries(sets)) {
  const plain: number[] = [];
  const commented: number[] = [];
  let n = 0;
  for (const d of dirs) {
    for (const file of files(path.join(corpora, d), ext)) {
      n++;
      // Up to 40 KB per file so one huge module does not dominate.
      const text = fs.readFileSync(file, 'utf8').slice(0, 40000);
      for (let at = 0; at + CHUNK <= text.length; at += CHUNK) {
        const chunk = text.slice(at, at + CHUNK);
        plain.push(chunk.length / encode(chunk).length);
        const c = chunk.split('\n').map((l) => (l.trim() === '' ? comment.trimEnd() : comment + l)).join('\n');
        commented.push(c.length / encode(c).length);
      }
    }
  }
  plain.sort((a, b) => a - b);
  commented.sort((a, b) => a - b);
  const f = (xs: number[]) => `median ${percentile(xs, 50).toFixed(3)}, p5 ${percentile(xs, 5).toFixed(3)}`;
  console.log(`${language}: ${n} files, ${plain.length} chunks of ${CHUNK} chars; chars/token plain ${f(plain)}; commented ${f(commented)}`);
}
