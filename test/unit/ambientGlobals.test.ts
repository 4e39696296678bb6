// TypeScript's ambient globals: a script declaration file (`declare const __DEV__: boolean` in mobx's
// `global.d.ts`, no import or export) and `declare global {}` give every file names it uses without
// importing them. Issue 19: mobx's `if (__DEV__) {` lines needed the declaration and the graph had
// no edge to it. Incremental updates must agree with a build from scratch when a file stops (or
// starts) being a script.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURES, buildGraph, compareSnapshots, edgeList, parse, readTree, snapshot, treeConfig } from './helpers';

const MOBX = path.join(FIXTURES, 'real', 'mobx', 'src');

// The head of rxjs 7.8's src/internal/types.ts (Apache-2.0): a module that augments the global scope.
const RXJS_TYPES = `// https://github.com/microsoft/TypeScript/issues/40462#issuecomment-689879308
/// <reference lib="esnext.asynciterable" />

import { Observable } from './Observable';
import { Subscription } from './Subscription';

/**
 * Note: This will add Symbol.observable globally for all TypeScript users,
 * however, we are no longer polyfilling Symbol.observable
 */
declare global {
  interface SymbolConstructor {
    readonly observable: symbol;
  }
}

export type OperatorFunction<T, R> = UnaryFunction<Observable<T>, Observable<R>>;
`;

describe('ambient globals (real mobx and rxjs)', () => {
  it('a name declared by a script .d.ts is reached from files that never import it: `if (__DEV__ && …)` in mobx', async () => {
    const edges = edgeList(await buildGraph(readTree(MOBX)));
    assert.ok(edges.includes('USES api/iscomputed.ts#isComputed -> global.d.ts#__DEV__'), edges.join('\n'));
    assert.ok(edges.includes('USES api/iscomputed.ts#isComputedProp -> global.d.ts#__DEV__'), edges.join('\n'));
  });

  it('only names no declaration of the file binds are taken for globals: not `adm`, `atom`, `arguments` nor parameters', async () => {
    const file = await parse('api/iscomputed.ts', readTree(MOBX).get('api/iscomputed.ts')!);
    const own = new Set([...file.symbols.map((s) => s.name), ...file.imports.map((i) => i.local)]);
    const free = new Set(file.refs.filter((r) => r.kind === 'USES' && !own.has(r.chain[0])).map((r) => r.chain[0]));
    // PropertyKey is a type of TypeScript's lib (a type reference, recorded before globals were).
    assert.deepEqual([...free].sort(), ['PropertyKey', '__DEV__']);
  });

  it('only a script declaration file and `declare global {}` declare globals, not a module beside them', async () => {
    const script = await parse('src/global.d.ts', 'declare const __DEV__: boolean');
    assert.equal(script.symbols[0].global, true);
    const moduleFile = await parse('src/env.d.ts', 'export {}\ndeclare const __DEV__: boolean');
    assert.equal(moduleFile.symbols[0].global, undefined, 'an export makes the .d.ts a module: its names are its own');
    const plainScript = await parse('src/script.ts', 'const __DEV__ = true');
    assert.equal(plainScript.symbols[0].global, undefined, 'a .ts file without imports is not a declaration file');
    const rxjs = await parse('src/internal/types.ts', RXJS_TYPES);
    const globals = rxjs.symbols.filter((s) => s.global).map((s) => s.localId);
    assert.deepEqual(globals, ['SymbolConstructor'], 'the block\'s declaration, not its members nor the module\'s own types');
  });

  it('a global.d.ts that becomes a module (or a script again) re-resolves its users as a fresh build would', async () => {
    const tree = readTree(MOBX);
    const graph = await buildGraph(tree);
    const steps = ['export {}\ndeclare const __DEV__: boolean', tree.get('global.d.ts')!];
    for (const text of steps) {
      tree.set('global.d.ts', text);
      graph.apply({ upsert: [await parse('global.d.ts', text)], config: treeConfig(tree) });
      assert.deepEqual(compareSnapshots(snapshot(graph), snapshot(await buildGraph(tree))), [], text);
    }
    const moduleEdges = edgeList(await buildGraph(new Map([...tree, ['global.d.ts', steps[0]]])));
    assert.ok(!moduleEdges.some((e) => e.startsWith('USES') && e.endsWith('-> global.d.ts#__DEV__')), 'no edge to a module\'s unexported name');
  });
});
