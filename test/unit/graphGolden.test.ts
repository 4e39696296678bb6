// Golden graphs: the RANGER paper's two-file example (Python and TypeScript) node for node and edge
// for edge, and named edges in real code (Flask 2.2.2 from Debian, TanStack Query core 5.90.2)
// checked by reading that code.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, buildGraph, edgeList, readTree } from './helpers';

test('RANGER example in Python: exact nodes and edges', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-py')), 'ranger-py');
  const nodes = graph.graph.mapNodes((id, a) => `${a.kind} ${id} ${a.qname}`).sort();
  assert.deepEqual(nodes, [
    'Class base.py#Calculator base.Calculator',
    'Class extended.py#Scientific extended.Scientific',
    'External ext:py:builtins.round builtins.round',
    'Folder dir:. ranger-py',
    'Function base.py#format_result base.format_result',
    'Function extended.py#demo extended.demo',
    'Function extended.py#quick_add extended.quick_add',
    'GlobalVariable base.py#precision base.precision',
    'Method base.py#Calculator.add base.Calculator.add',
    'Method base.py#Calculator.multiply base.Calculator.multiply',
    'Method extended.py#Scientific.divide extended.Scientific.divide',
    'Module base.py base',
    'Module extended.py extended',
  ]);
  assert.deepEqual(edgeList(graph), [
    'CALLS base.py#format_result -> ext:py:builtins.round',
    'CALLS extended.py#Scientific.divide -> base.py#Calculator.multiply',
    'CALLS extended.py#demo -> base.py#format_result',
    'CALLS extended.py#demo -> extended.py#Scientific',
    'CALLS extended.py#demo -> extended.py#Scientific.divide',
    'CALLS extended.py#demo -> extended.py#quick_add',
    'CALLS extended.py#quick_add -> base.py#Calculator',
    'CALLS extended.py#quick_add -> base.py#Calculator.add',
    'CONTAINS base.py -> base.py#Calculator',
    'CONTAINS base.py -> base.py#format_result',
    'CONTAINS base.py -> base.py#precision',
    'CONTAINS dir:. -> base.py',
    'CONTAINS dir:. -> extended.py',
    'CONTAINS extended.py -> extended.py#Scientific',
    'CONTAINS extended.py -> extended.py#demo',
    'CONTAINS extended.py -> extended.py#quick_add',
    'HAS_METHOD base.py#Calculator -> base.py#Calculator.add',
    'HAS_METHOD base.py#Calculator -> base.py#Calculator.multiply',
    'HAS_METHOD extended.py#Scientific -> extended.py#Scientific.divide',
    'IMPORTS extended.py -> base.py#Calculator',
    'IMPORTS extended.py -> base.py#format_result',
    'INHERITS extended.py#Scientific -> base.py#Calculator',
    'USES base.py#format_result -> base.py#precision',
  ]);
  const add = graph.graph.getNodeAttributes('base.py#Calculator.add');
  assert.equal(add.signature, 'def add(self, a, b) -> float');
  assert.equal(add.doc, 'Return the sum of a and b.');
  assert.deepEqual(add.range, { startLine: 9, startCol: 4, endLine: 11, endCol: 20 });
  assert.match(add.hash, /^[0-9a-f]{40}$/);
  assert.equal(graph.graph.getNodeAttributes('base.py#precision').doc, 'Number of decimal places used when formatting results.');
});

test('RANGER example in TypeScript: the same graph shape', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-ts')), 'ranger-ts');
  const edges = edgeList(graph, (k) => k !== 'USES');
  for (const expected of [
    'CALLS extended.ts#Scientific.divide -> base.ts#Calculator.multiply',
    'CALLS extended.ts#demo -> base.ts#formatResult',
    'CALLS extended.ts#demo -> extended.ts#Scientific',
    'CALLS extended.ts#demo -> extended.ts#Scientific.divide',
    'CALLS extended.ts#demo -> extended.ts#quickAdd',
    'CALLS extended.ts#quickAdd -> base.ts#Calculator',
    'CALLS extended.ts#quickAdd -> base.ts#Calculator.add',
    'HAS_METHOD base.ts#Calculator -> base.ts#Calculator.add',
    'HAS_METHOD base.ts#Calculator -> base.ts#Calculator.multiply',
    'HAS_METHOD extended.ts#Scientific -> extended.ts#Scientific.divide',
    'IMPORTS extended.ts -> base.ts#Calculator',
    'IMPORTS extended.ts -> base.ts#formatResult',
    'INHERITS extended.ts#Scientific -> base.ts#Calculator',
    'CONTAINS base.ts -> base.ts#precision',
  ]) {
    assert.ok(edges.includes(expected), `missing ${expected}\n${edges.join('\n')}`);
  }
  assert.ok(edgeList(graph, (k) => k === 'USES').includes('USES base.ts#formatResult -> base.ts#precision'));
});

