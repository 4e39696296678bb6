// RANDOM-weight ONNX graphs with the exact shape of all-MiniLM-L6-v2 (BERT bi-encoder, output
// `last_hidden_state`) and ms-marco-MiniLM-L-6-v2 (BERT cross-encoder, output `logits`): 6 layers,
// hidden 384, 12 heads, FFN 1536, vocabulary 30522, 512 positions. Written in fp32 (`model.onnx`) and in
// the ORT-style dynamic-int8 form the hub's Xenova models ship (`model_quantized.onnx`: weights as
// uint8 with a scale and zero point, activations quantized at run time, MatMulInteger). The weights are
// seeded noise: the outputs mean nothing, so these models are for loading, batching, speed and memory
// checks only, never for quality.
import { DataType, encodeModel, type AttributeValue, type Node, type Tensor } from './onnxWriter';

const VOCAB = 30522;
const HIDDEN = 384;
const LAYERS = 6;
const HEADS = 12;
const FFN = 1536;
const POSITIONS = 512;
const TOKEN_TYPES = 2;
const HEAD_DIM = HIDDEN / HEADS;
/** The producer name bench/search/modelCheck.ts recognises as a test fixture. */
export const FIXTURE_PRODUCER = 'random-weight-fixture';

/** Normal(0, 0.02) noise from a seeded generator (mulberry32 + Box-Muller): the same bytes every run. */
function noise(seed: number): (n: number) => Float32Array {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return (n) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 2) {
      const r = 0.02 * Math.sqrt(-2 * Math.log(uniform()));
      const a = 2 * Math.PI * uniform();
      out[i] = r * Math.cos(a);
      if (i + 1 < n) out[i + 1] = r * Math.sin(a);
    }
    return out;
  };
}

