// RANGER stage 1 for TypeScript / TSX / JavaScript: the per-file graph (symbols, import placeholders,
// export bindings, symbolic references) of the paper's two-file example, of every supported syntax
// form, and of a real package.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Language } from '../../src/core/model/schema';
import { extractFile } from '../../src/core/parse/extract';
import type { FileGraph, SymbolDef } from '../../src/core/parse/fileGraph';
import { ParserPool } from '../../src/core/parse/parser';
import { languageOf } from '../../src/core/parse/languages';
import { filesUnder, packedPackage } from './npmPackCache';

const pool = new ParserPool();
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'ranger-ts');

function extract(text: string, language: Language = 'typescript', filePath = `inline.${language === 'tsx' ? 'tsx' : language === 'javascript' ? 'js' : 'ts'}`): Promise<FileGraph> {
  return extractFile(pool, filePath, language, text);
}

/** `localId Kind parent exported` rows. */
function symbolRows(g: FileGraph): string[] {
  return g.symbols.map((s) => `${s.localId} ${s.kind} ${s.parent ?? '-'} ${s.exported ? 'exported' : 'local'}`);
}

function sym(g: FileGraph, localId: string): SymbolDef {
  const found = g.symbols.find((s) => s.localId === localId);
  assert.ok(found, `no symbol ${localId} in ${g.symbols.map((s) => s.localId).join(', ')}`);
  return found;
}

/** `from KIND a.b.c [relation]` rows, sorted. */
function refRows(g: FileGraph): string[] {
  return g.refs.map((r) => `${r.from ?? '-'} ${r.kind} ${r.chain.join('.')}${r.relation ? ` ${r.relation}` : ''}`).sort();
}

function has(g: FileGraph, row: string): boolean {
  return refRows(g).includes(row);
}

describe('RANGER two-file example (TypeScript)', () => {
  test('base.ts: symbols, docs, exports and refs', async () => {
    const g = await extractFile(pool, 'base.ts', 'typescript', fs.readFileSync(path.join(FIXTURE, 'base.ts'), 'utf8'));
    assert.deepEqual(
      g.symbols.map((s) => [s.localId, s.kind, s.parent, s.exported, s.signature]),
      [
        ['Calculator', 'Class', null, true, 'class Calculator'],
        ['Calculator.add', 'Method', 'Calculator', true, 'add(a: number, b: number): number'],
        ['Calculator.multiply', 'Method', 'Calculator', true, 'multiply(a: number, b: number): number'],
        ['formatResult', 'Function', null, true, 'function formatResult(value: number): string'],
        ['precision', 'GlobalVariable', null, true, 'const precision = 2'],
      ],
    );
    assert.equal(sym(g, 'Calculator').doc, 'A basic calculator with addition and multiplication.');
    assert.equal(sym(g, 'Calculator.add').doc, 'Returns the sum of two numbers.');
    assert.equal(sym(g, 'formatResult').doc, 'Formats a result with the module precision.');
    assert.equal(sym(g, 'precision').doc, 'Number of decimal places used when formatting results.');
    assert.deepEqual(sym(g, 'Calculator').range, { startLine: 1, startCol: 7, endLine: 11, endCol: 1 });
    assert.deepEqual(sym(g, 'Calculator.add').range, { startLine: 3, startCol: 2, endLine: 5, endCol: 3 });
    assert.match(sym(g, 'Calculator').hash, /^[0-9a-f]{40}$/);
    assert.equal(g.doc, '');
    assert.deepEqual(g.imports, []);
    assert.deepEqual(g.exports, []);
    assert.deepEqual(refRows(g), ['formatResult CALLS value.toFixed', 'formatResult USES precision']);
    assert.equal(g.syntaxErrors, 0);
  });

  test('extended.ts: inheritance, this-calls, inferred receiver types', async () => {
    const g = await extractFile(pool, 'extended.ts', 'typescript', fs.readFileSync(path.join(FIXTURE, 'extended.ts'), 'utf8'));
    assert.deepEqual(
      g.symbols.map((s) => [s.localId, s.kind, s.parent, s.exported, s.signature]),
      [
        ['Scientific', 'Class', null, true, 'class Scientific extends Calculator'],
        ['Scientific.divide', 'Method', 'Scientific', true, 'divide(a: number, b: number): number'],
        ['quickAdd', 'Function', null, true, 'function quickAdd(a: number, b: number): number'],
        ['demo', 'Function', null, true, 'function demo(): string'],
      ],
    );
    assert.deepEqual(g.imports, [
      { local: 'Calculator', module: './base', imported: 'Calculator', line: 0, scope: null },
      { local: 'formatResult', module: './base', imported: 'formatResult', line: 0, scope: null },
    ]);
    assert.deepEqual(g.exports, []);
    assert.deepEqual(refRows(g), [
      'Scientific INHERITS Calculator extends',
      'Scientific.divide CALLS Error',
      'Scientific.divide CALLS this.multiply',
      'demo CALLS Scientific',
      'demo CALLS Scientific.divide',
      'demo CALLS formatResult',
      'demo CALLS quickAdd',
      'quickAdd CALLS Calculator',
      'quickAdd CALLS Calculator.add',
    ]);
    const inherits = g.refs.find((r) => r.kind === 'INHERITS');
    assert.equal(inherits?.line, 3);
    assert.equal(g.refs.find((r) => r.chain.join('.') === 'Calculator.add')?.line, 17);
  });
});

