// o200k_base (GPT-4o's byte-pair encoding) token counts from the packed rank table the build writes
// (scripts/o200kTable.mjs → dist/o200k.bin). gpt-tokenizer's encoding gives the same counts but costs
// 0.35 s to load (2.4 MB of JavaScript turned into a Map of 200,000 strings, then a major GC) in every
// process that counts a token: an agent's first repo_overview, the editor's first completion. The
// table is read as it is (2.2 MB) and hashed into an open-addressing index in a few milliseconds.
//
// Counting is tiktoken's: split the text into pieces with o200k's pre-tokenizer, then each piece is one
// token if its UTF-8 bytes are one, else its bytes are merged pairwise, lowest rank first, until no
// adjacent pair is a token; the piece counts as the parts left. test/unit/o200k.test.ts checks the
// counts against gpt-tokenizer's on real code and on text that exercises every branch of the pattern.
import * as fs from 'node:fs';
import * as path from 'node:path';

const TABLE_FILE = 'o200k.bin';
const MAGIC = 0x314b324f; // 'O2K1' (scripts/o200kTable.mjs)

// o200k_base's pre-tokenizer (tiktoken's pat_str). JavaScript has no inline `(?i:…)`: the contractions'
// case-insensitivity is spelled out, as gpt-tokenizer does.
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const PIECES = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}*${LOWER}+${CONTRACTION}`,
    String.raw`[^\r\n\p{L}\p{N}]?${UPPER}+${LOWER}*${CONTRACTION}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'gu',
);

const NONE = 0x7fffffff; // the rank of a pair that is no token: merged never
const MERGED_LIMIT = 50_000;

/** The table's directory: beside the running bundle (dist/), or dist/ above the sources when run from them. */
function findTable(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, TABLE_FILE), path.join(dir, 'dist', TABLE_FILE)]) if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`Cartograph: the o200k token table (${TABLE_FILE}) is missing above ${start}; \`npm run build\` writes it`);
  }
}

export class O200k {
  /** rank + 1 at each slot of an open-addressing table keyed by the token's bytes (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private scratch = new Uint8Array(256);
  private starts = new Int32Array(256);
  private pairRank = new Int32Array(256);
  private readonly encoder = new TextEncoder();
  /** Counts of pieces that needed merging: code repeats its identifiers. Emptied when full. */
  private readonly merged = new Map<string, number>();

  private constructor(
    private readonly offsets: Uint32Array,
    private readonly bytes: Uint8Array,
  ) {
    const n = offsets.length - 1;
    let size = 1;
    while (size < n * 2.5) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let r = 0; r < n; r++) {
      const s = offsets[r];
      const e = offsets[r + 1];
      if (s === e) continue; // an unused rank
      let h = hash(bytes, s, e) & this.mask;
      while (this.slots[h] !== 0) h = (h + 1) & this.mask;
      this.slots[h] = r + 1;
    }
  }

  static read(file = findTable()): O200k {
    const data = fs.readFileSync(file);
    // Uint32Array views need an aligned start: a fresh read is, a pooled one may not be.
    const buf = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
    const head = new Uint32Array(buf.buffer, buf.byteOffset, 2);
    if (head[0] !== MAGIC) throw new Error(`Cartograph: ${file} is not an o200k token table`);
    const n = head[1];
    const offsets = new Uint32Array(buf.buffer, buf.byteOffset + 8, n + 1);
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset + 8 + 4 * (n + 1), offsets[n]);
    return new O200k(offsets, bytes);
  }

  /** Tokens of `text`; special tokens (`<|endoftext|>`) are counted as the text they are. */
  count(text: string): number {
    let n = 0;
    for (const [piece] of text.matchAll(PIECES)) n += this.pieceTokens(piece);
    return n;
  }

  private pieceTokens(piece: string): number {
    if (this.scratch.length < piece.length * 3) this.scratch = new Uint8Array(piece.length * 3);
    const length = this.encoder.encodeInto(piece, this.scratch).written;
    if (this.rank(this.scratch, 0, length) !== NONE) return 1;
    let n = this.merged.get(piece);
    if (n === undefined) {
      if (this.merged.size >= MERGED_LIMIT) this.merged.clear();
      this.merged.set(piece, (n = this.mergedParts(this.scratch, length)));
    }
    return n;
  }

  /**
   * Parts left after merging `piece[0, length)` pairwise, lowest-ranked pair first (tiktoken's
   * byte_pair_merge). starts[i] is where part i begins; pairRank[i] the rank of parts i and i+1 together.
   */
  private mergedParts(piece: Uint8Array, length: number): number {
    if (this.starts.length <= length) {
      this.starts = new Int32Array(length + 1);
      this.pairRank = new Int32Array(length + 1);
    }
    const { starts, pairRank } = this;
    for (let i = 0; i <= length; i++) starts[i] = i;
    let parts = length; // starts[parts] === length closes the last part
    const rankOf = (i: number) => (i + 2 <= parts ? this.rank(piece, starts[i], starts[i + 2]) : NONE);
    for (let i = 0; i < parts; i++) pairRank[i] = rankOf(i);
    for (;;) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i + 1 < parts; i++)
        if (pairRank[i] < best) {
          best = pairRank[i];
          at = i;
        }
      if (at < 0) return parts;
      starts.copyWithin(at + 1, at + 2, parts + 1);
      pairRank.copyWithin(at + 1, at + 2, parts);
      parts--;
      pairRank[at] = rankOf(at);
      if (at > 0) pairRank[at - 1] = rankOf(at - 1);
    }
  }

  /** The rank of the token whose bytes are `buf[s, e)`, or NONE. */
  private rank(buf: Uint8Array, s: number, e: number): number {
    const { slots, offsets, bytes, mask } = this;
    const length = e - s;
    for (let h = hash(buf, s, e) & mask; ; h = (h + 1) & mask) {
      const r = slots[h] - 1;
      if (r < 0) return NONE;
      const at = offsets[r];
      if (offsets[r + 1] - at !== length) continue;
      let i = 0;
      while (i < length && bytes[at + i] === buf[s + i]) i++;
      if (i === length) return r;
    }
  }
}

/** FNV-1a over `buf[s, e)`. */
function hash(buf: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}
