// No import cycles between the project's own modules, type-only imports included: a cycle means two
// modules that cannot be read (or changed) one without the other, and a type-only one is usually a
// shared type living in the wrong module. The import graph is read with TypeScript's own pre-processor
// (static imports, re-exports, `import()` and `typeof import()`), so the check needs no bundler.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const FOLDERS = ['src', 'webview-ui'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The project file a relative specifier names, or undefined for packages and files outside the set. */
function resolve(from: string, specifier: string, files: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => files.has(candidate));
}

function importGraph(): Map<string, string[]> {
  const files = new Set(FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder))));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((f) => resolve(file, f.fileName, files)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every strongly connected component of more than one file (Tarjan), each as a sorted list of paths. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(ROOT, member));
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('the import graph of src/ and webview-ui/ has no cycles, type-only imports included', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `read the project's modules (${graph.size})`);
  assert.ok([...graph.values()].reduce((n, targets) => n + targets.length, 0) > graph.size, 'and their imports');
  assert.deepEqual(cycles(graph), []);
});

test('the cycle check finds a cycle, type-only or not', () => {
  const a = '/x/a.ts';
  const b = '/x/b.ts';
  const c = '/x/c.ts';
  assert.deepEqual(cycles(new Map([[a, [b]], [b, [c]], [c, [a]]])).length, 1);
  assert.deepEqual(cycles(new Map([[a, [b]], [b, [c]], [c, []]])), []);
  const info = ts.preProcessFile("import type { X } from './b';\nexport { Y } from './c';\nconst z: typeof import('./d') = null!;", true, true);
  assert.deepEqual(info.importedFiles.map((f) => f.fileName), ['./b', './c', './d']);
});
