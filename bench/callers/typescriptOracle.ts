// The independent oracle of `bench:callers` for TypeScript: every call and `new` in the caller files,
// placed by the TypeScript language service's `getDefinitionAtPosition` on the callee's last name, the
// whole corpus loaded as one program. The same answer shape as bench/callers/jedi_oracle.py.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { corpusLanguageService } from '../context/oracle';

/** 0-based line and column of the callee's last name, that name, the definitions inside the corpus ([path, line, name]), how many outside. */
export type Call = [number, number, string, Array<[string, number, string]>, number];

export function typescriptCalls(root: string, allFiles: string[], callerFiles: string[]): Map<string, Call[]> {
  const abs = allFiles.map((f) => path.join(root, f));
  const service = corpusLanguageService(root, abs);
  const program = service.getProgram()!;
  const realRoot = fs.realpathSync(root);
  const calls = new Map<string, Call[]>();
  for (const rel of callerFiles) {
    const file = path.join(root, rel);
    const source = program.getSourceFile(file);
    if (!source) continue;
    const list: Call[] = [];
    const visit = (node: ts.Node) => {
      const callee = ts.isCallExpression(node) || ts.isNewExpression(node) ? node.expression : undefined;
      const name = callee && (ts.isIdentifier(callee) ? callee : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name) ? callee.name : undefined);
      if (name) {
        const start = name.getStart(source);
        const at = source.getLineAndCharacterOfPosition(start);
        const targets: Array<[string, number, string]> = [];
        let outside = 0;
        for (const d of service.getDefinitionAtPosition(file, start) ?? []) {
          const target = fs.existsSync(d.fileName) ? fs.realpathSync(d.fileName) : d.fileName;
          const targetSource = program.getSourceFile(d.fileName);
          if (!targetSource || !target.startsWith(realRoot + path.sep) || target.includes(`${path.sep}node_modules${path.sep}`)) {
            outside++;
            continue;
          }
          targets.push([path.relative(realRoot, target), targetSource.getLineAndCharacterOfPosition(d.textSpan.start).line, d.name]);
        }
        list.push([at.line, at.character, name.text, targets, outside]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    calls.set(rel, list);
  }
  return calls;
}
