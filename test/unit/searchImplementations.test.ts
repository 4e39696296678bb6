// A function is one answer, where its body is: a TypeScript function with overload signatures at its
// implementation, a method declared in a `.pyi` stub at its code in the `.py` beside it. Java
// overloads are separate methods with their own bodies and stay separate answers. A question about a
// function's edges (`callers of f`) is asked of all its definitions at once. Real zod, werkzeug
// (its datastructures.py ships with datastructures.pyi) and gson.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { createSearcher, type Searcher } from '../../src/core/search';
import { collapseToImplementations } from '../../src/core/search/implementations';
import { FIXTURES, buildGraph, readTree } from './helpers';

let zod: RepositoryGraph;
let zodSearch: Searcher;
let gsonSearch: Searcher;
let werkzeug: RepositoryGraph;
let werkzeugSearch: Searcher;
before(async () => {
  werkzeug = await buildGraph(readTree(path.join(FIXTURES, 'real', 'werkzeug')), 'werkzeug');
  werkzeugSearch = createSearcher({ graph: werkzeug });
  zod = await buildGraph(readTree(path.join(FIXTURES, 'real', 'zod', 'src')), 'zod');
  zodSearch = createSearcher({ graph: zod });
  gsonSearch = createSearcher({ graph: await buildGraph(readTree(path.join(FIXTURES, 'real', 'gson')), 'gson') });
});

const TUPLE = 'classic/schemas.ts#tuple';

test('the graph keeps each overload signature of zod\'s tuple() as its own definition', () => {
  const members = zod.graph.nodes().filter((id) => id.replace(/@\d+$/, '') === TUPLE);
  assert.equal(members.length, 4, members.join(', '));
});

test('a name lookup answers an overloaded TypeScript function once, at the signature with the body', async () => {
  const res = await zodSearch.search('tuple');
  const tuples = res.hits.filter((h) => h.id.replace(/@\d+$/, '') === TUPLE);
  assert.equal(tuples.length, 1, res.hits.map((h) => h.id).join(', '));
  const range = zod.graph.getNodeAttribute(tuples[0].id, 'range')!;
  // The implementation starts at `export function tuple(\n  items: core.SomeType[],` (line 1933, 1-based) and has a body.
  assert.equal(range.startLine, 1932);
  assert.ok(range.endLine - range.startLine > 5, `the implementation spans its body: ${JSON.stringify(range)}`);
});

test('a natural-language answer lists no TypeScript function twice', async () => {
  const res = await zodSearch.search('create a tuple schema from items and a rest element', 20);
  assert.equal(res.route, 'natural-language');
  const functions = res.hits.filter((h) => ['Function', 'Method'].includes(zod.graph.getNodeAttribute(h.id, 'kind')));
  const groups = functions.map((h) => h.id.replace(/@\d+$/, ''));
  assert.ok(groups.includes(TUPLE), groups.join(', '));
  // (A class and its merged interface, `ZodTuple` and `ZodTuple@2`, are two declarations, not overloads.)
  assert.equal(new Set(groups).size, groups.length, `one hit per function: ${groups.join(', ')}`);
  assert.equal(res.hits.length, 20, 'the freed places go to other definitions');
});

