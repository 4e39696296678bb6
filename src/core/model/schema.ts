// The repository knowledge graph's vocabulary (RANGER node/edge kinds, GRACE's Folder level, RPG's
// External symbols). Everything that crosses a module boundary speaks in these types: the parser
// emits them, the store persists them, the extension and the webview render them. It sits in model/,
// below parse/ and graph/, so that every layer imports it downwards.
import { flat } from '../flatString';

/** Bump when the shape of nodes, edges or per-file graphs changes: a store with another version is rebuilt. */
export const SCHEMA_VERSION = 1;

export type Language =
  | 'python'
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'go'
  | 'java'
  | 'rust';

/** Which ecosystem an External node belongs to (`ext:<family>:<name>`): one per language family. */
export type ExternalFamily =
  | 'py'
  | 'js'
  | 'go'
  | 'java'
  | 'rs';

export type NodeKind =
  | 'Folder'
  | 'Module'
  | 'Class'
  | 'Interface'
  | 'Enum'
  | 'TypeAlias'
  | 'Function'
  | 'Method'
  | 'Field'
  | 'GlobalVariable'
  | 'External';

export type EdgeKind = 'CONTAINS' | 'HAS_METHOD' | 'HAS_FIELD' | 'INHERITS' | 'IMPORTS' | 'CALLS' | 'USES';

export const NODE_KINDS: readonly NodeKind[] = [
  'Folder', 'Module', 'Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'External',
];
export const EDGE_KINDS: readonly EdgeKind[] = ['CONTAINS', 'HAS_METHOD', 'HAS_FIELD', 'INHERITS', 'IMPORTS', 'CALLS', 'USES'];

/** Zero-based lines and columns (columns in UTF-16 code units, as editors count them). */
export interface SourceRange {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

export interface GraphNode {
  /** Stable across re-parses: `dir:<path>`, `<path>` (module), `<path>#<qualified.name>` (symbol), `ext:<family>:<name>`. */
  id: string;
  kind: NodeKind;
  name: string;
  /** Fully qualified name for people: `flask.app.Flask.run`, `src/util/strings.camelCase`, `os.path.join`. */
  qname: string;
  /** Repository-relative path with `/` separators; '' for externals. */
  path: string;
  language: Language | '';
  range: SourceRange | null;
  signature: string;
  doc: string;
  /** Hash of the node's source text: embeddings and descriptions are recomputed only when it changes. */
  hash: string;
  /** Visible outside its module (TS/JS `export`, Python names without a leading underscore). */
  exported: boolean;
}

export interface GraphEdge {
  /** `<kind>|<source>|<target>`: one edge per kind between two nodes, whatever the number of sites. */
  id: string;
  kind: EdgeKind;
  source: string;
  target: string;
  /** Zero-based line of the first site in the source file, -1 for structural edges without one. */
  line: number;
  /** The file whose content produced the edge ('' for derived Folder edges); incremental updates replace by owner. */
  owner: string;
}

export function edgeId(kind: EdgeKind, source: string, target: string): string {
  return flat(`${kind}|${source}|${target}`);
}
/** The parts of a qualified name: Python/TS/Java join them with `.`, Rust with `::` (and `.` inside a module's name). */
export function qnameParts(qname: string): string[] {
  return qname.split(/::|\./);
}

export function moduleId(path: string): string {
  return path;
}
export function folderId(path: string): string {
  return flat(`dir:${path === '' ? '.' : path}`);
}
export function symbolId(path: string, localId: string): string {
  return flat(`${path}#${localId}`);
}
/** The inverse of symbolId for a definition in `path`. */
export function localIdOf(id: string, path: string): string {
  return id.slice(path.length + 1);
}
export function externalId(family: ExternalFamily, name: string): string {
  return flat(`ext:${family}:${name}`);
}
/** An id externalId made: something outside the repository, with no code of its own to show. */
export function isExternalId(id: string): boolean {
  return id.startsWith('ext:');
}