describe('imports', () => {
  test('ES import forms', async () => {
    const g = await extract(`import D, * as NS from 'd';
import { a as b, type T } from './m';
import 'side-effect';
import x = require('req');
import type { Shape } from '@/shapes';
import E, { f } from "e";
`);
    assert.deepEqual(g.imports, [
      { local: 'D', module: 'd', imported: 'default', line: 0, scope: null },
      { local: 'NS', module: 'd', imported: null, line: 0, scope: null },
      { local: 'b', module: './m', imported: 'a', line: 1, scope: null },
      { local: 'T', module: './m', imported: 'T', line: 1, scope: null },
      { local: '', module: 'side-effect', imported: null, line: 2, scope: null },
      { local: 'x', module: 'req', imported: null, line: 3, scope: null },
      { local: 'Shape', module: '@/shapes', imported: 'Shape', line: 4, scope: null },
      { local: 'E', module: 'e', imported: 'default', line: 5, scope: null },
      { local: 'f', module: 'e', imported: 'f', line: 5, scope: null },
    ]);
    assert.deepEqual(g.symbols, []);
  });

  test('a name imported on a line of its own binds on that line (per-line context asks what the line imports)', async () => {
    const g = await extract(`import {
  type Seen,
  extractDefs,
} from './to-json-schema';
`);
    assert.deepEqual(g.imports.map((b) => [b.local, b.line]), [['Seen', 1], ['extractDefs', 2]]);
  });

  test('CommonJS require forms, with the enclosing function as scope', async () => {
    const g = await extract(`const path = require('path');
const { readFile, writeFile: wf } = require('fs');
const join = require('path').join;
require('./polyfill');
const debug = require('debug')('app');
function load() {
  const lazy = require('./lazy');
  return lazy;
}
`, 'javascript');
    assert.deepEqual(g.imports, [
      { local: 'path', module: 'path', imported: null, line: 0, scope: null },
      { local: 'readFile', module: 'fs', imported: 'readFile', line: 1, scope: null },
      { local: 'wf', module: 'fs', imported: 'writeFile', line: 1, scope: null },
      { local: 'join', module: 'path', imported: 'join', line: 2, scope: null },
      { local: '', module: './polyfill', imported: null, line: 3, scope: null },
      { local: '', module: 'debug', imported: null, line: 4, scope: null },
      { local: 'lazy', module: './lazy', imported: null, line: 6, scope: 'load' },
    ]);
    // Required bindings are imports, not GlobalVariables; `require(...)` is not a call edge. A value
    // computed from a module (`require('debug')('app')`) is a variable that loads the module.
    assert.deepEqual(symbolRows(g), ['debug GlobalVariable - local', 'load Function - local']);
    assert.deepEqual(refRows(g), []);
  });

  test('dynamic import() is ignored', async () => {
    const g = await extract(`async function f() { const m = await import('./m'); return m; }`);
    assert.deepEqual(g.imports, []);
    assert.deepEqual(refRows(g), []);
  });
});

