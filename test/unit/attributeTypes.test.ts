// Attribute types on real Flask code: a field or module variable whose class is known (an
// annotation, a forward reference in quotes, a constructor call, a typed parameter stored on self)
// carries the chain through to the member, the way Jedi resolves it. These were the most frequent
// disagreements with the independent oracle of bench:context (flask: `request.blueprints`,
// `state.app.jinja_env`).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, edgeList, parse, readTree } from './helpers';

const FLASK = path.join(FIXTURES, 'real', 'flask');

describe('attribute types (real Flask)', () => {
  let graph: RepositoryGraph;
  let edges: string[];
  before(async () => {
    graph = await buildGraph(readTree(FLASK));
    edges = edgeList(graph);
  });

  it('records the class of typed fields and module variables, forward references and Optional unwrapped', () => {
    const typeOf = (file: string, id: string) => graph.fileGraph(file)!.symbols.find((s) => s.localId === id)?.type;
    assert.deepEqual(typeOf('globals.py', 'request'), ['Request'], 'request: "Request" = LocalProxy(...)');
    assert.deepEqual(typeOf('blueprints.py', 'BlueprintSetupState.app'), ['Flask'], 'self.app = app, with app: "Flask"');
    assert.deepEqual(typeOf('blueprints.py', 'BlueprintSetupState.blueprint'), ['Blueprint']);
  });

  it('a module variable annotated with a class reaches the class member (`request.blueprints` in app.py)', () => {
    assert.ok(edges.includes('USES app.py#Flask.preprocess_request -> wrappers.py#Request.blueprints'), edges.filter((e) => e.startsWith('USES app.py#Flask.preprocess_request')).join('\n'));
  });

  it('a field set from a typed parameter reaches the member of its class in another file (`state.app.jinja_env`)', () => {
    assert.ok(edges.includes('USES blueprints.py#Blueprint.add_app_template_global.register_template -> app.py#Flask.jinja_env'));
  });

  it('a field typed with a class outside the repository stays a use of the field', async () => {
    const g = await buildGraph(new Map([
      ['box.py', 'import io\n\nclass Box:\n    def __init__(self, name: str) -> None:\n        self.name = name\n        self.buf = io.StringIO()\n'],
      ['use.py', 'from .box import Box\n\ndef shout(b: Box) -> str:\n    return b.name.upper()\n\ndef dump(b: Box) -> None:\n    b.buf.write("x")\n'],
      ['__init__.py', ''],
    ]));
    const uses = edgeList(g).filter((e) => e.startsWith('USES use.py#') || e.startsWith('CALLS use.py#'));
    assert.ok(uses.includes('USES use.py#shout -> box.py#Box.name'), uses.join('\n'));
    assert.ok(uses.includes('USES use.py#dump -> box.py#Box.buf'), uses.join('\n'));
  });

  it('a later assignment with a constructor types a field first set to None', async () => {
    const file = await parse('conn.py', 'class Pool:\n    def __init__(self):\n        self.conn = None\n\n    def open(self):\n        self.conn = Connection()\n');
    assert.deepEqual(file.symbols.find((s) => s.localId === 'Pool.conn')?.type, ['Connection']);
  });
});
