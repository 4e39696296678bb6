// Deeply nested code (generated tables, long operator and call chains) is indexed like any other:
// no stack overflow, and no work that grows with the square of the depth. Work is counted, not timed:
// query runs return the captures one run would, and deep trees never ask tree-sitter for a parent
// (it walks down from the root for each). A file too large to parse is refused before it is read.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { Node, Query } from 'web-tree-sitter';
import { Engine } from '../../src/core/engine';
import { Parents, allCaptures } from '../../src/core/parse/extractUtil';
import { ParserPool } from '../../src/core/parse/parser';
import { MAX_PARSED_FILE_SIZE, readSourceFile } from '../../src/core/workspace/readSource';

const DEPTH = 20_000;
const temps: string[] = [];
after(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

function folderWith(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-deep-'));
  temps.push(root);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return root;
}

const nested = (open: string, inner: string, close: string) => open.repeat(DEPTH) + inner + close.repeat(DEPTH);

/** Indexes the files, counting every `Node.parent` asked for while it runs. */
async function indexCountingParents(files: Record<string, string>): Promise<{ engine: Engine; parentCalls: number }> {
  const root = folderWith(files);
  const descriptor = Object.getOwnPropertyDescriptor(Node.prototype, 'parent')!;
  let parentCalls = 0;
  Object.defineProperty(Node.prototype, 'parent', {
    ...descriptor,
    get(this: Node) {
      parentCalls++;
      return descriptor.get!.call(this);
    },
  });
  try {
    const engine = await Engine.open(root, { storeDir: null, workers: 0 });
    const report = await engine.index();
    assert.deepEqual(report.skipped, [], 'every deep file is indexed');
    return { engine, parentCalls };
  } finally {
    Object.defineProperty(Node.prototype, 'parent', descriptor);
  }
}

test(`Python nested ${DEPTH} deep is indexed, its names and all`, async () => {
  const { engine, parentCalls } = await indexCountingParents({
    'parens.py': `x = ${nested('(', 'y', ')')}\n`,
    'calls.py': `from m import f\nz = ${nested('f(', '1', ')')}\n`,
    'chain.py': `w = a${'.b()'.repeat(DEPTH)}\n`,
    'dicts.py': `d = ${nested('{"k": ', '1', '}')}\n`,
  });
  for (const id of ['parens.py', 'parens.py#x', 'calls.py#z', 'chain.py#w', 'dicts.py#d']) assert.ok(engine.graph.graph.hasNode(id), id);
  const calls = engine.graph.fileGraph('calls.py')!.refs.filter((r) => r.kind === 'CALLS' && r.chain.join('.') === 'f');
  assert.equal(calls.length, 1, 'the nested calls are one reference per line');
  // Ordinary Python asks for a few parents (assignments); a walk up from every node would ask ~DEPTH.
  assert.ok(parentCalls < 100, `${parentCalls} Node.parent calls`);
});

test(`TypeScript nested ${DEPTH} deep is indexed, its names and all`, async () => {
  const { engine, parentCalls } = await indexCountingParents({
    'parens.ts': `export const x = ${nested('(', 'y', ')')};\n`,
    'ternary.ts': `export const t = ${'a ? b : '.repeat(DEPTH)}c;\n`,
    'chain.ts': `export const w = a${'.b()'.repeat(DEPTH)};\n`,
    'types.ts': `export type T = ${nested('Array<', 'X', '>')};\n`,
    'ifs.ts': `export function f() {${nested('if (a) {', '', '}')}}\n`,
    'destructure.ts': `export const ${nested('{ a: ', 'z', ' }')} = o;\n`,
  });
  for (const id of ['parens.ts#x', 'ternary.ts#t', 'chain.ts#w', 'types.ts#T', 'ifs.ts#f', 'destructure.ts#z']) assert.ok(engine.graph.graph.hasNode(id), id);
  assert.ok(parentCalls < 100, `${parentCalls} Node.parent calls`);
});

test(`Go, Java and Rust nested ${DEPTH} deep are indexed`, async () => {
  const { engine } = await indexCountingParents({
    'calls.go': `package p\n\nvar X = ${nested('f(', '1', ')')}\n`,
    'Calls.java': `class Calls { int x = ${nested('f(', '1', ')')}; }\n`,
    'parens.rs': `pub fn main() { let x = ${nested('(', '1', ')')}; }\n`,
  });
  for (const id of ['calls.go#X', 'Calls.java#Calls', 'parens.rs#main']) assert.ok(engine.graph.graph.hasNode(id), id);
});

test('Rust modules, macro arguments and use lists 4,000 deep, Java classes 2,000 deep are indexed, with their symbols', async () => {
  const MODULES = 4_000;
  const CLASSES = 2_000;
  const { engine } = await indexCountingParents({
    'mods.rs': `${'mod m { '.repeat(MODULES)}pub fn f() {}${' }'.repeat(MODULES)}\n`,
    'macro.rs': `pub fn main() { m!${'('.repeat(MODULES)}f(1)${')'.repeat(MODULES)}; }\n`,
    'uses.rs': `use a::{${'b::{'.repeat(MODULES)}c${'}'.repeat(MODULES)}};\n`,
    'Nested.java': `${'class C { '.repeat(CLASSES)}void f() {}${' }'.repeat(CLASSES)}\n`,
  });
  for (const id of [`mods.rs#${'m.'.repeat(MODULES)}f`, 'Nested.java#C', `Nested.java#${'C.'.repeat(CLASSES)}f`]) assert.ok(engine.graph.graph.hasNode(id), id.slice(0, 40));
  assert.equal(engine.graph.fileGraph('mods.rs')!.inlineModules?.length, MODULES);
  assert.equal(engine.graph.fileGraph('Nested.java')!.symbols.length, CLASSES + 1);
  const calls = engine.graph.fileGraph('macro.rs')!.refs.filter((r) => r.kind === 'CALLS').map((r) => r.chain.join('::'));
  assert.deepEqual(calls.sort(), ['f', 'm!'], 'the call inside the innermost macro argument');
  const module = ['a', ...Array<string>(MODULES).fill('b')].join('::');
  assert.deepEqual(engine.graph.fileGraph('uses.rs')!.imports.map((i) => [i.local, i.module === module, i.imported]), [['c', true, 'c']]);
});

test('query runs of bounded depth return the captures, in the order, of one unbounded run', async () => {
  const pool = new ParserPool();
  const parser = await pool.parser('python');
  // Parent-child patterns and one node captured by two patterns, nested deeper than the runs.
  const query = new Query(await pool.language('python'), '(call function: (_) @callee)\n(identifier) @id\n(argument_list (identifier) @arg)\n(attribute) @attr');
  const calls = Array.from({ length: 300 }, (_, i) => (i % 3 ? 'g(a.b, ' : 'h.g(c, ')).join('');
  const tree = parser.parse(`def f():\n    return ${calls}c.d(e)${')'.repeat(300)}\n`)!;
  try {
    const key = (captures: ReturnType<Query['captures']>) => captures.map((c) => `${c.name}@${c.node.startIndex}-${c.node.endIndex}`);
    const unbounded = key(query.captures(tree.rootNode));
    assert.ok(unbounded.length > 500);
    for (const runDepth of [1, 2, 7]) assert.deepEqual(key(allCaptures(query, tree.rootNode, runDepth)), unbounded, `run depth ${runDepth}`);
  } finally {
    tree.delete();
  }
});

test('Parents answers as Node.parent does, in a deep tree', async () => {
  const parser = await new ParserPool().parser('typescript');
  const tree = parser.parse(`const x = ${'[a, '.repeat(300)}1${']'.repeat(300)};`)!;
  try {
    const parents = new Parents(tree.rootNode);
    for (const node of tree.rootNode.descendantsOfType('identifier')) {
      if (!node) continue;
      assert.equal(parents.of(node)?.id, node.parent?.id);
      assert.equal(parents.previousSibling(node)?.id, node.previousSibling?.id);
    }
  } finally {
    tree.delete();
  }
});

test('a file larger than the parser takes is refused from its size, whatever the size limit', async () => {
  const root = folderWith({ 'small.py': 'x = 1\n' });
  // Sparse: the refusal must come from the size alone, before any byte is read (these would read as binary).
  fs.truncateSync(path.join(root, 'small.py'), 0);
  const huge = path.join(root, 'huge.py');
  fs.writeFileSync(huge, '');
  fs.truncateSync(huge, MAX_PARSED_FILE_SIZE + 1);
  const read = await readSourceFile(huge, 10 * MAX_PARSED_FILE_SIZE);
  assert.equal(read.ok, false);
  assert.equal(!read.ok && read.reason, 'too-large');
  assert.match(!read.ok ? read.detail : '', /the most Cartograph parses in one file/);
  const engine = await Engine.open(root, { storeDir: null, workers: 0, maxFileSize: 10 * MAX_PARSED_FILE_SIZE });
  const report = await engine.index();
  assert.deepEqual(report.skipped.map((s) => `${s.path}: ${s.reason}`), ['huge.py: too-large']);
});