describe('exports', () => {
  test('export clauses, re-exports and default identifiers', async () => {
    const g = await extract(`const a = 1;
function b() {}
class Hidden {}
export { a, b as c };
export * from './all';
export * as ns from './ns';
export { x as y, default, default as Z } from './xy';
export type { T } from './types';
export default a;
`);
    assert.deepEqual(g.exports, [
      { exported: 'a', local: 'a' },
      { exported: 'c', local: 'b' },
      { exported: '*', from: './all', imported: '*' },
      { exported: 'ns', from: './ns', imported: null },
      { exported: 'y', from: './xy', imported: 'x' },
      { exported: 'default', from: './xy', imported: 'default' },
      { exported: 'Z', from: './xy', imported: 'default' },
      { exported: 'T', from: './types', imported: 'T' },
      { exported: 'default', local: 'a' },
    ]);
    assert.deepEqual(symbolRows(g), ['a GlobalVariable - exported', 'b Function - exported', 'Hidden Class - local']);
  });

  test('export declarations need no binding; named defaults get one', async () => {
    const g = await extract(`export function f() {}
export const v = 1, w = 2;
export default class Foo {}
`);
    assert.deepEqual(g.exports, [{ exported: 'default', local: 'Foo' }]);
    assert.deepEqual(symbolRows(g), ['f Function - exported', 'v GlobalVariable - exported', 'w GlobalVariable - exported', 'Foo Class - exported']);
    const fn = await extract(`/** Main. */\nexport default function main(argv: string[]): number { return 0; }`);
    assert.deepEqual(fn.exports, [{ exported: 'default', local: 'main' }]);
    assert.equal(sym(fn, 'main').doc, 'Main.');
    assert.equal(sym(fn, 'main').signature, 'function main(argv: string[]): number');
  });

  test('anonymous defaults become symbols named default', async () => {
    const fn = await extract(`export default function (a: number) { return helper(a); }\nfunction helper(x: number) { return x; }`);
    assert.deepEqual(symbolRows(fn), ['default Function - exported', 'helper Function - local']);
    assert.deepEqual(fn.exports, []);
    assert.ok(has(fn, 'default CALLS helper'));
    const cls = await extract(`export default class extends Base { run() {} }`);
    assert.deepEqual(symbolRows(cls), ['default Class - exported', 'default.run Method default exported']);
    assert.ok(has(cls, 'default INHERITS Base extends'));
    const arrow = await extract(`export default () => 1;`);
    assert.deepEqual(symbolRows(arrow), ['default Function - exported']);
    const obj = await extract(`export default { name: 'x' };`);
    assert.deepEqual(symbolRows(obj), ['default GlobalVariable - exported']);
  });

  test('export = X', async () => {
    const g = await extract(`class Api {}\nexport = Api;`);
    assert.deepEqual(g.exports, [{ exported: 'default', local: 'Api' }]);
    assert.deepEqual(symbolRows(g), ['Api Class - exported']);
  });

  test('CommonJS exports', async () => {
    const g = await extract(`function a() {}
const c = 2;
/** Makes one. */
exports.make = function (opts) { return a(opts); };
exports.alias = c;
module.exports.VERSION = '1.0';
module.exports = { a, b: c, run() { return 1; } };
`, 'javascript');
    assert.deepEqual(g.exports, [
      { exported: 'alias', local: 'c' },
      { exported: 'a', local: 'a' },
      { exported: 'b', local: 'c' },
    ]);
    assert.deepEqual(symbolRows(g), [
      'a Function - exported',
      'c GlobalVariable - exported',
      'make Function - exported',
      'VERSION GlobalVariable - exported',
      'run Function - exported',
    ]);
    assert.equal(sym(g, 'make').doc, 'Makes one.');
    assert.ok(has(g, 'make CALLS a'));
    const single = await extract(`class Widget {}\nmodule.exports = Widget;`, 'javascript');
    assert.deepEqual(single.exports, [{ exported: 'default', local: 'Widget' }]);
    const fn = await extract(`module.exports = function (x) { return x; };`, 'javascript');
    assert.deepEqual(symbolRows(fn), ['default Function - exported']);
    const re = await extract(`module.exports = require('./impl');`, 'javascript');
    assert.deepEqual(re.exports, [{ exported: '*', from: './impl', imported: '*' }]);
    assert.deepEqual(re.imports, [{ local: '', module: './impl', imported: null, line: 0, scope: null }]);
  });
});

