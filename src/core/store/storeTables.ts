// The store's three tables: their Arrow schemas and the mapping between rows and the graph's types.
// Node ranges are flattened to four nullable ints (all null for nodes without a range).
import { Field, Float64, Int32, Schema, Table as ArrowTable, Utf8, Bool } from 'apache-arrow';
import type { EdgeKind, GraphEdge, GraphNode, Language, NodeKind } from '../model/schema';
import type { FileGraph } from '../parse/fileGraph';
import {
  boolData,
  columnChunks,
  float64Data,
  int32Data,
  readBools,
  readNumbers,
  readStrings,
  stringsByRow,
  type StringColumnMode,
  tableOf,
  utf8Data,
  vectorData,
  vectorType,
} from './arrowColumns';

export interface StoredFile {
  path: string;
  hash: string;
  mtimeMs: number;
  size: number;
  language: string;
  parserVersion: number;
  graph: FileGraph | null;
  /** Why the file was not parsed (too large, binary, ...); null when it was. */
  skipped: string | null;
}

export const NODES = 'nodes';
export const EDGES = 'edges';
export const FILES = 'files';
export const TABLE_NAMES = [NODES, EDGES, FILES] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/** The column each table is keyed by. */
export const KEY_COLUMN: Record<TableName, string> = { nodes: 'id', edges: 'id', files: 'path' };

const str = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
const i32 = (name: string, nullable = false) => new Field(name, new Int32(), nullable);

export function nodesSchema(vectorDim: number): Schema {
  return new Schema([
    str('id'),
    str('kind'),
    str('name'),
    str('qname'),
    str('path'),
    str('language'),
    i32('start_line', true),
    i32('start_col', true),
    i32('end_line', true),
    i32('end_col', true),
    str('signature'),
    str('doc'),
    str('hash'),
    new Field('exported', new Bool(), false),
    new Field('vector', vectorType(vectorDim), true),
  ]);
}

export const edgesSchema = new Schema([str('id'), str('kind'), str('source'), str('target'), i32('line'), str('owner')]);

export const filesSchema = new Schema([
  str('path'),
  str('hash'),
  new Field('mtime_ms', new Float64(), false),
  new Field('size', new Float64(), false),
  str('language'),
  i32('parser_version'),
  str('graph_json', true),
  str('skipped', true),
]);

export function schemaFor(name: TableName, vectorDim: number): Schema {
  return name === NODES ? nodesSchema(vectorDim) : name === EDGES ? edgesSchema : filesSchema;
}

/** Columns loadAll reads from the nodes table (everything but the vector). */
export const NODE_COLUMNS = nodesSchema(1).fields.map((f) => f.name).filter((n) => n !== 'vector');

// ---- encode --------------------------------------------------------------------------------------

/**
 * Rows for the nodes table. Without any vector the column is left out and LanceDB fills it with
 * nulls: a present-but-null FixedSizeList still carries `dim` zero floats per row through IPC
 * (60 MB for 40k nodes at 384-d), which doubled the cost of a full write.
 */
/** `withVectorColumn` forces the column (slices of one write must share a schema); by default it is there only when some vector is. */
export function nodesTable(
  nodes: readonly GraphNode[],
  vectors: readonly (Float32Array | null)[] | null,
  vectorDim: number,
  withVectorColumn = vectors !== null && vectors.some((v) => v !== null),
): ArrowTable {
  const n = nodes.length;
  const range = (pick: (r: NonNullable<GraphNode['range']>) => number) => int32Data(nodes.map((x) => (x.range ? pick(x.range) : null)));
  const columns = [
    utf8Data(nodes.map((x) => x.id)),
    utf8Data(nodes.map((x) => x.kind)),
    utf8Data(nodes.map((x) => x.name)),
    utf8Data(nodes.map((x) => x.qname)),
    utf8Data(nodes.map((x) => x.path)),
    utf8Data(nodes.map((x) => x.language)),
    range((r) => r.startLine),
    range((r) => r.startCol),
    range((r) => r.endLine),
    range((r) => r.endCol),
    utf8Data(nodes.map((x) => x.signature)),
    utf8Data(nodes.map((x) => x.doc)),
    utf8Data(nodes.map((x) => x.hash)),
    boolData(nodes.map((x) => x.exported)),
  ];
  const schema = nodesSchema(vectorDim);
  if (withVectorColumn) return tableOf(schema, n, [...columns, vectorData(vectors ?? nodes.map(() => null), vectorDim)]);
  return tableOf(new Schema(schema.fields.filter((f) => f.name !== 'vector')), n, columns);
}

export function edgesTable(edges: readonly GraphEdge[]): ArrowTable {
  return tableOf(edgesSchema, edges.length, [
    utf8Data(edges.map((e) => e.id)),
    utf8Data(edges.map((e) => e.kind)),
    utf8Data(edges.map((e) => e.source)),
    utf8Data(edges.map((e) => e.target)),
    int32Data(edges.map((e) => e.line)),
    utf8Data(edges.map((e) => e.owner)),
  ]);
}

