// Values whose declared type is composed or written elsewhere in the call, in TypeScript resolution,
// read as the TypeScript language service reads them (issue 34: bench:callers on effect, where the
// service is the oracle): `Foo | undefined` has Foo's members, an intersection its named constituent's,
// a callback's parameters take the function type written as the call's type argument or, for an
// object literal's methods, the member of the callee's object parameter type, and calling a typed value
// itself calls its type's call signature.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { FIXTURES, buildGraph, compareSnapshots, edgeList, parse, readTree, snapshot, treeConfig } from './helpers';

describe('composed and written types (real TanStack Query; effect@3.22.4 shapes)', () => {
  let tanstack: string[];
  let effect: string[];
  before(async () => {
    tanstack = edgeList(await buildGraph(readTree(path.join(FIXTURES, 'real', 'tanstack-query-core', 'src'))));
    // Cut down from effect's src/Pipeable.ts, Predicate.ts, Function.ts, Metric.ts, internal/metric.ts and Micro.ts.
    effect = edgeList(
      await buildGraph(
        new Map([
          ['Pipeable.ts', 'export interface Pipeable {\n  pipe<A>(this: A): A\n}\n'],
          ['Predicate.ts', 'export interface Predicate<in A> {\n  (a: A): boolean\n}\nexport const not = <A>(self: Predicate<A>): Predicate<A> => (a) => !self(a)\n'],
          ['Function.ts', 'export const dual: <DataLast, DataFirst>(arity: number, body: DataFirst) => DataLast & DataFirst = (arity, body) => body as any\n'],
          [
            'Metric.ts',
            [
              'import type { Pipeable } from "./Pipeable.js"',
              'export interface Metric<in out Type, in In, out Out> extends Pipeable {',
              '  unsafeUpdate(input: In, extraTags: ReadonlyArray<string>): void',
              '}',
              'export declare namespace Metric { export type Any = Metric<any, any, any> }',
              '',
            ].join('\n'),
          ],
          [
            'internal/metric.ts',
            [
              'import { dual } from "../Function.js"',
              'import type * as Metric from "../Metric.js"',
              'export const mapInput = dual<',
              '  <In, In2>(f: (input: In2) => In) => <Type, Out>(self: Metric.Metric<Type, In, Out>) => Metric.Metric<Type, In2, Out>,',
              '  <Type, In, Out, In2>(self: Metric.Metric<Type, In, Out>, f: (input: In2) => In) => Metric.Metric<Type, In2, Out>',
              '>(2, (self, f) => ({ update: (input: any, extraTags: ReadonlyArray<string>) => self.unsafeUpdate(f(input), extraTags) }) as any)',
              'export const tagged = <M extends Metric.Metric.Any>(self: M & Metric.Metric<unknown, number, void>, last: Metric.Metric<unknown, number, void> | undefined) => {',
              '  last?.unsafeUpdate(1, [])',
              '  return self.pipe()',
              '}',
              '',
            ].join('\n'),
          ],
          [
            'Micro.ts',
            [
              'export class MicroFiberImpl<A, E> {',
              '  getCont(symbol: symbol): unknown { return symbol }',
              '  yieldWith(value: unknown): unknown { return value }',
              '}',
              'const makeExit = <Fn>(options: {',
              '  readonly op: "Success" | "Failure"',
              '  readonly eval: (this: { readonly value: unknown }, fiber: MicroFiberImpl<unknown, unknown>) => unknown',
              '}): Fn => options as any',
              'export const succeed: <A>(value: A) => unknown = makeExit({',
              '  op: "Success",',
              '  eval(fiber) {',
              '    const cont = fiber.getCont(Symbol())',
              '    return cont ? cont : fiber.yieldWith(this)',
              '  }',
              '})',
              'export const fail: <E>(error: E) => unknown = makeExit({ op: "Failure", eval: (fiber) => fiber.yieldWith(1) })',
              '',
            ].join('\n'),
          ],
        ]),
      ),
    );
  });

  it('a parameter typed `Foo | undefined` reaches Foo\'s members, and calling it calls Foo\'s call signature: `combine: CombineFn<R> | undefined` then `combine(input)`', () => {
    const out = tanstack.filter((e) => e.startsWith('CALLS queriesObserver.ts#QueriesObserver.#combineResult ->'));
    assert.ok(out.includes('CALLS queriesObserver.ts#QueriesObserver.#combineResult -> queriesObserver.ts#CombineFn'), out.join('\n'));
    const tagged = effect.filter((e) => e.startsWith('CALLS internal/metric.ts#tagged ->'));
    assert.ok(tagged.includes('CALLS internal/metric.ts#tagged -> Metric.ts#Metric.unsafeUpdate'), tagged.join('\n'));
  });

  it('an intersection with a type parameter is read through its named constituent: `self: M & Metric.Metric<…>` → `self.pipe()` is Pipeable.pipe, inherited by Metric', () => {
    assert.ok(effect.includes('CALLS internal/metric.ts#tagged -> Pipeable.ts#Pipeable.pipe'), effect.join('\n'));
  });

  it('an untyped callback parameter takes the function type written as the call\'s type argument with as many parameters: `dual<DataLast, DataFirst>(2, (self, f) => self.unsafeUpdate(…))`', () => {
    assert.ok(effect.includes('CALLS internal/metric.ts#mapInput -> Metric.ts#Metric.unsafeUpdate'), effect.join('\n'));
  });

  it('the methods of an object literal passed to a call take the callee\'s declared member types, a declared `this` skipped: `makeExit({ eval(fiber) { fiber.getCont(…) } })`', () => {
    const calls = effect.filter((e) => /^CALLS Micro\.ts#(succeed|fail) ->/.test(e));
    for (const expected of ['succeed -> Micro.ts#MicroFiberImpl.getCont', 'succeed -> Micro.ts#MicroFiberImpl.yieldWith', 'fail -> Micro.ts#MicroFiberImpl.yieldWith']) {
      assert.ok(calls.includes(`CALLS Micro.ts#${expected}`), `${expected}\n${calls.join('\n')}`);
    }
  });

  it('a called parameter of an interface type with a call signature calls that interface: `self(a)` with `self: Predicate<A>`', () => {
    assert.ok(effect.includes('CALLS Predicate.ts#not -> Predicate.ts#Predicate'), effect.join('\n'));
  });
});

// effect@3.22.4's src/DateTime.ts declares `type DateTime`, interfaces extending `DateTime.Proto`, and then
// `namespace DateTime { interface Proto extends Pipeable }`; internal/dateTime.ts returns `DateTime.Zoned`.
describe('namespaces: their members, and a namespace merged with a type of its name (effect@3.22.4 shapes)', () => {
  const pipeable = 'export interface Pipeable {\n  pipe<A>(this: A): A\n}\n';
  const namespace = 'export declare namespace DateTime {\n  export type Input = DateTime | Date\n  export interface Proto extends Pipeable {}\n}\n';
  const dateTime = (withNamespace: boolean) =>
    [
      'import type { Pipeable } from "./Pipeable.js"',
      'export type DateTime = Utc | Zoned',
      'export interface Utc extends DateTime.Proto { readonly _tag: "Utc" }',
      'export interface Zoned extends DateTime.Proto { readonly _tag: "Zoned" }',
      withNamespace ? namespace : '',
    ].join('\n');
  const tree = (withNamespace: boolean) =>
    new Map([
      ['Pipeable.ts', pipeable],
      ['DateTime.ts', dateTime(withNamespace)],
      ['internal/dateTime.ts', 'import type * as DateTime from "../DateTime.js"\nexport const unsafeMakeZoned = (input: DateTime.DateTime.Input): DateTime.Zoned => input as any\n'],
      ['Cron.ts', 'import * as dateTime from "./internal/dateTime.js"\nexport const match = (d: Date) => dateTime.unsafeMakeZoned(d).pipe()\n'],
      ['Runtime.ts', 'export namespace Scheduler {\n  export interface Task { run(): void }\n  export function make(): Task { return { run() {} } }\n}\n'],
      ['Fiber.ts', 'import { Scheduler } from "./Runtime.js"\nexport interface Job extends Scheduler.Task {}\nexport const start = (job: Job) => { Scheduler.make(); job.run() }\n'],
    ]);

  it('`N.f()` calls the namespace\'s function, `extends N.I` inherits its interface, and that interface\'s members are reached', async () => {
    const edges = edgeList(await buildGraph(tree(true)));
    for (const expected of ['CALLS Fiber.ts#start -> Runtime.ts#Scheduler.make', 'CALLS Fiber.ts#start -> Runtime.ts#Scheduler.Task.run', 'INHERITS Fiber.ts#Job -> Runtime.ts#Scheduler.Task']) {
      assert.ok(edges.includes(expected), `${expected}\n${edges.filter((e) => e.includes('Fiber.ts#')).join('\n')}`);
    }
  });

  it('`DateTime.Proto` is the namespace\'s although the type alias `DateTime` comes first: `unsafeMakeZoned(d).pipe()` is Pipeable.pipe', async () => {
    const edges = edgeList(await buildGraph(tree(true)));
    for (const expected of ['INHERITS DateTime.ts#Zoned -> DateTime.ts#DateTime@2.Proto', 'CALLS Cron.ts#match -> Pipeable.ts#Pipeable.pipe']) {
      assert.ok(edges.includes(expected), `${expected}\n${edges.filter((e) => e.includes('Cron.ts#') || e.startsWith('INHERITS')).join('\n')}`);
    }
  });

  it('a class extending a call\'s result inherits the type the call returns: `class String$ extends make<string>(ast)` then `String$.pipe(…)`; `extends transform(…).annotations(…)`', async () => {
    const edges = edgeList(
      await buildGraph(
        new Map([
          ['Pipeable.ts', pipeable],
          [
            'Schema.ts',
            [
              'import type { Pipeable } from "./Pipeable.js"',
              'export interface Schema<A> extends Pipeable { readonly ast: unknown }',
              'export interface SchemaClass<A> extends Schema<A> { new (_: never): Schema<A>; annotations(a: unknown): SchemaClass<A> }',
              'export function make<A>(ast: unknown): SchemaClass<A> { return class {} as any }',
              'class String$ extends make<string>(1) {}',
              'export class Lowercased extends String$.pipe() {}',
              'export interface transform<A> extends Schema<A> { annotations(a: unknown): transform<A> }',
              'export function transform<A>(from: unknown): transform<A> { return from as any }',
              'export class Lowercase extends transform(String$).annotations({}) {}',
              '',
            ].join('\n'),
          ],
        ]),
      ),
    );
    for (const expected of [
      'INHERITS Schema.ts#String$ -> Schema.ts#SchemaClass',
      'CALLS Schema.ts#String$ -> Schema.ts#make',
      'CALLS Schema.ts#Lowercased -> Pipeable.ts#Pipeable.pipe',
      'CALLS Schema.ts#Lowercase -> Schema.ts#transform.annotations',
      'INHERITS Schema.ts#Lowercase -> Schema.ts#transform',
    ]) {
      assert.ok(edges.includes(expected), `${expected}\n${edges.filter((e) => !e.startsWith('CONTAINS')).join('\n')}`);
    }
  });

  it('a namespace added to, or removed from, beside a type of its name re-resolves the files that read through it', async () => {
    for (const [from, to] of [[false, true], [true, false]]) {
      const graph = await buildGraph(tree(from));
      const after = tree(to);
      graph.apply({ upsert: [await parse('DateTime.ts', after.get('DateTime.ts')!)], config: treeConfig(after) });
      assert.deepEqual(compareSnapshots(snapshot(graph), snapshot(await buildGraph(after))), [], `namespace ${to ? 'added' : 'removed'}`);
    }
  });
});

/** The CALLS edges of a graph built from `files` (those from `from` only, when given). */
async function callsOf(files: Array<[string, string]>, from = ''): Promise<string[]> {
  return edgeList(await buildGraph(new Map(files))).filter((e) => e.startsWith(`CALLS ${from}`));
}

// Values TypeScript types where they are written or passed (effect@3.22.4, zod@4.6.7 and rxjs@7.8.1 shapes),
// each read off bench:callers' misses on those dev corpora.
describe('values typed where they are written or passed', () => {
  it('calling a variable of a callable interface calls the variable and the interface\'s call signature: `arrEq(a, b)` with `const arrEq = equivalence.array(…)`; `new ZodObject(…)` and `$ZodString.init(…)` through the const merged with an interface of its name', async () => {
    const calls = await callsOf([
      [
        'Equivalence.ts',
        [
          'export interface Equivalence<in A> {\n  (self: A, that: A): boolean\n}',
          'export const make = <A>(f: (a: A, b: A) => boolean): Equivalence<A> => f',
          'export const number: Equivalence<number> = make((a, b) => a === b)',
          'export const array = <A>(item: Equivalence<A>): Equivalence<ReadonlyArray<A>> => make((a, b) => a.length === b.length)',
          'export class Options { readonly fallback: Equivalence<string> = make((a, b) => a === b) }',
          // zod's shape: an interface and a const of one name, the const's type a constructor interface.
          'export interface $constructor<T> { new (def: unknown): T; init(inst: T, def: unknown): void }',
          'export interface ZodObject { shape: unknown }',
          'export interface $ZodString { format: string }',
          'export const $ZodString: $constructor<$ZodString> = null as any',
          'export const ZodObject: $constructor<ZodObject> = null as any',
          '',
        ].join('\n'),
      ],
      [
        'Cron.ts',
        [
          'import * as equivalence from "./Equivalence.js"',
          'const arrEq = equivalence.array(equivalence.number)',
          'export const f = (a: number[], b: number[]) => arrEq(a, b)',
          'export const g = (o: equivalence.Options) => o.fallback("a", "b")',
          'export const h = () => equivalence.make((a: number, b: number) => a === b)',
          'export const object = () => new equivalence.ZodObject({})',
          'export const string = (inst: unknown) => equivalence.$ZodString.init(inst, {})',
          '',
        ].join('\n'),
      ],
    ], 'Cron.ts#');
    for (const expected of ['f -> Cron.ts#arrEq', 'f -> Equivalence.ts#Equivalence', 'g -> Equivalence.ts#Options.fallback', 'g -> Equivalence.ts#Equivalence', 'object -> Equivalence.ts#$constructor', 'string -> Equivalence.ts#$constructor.init']) {
      assert.ok(calls.includes(`CALLS Cron.ts#${expected}`), `${expected}\n${calls.join('\n')}`);
    }
    // A function returning the interface is no value of it: calling it calls the function only.
    assert.deepEqual(calls.filter((e) => e.startsWith('CALLS Cron.ts#h ->')), ['CALLS Cron.ts#h -> Equivalence.ts#make']);
  });

  it('the members of an options object typed in place have their written types: `options.while()` with `options: { while: LazyArg<boolean> }`, `options.sched.schedule()`', async () => {
    const calls = await callsOf([
      ['Function.ts', 'export type LazyArg<A> = () => A\nexport interface Predicate<in A> {\n  (a: A): boolean\n}\nexport class Scheduler { schedule(): void {} }\n'],
      [
        'Micro.ts',
        [
          'import type { LazyArg, Predicate, Scheduler } from "./Function.js"',
          'export const whileLoop = (options: { readonly while: LazyArg<boolean>; readonly body: LazyArg<number>; check?: Predicate<number>; sched: Scheduler }) => {',
          '  while (options.while()) { options.check?.(options.body()) }',
          '  options.sched.schedule()',
          '}',
          'export const shadowed = (options: { sched: Scheduler }) => [1].map((options) => options.sched.schedule())',
          '',
        ].join('\n'),
      ],
    ], 'Micro.ts#');
    assert.deepEqual(calls, ['CALLS Micro.ts#whileLoop -> Function.ts#LazyArg', 'CALLS Micro.ts#whileLoop -> Function.ts#Predicate', 'CALLS Micro.ts#whileLoop -> Function.ts#Scheduler.schedule']);
  });

  it('a parameter of a generic function type alias typed by a type parameter of its own is that parameter\'s bound: `const fn: $Parse = (schema) => schema._zod.run(…)`', async () => {
    const src = [
      'export interface _Internals { run(x: unknown): unknown }',
      'export interface ZType { _zod: _Internals }',
      'export type $Parse = <T extends ZType>(schema: T, value: unknown) => unknown',
      'export type Handler<E> = (event: E) => void',
      'export class Ev { stop(): void {} }',
      'export const _parse = () => { const fn: $Parse = (schema, value) => schema._zod.run(value); return fn }',
      'export const h: Handler<Ev> = (e) => e.stop()',
      '',
    ].join('\n');
    const calls = await callsOf([['a.ts', src]]);
    // The alias's own type parameter is still fixed where the alias is used (`Handler<Ev>`).
    assert.deepEqual(calls, ['CALLS a.ts#_parse.fn -> a.ts#_Internals.run', 'CALLS a.ts#h -> a.ts#Ev.stop']);
  });

  it('a callback passed to a constructor takes the constructor\'s parameter types: `new Observable((subscriber) => subscriber.next(n))` (rxjs@7.8.1 shape)', async () => {
    const tree = new Map([
      ['Subscriber.ts', 'export class Subscriber<T> { next(v: T): void {} complete(): void {} }\n'],
      ['Observable.ts', 'import { Subscriber } from "./Subscriber.js"\nexport class Observable<T> {\n  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}\n}\n'],
      ['range.ts', 'import { Observable } from "./Observable.js"\nexport function range(n: number) {\n  return new Observable<number>((subscriber) => { subscriber.next(n); subscriber.complete() })\n}\n'],
    ]);
    const calls = await callsOf([...tree], 'range.ts#');
    assert.deepEqual(calls, ['CALLS range.ts#range -> Observable.ts#Observable', 'CALLS range.ts#range -> Subscriber.ts#Subscriber.complete', 'CALLS range.ts#range -> Subscriber.ts#Subscriber.next']);
    // The constructor's signature changed in its own file: the caller's file is re-resolved.
    const graph = await buildGraph(tree);
    const after = new Map(tree).set('Observable.ts', tree.get('Observable.ts')!.replace('subscriber: Subscriber<T>', 'subscriber: unknown'));
    graph.apply({ upsert: [await parse('Observable.ts', after.get('Observable.ts')!)], config: treeConfig(after) });
    assert.deepEqual(compareSnapshots(snapshot(graph), snapshot(await buildGraph(after))), []);
  });

  it('names destructured from `this` or a typed value are those members: `const { _timestampProvider: clock } = this` then `clock.now()` (rxjs@7.8.1 shape)', async () => {
    const tree = new Map([
      ['types.ts', 'export interface TimestampProvider { now(): number }\nexport class Buffer { push(x: number): void {} }\n'],
      [
        'Replay.ts',
        [
          'import { TimestampProvider, Buffer } from "./types.js"',
          'export class Replay {',
          '  private _timestampProvider: TimestampProvider',
          '  private _buffer: Buffer',
          '  next(v: number) {',
          '    const { _buffer, _timestampProvider: clock } = this',
          '    _buffer.push(clock.now())',
          '  }',
          '}',
          'export function trim(r: { clock: TimestampProvider }) {',
          '  const { clock } = r',
          '  return clock.now()',
          '}',
          '',
        ].join('\n'),
      ],
    ]);
    const calls = await callsOf([...tree]);
    assert.deepEqual(calls, ['CALLS Replay.ts#Replay.next -> types.ts#Buffer.push', 'CALLS Replay.ts#Replay.next -> types.ts#TimestampProvider.now', 'CALLS Replay.ts#trim -> types.ts#TimestampProvider.now']);
  });

  it('`for (const o of this.observers)` takes a field\'s elements, and `Partial<Observer<T>>` has Observer\'s members (rxjs@7.8.1 shapes)', async () => {
    const tree = new Map([
      ['types.ts', 'export interface Observer<T> { next(v: T): void; error(e: unknown): void; complete(): void }\n'],
      [
        'Subject.ts',
        [
          'import { Observer } from "./types.js"',
          'export class Subject<T> {',
          '  private currentObservers: Observer<T>[] | null = null',
          '  constructor(private readonly partial: Partial<Observer<T>>, private readonly others: ReadonlyArray<Observer<T>>) {}',
          '  next(value: T) {',
          '    for (const observer of this.currentObservers!) observer.next(value)',
          '  }',
          '  error(e: unknown) {',
          '    this.partial.error?.(e)',
          '  }',
          '  complete() {',
          '    [1].forEach(() => { for (const o of this.others) o.complete() })',
          '  }',
          '}',
          '',
        ].join('\n'),
      ],
    ]);
    const calls = await callsOf([...tree]);
    assert.deepEqual(calls, ['CALLS Subject.ts#Subject.complete -> types.ts#Observer.complete', 'CALLS Subject.ts#Subject.error -> types.ts#Observer.error', 'CALLS Subject.ts#Subject.next -> types.ts#Observer.next']);
  });

  it('a map\'s `.get(key)` is one of its values: `this.handlers.get(k)!.handle()` with `handlers: Map<Key, Handler>`, a local `ReadonlyMap`', async () => {
    const calls = await callsOf([
      ['types.ts', 'export class Handler { handle(): void {} }\nexport class Key {}\n'],
      [
        'Registry.ts',
        [
          'import { Handler, Key } from "./types.js"',
          'export class Registry {',
          '  private handlers: Map<Key, Handler> = new Map()',
          '  field(k: Key) { this.handlers.get(k)!.handle() }',
          '  local(m: ReadonlyMap<string, Handler>) { const h = m.get("x"); h?.handle() }',
          '  keyed(m: Map<Handler, Key>) { m.get(new Handler())?.toString() }',
          '}',
          '',
        ].join('\n'),
      ],
    ], 'Registry.ts#');
    const handled = calls.filter((e) => e.endsWith('-> types.ts#Handler.handle'));
    // Not the keys: `Map<Handler, Key>` gives a Key.
    assert.deepEqual(handled, ['CALLS Registry.ts#Registry.field -> types.ts#Handler.handle', 'CALLS Registry.ts#Registry.local -> types.ts#Handler.handle']);
  });

  it('a parameter or local of a union of named types reaches each one\'s member: `o?.next?.(v)` with `o: NextObserver<T> | ErrorObserver<T> | undefined`', async () => {
    const calls = await callsOf([
      ['types.ts', 'export interface NextObserver<T> { next(v: T): void }\nexport interface ErrorObserver<T> { next?(v: T): void; error(e: unknown): void }\nexport class Sub { next(v: unknown): void {} }\n'],
      [
        'use.ts',
        [
          'import { NextObserver, ErrorObserver, Sub } from "./types.js"',
          'export function emit<T>(o: NextObserver<T> | ErrorObserver<T> | undefined, v: T) { o?.next?.(v) }',
          'export function fail(e: unknown) { const o: (Sub | ErrorObserver<number>) = new Sub(); o.error(e) }',
          '',
        ].join('\n'),
      ],
    ], 'use.ts#');
    assert.deepEqual(calls, ['CALLS use.ts#emit -> types.ts#ErrorObserver.next', 'CALLS use.ts#emit -> types.ts#NextObserver.next', 'CALLS use.ts#fail -> types.ts#ErrorObserver.error', 'CALLS use.ts#fail -> types.ts#Sub']);
  });

  it("a field of a union reaches each alternative's member but an alternative's base's: `this.destination.next()` with `destination: Subscriber<any> | Observer<any>` is Subscriber's (rxjs@7.8.1)", async () => {
    const calls = await callsOf([
      ['types.ts', 'export interface Observer<T> { next(v: T): void }\nexport interface Logger { next(v: unknown): void }\n'],
      [
        'Subscriber.ts',
        [
          'import type { Observer, Logger } from "./types.js"',
          'export class Subscriber<T> implements Observer<T> {',
          '  protected destination: Subscriber<any> | Observer<any>',
          '  private sink: Observer<T> | Logger',
          '  next(v: T): void { this.destination.next(v) }',
          '  log(v: T): void { this.sink.next(v) }',
          '}',
          '',
        ].join('\n'),
      ],
    ], 'Subscriber.ts#');
    assert.deepEqual(calls, [
      'CALLS Subscriber.ts#Subscriber.log -> types.ts#Logger.next',
      'CALLS Subscriber.ts#Subscriber.log -> types.ts#Observer.next',
      'CALLS Subscriber.ts#Subscriber.next -> Subscriber.ts#Subscriber.next',
    ]);
  });

  it("a type alias of a union of named types, declared in another file, reaches each one's member through a parameter, a field and an alias of it (rxjs@7.8.1 `PartialObserver<T>`)", async () => {
    const calls = await callsOf([
      [
        'types.ts',
        [
          'export interface NextObserver<T> { next(v: T): void; complete?(): void }',
          'export interface ErrorObserver<T> { error(e: unknown): void; complete?(): void }',
          'export type PartialObserver<T> = NextObserver<T> | ErrorObserver<T> | undefined',
          'export type Observers = PartialObserver<number>',
          'export interface AjaxConfig { progress?: PartialObserver<number>; run(): PartialObserver<number> }',
          '',
        ].join('\n'),
      ],
      [
        'use.ts',
        [
          'import type { PartialObserver, Observers, AjaxConfig } from "./types.js"',
          'export function notify<T>(observer: PartialObserver<T>, v: T) { observer.next?.(v); observer.complete?.() }',
          'export function aliased(observer: Observers) { observer.error(1) }',
          'export function configured(config: AjaxConfig) { config.progress?.error?.(2); config.run.error() }',
          '',
        ].join('\n'),
      ],
    ], 'use.ts#');
    // Not through a method's declared return type (`config.run.error()`: `run` is a function, not what it returns).
    assert.deepEqual(calls, [
      'CALLS use.ts#aliased -> types.ts#ErrorObserver.error',
      'CALLS use.ts#configured -> types.ts#ErrorObserver.error',
      'CALLS use.ts#notify -> types.ts#ErrorObserver.complete',
      'CALLS use.ts#notify -> types.ts#NextObserver.complete',
      'CALLS use.ts#notify -> types.ts#NextObserver.next',
    ]);
  });

  it("an interface given its body as a base's type argument has that body's members, and an array literal of one class holds that class (effect@3.22.4 `interface Read extends Op<Tag, {...}>`, `[r as Read]` then `.pop()`)", async () => {
    const calls = await callsOf([
      ['executor.ts', 'export class Executor {\n  run(): number { return 1 }\n}\nexport type Erased<R> = Executor\n'],
      [
        'state.ts',
        [
          'import type { Erased } from "./executor.js"',
          'export interface Base { readonly _id: symbol }',
          'export type Op<Tag extends string, Body = {}> = Base & Body & { readonly _tag: Tag }',
          'export interface Read extends Op<"read", {',
          '  readonly upstream: Erased<unknown>',
          '  onEmit(value: unknown): void',
          '}> {}',
          'export interface Listed extends Array<{ unrelated(): void }> {}',
          '',
        ].join('\n'),
      ],
      [
        'use.ts',
        [
          'import * as State from "./state.js"',
          'import { Executor } from "./executor.js"',
          'export const direct = (r: State.Read, l: State.Listed) => { r.upstream.run(); r.onEmit(1); l.unrelated() }',
          'export const readUpstream = (r: State.Read) => {',
          '  const readStack = [r as State.Read]',
          '  const mixed = [r as State.Read, new Executor()]',
          '  const read = () => {',
          '    const current = readStack.pop()',
          '    current?.upstream.run()',
          '    mixed.pop()?.onEmit(2)',
          '  }',
          '  return read',
          '}',
          '',
        ].join('\n'),
      ],
    ], 'use.ts#');
    // An array's element type in a base's type argument is no member of the interface (`Listed`: its base's,
    // outside the repository); an array of two classes holds neither.
    assert.deepEqual(calls, [
      'CALLS use.ts#direct -> executor.ts#Executor.run',
      'CALLS use.ts#direct -> ext:js:Array.unrelated',
      'CALLS use.ts#direct -> state.ts#Read.onEmit',
      'CALLS use.ts#readUpstream -> executor.ts#Executor',
      'CALLS use.ts#readUpstream.read -> executor.ts#Executor.run',
    ]);
  });
});