describe('type declarations', () => {
  test('interfaces, enums and type aliases', async () => {
    const g = await extract(`import * as NS from './ns';
/** Something with an id. */
export interface Base<T> extends Shape, NS.Other<T> {
  /** The id. */
  readonly id: string;
  area(scale: number): T;
  [key: string]: unknown;
}
export const enum Color { Red = 'r', /** Green. */ Green }
export type Id<K> = K | Shape;
type Long = { a: string; b: number; c: boolean; d: string; e: number; f: boolean; g: string; h: number; i: boolean; j: string };
`);
    assert.deepEqual(
      g.symbols.map((s) => [s.localId, s.kind, s.parent, s.exported, s.signature]),
      [
        ['Base', 'Interface', null, true, 'interface Base<T> extends Shape, NS.Other<T>'],
        ['Base.id', 'Field', 'Base', true, 'readonly id: string'],
        ['Base.area', 'Method', 'Base', true, 'area(scale: number): T'],
        ['Color', 'Enum', null, true, 'const enum Color'],
        ['Color.Red', 'Field', 'Color', true, "Red = 'r'"],
        ['Color.Green', 'Field', 'Color', true, 'Green'],
        ['Id', 'TypeAlias', null, true, 'type Id<K> = K | Shape'],
        ['Long', 'TypeAlias', null, false, 'type Long = …'],
        // An object type's members are the alias's, as an interface's are (issue 19: they had no node).
        ...[...'abcdefghij'].map((m, i) => [`Long.${m}`, 'Field', 'Long', false, `${m}: ${['string', 'number', 'boolean'][i % 3]}`]),
      ],
    );
    assert.equal(sym(g, 'Base').doc, 'Something with an id.');
    assert.equal(sym(g, 'Base.id').doc, 'The id.');
    assert.equal(sym(g, 'Color.Green').doc, 'Green.');
    assert.deepEqual(refRows(g), [
      'Base INHERITS NS.Other extends',
      'Base INHERITS Shape extends',
      'Id USES Shape',
    ]);
  });
});

describe('classes', () => {
  test('members, visibility, accessors and parameter properties', async () => {
    const g = await extract(`export abstract class Repo<E> extends NS.Store<E> implements Shape, NS.Thing {
  private cache = new Map<string, E>();
  #secret = 1;
  protected label: string = 'x';
  static readonly instances: Repo<any>[] = [];
  constructor(private readonly db: Db, public name?: string, plain = 1) { super(db); }
  abstract find(id: string): E;
  get size(): number { return this.cache.size; }
  set size(v: number) {}
  private helper(): void {}
  #hidden() {}
  handler = (ev: Event) => { this.helper(); };
}
class Local { m() {} }
`);
    assert.deepEqual(symbolRows(g), [
      'Repo Class - exported',
      'Repo.cache Field Repo local',
      'Repo.#secret Field Repo local',
      'Repo.label Field Repo exported',
      'Repo.instances Field Repo exported',
      'Repo.constructor Method Repo exported',
      'Repo.db Field Repo local',
      'Repo.name Field Repo exported',
      'Repo.find Method Repo exported',
      'Repo.size Method Repo exported',
      'Repo.size@2 Method Repo exported',
      'Repo.helper Method Repo local',
      'Repo.#hidden Method Repo local',
      'Repo.handler Field Repo exported',
      'Local Class - local',
      'Local.m Method Local local',
    ]);
    assert.equal(sym(g, 'Repo').signature, 'abstract class Repo<E> extends NS.Store<E> implements Shape, NS.Thing');
    assert.equal(sym(g, 'Repo.cache').signature, 'private cache');
    assert.equal(sym(g, 'Repo.label').signature, 'protected label: string');
    assert.equal(sym(g, 'Repo.db').signature, 'private readonly db: Db');
    assert.equal(sym(g, 'Repo.find').signature, 'abstract find(id: string): E');
    assert.equal(sym(g, 'Repo.size').signature, 'get size(): number');
    assert.equal(sym(g, 'Repo.handler').signature, 'handler = (ev: Event) =>');
    const rows = refRows(g);
    for (const row of [
      'Repo INHERITS NS.Store extends',
      'Repo INHERITS Shape implements',
      'Repo INHERITS NS.Thing implements',
      'Repo.cache CALLS Map',
      'Repo.constructor CALLS super',
      'Repo.db USES Db',
      // The whole chain: a field's declared type reaches its member (`this.options.x`); resolution falls back to the field.
      'Repo.size USES this.cache.size',
      'Repo.handler USES Event',
      'Repo.handler CALLS this.helper',
      'Repo.instances USES Repo',
    ]) assert.ok(rows.includes(row), `missing ${row} in\n${rows.join('\n')}`);
    // Type parameters are not references; neither is the heritage name as a plain USES.
    assert.ok(!rows.some((r) => / USES (E|Shape|NS\.Store)$/.test(r)), rows.join('\n'));
  });

  test('class expressions assigned to consts', async () => {
    const g = await extract(`export const A = class extends B { m() { return 1; } };\nconst C = class Named {};`);
    assert.deepEqual(symbolRows(g), ['A Class - exported', 'A.m Method A exported', 'C Class - local']);
    assert.equal(sym(g, 'A').signature, 'const A = class extends B');
    assert.ok(has(g, 'A INHERITS B extends'));
  });

  test('JavaScript classes and fields', async () => {
    const g = await extract(`class Widget extends Base.Component {
  #count = 0;
  static defaults = {};
  constructor(el) { super(el); this.el = el; }
  render() { return helper(Widget, this.#count); }
}
function helper() {}
`, 'javascript');
    assert.deepEqual(symbolRows(g), [
      'Widget Class - local',
      'Widget.#count Field Widget local',
      'Widget.defaults Field Widget local',
      'Widget.constructor Method Widget local',
      'Widget.render Method Widget local',
      'helper Function - local',
    ]);
    assert.deepEqual(refRows(g), [
      'Widget INHERITS Base.Component extends',
      'Widget.constructor CALLS super',
      'Widget.constructor USES this.el',
      'Widget.render CALLS helper',
      'Widget.render USES Widget',
      'Widget.render USES this.#count',
    ]);
  });
});

