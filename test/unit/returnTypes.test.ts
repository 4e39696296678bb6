// Return types: a call's result is the class its callee's declared return type names, so a member of
// it resolves the way Jedi and the TypeScript language service resolve it (`make().run`,
// `x = make(); x.run`). Issue 19 measured these among the needed definitions completion context missed.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, edgeList, parse, readTree } from './helpers';

const FLASK = path.join(FIXTURES, 'real', 'flask');

describe('return types (Python)', () => {
  let flask: RepositoryGraph;
  let edges: string[];
  before(async () => {
    flask = await buildGraph(readTree(FLASK));
    edges = edgeList(flask);
  });

  it('records a function\'s return annotation as what its call gives, forward references unquoted', () => {
    const typeOf = (file: string, id: string) => flask.fileGraph(file)!.symbols.find((s) => s.localId === id)?.type;
    assert.deepEqual(typeOf('app.py', 'Flask.request_context'), ['RequestContext']);
    assert.deepEqual(typeOf('ctx.py', 'RequestContext.copy'), ['RequestContext'], '-> "RequestContext"');
    assert.equal(typeOf('cli.py', 'AppGroup.command'), undefined, 'an unannotated return says nothing');
  });

  it('a local assigned a method call reaches the returned class\'s members (`ctx = self.request_context(environ); ctx.push()` in app.py)', () => {
    assert.ok(edges.includes('CALLS app.py#Flask.wsgi_app -> ctx.py#RequestContext.push'), edges.filter((e) => e.startsWith('CALLS app.py#Flask.wsgi_app')).join('\n'));
  });

  it('a member of a call result, directly and through a typed local, across files', async () => {
    const g = await buildGraph(new Map([
      ['__init__.py', ''],
      ['conn.py', 'class Conn:\n    def send(self, b):\n        pass\n\n    timeout = 3\n\n\ndef connect(url) -> "Conn":\n    return Conn()\n\n\ndef untyped(url):\n    if url:\n        return Conn()\n    return url.open()\n\n\ndef inferred(url):\n    if not url:\n        return None\n    return Conn()\n'],
      ['use.py', 'from .conn import connect, inferred, untyped\n\n\ndef a():\n    connect("x").send(b"1")\n\n\ndef b():\n    c = connect("x")\n    return c.timeout\n\n\ndef d():\n    u = untyped("x")\n    u.send(b"2")\n\n\ndef e():\n    i = inferred("x")\n    i.send(b"3")\n'],
    ]));
    const out = edgeList(g).filter((e) => / use\.py#/.test(e));
    assert.ok(out.includes('CALLS use.py#a -> conn.py#Conn.send'), out.join('\n'));
    assert.ok(out.includes('CALLS use.py#a -> conn.py#connect'), 'the inner call is still a call of connect');
    assert.ok(out.includes('USES use.py#b -> conn.py#Conn.timeout'), out.join('\n'));
    assert.ok(!out.some((e) => e.startsWith('CALLS use.py#d -> conn.py#Conn')), 'no return annotation and returns that differ: the result stays unknown');
    // Issue 34: as Jedi reads it, returns that all say one class (None aside) are what the call gives.
    assert.ok(out.includes('CALLS use.py#e -> conn.py#Conn.send'), out.join('\n'));
    assert.ok(!out.some((e) => e.startsWith('USES use.py#d -> conn.py#untyped')), 'an unknown result is not a use of its callee on the line that uses it');
  });

  it('a local holding the result of a method the graph cannot follow is not a use of the chain\'s head (flask `req_ctx = _cv_request.get(None); req_ctx.url_adapter`)', () => {
    const file = flask.fileGraph('app.py')!;
    const line = file.refs.find((r) => r.chain[0] === '_cv_request' && r.chain.includes('url_adapter'))?.line;
    assert.ok(line !== undefined, 'the line `url_adapter = req_ctx.url_adapter` has a reference through the local');
    const targets = flask.resolveDetached({ ...file, refs: file.refs.filter((r) => r.line === line) }).edges.filter((e) => e.kind === 'USES' || e.kind === 'CALLS').map((e) => e.target);
    assert.ok(!targets.includes('globals.py#_cv_request'), targets.join('\n'));
  });

  it('arguments of a call inside a chain are still references', async () => {
    const file = await parse('m.py', 'from .x import make, Arg\n\ndef f():\n    make(Arg).run()\n');
    const chains = file.refs.map((r) => `${r.kind} ${r.chain.join('.')}`);
    assert.ok(chains.includes('CALLS make.().run'), chains.join('\n'));
    assert.ok(chains.includes('CALLS make'), chains.join('\n'));
    assert.ok(chains.includes('USES Arg'), chains.join('\n'));
  });
});

describe('declared types (TypeScript, real TanStack Query)', () => {
  let edges: string[];
  let graph: RepositoryGraph;
  before(async () => {
    graph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'tanstack-query-core', 'src')));
    edges = edgeList(graph);
  });

  it('a local assigned a method\'s result reaches the members of its declared return type (`const query = this.#queryCache.build(...)`)', () => {
    const from = edges.filter((e) => e.includes('queryClient.ts#QueryClient.ensureQueryData ->'));
    assert.ok(from.includes('CALLS queryClient.ts#QueryClient.ensureQueryData -> query.ts#Query.isStaleByTime'), from.join('\n'));
    assert.ok(from.includes('USES queryClient.ts#QueryClient.ensureQueryData -> query.ts#QueryState.data'), `query.state.data: a member read through the field's declared type\n${from.join('\n')}`);
  });

  it('a call on a call\'s result (`this.#client.getQueryCache().notify(...)`)', () => {
    assert.ok(edges.some((e) => /^CALLS queryObserver\.ts#QueryObserver\.\S+ -> queryCache\.ts#QueryCache\.notify$/.test(e)), edges.filter((e) => e.includes('QueryCache.notify')).join('\n'));
  });

  it('an object type alias has its members as nodes (`type QueryObserverMatch = { observer: QueryObserver }`)', () => {
    assert.ok(edges.includes('HAS_FIELD queriesObserver.ts#QueryObserverMatch -> queriesObserver.ts#QueryObserverMatch.observer'), edges.filter((e) => e.includes('QueryObserverMatch')).join('\n'));
    assert.deepEqual(graph.fileGraph('queriesObserver.ts')!.symbols.find((s) => s.localId === 'QueryObserverMatch.observer')?.type, ['QueryObserver']);
  });
});

describe('object types inside a type alias (TypeScript)', () => {
  it('members of object types in unions, intersections, conditional branches and type arguments are the alias\'s; a property\'s own object type is not', async () => {
    const file = await parse('issues.ts', [
      'export type Result<T> = { success: true; data: T } | { success: false; error: Error };',
      'type RawIssue<T> = T extends any ? Flatten<Partial<T> & { readonly input: unknown; inst?: Check }> : never;',
      'export type Schema = { $ref?: string; items?: { minItems: number } };',
    ].join('\n'));
    const members = file.symbols.filter((s) => s.parent !== null).map((s) => `${s.localId} ${s.kind}${s.type ? ` : ${s.type.join('.')}` : ''}`);
    assert.deepEqual(members, [
      // `data: T`: a type parameter with neither constraint nor default gives no type (genericTypes.test.ts).
      'Result.success Field', 'Result.data Field', 'Result.success@2 Field', 'Result.error Field : Error',
      'RawIssue.input Field', 'RawIssue.inst Field : Check',
      'Schema.$ref Field', 'Schema.items Field',
    ]);
    assert.ok(file.symbols.find((s) => s.localId === 'Result.data')!.exported, 'members of an exported alias are exported');
  });
});