export function filesTable(files: readonly StoredFile[]): ArrowTable {
  return tableOf(filesSchema, files.length, [
    utf8Data(files.map((f) => f.path)),
    utf8Data(files.map((f) => f.hash)),
    float64Data(files.map((f) => f.mtimeMs)),
    float64Data(files.map((f) => f.size)),
    utf8Data(files.map((f) => f.language)),
    int32Data(files.map((f) => f.parserVersion)),
    utf8Data(files.map((f) => (f.graph ? JSON.stringify(f.graph) : null))),
    utf8Data(files.map((f) => f.skipped)),
  ]);
}

/** id + vector only: a partial-schema mergeInsert updates just the vector of matching rows. */
export function vectorUpdateTable(ids: readonly string[], vectors: readonly (Float32Array | null)[], vectorDim: number): ArrowTable {
  const schema = new Schema([str('id'), new Field('vector', vectorType(vectorDim), true)]);
  return tableOf(schema, ids.length, [utf8Data(ids), vectorData(vectors, vectorDim)]);
}

// ---- decode --------------------------------------------------------------------------------------

export function decodeNodes(table: ArrowTable, into: GraphNode[]): void {
  const s = (name: string, mode?: StringColumnMode) => readStrings(columnChunks(table, name), '', mode);
  const num = (name: string) => readNumbers(columnChunks(table, name));
  const id = s('id');
  const kind = s('kind', 'dictionary');
  const name = s('name');
  const qname = s('qname');
  const path = s('path', 'runs');
  const language = s('language', 'dictionary');
  const sl = num('start_line');
  const sc = num('start_col');
  const el = num('end_line');
  const ec = num('end_col');
  const signature = s('signature');
  const doc = s('doc');
  const hash = s('hash');
  const exported = readBools(columnChunks(table, 'exported'));
  for (let i = 0; i < id.length; i++) {
    into.push({
      id: id[i],
      kind: kind[i] as NodeKind,
      name: name[i],
      qname: qname[i],
      path: path[i],
      language: language[i] as Language | '',
      range: sl[i] === null ? null : { startLine: sl[i]!, startCol: sc[i] ?? 0, endLine: el[i] ?? 0, endCol: ec[i] ?? 0 },
      signature: signature[i],
      doc: doc[i],
      hash: hash[i],
      exported: exported[i],
    });
  }
}

export function decodeEdges(table: ArrowTable, into: GraphEdge[]): void {
  const id = readStrings(columnChunks(table, 'id'), '');
  const kind = readStrings(columnChunks(table, 'kind'), '', 'dictionary');
  const source = readStrings(columnChunks(table, 'source'), '', 'runs');
  const target = readStrings(columnChunks(table, 'target'), '');
  const line = readNumbers(columnChunks(table, 'line'));
  const owner = readStrings(columnChunks(table, 'owner'), '', 'runs');
  for (let i = 0; i < id.length; i++) {
    into.push({ id: id[i], kind: kind[i] as EdgeKind, source: source[i], target: target[i], line: line[i] ?? -1, owner: owner[i] });
  }
}

/** `pause` is awaited every few files: per-file graphs are big JSON texts, and a caller in an editor host must not be held through all of them. */
export async function decodeFiles(table: ArrowTable, into: StoredFile[], pause?: () => Promise<void>): Promise<void> {
  const path = readStrings(columnChunks(table, 'path'), '');
  const hash = readStrings(columnChunks(table, 'hash'), '');
  const mtime = readNumbers(columnChunks(table, 'mtime_ms'));
  const size = readNumbers(columnChunks(table, 'size'));
  const language = readStrings(columnChunks(table, 'language'), '', 'dictionary');
  const parserVersion = readNumbers(columnChunks(table, 'parser_version'));
  const graphJson = stringsByRow(columnChunks(table, 'graph_json'), null);
  const skipped = readStrings(columnChunks(table, 'skipped'), null);
  for (let i = 0; i < path.length; i++) {
    if (pause && i % 25 === 24) await pause();
    const json = graphJson();
    into.push({
      path: path[i],
      hash: hash[i],
      mtimeMs: mtime[i] ?? 0,
      size: size[i] ?? 0,
      language: language[i],
      parserVersion: parserVersion[i] ?? 0,
      graph: json === null ? null : (JSON.parse(json) as FileGraph),
      skipped: skipped[i],
    });
  }
}

/** Same field names, types and nullability (metadata ignored). */
export function sameSchema(actual: Schema, expected: Schema): boolean {
  if (actual.fields.length !== expected.fields.length) return false;
  return expected.fields.every((f, i) => {
    const a = actual.fields[i];
    return a.name === f.name && a.nullable === f.nullable && String(a.type) === String(f.type);
  });
}

/** SQL string literal for LanceDB (DataFusion) filters: single quotes doubled; backslashes are literal. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `column IN (...)` over many keys, split so no single predicate gets unreasonably long. */
export function inPredicates(column: string, keys: readonly string[], chunk = 1000): string[] {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += chunk) {
    out.push(`${column} IN (${keys.slice(i, i + chunk).map(sqlString).join(', ')})`);
  }
  return out;
}
