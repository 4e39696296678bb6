// Columnar encode/decode between plain JS arrays and Arrow data, written by hand because the generic
// builders (`vectorFromArray`, row objects through `makeArrowTable`) are several times slower on the
// 200k-row tables a full index writes, and the row proxies of `toArray()` are slower still to read.
import {
  Bool,
  Data,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table as ArrowTable,
  Utf8,
} from 'apache-arrow';

type Bitmap = Uint8Array | null;

function validityBitmap(length: number, isValid: (i: number) => boolean): { bitmap: Bitmap; nullCount: number } {
  let nullCount = 0;
  let bitmap: Uint8Array | null = null;
  for (let i = 0; i < length; i++) {
    if (!isValid(i)) {
      if (bitmap === null) {
        bitmap = new Uint8Array((length + 7) >> 3);
        // Everything before the first null was valid.
        for (let j = 0; j < i; j++) bitmap[j >> 3] |= 1 << (j & 7);
      }
      nullCount++;
    } else if (bitmap !== null) {
      bitmap[i >> 3] |= 1 << (i & 7);
    }
  }
  return { bitmap, nullCount };
}

/** UTF-8 column; `null` entries become nulls (the field must then be nullable). */
export function utf8Data(values: readonly (string | null)[]): Data<Utf8> {
  const length = values.length;
  const offsets = new Int32Array(length + 1);
  // One native encode of the joined column is much faster than one per value. When the bytes are as
  // many as the UTF-16 units, every value was ASCII and the offsets follow from the string lengths.
  const joined = values.join('');
  let bytes = Buffer.from(joined, 'utf8');
  if (bytes.length === joined.length) {
    let pos = 0;
    for (let i = 0; i < length; i++) {
      pos += values[i]?.length ?? 0;
      offsets[i + 1] = pos;
    }
  } else {
    // Encoded one by one: a lone surrogate at a value boundary would pair up in the joined string.
    let total = 0;
    for (let i = 0; i < length; i++) total += values[i] ? Buffer.byteLength(values[i]!, 'utf8') : 0;
    bytes = Buffer.allocUnsafeSlow(total);
    let pos = 0;
    for (let i = 0; i < length; i++) {
      const s = values[i];
      if (s) pos += bytes.write(s, pos, 'utf8');
      offsets[i + 1] = pos;
    }
  }
  const { bitmap, nullCount } = validityBitmap(length, (i) => values[i] !== null && values[i] !== undefined);
  return makeData({
    type: new Utf8(),
    length,
    nullCount,
    nullBitmap: bitmap,
    valueOffsets: offsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
  });
}

export function int32Data(values: readonly (number | null)[]): Data<Int32> {
  const length = values.length;
  const data = new Int32Array(length);
  for (let i = 0; i < length; i++) data[i] = values[i] ?? 0;
  const { bitmap, nullCount } = validityBitmap(length, (i) => values[i] !== null && values[i] !== undefined);
  return makeData({ type: new Int32(), length, nullCount, nullBitmap: bitmap, data });
}

export function float64Data(values: readonly number[]): Data<Float64> {
  return makeData({ type: new Float64(), length: values.length, nullCount: 0, data: Float64Array.from(values) });
}

export function boolData(values: readonly boolean[]): Data<Bool> {
  const length = values.length;
  const data = new Uint8Array((length + 7) >> 3);
  for (let i = 0; i < length; i++) if (values[i]) data[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Bool(), length, nullCount: 0, data });
}

export function vectorType(dim: number): FixedSizeList<Float32> {
  return new FixedSizeList(dim, new Field('item', new Float32(), true));
}

/** Nullable FixedSizeList<Float32>[dim]; null slots are zero-filled in the child buffer as Arrow requires. */
export function vectorData(values: readonly (Float32Array | null)[], dim: number): Data<FixedSizeList<Float32>> {
  const length = values.length;
  const flat = new Float32Array(length * dim);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v) {
      if (v.length !== dim) throw new Error(`vector of length ${v.length} where the store expects ${dim}`);
      flat.set(v, i * dim);
    }
  }
  const { bitmap, nullCount } = validityBitmap(length, (i) => values[i] !== null && values[i] !== undefined);
  const child = makeData({ type: new Float32(), length: length * dim, nullCount: 0, data: flat });
  return makeData({ type: vectorType(dim), length, nullCount, nullBitmap: bitmap, child });
}

/** One record batch holding `columns` in schema order. */
export function tableOf(schema: Schema, length: number, columns: Data[]): ArrowTable {
  const struct = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children: columns });
  return new ArrowTable(schema, new RecordBatch(schema, struct));
}

// ---- reading -------------------------------------------------------------------------------------

function isValidAt(data: Data, i: number): boolean {
  if (data.nullCount === 0 || !data.nullBitmap || data.nullBitmap.length === 0) return true;
  const j = data.offset + i;
  return (data.nullBitmap[j >> 3] & (1 << (j & 7))) !== 0;
}

/** Chunks of one column across all batches of a query result. */
export function columnChunks(table: ArrowTable, name: string): Data[] {
  const chunks: Data[] = [];
  for (const batch of table.batches) {
    const child = batch.getChild(name);
    if (!child) throw new Error(`column ${name} missing from query result`);
    chunks.push(...child.data);
  }
  return chunks;
}

const decoder = new TextDecoder('utf-8');

function decodeRange(buf: Buffer, bytes: Uint8Array, start: number, end: number): string {
  // Buffer#toString beats TextDecoder on the short strings that dominate here.
  return end - start > 4096 ? decoder.decode(bytes.subarray(start, end)) : buf.toString('utf8', start, end);
}

