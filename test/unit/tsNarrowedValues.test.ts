// What a TypeScript value is where the code has said more than its declaration, read as the TypeScript
// service reads it (issue 34: bench:callers on rxjs and zod): an `instanceof` test narrows a local where
// it holds, and a module-level const built as an object literal from names (`const z = { ..._schemas,
// iso: _iso }`) has the members of what is spread into it and of what its keys hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph, compareSnapshots, edgeList, parse, snapshot, treeConfig } from './helpers';

const calls = async (files: Record<string, string>) => edgeList(await buildGraph(new Map(Object.entries(files))), (kind) => kind === 'CALLS');

describe('instanceof narrowing (rxjs 7.8.1 Subscription.add shape)', () => {
  const subscription = [
    'export type TeardownLogic = Unsubscribable | (() => void) | void',
    'export interface Unsubscribable { unsubscribe(): void }',
    'export class Subscription implements Unsubscribable {',
    '  add(teardown: TeardownLogic): void {',
    '    if (teardown && teardown !== this) {',
    '      if (teardown instanceof Subscription) {',
    '        if (teardown.closed || teardown._hasParent(this)) return',
    '        teardown._addParent(this)',
    '      }',
    '    }',
    '    teardown instanceof Subscription && teardown._removeParent(this)',
    '    const size = teardown instanceof Subscription ? teardown.size() : 0',
    '    while (teardown instanceof Subscription) teardown = teardown.next()',
    '  }',
    '  remove(teardown: TeardownLogic): void {',
    '    if (!(teardown instanceof Subscription)) teardown._addParent(this)',
    '    if (teardown instanceof Subscription || this.closed) teardown._removeParent(this)',
    '    if (teardown instanceof Subscription) [1].forEach((teardown) => teardown._hasParent(this))',
    '  }',
    '  closed = false',
    '  unsubscribe(): void {}',
    '  size(): number { return 0 }',
    '  next(): Subscription { return this }',
    '  private _hasParent(parent: Subscription) { return false }',
    '  private _addParent(parent: Subscription) {}',
    '  private _removeParent(parent: Subscription) {}',
    '}',
    '',
  ].join('\n');

  it("reads the local as the tested class in an if's block, after &&, in a ternary's true side and a while's body", async () => {
    const edges = await calls({ 'Subscription.ts': subscription });
    for (const method of ['_hasParent', '_addParent', '_removeParent', 'size', 'next']) {
      assert.ok(edges.includes(`CALLS Subscription.ts#Subscription.add -> Subscription.ts#Subscription.${method}`), method);
    }
  });

  it('not where the test may have failed (under !, beside ||), nor for a callback parameter of the same name', async () => {
    const edges = await calls({ 'Subscription.ts': subscription });
    assert.deepEqual(edges.filter((e) => e.startsWith('CALLS Subscription.ts#Subscription.remove')), []);
  });
});

describe('a module-level const built as an object literal from names (zod 4 classic/from-json-schema.ts shape)', () => {
  const files = {
    'schemas.ts': 'export function never() { return 1 }\nexport function string() { return 2 }\n',
    'checks.ts': 'export function regex() { return 1 }\nexport function string() { return 3 }\n',
    'iso.ts': 'export function datetime() { return 1 }\n',
    'convert.ts': [
      'import * as _schemas from "./schemas.js"',
      'import * as _checks from "./checks.js"',
      'import * as _iso from "./iso.js"',
      'const z = {',
      '  ..._schemas,',
      '  ..._checks,',
      '  iso: _iso,',
      '  "never": 3,',
      '}',
      'export function convert() { z.string(); z.regex(); z.iso.datetime(); z.never() }',
      'export function shadowed(z: { regex(): void }) { z.regex() }',
      '',
    ].join('\n'),
  };

  it("reaches what is spread into it (the last spread's name) and the members of what a key holds", async () => {
    const edges = await calls(files);
    assert.deepEqual(edges.filter((e) => e.startsWith('CALLS convert.ts#convert ')), [
      'CALLS convert.ts#convert -> checks.ts#regex',
      'CALLS convert.ts#convert -> checks.ts#string',
      'CALLS convert.ts#convert -> iso.ts#datetime',
    ]);
  });

  it("not a key the literal writes itself, nor through a parameter of the const's name", async () => {
    const edges = await calls(files);
    assert.ok(!edges.some((e) => e.includes('schemas.ts#never')));
    assert.ok(!edges.some((e) => e.startsWith('CALLS convert.ts#shadowed')));
  });
});

