// Writes dist/o200k.bin: o200k_base's byte-pair ranks packed for src/core/completion/o200k.ts, from
// gpt-tokenizer's ranks (a build-time dependency). Loading gpt-tokenizer's encoding at run time parses
// 2.4 MB of JavaScript and fills a Map of 200,000 strings (0.35 s and a major GC in every process that
// counts a token); this file is read as it is and indexed in a few milliseconds.
//
// Layout, little-endian: u32 magic 'O2K1', u32 n (ranks), u32 offsets[n + 1] (rank r's bytes are
// bytes[offsets[r], offsets[r + 1]); an unused rank is empty), then the bytes.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const O200K_MAGIC = 0x314b324f; // 'O2K1' read as a little-endian u32

export function writeO200kTable(file) {
  const require = createRequire(import.meta.url);
  /** @type {(string | number[] | undefined)[]} */
  const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;
  const tokens = ranks.map((t) => (t === undefined ? Buffer.alloc(0) : typeof t === 'string' ? Buffer.from(t, 'utf8') : Buffer.from(t)));
  const header = new Uint32Array(2 + tokens.length + 1);
  header[0] = O200K_MAGIC;
  header[1] = tokens.length;
  let at = 0;
  tokens.forEach((t, r) => {
    header[2 + r] = at;
    at += t.length;
  });
  header[2 + tokens.length] = at;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, Buffer.concat([Buffer.from(header.buffer), ...tokens]));
  return tokens.length;
}
