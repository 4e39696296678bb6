// A question's vector against every stored vector in WebAssembly SIMD (dotKernel.wat): the scan is
// most of a vector search, and JavaScript does it one multiply at a time (Django's 17,845 vectors of
// 384: 7-14 ms per question; here 1-2 ms). The sums are rowDot's to the last bit (each f32 widened to
// f64, four running sums added in rowDot's order), so a ranking does not depend on which one ran.

/** dotKernel.wat assembled (scripts/dotKernel.mjs writes it; test/unit/dotKernel.test.ts checks it). */
const KERNEL = 'AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRkb3RzAAAK2QEB1gECBH8CeyACQQJ0IQggACEFIAQgAUEDdGohBgJAA0AgBCAGTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQn9DAAAAAAAAAAAAAAAAAAAAAAhCkEAIQcCQANAIAcgCE8NASAJIAUgB2r9XQMA/V8gAyAHav1dAwD9X/3yAf3wASEJIAogBSAHav1dAwj9XyADIAdq/V0DCP1f/fIB/fABIQogB0EQaiEHDAALCyAEIAn9IQAgCf0hAaAgCv0hAKAgCv0hAaA5AwAgBSAIaiEFIARBCGohBAwACwsL';

type Dots = (matrix: number, rows: number, dim: number, query: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly or its SIMD instructions are not available. */
function kernel(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  const bytes = Buffer.from(KERNEL, 'base64');
  compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  return compiled;
}

const PAGE = 65_536;

/**
 * Room for `capacity` rows × dim of f32 in WebAssembly memory, with room for a query and the dot
 * products: fill rows of {@link matrix}, then ask {@link dots} for the first `rows` of them, for any
 * number of queries. The room beyond the rows in use lets rows be added without building it again.
 */
export class DotMatrix {
  /** The matrix, row after row, to fill. */
  readonly matrix: Float32Array;
  private readonly query: Float32Array;
  private readonly out: Float64Array;

  private constructor(
    private readonly run: Dots,
    memory: WebAssembly.Memory,
    readonly capacity: number,
    private readonly dim: number,
  ) {
    // The dot products first (8-byte aligned), then the query, then the matrix.
    this.out = new Float64Array(memory.buffer, 0, capacity);
    this.query = new Float32Array(memory.buffer, capacity * 8, dim);
    this.matrix = new Float32Array(memory.buffer, capacity * 8 + dim * 4, capacity * dim);
  }

  /** Undefined where the kernel cannot run here, or for a dimension it does not take (not a multiple of 4). */
  static create(capacity: number, dim: number): DotMatrix | undefined {
    const module = kernel();
    const bytes = capacity * 8 + dim * 4 + capacity * dim * 4;
    if (!module || dim % 4 !== 0 || bytes > 2 ** 31) return undefined;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    return new DotMatrix(instance.exports.dots as Dots, memory, capacity, dim);
  }

  /** The dot product of `query` with each of the first `rows` rows, by row; valid until the next call. */
  dots(query: Float32Array, rows = this.capacity): Float64Array {
    if (rows > this.capacity) throw new Error(`${rows} rows asked of a matrix of ${this.capacity}`);
    this.query.set(query);
    this.run(this.matrix.byteOffset, rows, this.dim, this.query.byteOffset, this.out.byteOffset);
    return this.out;
  }
}