describe('functions and namespaces', () => {
  test('nested functions, arrow consts, generators and overloads', async () => {
    const g = await extract(`export function outer(n: number): number {
  function inner(x: number) { return x; }
  const arrow = (z: number) => inner(z);
  const notAFunction = 3;
  return arrow(n) + notAFunction;
}
export function* gen() { yield 1; }
export const run = async (cmd: string): Promise<void> => { await exec(cmd); };
const f = function named() {};
function over(a: string): void;
function over(a: number): void;
function over(a: any) {}
[1].forEach(() => { function inCallback() {} });
`);
    assert.deepEqual(symbolRows(g), [
      'outer Function - exported',
      'outer.inner Function outer local',
      'outer.arrow Function outer local',
      'gen Function - exported',
      'run Function - exported',
      'f Function - local',
      'over Function - local',
      'over@2 Function - local',
      'over@3 Function - local',
      'inCallback Function - local',
    ]);
    assert.equal(sym(g, 'outer.arrow').signature, 'const arrow = (z: number) =>');
    assert.equal(sym(g, 'run').signature, 'const run = async (cmd: string): Promise<void> =>');
    assert.equal(sym(g, 'gen').signature, 'function* gen()');
    assert.equal(sym(g, 'over').signature, 'function over(a: string): void');
    assert.ok(has(g, 'outer.arrow CALLS inner'));
    assert.ok(has(g, 'outer CALLS arrow'));
    assert.ok(has(g, 'run CALLS exec'));
    assert.ok(has(g, 'run USES Promise'));
  });

  test('top-level variables, destructuring, and locals that are not symbols', async () => {
    const g = await extract(`/** Shared. */
export const a = 1, [b, { k: c, ...rest }] = make();
let d;
var e = 'x';
function f() { const local = 1; let other = 2; return local + other; }
if (a) { const scoped = 2; }
`);
    assert.deepEqual(symbolRows(g), [
      'a GlobalVariable - exported',
      'b GlobalVariable - exported',
      'c GlobalVariable - exported',
      'rest GlobalVariable - exported',
      'd GlobalVariable - local',
      'e GlobalVariable - local',
      'f Function - local',
    ]);
    assert.equal(sym(g, 'a').doc, 'Shared.');
    assert.equal(sym(g, 'a').signature, 'const a = 1');
    assert.equal(sym(g, 'd').signature, 'let d');
    assert.equal(sym(g, 'e').signature, "var e = 'x'");
    assert.ok(has(g, 'b CALLS make'));
  });

  test('namespaces are GlobalVariables holding their declarations', async () => {
    const g = await extract(`namespace Util {
  export function f() { return hidden; }
  const hidden = 1;
  export class K {}
}
export namespace Pub.Inner { export const v = 1; function g() {} }
declare module 'ext' { export function fromExt(): void; }
declare global { interface Window { foo: number } }
`);
    assert.deepEqual(symbolRows(g), [
      'Util GlobalVariable - local',
      'Util.f Function Util local',
      'Util.hidden GlobalVariable Util local',
      'Util.K Class Util local',
      'Pub.Inner GlobalVariable - exported',
      'Pub.Inner.v GlobalVariable Pub.Inner exported',
      'Pub.Inner.g Function Pub.Inner local',
      'fromExt Function - exported',
      'Window Interface - local',
      'Window.foo Field Window local',
    ]);
    assert.equal(sym(g, 'Util').signature, 'namespace Util');
    assert.ok(!refRows(g).some((r) => r.includes('USES Util')), refRows(g).join('\n'));
  });
});