test('Java overloads are separate implementations and stay separate answers', async () => {
  const res = await gsonSearch.search('parseReader');
  const ids = res.hits.map((h) => h.id).filter((id) => id.includes('JsonParser.parseReader'));
  assert.deepEqual(ids.map((id) => id.replace(/.*#/, '')).sort(), ['JsonParser.parseReader', 'JsonParser.parseReader@2']);
});

test('a method declared in a .pyi stub is answered once, at its code in the .py beside it', async () => {
  // The stub declares Headers.update three times (`@overload`s), the code once.
  const declared = werkzeug.graph.nodes().filter((id) => id.replace(/@\d+$/, '') === 'datastructures.pyi#Headers.update');
  assert.equal(declared.length, 3, declared.join(', '));
  const lookup = await werkzeugSearch.search('Headers.update');
  assert.deepEqual(lookup.hits.map((h) => h.id), ['datastructures.py#Headers.update']);

  const prose = await werkzeugSearch.search('Add all the headers from the iterable to the set', 20);
  assert.equal(prose.route, 'natural-language');
  assert.ok(prose.hits.slice(0, 5).some((h) => h.id === 'datastructures.py#HeaderSet.update'), prose.hits.map((h) => h.id).join(', '));
  const stubs = prose.hits.filter((h) => h.id.startsWith('datastructures.pyi#'));
  assert.deepEqual(stubs, [], 'every stub declaration here has its code in datastructures.py');
});

test("a question about an overloaded function's edges is asked of the whole function: calls that land on a signature, calls its body makes", async () => {
  // zod's tuple(): its caller's call resolves to the first signature, its one callee is in the implementation's body.
  for (const [query, want] of [['callers of tuple', 'classic/schemas.ts#_function@7'], ['callees of tuple', 'classic/schemas.ts#ZodTuple']]) {
    const res = await zodSearch.search(query);
    assert.equal(res.route, 'structural');
    assert.match(res.reason, /\(1 node named tuple\)/, 'four signatures, one function');
    assert.ok(res.hits.some((h) => h.id === want), `${query}: ${res.hits.map((h) => h.id).join(', ')}`);
  }
});

test('an overloaded function that calls itself is not its own caller, and each answer is listed once', async () => {
  // The shape of rxjs' mergeMap: signatures, then an implementation that calls the function again.
  const tree = new Map([
    ['src/flatten.ts', 'export function flatten(items: number[]): number[];\nexport function flatten(items: number[][]): number[];\nexport function flatten(items: any[]): number[] {\n  if (items.some(Array.isArray)) return flatten(items.flat());\n  const out: number[] = [];\n  for (const n of items) out.push(clean(n));\n  return out;\n}\nexport function clean(n: number): number {\n  return Math.abs(n);\n}\n'],
    ['src/use.ts', "import { flatten, clean } from './flatten';\nexport function total(xs: number[][]): number {\n  return clean(flatten(xs).length);\n}\n"],
  ]);
  const search = createSearcher({ graph: await buildGraph(tree, 'flatten') });
  const callers = await search.search('callers of flatten');
  assert.match(callers.reason, /\(1 node named flatten\)/);
  assert.deepEqual(callers.hits.map((h) => h.id), ['src/use.ts#total']);
  const callees = await search.search('callees of flatten');
  assert.deepEqual(callees.hits.map((h) => h.id), ['src/flatten.ts#clean']);
});

test('TypeScript: the implementation is the member after the signatures, however short; an accessor pair is answered at its getter', async () => {
  // Real @tanstack/query-core: `noop` has two one-line signatures, then an empty implementation on line 82.
  const tanstack = createSearcher({ graph: await buildGraph(readTree(path.join(FIXTURES, 'real', 'tanstack-query-core')), 'query-core') });
  const noops = (await tanstack.search('noop')).hits.filter((h) => h.id.startsWith('src/utils.ts#noop'));
  assert.deepEqual(noops.map((h) => h.id), ['src/utils.ts#noop@3']);
  // A setter longer than its getter: the property is still answered where it is read.
  const tree = new Map([['src/box.ts', 'export class Box {\n  private v = 0;\n  get value(): number {\n    return this.v;\n  }\n  set value(x: number) {\n    if (x < 0) throw new RangeError("negative");\n    this.v = x;\n  }\n}\n']]);
  const box = createSearcher({ graph: await buildGraph(tree, 'box') });
  assert.deepEqual((await box.search('Box.value')).hits.map((h) => h.id), ['src/box.ts#Box.value']);
});

test('compiled twins: a class and its callers are answered once, at the TypeScript source the shipped JavaScript was built from', async () => {
  // zod 4.6.7 as published: src/v3/ZodError.ts and, built from it, v3/ZodError.js, .cjs, .d.ts, .d.cts.
  const pkg = await buildGraph(readTree(path.join(FIXTURES, 'real', 'zod-package')), 'zod');
  const search = createSearcher({ graph: pkg });
  const twins = pkg.graph.nodes().filter((id) => id.endsWith('#ZodError'));
  assert.ok(twins.length >= 4, `the graph keeps every copy: ${twins.join(', ')}`);

  const named = await search.search('ZodError');
  const zodErrors = named.hits.filter((h) => h.id.endsWith('#ZodError'));
  assert.deepEqual(zodErrors.map((h) => h.id), ['src/v3/ZodError.ts#ZodError']);
  // the answer says where else it is (the picker's row, the CLI, search_code all print it)
  assert.deepEqual(zodErrors[0].compiledTo, ['v3/ZodError.cjs', 'v3/ZodError.d.cts', 'v3/ZodError.d.ts', 'v3/ZodError.js']);

  const callers = await search.search('callers of flatten');
  const ids = callers.hits.map((h) => h.id);
  assert.ok(ids.includes('src/v3/ZodError.ts#ZodError.formErrors'), ids.join(', '));
  assert.equal(new Set(ids.map((id) => id.split('#')[1])).size, ids.length, `each caller once: ${ids.join(', ')}`);
  assert.ok(ids.every((id) => id.startsWith('src/')), ids.join(', '));

  // A hand-written JavaScript file that only shares the file name is code of its own.
  const own = await search.search('reportErrors');
  assert.equal(own.hits[0]?.id, 'tools/ZodError.js#reportErrors');
  assert.equal(own.hits[0]?.compiledTo, undefined);
});

test('collapsing a ranking to its first n answers reads only as far as it needs and gives what collapsing all of it starts with', () => {
  const members = zod.graph.nodes().filter((id) => id.replace(/@\d+$/, '') === TUPLE);
  assert.ok(zod.graph.hasNode('classic/schemas.ts#string'));
  // Every tuple() signature is one answer: three of them and another function make two answers.
  const ranking = [...members.slice(0, 3), 'classic/schemas.ts#string', members[3]].map((id, i) => ({ id, score: 1 - i / 10, via: 'lexical' as const }));
  const whole = collapseToImplementations(zod.graph, ranking);
  assert.equal(whole.length, 2);
  assert.deepEqual(collapseToImplementations(zod.graph, ranking, 1), whole.slice(0, 1));
  assert.deepEqual(collapseToImplementations(zod.graph, ranking, 2), whole);
});
