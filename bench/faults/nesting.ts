// Fault benchmark: how long the engine takes to index one file of deeply nested parentheses, per
// language and depth. Extraction once grew with the square of the depth (20,000 levels of Python took
// 54 s); it should grow in step with it. Used by bench/nesting-bench.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../src/core/engine';

export interface NestingResult {
  language: string;
  depth: number;
  bytes: number;
  ms: number;
}

/** One file per language: a value nested `depth` parentheses deep, in a declaration the graph keeps. */
const FILES: Array<{ language: string; name: string; text: (nested: string) => string }> = [
  { language: 'python', name: 'deep.py', text: (nested) => `x = ${nested}\n` },
  { language: 'typescript', name: 'deep.ts', text: (nested) => `export const x = ${nested};\n` },
  { language: 'javascript', name: 'deep.js', text: (nested) => `export const x = ${nested};\n` },
  { language: 'go', name: 'deep.go', text: (nested) => `package deep\n\nvar X = ${nested}\n` },
  { language: 'java', name: 'Deep.java', text: (nested) => `class Deep { int x = ${nested}; }\n` },
  { language: 'rust', name: 'deep.rs', text: (nested) => `pub fn deep() -> i32 { ${nested} }\n` },
];

/** Milliseconds to index (scan, read, parse, extract, resolve; memory-only store, parsed in this thread). */
export async function measureNesting(depths: number[]): Promise<NestingResult[]> {
  const results: NestingResult[] = [];
  for (const depth of depths) {
    const nested = `${'('.repeat(depth)}1${')'.repeat(depth)}`;
    for (const file of FILES) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-nesting-'));
      try {
        const text = file.text(nested);
        fs.writeFileSync(path.join(root, file.name), text);
        // includeMinified: one long line of JavaScript would otherwise be skipped as minified.
        const engine = await Engine.open(root, { storeDir: null, workers: 0, includeMinified: true, maxFileSize: Math.max(text.length, 1024 * 1024) });
        const started = performance.now();
        const report = await engine.index();
        const ms = performance.now() - started;
        await engine.close();
        if (report.parsed !== 1) throw new Error(`${file.name} at depth ${depth} was not indexed: ${JSON.stringify(report.skipped)}`);
        results.push({ language: file.language, depth, bytes: Buffer.byteLength(text), ms: Math.round(ms) });
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }
  }
  return results;
}
