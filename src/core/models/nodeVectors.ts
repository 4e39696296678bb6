// Node embeddings held in memory as one packed matrix. search needs `get(id)` synchronously inside
// the MCTS loop, so every vector is in memory anyway; an exact scan of that matrix answers nearest()
// faster than a flat LanceDB vector query over the same rows (both figures in docs/benchmarks.md,
// "Embeddings"), and needs no native call while the store is busy writing.
import { DotMatrix } from './dotKernel';
import type { NodeVectors } from './types';

interface Entry {
  /** Content hash of the node when it was embedded: a different hash means the vector is stale. */
  hash: string;
  vector: Float32Array;
}

/**
 * Every vector in one matrix (in WebAssembly memory where the SIMD kernel runs, dotKernel.ts), kept up
 * to date row by row: an edit re-embeds a few nodes, and copying all of them again (20-40 ms on Django)
 * would land on the next question. Row order is not insertion order (a removed row takes the last one).
 */
interface Packed {
  ids: string[];
  rowOf: Map<string, number>;
  capacity: number;
  matrix: Float32Array;
  kernel?: DotMatrix;
}

/** Rows of room beyond the vectors packed: an eighth, and at least this many, so additions are rarely a repack. */
const MIN_SPARE_ROWS = 256;

export class MemoryNodeVectors implements NodeVectors {
  private readonly entries = new Map<string, Entry>();
  private packed: Packed | undefined;

  constructor(readonly dim: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): Float32Array | undefined {
    return this.entries.get(id)?.vector;
  }

  /** The content hash the stored vector of `id` was computed from. */
  hashOf(id: string): string | undefined {
    return this.entries.get(id)?.hash;
  }

  ids(): IterableIterator<string> {
    return this.entries.keys();
  }

  set(id: string, hash: string, vector: Float32Array): void {
    if (vector.length !== this.dim) throw new Error(`vector of length ${vector.length} where ${this.dim} is expected`);
    this.entries.set(id, { hash, vector });
    const packed = this.packed;
    if (!packed) return;
    let row = packed.rowOf.get(id);
    if (row === undefined) {
      if (packed.ids.length === packed.capacity) {
        this.packed = undefined;
        return;
      }
      row = packed.ids.push(id) - 1;
      packed.rowOf.set(id, row);
    }
    packed.matrix.set(vector, row * this.dim);
  }

  delete(id: string): void {
    if (!this.entries.delete(id) || !this.packed) return;
    const { ids, rowOf, matrix } = this.packed;
    const row = rowOf.get(id)!;
    const last = ids.length - 1;
    if (row !== last) {
      matrix.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
      ids[row] = ids[last];
      rowOf.set(ids[row], row);
    }
    ids.pop();
    rowOf.delete(id);
  }

  async nearest(query: Float32Array, k: number): Promise<{ id: string; score: number }[]> {
    if (query.length !== this.dim) throw new Error(`query vector of length ${query.length} where ${this.dim} is expected`);
    if (k <= 0 || this.entries.size === 0) return [];
    const { ids, matrix, kernel } = this.pack();
    const dim = this.dim;
    const dots = kernel?.dots(query, ids.length);
    // Top k kept best first; vectors are unit length, so the dot product is the cosine. Equal scores
    // (the same text embedded twice) go by id, so the order does not depend on the rows' order.
    const top: { id: string; score: number }[] = [];
    const before = (score: number, id: string, other: { id: string; score: number }) => score > other.score || (score === other.score && id < other.id);
    for (let row = 0; row < ids.length; row++) {
      const dot = dots ? dots[row] : rowDot(matrix, row * dim, query);
      const id = ids[row];
      if (top.length === k && !before(dot, id, top[k - 1])) continue;
      let at = top.length < k ? top.length : k - 1;
      while (at > 0 && before(dot, id, top[at - 1])) at--;
      top.splice(at, 0, { id, score: dot });
      if (top.length > k) top.pop();
    }
    return top;
  }

  private pack(): Packed {
    if (this.packed) return this.packed;
    const ids = [...this.entries.keys()];
    const capacity = ids.length + Math.max(MIN_SPARE_ROWS, ids.length >> 3);
    const kernel = DotMatrix.create(capacity, this.dim);
    const matrix = kernel?.matrix ?? new Float32Array(capacity * this.dim);
    ids.forEach((id, row) => matrix.set(this.entries.get(id)!.vector, row * this.dim));
    this.packed = { ids, rowOf: new Map(ids.map((id, row) => [id, row])), capacity, matrix, kernel };
    return this.packed;
  }
}

/**
 * The dot product of the `n` numbers of `matrix` from `base` with the first `n` of `query`, four running
 * sums at a time (independent sums let the CPU overlap them): the traversal's cosine of one node (vectors
 * are unit length), and the scan of every vector where the WebAssembly kernel cannot run (dotKernel.ts,
 * which makes the same sums).
 */
export function rowDot(matrix: Float32Array, base: number, query: Float32Array, n = query.length): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    a += matrix[base + i] * query[i];
    b += matrix[base + i + 1] * query[i + 1];
    c += matrix[base + i + 2] * query[i + 2];
    d += matrix[base + i + 3] * query[i + 3];
  }
  for (; i < n; i++) a += matrix[base + i] * query[i];
  return a + b + c + d;
}