interface Interned {
  text: string;
  bytes: Uint8Array;
  start: number;
  end: number;
  next: Interned | undefined;
}

function sameBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (a[aStart + k] !== b[bStart + k]) return false;
  return true;
}

/** Equal byte strings → one JS string, for columns with few distinct short values (kinds, languages). */
class StringDictionary {
  private readonly table = new Map<number, Interned>();

  get(buf: Buffer, bytes: Uint8Array, start: number, end: number): string {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    // Keep the key a small integer (Smi): larger numbers are heap-allocated and slow as Map keys.
    h &= 0x3fffffff;
    const first = this.table.get(h);
    for (let e = first; e !== undefined; e = e.next) {
      if (e.end - e.start === end - start && sameBytes(e.bytes, e.start, bytes, start, end - start)) return e.text;
    }
    const text = decodeRange(buf, bytes, start, end);
    this.table.set(h, { text, bytes, start, end, next: first });
    return text;
  }
}

/**
 * How to decode a string column. Decoding allocates one string per value and the garbage
 * collection of those is a large part of loading 150k edges, so repetitive columns share strings:
 * `runs` reuses the previous value when the bytes repeat it (owners and paths come grouped by
 * file), `dictionary` looks every value up by its bytes (a handful of kinds or languages).
 */
export type StringColumnMode = 'plain' | 'runs' | 'dictionary';

/** Decodes a Utf8 column; nulls become `nullAs`. */
export function readStrings<N extends string | null>(chunks: readonly Data[], nullAs: N, mode: StringColumnMode = 'plain'): (string | N)[] {
  let total = 0;
  for (const data of chunks) total += data.length;
  const out: (string | N)[] = new Array(total);
  const dict = mode === 'dictionary' ? new StringDictionary() : undefined;
  const runs = mode === 'runs';
  let prevText = '';
  let prevBytes: Uint8Array | undefined;
  let prevStart = 0;
  let prevEnd = 0;
  let o = 0;
  for (const data of chunks) {
    if (!(data.valueOffsets instanceof Int32Array)) throw new Error(`unexpected string column type ${String(data.type)}`);
    const offsets = data.valueOffsets;
    const bytes = data.values as Uint8Array;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const base = data.offset;
    const hasNulls = data.nullCount > 0;
    for (let i = 0; i < data.length; i++) {
      if (hasNulls && !isValidAt(data, i)) {
        out[o++] = nullAs;
        continue;
      }
      const start = offsets[base + i];
      const end = offsets[base + i + 1];
      if (dict) out[o++] = dict.get(buf, bytes, start, end);
      else if (runs) {
        if (prevBytes === undefined || prevEnd - prevStart !== end - start || !sameBytes(prevBytes, prevStart, bytes, start, end - start)) {
          prevText = decodeRange(buf, bytes, start, end);
          prevBytes = bytes;
          prevStart = start;
          prevEnd = end;
        }
        out[o++] = prevText;
      } else out[o++] = decodeRange(buf, bytes, start, end);
    }
  }
  return out;
}

/**
 * A Utf8 column decoded one value at a time, in row order, when asked for: a column of large texts
 * (per-file graphs, ~10 MB on Django) decoded whole held an editor host's thread for 50-90 ms.
 */
export function stringsByRow<N extends string | null>(chunks: readonly Data[], nullAs: N): () => string | N {
  let chunk = 0;
  let row = 0;
  return () => {
    while (row >= chunks[chunk].length) {
      chunk++;
      row = 0;
    }
    const data = chunks[chunk];
    const i = row++;
    if (data.nullCount > 0 && !isValidAt(data, i)) return nullAs;
    if (!(data.valueOffsets instanceof Int32Array)) throw new Error(`unexpected string column type ${String(data.type)}`);
    const bytes = data.values as Uint8Array;
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return decodeRange(buf, bytes, data.valueOffsets[data.offset + i], data.valueOffsets[data.offset + i + 1]);
  };
}

export function readNumbers(chunks: readonly Data[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (const data of chunks) {
    const values = data.values as Int32Array | Float64Array | Float32Array | BigInt64Array;
    const base = data.offset;
    const big = values instanceof BigInt64Array;
    for (let i = 0; i < data.length; i++) {
      if (!isValidAt(data, i)) out.push(null);
      else out.push(big ? Number(values[base + i]) : (values[base + i] as number));
    }
  }
  return out;
}

export function readBools(chunks: readonly Data[]): boolean[] {
  const out: boolean[] = [];
  for (const data of chunks) {
    const bits = data.values as Uint8Array;
    for (let i = 0; i < data.length; i++) {
      const j = data.offset + i;
      out.push(isValidAt(data, i) && (bits[j >> 3] & (1 << (j & 7))) !== 0);
    }
  }
  return out;
}

/** Copies each non-null vector out of the Arrow buffers (the result must outlive the query's memory). */
export function readVectors(chunks: readonly Data[]): (Float32Array | null)[] {
  const out: (Float32Array | null)[] = [];
  for (const data of chunks) {
    const dim = (data.type as FixedSizeList).listSize;
    const child = data.children[0];
    const flat = child.values as Float32Array;
    for (let i = 0; i < data.length; i++) {
      if (!isValidAt(data, i)) {
        out.push(null);
        continue;
      }
      const start = (child.offset + (data.offset + i) * dim);
      out.push(flat.slice(start, start + dim));
    }
  }
  return out;
}
