// Pairs from one source file, through Cartograph's own extractor: the per-file graph gives each
// function's qualified name, signature, docstring and range; a second parse of the same text gives
// the syntax node at that range, from which the docstrings are cut (the way bench:search strips its
// corpora) and the normalised hash is taken.
import type { Node } from 'web-tree-sitter';
import { applyEdits, pythonEdits, tsEdits } from '../../bench/search/corpus';
import type { Language } from '../../src/core/model/schema';
import { extractFile } from '../../src/core/parse/extract';
import type { SymbolDef } from '../../src/core/parse/fileGraph';
import type { ParserPool } from '../../src/core/parse/parser';
import { parseableText } from '../../src/core/parse/tsWorkarounds';
import { normalisedHash } from './normalise';

export interface FunctionCode {
  symbol: SymbolDef;
  /** The extractor's docstring/JSDoc, or for TypeScript the `///` comment right above the definition; '' when none. */
  doc: string;
  /** The definition's source with every docstring/JSDoc inside it removed, dedented. */
  code: string;
  /** normalise.ts's hash of the definition. */
  hash: string;
}

/** Code past this many characters is cut (marked with …): a pair is for a model with a short context. */
export const MAX_CODE_CHARS = 4000;

/** Every Function and Method of a file with its stripped code and normalised hash. */
export async function functionsOf(pool: ParserPool, filePath: string, language: Language, text: string): Promise<FunctionCode[]> {
  const graph = await extractFile(pool, filePath, language, text);
  const functions = graph.symbols.filter((s) => s.kind === 'Function' || s.kind === 'Method');
  if (functions.length === 0) return [];
  const parser = await pool.parser(language);
  const tree = parser.parse(parseableText(text, language, filePath));
  if (!tree) throw new Error(`tree-sitter returned no tree for ${filePath}`);
  try {
    const out: FunctionCode[] = [];
    let lines: string[] | undefined;
    for (const symbol of functions) {
      const { startLine, startCol, endLine, endCol } = symbol.range;
      const node = tree.rootNode.descendantForPosition({ row: startLine, column: startCol }, { row: endLine, column: endCol });
      if (!node) continue;
      const doc = symbol.doc || (language === 'typescript' || language === 'tsx' ? tripleSlashDoc(lines ??= text.split('\n'), startLine) : '');
      out.push({ symbol, doc, code: strippedCode(node, text, language), hash: normalisedHash(node) });
    }
    return out;
  } finally {
    tree.delete();
  }
}

/**
 * The run of `///` line comments right above line `line` (0-based), as one text: ProseMirror, Lezer and
 * CodeMirror document their API this way, which the extractor (JSDoc only) does not read. '' when
 * there is none or it marks the definition `@internal` (not API: its comment is for maintainers).
 */
export function tripleSlashDoc(lines: readonly string[], line: number): string {
  const doc: string[] = [];
  for (let i = line - 1; i >= 0; i--) {
    const m = /^\s*\/\/\/(?!\/)\s?(.*)$/.exec(lines[i]);
    if (!m) break;
    doc.unshift(m[1].trimEnd());
  }
  const text = doc.join('\n').trim();
  return /(^|\s)@internal\b/.test(text) ? '' : text;
}

/** The node's text without docstrings/JSDoc, with the indentation of its first line removed from every line. */
export function strippedCode(node: Node, text: string, language: Language): string {
  const edits = (language === 'python' ? pythonEdits(node, text) : tsEdits(node, text))
    .filter((e) => e.from >= node.startIndex && e.to <= node.endIndex)
    .map((e) => ({ ...e, from: e.from - node.startIndex, to: e.to - node.startIndex }));
  const indent = node.startPosition.column;
  const lines = applyEdits(text.slice(node.startIndex, node.endIndex), edits).split('\n');
  const body = lines.map((l, i) => (i === 0 ? l : l.slice(Math.min(indent, l.length - l.trimStart().length)))).join('\n');
  return body.length > MAX_CODE_CHARS ? `${body.slice(0, MAX_CODE_CHARS)}\n…` : body;
}