const bytesOf = (a: Float32Array | BigInt64Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Asymmetric uint8 quantization over the whole tensor, as onnxruntime's quantize_dynamic does. */
function quantize(w: Float32Array): { q: Uint8Array; scale: number; zeroPoint: number } {
  let lo = 0;
  let hi = 0;
  for (const v of w) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const scale = (hi - lo) / 255;
  const zeroPoint = Math.round(-lo / scale);
  const q = new Uint8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.min(255, Math.max(0, Math.round(w[i] / scale) + zeroPoint));
  return { q, scale, zeroPoint };
}

class GraphBuilder {
  readonly nodes: Node[] = [];
  readonly initializers: Tensor[] = [];
  private count = 0;

  constructor(private readonly quantized: boolean, private readonly weights: (n: number) => Float32Array) {}

  private name(prefix: string): string {
    return `${prefix}_${++this.count}`;
  }

  private tensor(prefix: string, dataType: Tensor['dataType'], dims: number[], raw: Uint8Array): string {
    const name = this.name(prefix);
    this.initializers.push({ name, dataType, dims, raw });
    return name;
  }

  float(values: Float32Array, dims: number[]): string {
    return this.tensor('w', DataType.FLOAT, dims, bytesOf(values));
  }

  /** A float scalar (dims []) or a 1-d float constant. */
  constFloat(value: number): string {
    return this.tensor('c', DataType.FLOAT, [], bytesOf(Float32Array.of(value)));
  }

  /** An int64 scalar, or a 1-d int64 constant when given an array. */
  constInt(value: number | number[]): string {
    const values = Array.isArray(value) ? value : [value];
    return this.tensor('c', DataType.INT64, Array.isArray(value) ? [values.length] : [], bytesOf(BigInt64Array.from(values.map(BigInt))));
  }

  op(opType: string, inputs: string[], attributes?: Record<string, AttributeValue>, outputCount = 1): string[] {
    const outputs = Array.from({ length: outputCount }, () => this.name(opType));
    this.nodes.push({ opType, inputs, outputs, attributes });
    return outputs;
  }

  op1(opType: string, inputs: string[], attributes?: Record<string, AttributeValue>): string {
    return this.op(opType, inputs, attributes)[0];
  }

  /** x·W + b for W of shape [k, n] (b is zero). */
  linear(x: string, k: number, n: number): string {
    const w = this.weights(k * n);
    let y: string;
    if (!this.quantized) {
      y = this.op1('MatMul', [x, this.float(w, [k, n])]);
    } else {
      const { q, scale, zeroPoint } = quantize(w);
      const [xq, xScale, xZeroPoint] = this.op('DynamicQuantizeLinear', [x], undefined, 3);
      const weight = this.tensor('w', DataType.UINT8, [k, n], q);
      const wZeroPoint = this.tensor('c', DataType.UINT8, [], Uint8Array.of(zeroPoint));
      const acc = this.op1('MatMulInteger', [xq, weight, xZeroPoint, wZeroPoint]);
      const scaled = this.op1('Mul', [xScale, this.constFloat(scale)]);
      y = this.op1('Mul', [this.op1('Cast', [acc], { to: DataType.FLOAT }), scaled]);
    }
    return this.op1('Add', [y, this.float(new Float32Array(n), [n])]);
  }

  /** Rows of a [rows, HIDDEN] embedding table picked by `ids`. */
  embed(rows: number, ids: string): string {
    const w = this.weights(rows * HIDDEN);
    let table: string;
    if (!this.quantized) {
      table = this.float(w, [rows, HIDDEN]);
    } else {
      const { q, scale, zeroPoint } = quantize(w);
      const zp = this.tensor('c', DataType.UINT8, [], Uint8Array.of(zeroPoint));
      table = this.op1('DequantizeLinear', [this.tensor('w', DataType.UINT8, [rows, HIDDEN], q), this.constFloat(scale), zp]);
    }
    return this.op1('Gather', [table, ids], { axis: 0 });
  }

  layerNorm(x: string): string {
    const mean = this.op1('ReduceMean', [x], { axes: [-1] });
    const d = this.op1('Sub', [x, mean]);
    const variance = this.op1('ReduceMean', [this.op1('Mul', [d, d])], { axes: [-1] });
    const y = this.op1('Div', [d, this.op1('Sqrt', [this.op1('Add', [variance, this.constFloat(1e-12)])])]);
    const gamma = this.float(new Float32Array(HIDDEN).fill(1), [HIDDEN]);
    return this.op1('Add', [this.op1('Mul', [y, gamma]), this.float(new Float32Array(HIDDEN), [HIDDEN])]);
  }

  gelu(x: string): string {
    const erf = this.op1('Erf', [this.op1('Div', [x, this.constFloat(Math.SQRT2)])]);
    return this.op1('Mul', [this.op1('Mul', [x, this.constFloat(0.5)]), this.op1('Add', [erf, this.constFloat(1)])]);
  }
}

/** One BERT graph as `.onnx` bytes: a bi-encoder (`last_hidden_state`) or a one-logit cross-encoder. */
export function randomBertOnnx(options: { classifier: boolean; quantized: boolean; seed?: number }): Uint8Array {
  const g = new GraphBuilder(options.quantized, noise(options.seed ?? 0));
  const [ids, mask, types] = ['input_ids', 'attention_mask', 'token_type_ids'];
  const seqLen = g.op1('Gather', [g.op1('Shape', [ids]), g.constInt(1)], { axis: 0 });
  const positions = g.op1('Unsqueeze', [g.op1('Range', [g.constInt(0), seqLen, g.constInt(1)]), g.constInt([0])]);
  let x = g.op1('Add', [g.op1('Add', [g.embed(VOCAB, ids), g.embed(POSITIONS, positions)]), g.embed(TOKEN_TYPES, types)]);
  x = g.layerNorm(x);
  // [batch, 1, 1, seq]: 0 where attended, -10000 on padding, added to every head's scores
  const mask4 = g.op1('Unsqueeze', [g.op1('Cast', [mask], { to: DataType.FLOAT }), g.constInt([1, 2])]);
  const maskBias = g.op1('Mul', [g.op1('Sub', [g.constFloat(1), mask4]), g.constFloat(-10000)]);
  const heads = g.constInt([0, 0, HEADS, HEAD_DIM]);
  const merged = g.constInt([0, 0, HIDDEN]);
  for (let layer = 0; layer < LAYERS; layer++) {
    const split = (perm: number[]) => g.op1('Transpose', [g.op1('Reshape', [g.linear(x, HIDDEN, HIDDEN), heads])], { perm });
    const q = split([0, 2, 1, 3]);
    const k = split([0, 2, 3, 1]);
    const v = split([0, 2, 1, 3]);
    const scores = g.op1('Add', [g.op1('Mul', [g.op1('MatMul', [q, k]), g.constFloat(1 / Math.sqrt(HEAD_DIM))]), maskBias]);
    let context = g.op1('MatMul', [g.op1('Softmax', [scores], { axis: -1 }), v]);
    context = g.op1('Reshape', [g.op1('Transpose', [context], { perm: [0, 2, 1, 3] }), merged]);
    x = g.layerNorm(g.op1('Add', [x, g.linear(context, HIDDEN, HIDDEN)]));
    const ffn = g.linear(g.gelu(g.linear(x, HIDDEN, FFN)), FFN, HIDDEN);
    x = g.layerNorm(g.op1('Add', [x, ffn]));
  }
  let output: { name: string; shape: (number | string)[] };
  if (options.classifier) {
    const cls = g.op1('Gather', [x, g.constInt(0)], { axis: 1 });
    const pooled = g.op1('Tanh', [g.linear(cls, HIDDEN, HIDDEN)]);
    g.nodes.push({ opType: 'Identity', inputs: [g.linear(pooled, HIDDEN, 1)], outputs: ['logits'] });
    output = { name: 'logits', shape: ['batch_size', 1] };
  } else {
    g.nodes.push({ opType: 'Identity', inputs: [x], outputs: ['last_hidden_state'] });
    output = { name: 'last_hidden_state', shape: ['batch_size', 'sequence_length', HIDDEN] };
  }
  const input = (name: string) => ({ name, elemType: DataType.INT64, shape: ['batch_size', 'sequence_length'] });
  return encodeModel({
    producerName: FIXTURE_PRODUCER,
    irVersion: 7,
    opset: 13,
    graph: {
      name: 'synthetic_bert',
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [input(ids), input(mask), input(types)],
      outputs: [{ name: output.name, elemType: DataType.FLOAT, shape: output.shape }],
    },
  });
}
