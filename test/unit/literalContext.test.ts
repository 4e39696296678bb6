// The object literal at the cursor: its other keys say which type it is checked against, so the
// context can carry that type's members (the next line is another key) where the graph cannot type
// the literal itself. Real code: TanStack Query's `this.#mutationCache.notify({ type: 'observerAdded', ... })`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { ContextAssembler, DEFAULT_ASSEMBLE_OPTIONS } from '../../src/core/completion/assemble';
import { literalAtCursor } from '../../src/core/completion/literalAtCursor';
import { FIXTURES, buildGraph, readTree } from './helpers';

const TANSTACK = path.join(FIXTURES, 'real', 'tanstack-query-core', 'src');

/** The file cut as the benchmark cuts it: the cursor at the start of `line` (zero-based), the line itself gone, the rest after it. */
function cursorAtLine(file: string, line: number): { prefix: string; suffix: string } {
  const lines = fs.readFileSync(path.join(TANSTACK, file), 'utf8').split('\n');
  const indent = /^\s*/.exec(lines[line])![0];
  return { prefix: `${lines.slice(0, line).join('\n')}\n${indent}`, suffix: `\n${lines.slice(line + 1).join('\n')}` };
}

describe('the object literal at the cursor', () => {
  it('reads the other keys and their string values, above and below the cursor, not those of nested literals or calls', () => {
    const { prefix, suffix } = cursorAtLine('mutation.ts', 136); // `mutation: this,` in `notify({ type: 'observerAdded', ... })`
    assert.deepEqual(literalAtCursor(prefix, suffix), { keys: ['type', 'observer'], values: new Map([['type', 'observerAdded']]) });
    const nested = literalAtCursor('f({\n  a: 1,\n  b: g({ inner: 2 }),\n  m(x) { return { deep: 1 } },\n  ', '\n  "quoted": \'v\',\n  ...spread,\n  c,\n})');
    assert.deepEqual(nested?.keys, ['a', 'b', 'm', 'quoted', 'c']);
    assert.deepEqual([...nested!.values], [['quoted', 'v']]);
  });

  it('with nothing after the cursor (writing at the end of a file, the literal not closed yet), the keys written so far', () => {
    const { prefix } = cursorAtLine('mutation.ts', 136);
    assert.deepEqual(literalAtCursor(prefix, ''), { keys: ['type'], values: new Map([['type', 'observerAdded']]) });
    assert.deepEqual(literalAtCursor('push({\n  code: "too_big",\n  input,\n  ', '\n  }\n}\n')?.keys, ['code', 'input'], 'a suffix that closes an enclosing block, not the literal');
    assert.equal(literalAtCursor('function f(a) {\n  ', ''), undefined, 'a function body');
  });

  it('is not fooled by blocks, strings and comments', () => {
    assert.equal(literalAtCursor('function f(a) {\n  const x = 1;\n  ', '\n}'), undefined, 'a function body');
    assert.equal(literalAtCursor('items.forEach((x) => {\n  ', '\n})'), undefined, 'an arrow body');
    assert.equal(literalAtCursor('if (ok) {\n  ', '\n}'), undefined);
    assert.equal(literalAtCursor('class A {\n  ', '\n}'), undefined);
    assert.deepEqual(literalAtCursor('const o = {\n  a: "}{", // }\n  /* { */ b: 2,\n  ', '\n}')?.keys, ['a', 'b']);
    assert.deepEqual(literalAtCursor('return {\n  ok: true,\n  ', '\n}')?.keys, ['ok']);
  });
});

describe('types of an untyped literal in the context (real TanStack Query)', () => {
  let assembler: ContextAssembler;
  before(async () => {
    assembler = new ContextAssembler(await buildGraph(readTree(TANSTACK), 'tanstack'), TANSTACK);
  });

  it('the notify event a `{ type: \'observerAdded\', observer }` literal is: its interface is in the context with the member the line needs', async () => {
    const ctx = await assembler.assemble({ path: 'mutation.ts', language: 'typescript', ...cursorAtLine('mutation.ts', 136) }, DEFAULT_ASSEMBLE_OPTIONS);
    const covers = new Set(ctx.snippets.flatMap((s) => s.covers));
    assert.ok(covers.has('mutationCache.ts#NotifyEventMutationObserverAdded.mutation'), ctx.snippets.map((s) => s.title).join('\n'));
  });

  it('with nothing after the cursor, the keys above it still pick the event type', async () => {
    const { prefix } = cursorAtLine('mutation.ts', 136);
    const ctx = await assembler.assemble({ path: 'mutation.ts', language: 'typescript', prefix, suffix: '' }, DEFAULT_ASSEMBLE_OPTIONS);
    const covers = new Set(ctx.snippets.flatMap((s) => s.covers));
    assert.ok(covers.has('mutationCache.ts#NotifyEventMutationObserverAdded.mutation'), ctx.snippets.map((s) => s.title).join('\n'));
  });

  it('no literal, no guessed type: a statement line in a method body offers none of the notify events', async () => {
    const ctx = await assembler.assemble({ path: 'mutation.ts', language: 'typescript', ...cursorAtLine('mutation.ts', 133) }, DEFAULT_ASSEMBLE_OPTIONS);
    assert.ok(!ctx.snippets.some((s) => s.title.includes('NotifyEventMutationObserver')), ctx.snippets.map((s) => s.title).join('\n'));
  });
});
