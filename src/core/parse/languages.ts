// Which language a file is, by its extension: needed by the scan, the watchers and the tsconfig lookup,
// none of which should load tree-sitter to know it.
import * as path from 'node:path';
import type { Language } from '../model/schema';

const EXTENSIONS: Record<string, Language> = {
  '.py': 'python',
  '.pyi': 'python',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.go': 'go',
  '.java': 'java',
  '.rs': 'rust',
};

export function languageOf(filePath: string): Language | undefined {
  return EXTENSIONS[path.extname(filePath).toLowerCase()];
}

/** Every extension that has a language, without the dot (the watchers' glob is built from it). */
export const SOURCE_EXTENSIONS: readonly string[] = Object.keys(EXTENSIONS).map((ext) => ext.slice(1));