describe('references', () => {
  test('call chains', async () => {
    const g = await extract(`import * as ns from 'ns';
function f(items: number[]) {
  a.b.c();
  ns.tool.run();
  a?.b!.c();
  make().then();
  items[0]();
  tag\`template\`;
  new ns.Widget();
  new Thing;
  super.save;
}
class K extends P { m() { super.save(); super.m(); } }
`);
    assert.deepEqual(refRows(g).filter((r) => r.includes('CALLS')), [
      'K.m CALLS super.m',
      'K.m CALLS super.save',
      'f CALLS Thing',
      // Two lines call it: each line keeps its reference.
      'f CALLS a.b.c',
      'f CALLS a.b.c',
      'f CALLS make',
      'f CALLS make.().then', // a call on a call's result: `make().then(...)`
      'f CALLS ns.Widget',
      'f CALLS ns.tool.run',
    ]);
  });

  test('light type inference rewrites call heads', async () => {
    const g = await extract(`import { Calculator } from './calc';
import * as m from './m';
class Service {
  private calc: Calculator;
  constructor(private readonly repo: m.Repo<string>) {}
  run(c: Calculator, n?: m.Num, raw: any, fn: () => void) {
    const local = new Calculator();
    const typed: m.Store = get();
    c.add(1); n.inc(); raw.x(); local.mul(); typed.put(); this.calc.sub(); this.repo.find(); fn();
    const inner = (c: Other) => c.add();
  }
}
function shadow(c: Calculator) { function nested(c) { return c.add(); } return nested(c); }
`);
    const calls = refRows(g).filter((r) => r.includes('CALLS'));
    assert.deepEqual(calls, [
      'Service.run CALLS Calculator',
      'Service.run CALLS Calculator.add',
      'Service.run CALLS Calculator.mul',
      'Service.run CALLS Calculator.sub',
      'Service.run CALLS fn',
      'Service.run CALLS get',
      'Service.run CALLS m.Num.inc',
      'Service.run CALLS m.Repo.find',
      'Service.run CALLS m.Store.put',
      'Service.run CALLS raw.x',
      'Service.run.inner CALLS Other.add',
      'shadow CALLS nested',
      'shadow.nested CALLS c.add',
    ]);
  });

  test('USES: types, module-level values, this members; locals and parameters are not uses', async () => {
    const g = await extract(`import { Foo, Bar } from './foo';
import * as UI from './ui';
export enum Color { Red }
const registry = new Map();
export function use(x: Foo, list: Promise<Bar[]>, t: UI.Theme): boolean {
  register(Foo);
  const c = Color.Red;
  const r = registry;
  return x instanceof Foo && c === Color.Red && !!r;
}
function shadowed(registry: string, Color: number) { return registry + Color; }
function register(v: unknown) {}
class Holder { v = 1; get() { this.v = this.v + 1; return this.v; } }
`);
    const uses = refRows(g).filter((r) => r.includes('USES'));
    assert.deepEqual(uses, [
      'Holder.get USES this.v',
      'use USES Bar',
      'use USES Color.Red',
      'use USES Color.Red',
      'use USES Foo',
      'use USES Foo',
      'use USES Foo',
      'use USES Promise',
      'use USES UI.Theme',
      'use USES registry',
    ]);
    // One row per (from, kind, chain, line): what each line uses stays visible to per-line completion context.
    assert.deepEqual(g.refs.filter((r) => r.from === 'use' && r.chain.join('.') === 'Foo').map((r) => r.line), [4, 5, 8]);
  });

  test('type parameters, mapped and inferred types are not references', async () => {
    const g = await extract(`export type Mapped<T> = { [K in keyof T]: T[K] extends Promise<infer U> ? U : Known };
export function id<T extends Base>(v: T): T { return v; }
`);
    assert.deepEqual(refRows(g), ['Mapped USES Known', 'Mapped USES Promise', 'id USES Base']);
  });

  test('JSX element names in .tsx and .jsx', async () => {
    const tsx = await extract(`import React from 'react';
import * as UI from './ui';
import { Button } from './button';
export interface Props { title: string }
/** App root. */
export default function App({ title }: Props) {
  const [n, setN] = React.useState<number>(0);
  return (
    <UI.Layout title={title}>
      <Button onClick={() => setN(n + 1)} />
      <div>{n}</div>
    </UI.Layout>
  );
}
export const Small = (p: Props) => <Button>{p.title}</Button>;
`, 'tsx');
    assert.deepEqual(symbolRows(tsx), ['Props Interface - exported', 'Props.title Field Props exported', 'App Function - exported', 'Small Function - exported']);
    assert.equal(sym(tsx, 'App').doc, 'App root.');
    assert.deepEqual(tsx.exports, [{ exported: 'default', local: 'App' }]);
    assert.deepEqual(refRows(tsx), [
      'App CALLS React.useState',
      'App CALLS setN',
      'App USES Button',
      'App USES Props',
      'App USES Props.title', // the destructured parameter's key
      'App USES UI.Layout',
      'Small USES Button',
      'Small USES Props',
      'Small USES Props.title', // `p.title` with `p: Props`
    ]);
    const jsx = await extract(`import Card from './Card';\nexport function List() { return <section><Card.Header /><Card /></section>; }`, 'javascript', 'list.jsx');
    assert.deepEqual(refRows(jsx), ['List USES Card', 'List USES Card.Header']);
  });
});

