// Contextual typing (TypeScript): the keys of an object literal, or of a destructuring pattern, whose
// type is declared where it stands are uses of that type's members, as the TypeScript language
// service resolves them (`return { mutationKey }` under `(): DehydratedMutation` → DehydratedMutation.mutationKey).
// Issue 19 found such keys among the definitions completion context never proposed.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, edgeList, parse, readTree } from './helpers';

describe('contextual types of object literals (real TanStack Query)', () => {
  let graph: RepositoryGraph;
  let edges: string[];
  before(async () => {
    graph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'tanstack-query-core', 'src')));
    edges = edgeList(graph);
  });
  const from = (source: string) => edges.filter((e) => e.startsWith(`USES ${source} ->`));

  it('a literal returned under a declared return type (`function dehydrateMutation(...): DehydratedMutation { return { mutationKey, state } }`)', () => {
    const out = from('hydration.ts#dehydrateMutation');
    assert.ok(out.includes('USES hydration.ts#dehydrateMutation -> hydration.ts#DehydratedMutation.mutationKey'), out.join('\n'));
    assert.ok(out.includes('USES hydration.ts#dehydrateMutation -> hydration.ts#DehydratedMutation.state'), out.join('\n'));
  });

  it('a literal assigned to a typed local, across files (`const result: QueryObserverBaseResult<TData, TError> = { status, ... }`)', () => {
    const out = from('queryObserver.ts#QueryObserver.createResult');
    for (const key of ['status', 'fetchStatus', 'isPending', 'refetch']) {
      assert.ok(out.includes(`USES queryObserver.ts#QueryObserver.createResult -> types.ts#QueryObserverBaseResult.${key}`), `${key}\n${out.join('\n')}`);
    }
  });

  it('a literal that `satisfies` a type alias of an object type (`{ client, meta, mutationKey } satisfies MutationFunctionContext`)', () => {
    const out = from('mutation.ts#Mutation.execute');
    for (const key of ['client', 'meta', 'mutationKey']) assert.ok(out.includes(`USES mutation.ts#Mutation.execute -> types.ts#MutationFunctionContext.${key}`), `${key}\n${out.join('\n')}`);
  });

  it('each key is a reference on its own line, so per-line context sees it', () => {
    const file = graph.fileGraph('hydration.ts')!;
    const key = file.refs.find((r) => r.chain.join('.') === 'DehydratedMutation.mutationKey');
    assert.ok(key, 'a reference for the key');
    assert.equal(key.line, 64, 'the line of `mutationKey: mutation.options.mutationKey,` (zero-based)');
    assert.equal(key.exact, true);
  });
});

/** The typed keys of a one-file buffer, `line chain`. */
async function typedKeys(lines: string[]): Promise<string[]> {
  const file = await parse('keys.ts', lines.join('\n'));
  return file.refs.filter((r) => r.exact).map((r) => `${r.line} ${r.chain.join('.')}`).sort();
}

describe('contextual types: what is and is not a typed key', () => {
  it('declared locals, nested literals, methods, quoted keys, destructured parameters, `satisfies` and `as`', async () => {
    const keys = await typedKeys([
      'import { T, R } from "./t";',
      'const a: T = { k: 1, s, m() {}, "q": 2, n: { x: 1 }, [computed]: 3 };',
      'function f({ a, b = 1, c: d }: T): R { return { r: 1 }; }',
      'const g = (): R => ({ r: 2 });',
      'const h = { z: 1 } satisfies T;',
      'const i = { y: 1 } as R;',
    ]);
    assert.deepEqual(keys, ['1 T.k', '1 T.m', '1 T.n', '1 T.n.x', '1 T.q', '1 T.s', '2 R.r', '2 T.a', '2 T.b', '2 T.c', '3 R.r', '4 T.z', '5 R.y']);
  });

  it('no typed key where the type is unknown here: a callback inside a typed function, a type parameter, a built-in generic', async () => {
    const keys = await typedKeys([
      'import { R } from "./t";',
      'function f(): R { return [1].map(() => { return { inner: 1 }; })[0]; }',
      'function p<G>(): G { return { generic: 1 } as G; }',
      'async function q(): Promise<R> { return { awaited: 1 }; }',
      'const r: Record<string, number> = { rec: 1 };',
    ]);
    assert.deepEqual(keys, []);
  });

  it('a key the declared type does not have reaches nothing (not the type, not another definition)', async () => {
    const g = await buildGraph(new Map([
      ['t.ts', 'export interface Options { retry: number }\n'],
      ['use.ts', 'import type { Options } from "./t";\nexport const o: Options = {\n  retry: 3,\n  unknownKey: true,\n};\n'],
    ]));
    const file = g.fileGraph('use.ts')!;
    const onLine = (line: number) => g.resolveDetached({ ...file, refs: file.refs.filter((r) => r.line === line) }).edges.filter((e) => e.kind === 'USES').map((e) => e.target);
    assert.deepEqual(onLine(2), ['t.ts#Options.retry']);
    assert.deepEqual(onLine(3), [], 'unknownKey');
  });
});
