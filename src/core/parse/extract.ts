// Stage 1 entry point: text in, per-file graph out. Language extractors only see a syntax tree.
import type { Node } from 'web-tree-sitter';
import type { Language } from '../model/schema';
import { PARSER_VERSION, type Extracted, type FileGraph } from './fileGraph';
import { sha1 } from './extractUtil';
import type { ParserPool } from './parser';
import { saysGenerated } from './generatedHeader';
import { extractGo } from './go';
import { extractJava } from './java';
import { extractPython } from './python';
import { extractRust } from './rust';
import { parseableText } from './tsWorkarounds';
import { extractTypeScript } from './typescript';

export type Extractor = (root: Node, filePath: string, language: Language) => Extracted;

const EXTRACTORS: Record<Language, Extractor> = {
  python: extractPython,
  typescript: extractTypeScript,
  tsx: extractTypeScript,
  javascript: extractTypeScript,
  go: extractGo,
  java: extractJava,
  rust: extractRust,
};

export async function extractFile(pool: ParserPool, filePath: string, language: Language, text: string): Promise<FileGraph> {
  const parser = await pool.parser(language);
  const tree = parser.parse(parseableText(text, language, filePath));
  if (!tree) throw new Error(`tree-sitter returned no tree for ${filePath}`);
  try {
    const root = tree.rootNode;
    const extracted = EXTRACTORS[language](root, filePath, language);
    return {
      path: filePath,
      language,
      hash: sha1(text),
      parserVersion: PARSER_VERSION,
      lines: text.length === 0 ? 0 : text.split('\n').length,
      syntaxErrors: root.hasError ? countErrors(root) : 0,
      // Go's extractor applies Go's own, stricter rule.
      ...(language !== 'go' && saysGenerated(text) ? { generated: true } : {}),
      ...extracted,
    };
  } finally {
    tree.delete();
  }
}

function countErrors(root: Node): number {
  let errors = 0;
  const cursor = root.walk();
  // Depth-first over nodes that contain errors only: clean subtrees are skipped.
  for (;;) {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) errors++;
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return errors;
      }
    }
  }
}