describe('docs, duplicates and broken syntax', () => {
  test('file doc versus declaration doc', async () => {
    const fileDoc = await extract(`/**\n * File doc.\n * @packageDocumentation\n */\nimport x from 'y';\nexport const a = x;`);
    assert.equal(fileDoc.doc, 'File doc.\n@packageDocumentation');
    assert.equal(sym(fileDoc, 'a').doc, '');
    const attached = await extract(`/** Only a. */\nexport const a = 1;`);
    assert.equal(attached.doc, '');
    assert.equal(sym(attached, 'a').doc, 'Only a.');
    const both = await extract(`/** The file. */\n\n/** The class. */\nexport class A {}`);
    assert.equal(both.doc, 'The file.');
    assert.equal(sym(both, 'A').doc, 'The class.');
    const plain = await extract(`// not jsdoc\n/* nor this */\nclass A {}`);
    assert.equal(plain.doc, '');
    assert.equal(sym(plain, 'A').doc, '');
  });

  test('JSDoc through decorators and on members', async () => {
    const g = await extract(`/** Decorated. */
@Component({ selector: 'x' })
export class View {
  /**
   * Input value.
   * @example view.value = 1
   */
  @Input() value = 0;
  /** Renders. */
  @HostListener('click')
  render(): void {}
  // line comment only
  other() {}
}
`);
    assert.equal(sym(g, 'View').doc, 'Decorated.');
    assert.equal(sym(g, 'View').signature, 'class View');
    assert.equal(sym(g, 'View.value').doc, 'Input value.\n@example view.value = 1');
    assert.equal(sym(g, 'View.value').signature, 'value');
    assert.equal(sym(g, 'View.render').doc, 'Renders.');
    assert.equal(sym(g, 'View.render').signature, 'render(): void');
    assert.equal(sym(g, 'View.other').doc, '');
  });

  test('repeated names get @2, @3', async () => {
    const g = await extract(`function f() {}\nfunction f() {}\ntype X = number;\nconst X = 1;\nconst f = 2;`);
    assert.deepEqual(g.symbols.map((s) => s.localId), ['f', 'f@2', 'X', 'X@2', 'f@3']);
  });

  test('broken syntax does not throw and keeps the valid declarations', async () => {
    const g = await extract(`export class Good { ok(): number { return 1; } }
const broken = ;
export function alsoGood(a: Good) { return a.ok(); }
function half( { let x = ;
`);
    assert.ok(g.syntaxErrors > 0);
    const ids = g.symbols.map((s) => s.localId);
    for (const id of ['Good', 'Good.ok', 'alsoGood']) assert.ok(ids.includes(id), `missing ${id} in ${ids.join(', ')}`);
    assert.ok(has(g, 'alsoGood CALLS Good.ok'));
    for (const text of ['class {', 'export default', '@@@', 'import { from', '<div', 'function (', '']) {
      for (const language of ['typescript', 'tsx', 'javascript'] as const) await extract(text, language);
    }
  });
});