test('Flask 2.2.2 (Debian): inheritance, imports and calls read off the source', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'real/flask')), 'flask');
  const edges = new Set(edgeList(graph));
  for (const expected of [
    // app.py: `class Flask(Scaffold):` with `from .scaffold import Scaffold`
    'INHERITS app.py#Flask -> scaffold.py#Scaffold',
    // app.py: `from .config import Config`
    'IMPORTS app.py -> config.py#Config',
    // sessions.py: `class SecureCookieSessionInterface(SessionInterface):`
    'INHERITS sessions.py#SecureCookieSessionInterface -> sessions.py#SessionInterface',
    // app.py, class body: `session_interface: SessionInterface = SecureCookieSessionInterface()`
    'CALLS app.py#Flask -> sessions.py#SecureCookieSessionInterface',
    // Flask.run: `cli.show_server_banner(self.debug, self.name)` after `from . import cli`
    'CALLS app.py#Flask.run -> cli.py#show_server_banner',
    // wrappers.py: `from werkzeug.wrappers import Request as RequestBase`; `class Request(RequestBase):`
    'INHERITS wrappers.py#Request -> ext:py:werkzeug.wrappers.Request',
    // __init__.py re-exports: `from .app import Flask as Flask`
    'IMPORTS __init__.py -> app.py#Flask',
    // blueprints.py: `class Blueprint(Scaffold):`
    'INHERITS blueprints.py#Blueprint -> scaffold.py#Scaffold',
    // the package folder contains its modules
    'CONTAINS dir:json -> json/tag.py',
  ]) {
    assert.ok(edges.has(expected), `missing ${expected}`);
  }
  assert.equal(graph.graph.getNodeAttributes('app.py#Flask').qname, 'flask.app.Flask');
  const stats = graph.importStats();
  assert.equal(stats.resolved, stats.internal, `unresolved internal imports: ${stats.unresolvedSamples.join(', ')}`);
});

test('TanStack Query core 5.90.2: class hierarchy, index re-exports and calls', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'real/tanstack-query-core')), 'query-core');
  const edges = new Set(edgeList(graph));
  for (const expected of [
    // queryObserver.ts: `export class QueryObserver<...> extends Subscribable<QueryObserverListener<TData, TError>>`
    'INHERITS src/queryObserver.ts#QueryObserver -> src/subscribable.ts#Subscribable',
    // infiniteQueryObserver.ts: `export class InfiniteQueryObserver<...> extends QueryObserver<...>`
    'INHERITS src/infiniteQueryObserver.ts#InfiniteQueryObserver -> src/queryObserver.ts#QueryObserver',
    // query.ts: `export class Query<...> extends Removable`
    'INHERITS src/query.ts#Query -> src/removable.ts#Removable',
    // index.ts: `export { QueryObserver } from './queryObserver'`
    'IMPORTS src/index.ts -> src/queryObserver.ts',
    // queryObserver.ts imports `shallowEqualObjects` from './utils' and calls it in setOptions
    'IMPORTS src/queryObserver.ts -> src/utils.ts#shallowEqualObjects',
    'CALLS src/queryObserver.ts#QueryObserver.setOptions -> src/utils.ts#shallowEqualObjects',
  ]) {
    assert.ok(edges.has(expected), `missing ${expected}`);
  }
  const stats = graph.importStats();
  assert.equal(stats.resolved, stats.internal, `unresolved internal imports: ${stats.unresolvedSamples.join(', ')}`);
});