describe('a local read from a member (effect 3.22.4 channelExecutor.ts shape)', () => {
  it('holds what the member holds: `const inputExecutor = this._input; inputExecutor.run()`, and through a typed parameter', async () => {
    const edges = await calls({
      'executor.ts': [
        'export class Executor {',
        '  private _input: Executor | undefined',
        '  private _config: Config',
        '  run(): void {}',
        '  close(): void {}',
        '  step(options: { executor: Executor }): void {',
        '    const inputExecutor = this._input',
        '    inputExecutor?.run()',
        '    const other = options.executor',
        '    other.close()',
        '    const name = this._config.name',
        '    name.trim()',
        '  }',
        '}',
        'interface Config { name: string }',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edges, ['CALLS executor.ts#Executor.step -> executor.ts#Executor.close', 'CALLS executor.ts#Executor.step -> executor.ts#Executor.run']);
  });
});

describe('a local holding a field array or a copy of one (rxjs 7.8.1 Subject.ts shape)', () => {
  it('`const { observers } = this` and `this.observers.slice()` hold what the field does: their elements are Observers', async () => {
    const edges = await calls({
      'types.ts': 'export interface Observer<T> {\n  next: (value: T) => void\n  error: (err: any) => void\n  complete: () => void\n}\n',
      'subject.ts': [
        "import { Observer } from './types'",
        'export class Subject<T> {',
        '  observers: Observer<T>[] = []',
        '  error(err: any) {',
        '    const { observers } = this',
        '    while (observers.length) observers.shift()!.error(err)',
        '  }',
        '  next(value: T) {',
        '    const copy = this.observers.slice()',
        '    for (const observer of copy) observer.next(value)',
        '  }',
        '  complete() {',
        '    const named = this.observers.map((o) => o)',
        '    named.pop()!.complete()',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    // `map` gives another array, of what its callback returns: not read as a copy.
    assert.deepEqual(edges, ['CALLS subject.ts#Subject.error -> types.ts#Observer.error', 'CALLS subject.ts#Subject.next -> types.ts#Observer.next']);
  });
});

describe("a function's declared `this` (rxjs 7.8.1 util/lift.ts shape)", () => {
  it('is what `this.` reaches inside that function, in or out of a class, and nowhere else', async () => {
    const edges = await calls({
      'Subscriber.ts': 'export class Subscriber<R> {\n  error(e: unknown): void {}\n  closed = false\n}\n',
      'lift.ts': [
        'import { Subscriber } from "./Subscriber.js"',
        'export function operate<R>(init: (s: Subscriber<R>) => void) {',
        '  return (source: { lift(f: unknown): void }) => source.lift(function (this: Subscriber<R>) {',
        '    try { init(this) } catch (err) { this.error(err) }',
        '  })',
        '}',
        'export class Lifter {',
        '  error(e: unknown): void {}',
        '  run() { this.error(1); [1].forEach(function (this: Subscriber<number>) { this.error(2) }) }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edges.filter((e) => e.includes('.error')), [
      'CALLS lift.ts#Lifter.run -> Subscriber.ts#Subscriber.error',
      'CALLS lift.ts#Lifter.run -> lift.ts#Lifter.error',
      'CALLS lift.ts#operate -> Subscriber.ts#Subscriber.error',
    ]);
  });
});

describe('edits to what these readings depend on, in another file, re-resolve the files that read through them', () => {
  const tree = () =>
    new Map([
      ['types.ts', 'export interface NextObserver { next(): void }\nexport interface ErrorObserver { error(): void; next(): void }\nexport type PartialObserver = NextObserver | ErrorObserver\n'],
      ['schemas.ts', 'export function never() { return 1 }\n'],
      ['checks.ts', 'export function regex() { return 1 }\n'],
      ['base.ts', 'export interface Observer { next(): void }\nexport class Subscriber { next(): void {} }\n'],
      [
        'use.ts',
        [
          'import type { PartialObserver } from "./types.js"',
          'import { Subscriber, type Observer } from "./base.js"',
          'import * as _schemas from "./schemas.js"',
          'import * as _checks from "./checks.js"',
          'const z = { ..._schemas, ..._checks }',
          'export function notify(observer: PartialObserver) { observer.next() }',
          'export function convert() { z.never(); z.regex() }',
          'export class Sink { destination: Subscriber | Observer\n  run() { this.destination.next() } }',
          '',
        ].join('\n'),
      ],
    ]);
  const rewrites: Array<[string, string, string]> = [
    ['an alias gains an alternative', 'types.ts', 'export interface NextObserver { next(): void }\nexport interface ErrorObserver { error(): void; next(): void }\nexport interface CompletionObserver { next(): void }\nexport type PartialObserver = NextObserver | ErrorObserver | CompletionObserver\n'],
    ['an alias becomes one type', 'types.ts', 'export interface NextObserver { next(): void }\nexport interface ErrorObserver { error(): void; next(): void }\nexport type PartialObserver = ErrorObserver\n'],
    ['a spread module gains the name', 'checks.ts', 'export function regex() { return 1 }\nexport function never() { return 2 }\n'],
    ['a spread module loses a name', 'schemas.ts', 'export const other = 1\n'],
    ['a class starts implementing the other alternative', 'base.ts', 'export interface Observer { next(): void }\nexport class Subscriber implements Observer { next(): void {} }\n'],
  ];
  for (const [what, file, text] of rewrites) {
    it(what, async () => {
      const files = tree();
      const graph = await buildGraph(files);
      const callsOfUse = (g: typeof graph) => edgeList(g, (kind) => kind === 'CALLS').filter((e) => e.startsWith('CALLS use.ts'));
      const before = callsOfUse(graph);
      files.set(file, text);
      graph.apply({ upsert: [await parse(file, text)], config: treeConfig(files) });
      const scratch = await buildGraph(files);
      assert.notDeepEqual(callsOfUse(scratch), before, 'the edit changes what use.ts calls');
      assert.deepEqual(compareSnapshots(snapshot(graph), snapshot(scratch)), []);
    });
  }
});
