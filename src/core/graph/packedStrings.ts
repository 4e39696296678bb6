// Columns of strings read where they lie: UTF-8 bytes, where each string starts, and optionally a hash
// table from a string to its position. The query snapshot keeps the graph's names and the entity index's
// keys this way, so a one-shot query decodes the few strings it reads instead of parsing tens of MB of
// JSON first (at a million lines that parse and its garbage were most of a name lookup).
//
// A packed buffer is 32-bit integers in the machine's byte order (the snapshot's format names it):
//   [columns] then per column [count, bytes, slots, offsets (count + 1), slots (slots), UTF-8 (padded to 4)]
// A slot holds a position + 1 (0: empty); a string's slot is found by linear probing from its hash.

/** A string column read in place. Every offset and slot was checked when it was opened: reads cannot fail. */
export class PackedColumn {
  private constructor(
    readonly length: number,
    private readonly offsets: Int32Array,
    private readonly slots: Int32Array,
    private readonly bytes: Buffer,
  ) {}

  /** The i-th string (0 ≤ i < length), decoded afresh. */
  at(i: number): string {
    return this.bytes.toString('utf8', this.offsets[i], this.offsets[i + 1]);
  }

  /** Every string, in order. */
  all(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.at(i);
    return out;
  }

  /** The position of `value`, or -1; only for columns packed with an index. */
  indexOf(value: string): number {
    const mask = this.slots.length - 1;
    if (mask < 0) throw new Error('this column has no index');
    for (let slot = hash(value) & mask; ; slot = (slot + 1) & mask) {
      const at = this.slots[slot] - 1;
      if (at < 0) return -1;
      if (this.at(at) === value) return at;
    }
  }

  /** The columns of a buffer made by {@link packColumns}; throws when they do not fit together (damage). */
  static read(packed: Buffer): PackedColumn[] {
    if (packed.length % 4 !== 0) throw new Error('packed strings are damaged');
    const buffer = aligned(packed);
    const ints = new Int32Array(buffer.buffer, buffer.byteOffset, buffer.length / 4);
    const columns: PackedColumn[] = [];
    let at = 1;
    for (let c = 0; c < ints[0]; c++) {
      const [count, byteLength, slotCount] = [ints[at], ints[at + 1], ints[at + 2]];
      const words = Math.ceil(byteLength / 4);
      const valid = count >= 0 && byteLength >= 0 && slotCount >= 0 && (slotCount & (slotCount - 1)) === 0 && slotCount !== 1 && at + 3 + count + 1 + slotCount + words <= ints.length;
      if (!valid) throw new Error(`packed column ${c} is damaged`);
      at += 3;
      const offsets = ints.subarray(at, (at += count + 1));
      const slots = ints.subarray(at, (at += slotCount));
      const bytes = buffer.subarray(at * 4, at * 4 + byteLength);
      at += words;
      if (offsets[0] !== 0 || offsets[count] !== byteLength) throw new Error(`packed column ${c} is damaged`);
      for (let i = 0; i < count; i++) if (offsets[i] > offsets[i + 1]) throw new Error(`packed column ${c} is damaged`);
      // One slot per string, so that an empty one is left to end a probe for a string the column lacks.
      let filled = 0;
      for (let i = 0; i < slotCount; i++) {
        if (slots[i] < 0 || slots[i] > count) throw new Error(`packed column ${c} is damaged`);
        if (slots[i] > 0) filled++;
      }
      if (slotCount > 0 && (filled !== count || slotCount <= count)) throw new Error(`packed column ${c} is damaged`);
      columns.push(new PackedColumn(count, offsets, slots, bytes));
    }
    if (at !== ints.length) throw new Error('packed strings have bytes left over');
    return columns;
  }
}

/** Packs columns of strings; `indexed` columns get a hash table for {@link PackedColumn.indexOf} (their strings must be distinct). */
export function packColumns(columns: ReadonlyArray<{ values: readonly string[]; indexed?: boolean }>): Buffer {
  const parts: Buffer[] = [ints([columns.length])];
  for (const { values, indexed } of columns) {
    const offsets = new Int32Array(values.length + 1);
    for (let i = 0; i < values.length; i++) offsets[i + 1] = offsets[i] + Buffer.byteLength(values[i], 'utf8');
    const byteLength = offsets[values.length];
    // Written in place: millions of keys as a Buffer each were most of a save's garbage.
    const bytes = Buffer.allocUnsafe(byteLength);
    values.forEach((value, i) => bytes.write(value, offsets[i], 'utf8'));
    const slots = new Int32Array(indexed ? slotCountFor(values.length) : 0);
    const mask = slots.length - 1;
    if (indexed) {
      values.forEach((value, i) => {
        let slot = hash(value) & mask;
        while (slots[slot] !== 0) slot = (slot + 1) & mask;
        slots[slot] = i + 1;
      });
    }
    const padding = Buffer.alloc((4 - (byteLength % 4)) % 4);
    parts.push(ints([values.length, byteLength, slots.length]), asBuffer(offsets), asBuffer(slots), bytes, padding);
  }
  return Buffer.concat(parts);
}

/** A power of two at least twice the count (probes stay short), never 1. */
function slotCountFor(count: number): number {
  let slots = 2;
  while (slots < count * 2) slots *= 2;
  return slots;
}

/** FNV-1a over the UTF-16 code units: the same on both sides, with no encoding of the value needed. */
function hash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `buffer` where its 32-bit integers can be read in place (a copy when it starts between two). */
export function aligned(buffer: Buffer): Buffer {
  if (buffer.byteOffset % 4 === 0) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

function ints(values: number[]): Buffer {
  return asBuffer(Int32Array.from(values));
}

function asBuffer(array: Int32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}
