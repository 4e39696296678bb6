// The few ONNX protobuf messages a model file needs (ModelProto, GraphProto, NodeProto, AttributeProto,
// TensorProto, ValueInfoProto), written by hand so that the test fixtures need neither Python's `onnx`
// nor a protobuf library. Field numbers are those of onnx/onnx.proto (IR version 7). Repeated numbers
// are written packed, as protobufjs and the C++ writer do; every protobuf parser accepts that.

/** ONNX TensorProto.DataType values used by the fixtures. */
export const DataType = { FLOAT: 1, UINT8: 2, INT64: 7 } as const;
type DataTypeValue = (typeof DataType)[keyof typeof DataType];

const AttributeType = { FLOAT: 1, INT: 2, INTS: 7 } as const;

export interface Tensor {
  name: string;
  dataType: DataTypeValue;
  dims: number[];
  /** Little-endian element bytes, as `raw_data` holds them. */
  raw: Uint8Array;
}

export type AttributeValue = number | number[] | { float: number };

export interface Node {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, AttributeValue>;
}

/** A graph input or output: an element type and a shape whose dimensions are sizes or symbolic names. */
export interface ValueInfo {
  name: string;
  elemType: DataTypeValue;
  shape: (number | string)[];
}

export interface Model {
  producerName: string;
  irVersion: number;
  opset: number;
  graph: { name: string; nodes: Node[]; initializers: Tensor[]; inputs: ValueInfo[]; outputs: ValueInfo[] };
}

/** A message under construction: a list of byte chunks, so large tensors are never copied twice. */
class Message {
  readonly chunks: Uint8Array[] = [];
  length = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  /** A base-128 varint; negative numbers as 10-byte two's complement, as int64 fields need. */
  varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  int(field: number, value: number): void {
    this.varint((field << 3) | 0);
    this.varint(value);
  }

  float(field: number, value: number): void {
    this.varint((field << 3) | 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.push(bytes);
  }

  bytes(field: number, value: Uint8Array): void {
    this.varint((field << 3) | 2);
    this.varint(value.length);
    this.push(value);
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, inner: Message): void {
    this.varint((field << 3) | 2);
    this.varint(inner.length);
    for (const chunk of inner.chunks) this.push(chunk);
  }

  packedInts(field: number, values: number[]): void {
    const inner = new Message();
    for (const v of values) inner.varint(v);
    this.message(field, inner);
  }
}

function tensorMessage(t: Tensor): Message {
  const m = new Message();
  if (t.dims.length) m.packedInts(1, t.dims);
  m.int(2, t.dataType);
  m.string(8, t.name);
  m.bytes(9, t.raw);
  return m;
}

function attributeMessage(name: string, value: AttributeValue): Message {
  const m = new Message();
  m.string(1, name);
  if (Array.isArray(value)) {
    m.packedInts(8, value);
    m.int(20, AttributeType.INTS);
  } else if (typeof value === 'object') {
    m.float(2, value.float);
    m.int(20, AttributeType.FLOAT);
  } else {
    m.int(3, value);
    m.int(20, AttributeType.INT);
  }
  return m;
}

function nodeMessage(node: Node, index: number): Message {
  const m = new Message();
  for (const input of node.inputs) m.string(1, input);
  for (const output of node.outputs) m.string(2, output);
  m.string(3, `${node.opType}_${index}`);
  m.string(4, node.opType);
  for (const [name, value] of Object.entries(node.attributes ?? {})) m.message(5, attributeMessage(name, value));
  return m;
}

function valueInfoMessage(v: ValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) {
    const dim = new Message();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new Message();
  tensorType.int(1, v.elemType);
  tensorType.message(2, shape);
  const type = new Message();
  type.message(1, tensorType);
  const m = new Message();
  m.string(1, v.name);
  m.message(2, type);
  return m;
}

/** The model as the bytes of an `.onnx` file. The producer name comes first after the IR version,
 * so it sits in the file's first bytes (bench/search/modelCheck.ts looks for it there). */
export function encodeModel(model: Model): Uint8Array {
  const graph = new Message();
  model.graph.nodes.forEach((node, i) => graph.message(1, nodeMessage(node, i)));
  graph.string(2, model.graph.name);
  for (const t of model.graph.initializers) graph.message(5, tensorMessage(t));
  for (const v of model.graph.inputs) graph.message(11, valueInfoMessage(v));
  for (const v of model.graph.outputs) graph.message(12, valueInfoMessage(v));
  const opset = new Message();
  opset.string(1, '');
  opset.int(2, model.opset);
  const m = new Message();
  m.int(1, model.irVersion);
  m.string(2, model.producerName);
  m.message(7, graph);
  m.message(8, opset);
  return Buffer.concat(m.chunks);
}
