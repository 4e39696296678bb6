// Loads web-tree-sitter and the WASM grammars kept in `grammars/` once per process (or worker).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language as TSLanguage, Parser } from 'web-tree-sitter';
import type { Language } from '../model/schema';

const GRAMMAR_FILES: Record<Language, string> = {
  python: 'tree-sitter-python.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  go: 'tree-sitter-go.wasm',
  java: 'tree-sitter-java.wasm',
  rust: 'tree-sitter-rust.wasm',
};

/** The grammars folder: next to the sources in development, next to `dist/` in bundles and the .vsix. */
export function findGrammarsDir(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'grammars');
    if (fs.existsSync(path.join(candidate, GRAMMAR_FILES.python))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`Cartograph: no grammars/ folder above ${start}`);
  }
}

export class ParserPool {
  private readonly languages = new Map<Language, Promise<TSLanguage>>();
  private readonly parsers = new Map<Language, Parser>();
  private static runtime: Promise<void> | undefined;

  constructor(private readonly grammarsDir = findGrammarsDir()) {}

  async parser(language: Language): Promise<Parser> {
    let parser = this.parsers.get(language);
    if (!parser) {
      const lang = await this.language(language);
      parser = new Parser();
      parser.setLanguage(lang);
      this.parsers.set(language, parser);
    }
    return parser;
  }

  language(language: Language): Promise<TSLanguage> {
    let loaded = this.languages.get(language);
    if (!loaded) {
      loaded = this.init().then(() => TSLanguage.load(path.join(this.grammarsDir, GRAMMAR_FILES[language])));
      this.languages.set(language, loaded);
    }
    return loaded;
  }

  private init(): Promise<void> {
    const wasm = path.join(this.grammarsDir, 'tree-sitter.wasm');
    ParserPool.runtime ??= Parser.init({ locateFile: () => wasm });
    return ParserPool.runtime;
  }
}