describe('real code: rxjs@7.8.1 sources', () => {
  test('every .ts file extracts; known declarations come out right', async (t) => {
    const pkg = packedPackage('rxjs@7.8.1');
    if ('skip' in pkg) {
      t.skip(pkg.skip);
      return;
    }
    const src = path.join(pkg.dir, 'src');
    const files = filesUnder(src, /\.ts$/);
    assert.ok(files.length > 200, `only ${files.length} .ts files under ${src}`);
    const graphs = new Map<string, FileGraph>();
    let symbols = 0;
    let refs = 0;
    for (const file of files) {
      const rel = path.relative(src, file).split(path.sep).join('/');
      const g = await extractFile(pool, rel, languageOf(file)!, fs.readFileSync(file, 'utf8'));
      graphs.set(rel, g);
      symbols += g.symbols.length;
      refs += g.refs.length;
      const ids = new Set<string>();
      for (const s of g.symbols) {
        assert.ok(!ids.has(s.localId), `${rel}: duplicate localId ${s.localId}`);
        if (s.parent !== null) assert.ok(ids.has(s.parent), `${rel}: ${s.localId} before its parent ${s.parent}`);
        ids.add(s.localId);
      }
    }
    // Measured 1255 symbols and ~3500 refs; the floors leave room for deliberate changes.
    assert.ok(symbols > 1100, `symbols ${symbols}`);
    assert.ok(refs > 3000, `refs ${refs}`);

    const subject = graphs.get('internal/Subject.ts')!;
    assert.equal(sym(subject, 'Subject').kind, 'Class');
    assert.equal(sym(subject, 'Subject').signature, 'class Subject<T> extends Observable<T> implements SubscriptionLike');
    assert.ok(has(subject, 'Subject INHERITS Observable extends'));
    assert.ok(has(subject, 'Subject INHERITS SubscriptionLike implements'));
    assert.ok(has(subject, 'AnonymousSubject INHERITS Subject extends'));
    assert.equal(sym(subject, 'Subject.next').kind, 'Method');
    assert.equal(sym(subject, 'Subject.currentObservers').exported, false); // private
    assert.equal(sym(subject, 'AnonymousSubject.destination').kind, 'Field'); // parameter property
    assert.ok(subject.imports.some((i) => i.local === 'Observable' && i.module === './Observable' && i.imported === 'Observable'));

    const behavior = graphs.get('internal/BehaviorSubject.ts')!;
    assert.ok(has(behavior, 'BehaviorSubject INHERITS Subject extends'));
    assert.equal(sym(behavior, 'BehaviorSubject._value').exported, false);

    const types = graphs.get('internal/types.ts')!;
    assert.equal(sym(types, 'Observer').kind, 'Interface');
    assert.equal(sym(types, 'Observer.next').kind, 'Field');
    assert.ok(has(types, 'OperatorFunction INHERITS UnaryFunction extends'));

    const map = graphs.get('internal/operators/map.ts')!;
    assert.deepEqual(map.symbols.filter((s) => s.name === 'map').map((s) => s.localId), ['map', 'map@2', 'map@3']);

    const notification = graphs.get('internal/Notification.ts')!;
    assert.equal(sym(notification, 'NotificationKind').kind, 'Enum');

    const index = graphs.get('index.ts')!;
    assert.ok(index.exports.some((e) => e.exported === 'Observable' && e.from === './internal/Observable'));
  });
});
