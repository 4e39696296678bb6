// GRACE phase 1: the graph of the code being written. The editor buffer (unsaved text included) is
// parsed with the indexer's own extractor and resolved against the repository without touching it,
// which links the enclosing function and class, the imports and the names in scope to repository
// nodes. The partial statement at the cursor and the identifiers just before it say what is needed now.
import type { RepositoryGraph } from '../graph/repositoryGraph';
import type { GraphEdge, Language } from '../model/schema';
import { extractFile } from '../parse/extract';
import type { FileGraph, SymbolDef } from '../parse/fileGraph';
import { ParserPool } from '../parse/parser';
import { OPENERS, openBrackets } from './literalAtCursor';

/** Turns a buffer into its per-file graph: in this thread by default, in a worker in an editor host. */
export type ExtractBuffer = (path: string, language: Language, text: string) => Promise<FileGraph>;

export function extractInProcess(pool = new ParserPool()): ExtractBuffer {
  return (path, language, text) => extractFile(pool, path, language, text);
}

export interface CursorQuery {
  /** Repository-relative path of the buffer (it need not exist on disk yet). */
  path: string;
  language: Language;
  /** Buffer text before the cursor. */
  prefix: string;
  /** Buffer text after the cursor. */
  suffix: string;
}

export interface QueryGraph {
  query: CursorQuery;
  file: FileGraph;
  /** Zero-based line of the cursor. */
  cursorLine: number;
  /** Definitions around the cursor, innermost first. */
  enclosing: SymbolDef[];
  /** Resolved references, imports and inheritance from the buffer into the rest of the repository. */
  edges: GraphEdge[];
  /** Every line of the buffer each resolved target is referenced on: how near the cursor it is used. */
  useLines: ReadonlyMap<string, readonly number[]>;
  /** The current line up to the cursor. */
  partialStatement: string;
  /** Identifiers and attribute-chain parts in the lines just before the cursor, nearest first, then those just after it. */
  nearby: string[];
}

/** Lines before the cursor whose identifiers say what the next line is about. */
const NEARBY_LINES = 12;
/**
 * Lines after the cursor (fill-in-the-middle) that say the same: `session_interface.open_session(...)`
 * right below the cursor names what the line being written defines or reads. Fewer than before the
 * cursor, and ranked after them: code below is about the line less often than code above.
 */
const NEARBY_SUFFIX_LINES = 4;

const KEYWORDS = new Set(
  ('and as assert async await break class const continue def del elif else except export extends false finally for from ' +
    'function global if import in is lambda let new none nonlocal not null or pass raise return self super this throw true ' +
    'try type undefined var while with yield cls void typeof instanceof interface implements public private protected readonly static').split(' '),
);

export async function buildQueryGraph(extract: ExtractBuffer, graph: RepositoryGraph, query: CursorQuery): Promise<QueryGraph> {
  const file = await extract(query.path, query.language, query.prefix + closers(query));
  const prefixLines = query.prefix.split('\n');
  const cursorLine = prefixLines.length - 1;
  const resolution = graph.resolveDetached(withImportBeingTyped(file, prefixLines[cursorLine], cursorLine), true);
  const edges = resolution.edges.filter((e) => !e.target.startsWith(`${query.path}#`) && e.target !== query.path && e.kind !== 'CONTAINS' && e.kind !== 'HAS_METHOD' && e.kind !== 'HAS_FIELD');
  return {
    query,
    file,
    cursorLine,
    enclosing: enclosingDefinitions(file, prefixLines, query.language),
    edges,
    useLines: resolution.useLines ?? new Map(),
    partialStatement: prefixLines[cursorLine],
    nearby: [...new Set([...nearbyIdentifiers(prefixLines.slice(-NEARBY_LINES)), ...nearbyIdentifiers(query.suffix.split('\n', NEARBY_SUFFIX_LINES + 1).reverse())])],
  };
}

/**
 * With nothing after the cursor (the end of a file, code not written yet), a definition the cursor
 * is in has no closing braces, and the parser's recovery drops it: the cursor would be in no
 * definition at all. The brackets the prefix leaves open are closed after the cursor, innermost first,
 * as the code will be. Brace languages only: Python's blocks end by indentation.
 */
function closers(query: CursorQuery): string {
  if (query.suffix.trim() !== '' || query.language === 'python') return query.suffix;
  const open = openBrackets(query.prefix);
  return `${query.suffix}${open.reverse().map((at) => `\n${OPENERS[query.prefix[at]]}`).join('')}`;
}

/**
 * `from .core import ` (nothing after `import` yet) parses as no import at all; the module it names
 * is still what the line is about, so resolution is given an import of that module on the cursor's
 * line (an IMPORTS edge the context can follow to the module's names).
 */
function withImportBeingTyped(file: FileGraph, partial: string, line: number): FileGraph {
  const typing = file.language === 'python' ? /^\s*from\s+([.\w]+)\s+import\b/.exec(partial) : null;
  if (!typing || file.imports.some((b) => b.line === line)) return file;
  return { ...file, imports: [...file.imports, { local: '', module: typing[1], imported: null, line, scope: null }] };
}

/**
 * Definitions whose body the cursor is in. Python bodies end at their last statement, so a cursor on
 * a fresh line below still belongs to the definition while no line since is indented at or left of it.
 */
function enclosingDefinitions(file: FileGraph, prefixLines: string[], language: Language): SymbolDef[] {
  const cursorLine = prefixLines.length - 1;
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const encloses = (sym: SymbolDef): boolean => {
    // A variable or type alias whose value spans lines is written in like a body (`export const ZodEnum = $constructor("ZodEnum", (inst, def) => { … })`, a settings dict, a conditional type).
    const variable = sym.kind === 'GlobalVariable' || sym.kind === 'Field' || sym.kind === 'TypeAlias';
    if (sym.kind !== 'Function' && sym.kind !== 'Method' && sym.kind !== 'Class' && sym.kind !== 'Interface' && !variable) return false;
    if (sym.range.startLine >= cursorLine) return false;
    if (cursorLine <= sym.range.endLine) return true;
    if (language !== 'python' || variable) return false;
    for (let line = sym.range.endLine + 1; line <= cursorLine; line++) {
      const text = prefixLines[line];
      const blank = text.trim() === '';
      if (line === cursorLine && blank) return indentOf(text) > sym.range.startCol;
      if (!blank && indentOf(text) <= sym.range.startCol) return false;
    }
    return true;
  };
  return file.symbols.filter(encloses).sort((a, b) => b.range.startLine - a.range.startLine);
}

function nearbyIdentifiers(lines: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const words = lines[i].replace(/(["'`]).*?\1/g, ' ').match(/[A-Za-z_$][\w$]*/g) ?? [];
    for (let j = words.length - 1; j >= 0; j--) {
      const w = words[j];
      if (w.length < 2 || KEYWORDS.has(w.toLowerCase()) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}
