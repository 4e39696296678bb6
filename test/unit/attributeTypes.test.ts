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
  it('a local aliasing a typed attribute, and a with-target through a declared __enter__, reach members (`c.request` in FlaskClient.session_transaction)', () => {
    // app = self.application (application: "Flask"); with app.test_request_context(...) as c; session_interface = app.session_interface
    const inTx = edges.filter((e) => e.includes('testing.py#FlaskClient.session_transaction ->'));
    assert.ok(inTx.includes('USES testing.py#FlaskClient.session_transaction -> ctx.py#RequestContext.request'), inTx.join('\n'));
    assert.ok(inTx.includes('CALLS testing.py#FlaskClient.session_transaction -> sessions.py#SessionInterface.open_session'), inTx.join('\n'));
  });

  it('a with-target is typed only by a repository __enter__ that declares its return type', async () => {
    const g = await buildGraph(new Map([
      ['__init__.py', ''],
      ['res.py', 'class Typed:\n    def __enter__(self) -> "Typed":\n        return self\n\n    def read(self):\n        pass\n\n\nclass Untyped:\n    def __enter__(self):\n        return 42\n\n    def read(self):\n        pass\n\n\ndef typed() -> Typed:\n    return Typed()\n\n\ndef untyped() -> Untyped:\n    return Untyped()\n'],
      ['use.py', 'from .res import typed, untyped\n\n\ndef a():\n    with typed() as t:\n        t.read()\n\n\ndef b():\n    with untyped() as u:\n        u.read()\n'],
    ]));
    const out = edgeList(g).filter((e) => / use\.py#/.test(e));
    assert.ok(out.includes('CALLS use.py#a -> res.py#Typed.read'), out.join('\n'));
    assert.ok(!out.some((e) => e.startsWith('CALLS use.py#b -> res.py#Untyped.read')), 'an __enter__ with no declared return may return anything (here 42)');
  });
});

// Shapes from the dev corpora of bench:callers (markdown's footnotes extension, Django's SQL compiler,
// Jinja2's compile_templates, requests' merge_hooks), where Jedi types a parameter from its calls.
describe("untyped parameters typed from their own module's calls", () => {
  /** The CALLS and USES edges out of `file`'s definitions. */
  const edgesOf = async (file: string, text: string) => edgeList(await buildGraph(new Map([[file, text]]))).filter((e) => e.startsWith('CALLS') || e.startsWith('USES'));
  const lines = (...l: string[]) => `${l.join('\n')}\n`;

  it('a field set from a constructor parameter takes the class the module constructs it with (`TreeProcessor(self)`)', async () => {
    const out = await edgesOf('footnotes.py', lines(
      'class FootnoteExtension:',
      '    def get_separator(self):',
      '        return ":"',
      '    def extend(self):',
      '        self.tree = TreeProcessor(self)',
      'class TreeProcessor:',
      '    def __init__(self, footnotes):',
      '        self.footnotes = footnotes',
      '    def run(self):',
      '        return self.footnotes.get_separator()',
    ));
    assert.ok(out.includes('CALLS footnotes.py#TreeProcessor.run -> footnotes.py#FootnoteExtension.get_separator'), out.join('\n'));
  });

  it('a method parameter takes what the calls through self pass it, by position or keyword: each of a few classes, none of many', async () => {
    const classes = ['Where', 'Order', 'Col', 'Ref', 'Value'];
    const text = lines(
      ...classes.flatMap((c) => [`class ${c}:`, '    def as_sql(self):', '        pass']),
      'class Compiler:',
      '    def compile(self, node, *, label=None):',
      '        label.as_sql()',
      '        return node.as_sql()',
      '    def build(self):',
      '        self.compile(Where(), label=Order())',
      '        self.compile(node=Where())',
      '    def pair(self, value):',
      '        value.as_sql()',
      '    def many(self, value):',
      '        value.as_sql()',
      '    def callers(self):',
      '        self.pair(Where())',
      '        self.pair(Order())',
      ...classes.map((c) => `        self.many(${c}())`),
    );
    const out = await edgesOf('compiler.py', text);
    const from = (def: string) => out.filter((e) => e.startsWith(`CALLS compiler.py#Compiler.${def} ->`)).map((e) => e.split(' -> ')[1]);
    assert.deepEqual(from('compile'), ['compiler.py#Order.as_sql', 'compiler.py#Where.as_sql'], 'a keyword-only parameter, passed by keyword');
    assert.deepEqual(from('pair'), ['compiler.py#Order.as_sql', 'compiler.py#Where.as_sql'], 'called with either: a call of either');
    assert.deepEqual(from('many'), [], 'called with five classes: none');
    const file = await parse('compiler.py', text);
    assert.deepEqual(file.untypedCalls?.filter((c) => c.from === 'Compiler.many').map((c) => c.name), ['as_sql'], 'still a possible call by its name');
  });

  it('positions after a `*args` argument, and a parameter that calls pass on to themselves, stay unknown', async () => {
    const out = await edgesOf('walk.py', lines(
      'class Node:',
      '    def visit(self):',
      '        pass',
      'def walk(node, other):',
      '    other.visit()',
      '    walk(node.child, node)',
      'def start(extra):',
      '    walk(*extra, Node())',
      'def again(node):',
      '    node.visit()',
      '    again(node)',
    ));
    assert.ok(!out.some((e) => e.includes('#Node.visit')), out.join('\n'));
  });

  it('a parameter defined again as a function is called as that function (`if log is None: def log(x): ...`)', async () => {
    const out = await edgesOf('env.py', lines(
      'class Env:',
      '    def compile_all(self, log=None):',
      '        if log is None:',
      '            def log(x):',
      '                pass',
      '        log("start")',
      '    def go(self):',
      '        self.compile_all(print)',
    ));
    assert.ok(out.includes('CALLS env.py#Env.compile_all -> env.py#Env.compile_all.log'), out.join('\n'));
  });

  it('a field assigned a constructed value as well as the parameter keeps the constructed class', async () => {
    const file = await parse('window.py', lines(
      'class ExpressionList:',
      '    pass',
      'class Window:',
      '    def __init__(self, partition_by=None):',
      '        self.partition_by = partition_by',
      '        self.partition_by = ExpressionList(*self.partition_by)',
      'def make():',
      '    return Window(partition_by="x")',
      'def other():',
      '    return Window(Window())',
    ));
    assert.deepEqual(file.symbols.find((s) => s.localId === 'Window.partition_by')?.type, ['ExpressionList']);
  });

  it("a field of the caller's class is passed as its type: the callee never becomes a user of the caller's field", async () => {
    const out = await edgesOf('sessions.py', lines(
      'class Hooks:',
      '    def get(self, key):',
      '        pass',
      'def merge_hooks(request_hooks, session_hooks):',
      '    return session_hooks.get("response")',
      'def merge_plain(request_hooks, session_hooks):',
      '    return session_hooks.get("response")',
      'class Session:',
      '    def __init__(self):',
      '        self.hooks = Hooks()',
      '        self.plain = {}',
      '    def send(self, request):',
      '        merge_hooks(request.hooks, self.hooks)',
      '        merge_plain(request.hooks, self.plain)',
    ));
    assert.ok(out.includes('CALLS sessions.py#merge_hooks -> sessions.py#Hooks.get'), out.join('\n'));
    assert.ok(!out.some((e) => e.startsWith('USES sessions.py#merge_') && e.includes('#Session.')), out.join('\n'));
  });
});

describe('calls typeshed declares as their argument’s own type', () => {
  it('`copy.copy(self)` returned is the class, `deepcopy(x)` is x’s class, `typing.cast(T, x)` is a T; another module’s `copy` is not the standard one', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['expr.py', [
        'import copy',
        'from copy import deepcopy',
        'import typing as t',
        'from .other import copy as other_copy',
        'class Node:',
        '    def copy(self):',
        '        return copy.copy(self)',
        '    def twin(self):',
        '        return other_copy(self)',
        '    def set_children(self, children):',
        '        pass',
        '    def clone(self):',
        '        c = self.copy()',
        '        c.set_children([])',
        '    def deep(self):',
        '        d = deepcopy(Node())',
        '        d.set_children([])',
        '    def other(self):',
        '        e = self.twin()',
        '        e.set_children([])',
        'def make(value):',
        '    node = t.cast("Node", value)',
        '    node.set_children([])',
        '',
      ].join('\n')],
      ['other.py', 'def copy(x):\n    return 1\n'],
    ]))).filter((e) => e.startsWith('CALLS') && e.endsWith('#Node.set_children'));
    assert.deepEqual(out, ['CALLS expr.py#Node.clone -> expr.py#Node.set_children', 'CALLS expr.py#Node.deep -> expr.py#Node.set_children', 'CALLS expr.py#make -> expr.py#Node.set_children']);
    const file = await parse('expr.py', 'import copy\nclass Node:\n    def copy(self):\n        return copy.copy(self)\n    def twin(self):\n        return copy.copy(other)\n');
    assert.deepEqual(file.symbols.find((s) => s.localId === 'Node.copy')?.type, ['self']);
    assert.equal(file.symbols.find((s) => s.localId === 'Node.twin')?.type, undefined, 'a copy of an unknown value is unknown');
    const mine = await parse('mine.py', 'from .other import copy\nclass Box:\n    def twin(self):\n        return copy(self)\n');
    assert.deepEqual(mine.symbols.find((s) => s.localId === 'Box.twin')?.type, ['copy', '()'], "the repository's own copy() returns what it returns");
  });
});

describe('isinstance narrows a local, as Jedi’s flow analysis reads it', () => {
  it('in an if, elif or while block and after an assert; not after the block, not for a tuple of classes', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['shapes.py', [
        'class Circle:',
        '    def area(self):',
        '        pass',
        'class Square:',
        '    def area(self):',
        '        pass',
        'def measure(shape, other):',
        '    if isinstance(shape, Circle):',
        '        shape.area()',
        '    elif isinstance(other, Square):',
        '        other.area()',
        '    shape.area()',
        'def checked(shape):',
        '    assert isinstance(shape, Square)',
        '    return shape.area()',
        'def either(shape):',
        '    if isinstance(shape, (Circle, Square)):',
        '        shape.area()',
        'def loop(shape):',
        '    while isinstance(shape, Circle):',
        '        shape = shape.area()',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && e.includes('.area'));
    assert.deepEqual(out, [
      'CALLS shapes.py#checked -> shapes.py#Square.area',
      'CALLS shapes.py#loop -> shapes.py#Circle.area',
      'CALLS shapes.py#measure -> shapes.py#Circle.area',
      'CALLS shapes.py#measure -> shapes.py#Square.area',
    ]);
    const file = await parse('shapes.py', 'class Circle:\n    def area(self):\n        pass\ndef measure(shape):\n    if isinstance(shape, Circle):\n        pass\n    shape.area()\n');
    assert.deepEqual(file.untypedCalls?.map((c) => c.name), ['area'], 'after the block the local is what it was: unknown');
  });
});

describe('a conditional value whose known branches agree', () => {
  it('is that class, the receiver included (`query = self if can_filter else make()`, Django QuerySet.__or__); branches that disagree stay unknown', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['query.py', [
        'class QuerySet:',
        '    def _chain(self):',
        '        return self',
        '    def __or__(self, other):',
        '        query = self if other.can_filter() else other.make()',
        '        query._chain()',
        'class Other:',
        '    def _chain(self):',
        '        pass',
        'def pick(flag):',
        '    value = QuerySet() if flag else Other()',
        '    value._chain()',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && e.includes('._chain'));
    assert.deepEqual(out, ['CALLS query.py#QuerySet.__or__ -> query.py#QuerySet._chain']);
  });
});

describe('a name bound to a value in one branch and to a nested function in another', () => {
  it('calls the nested function too (jinja2 `do_sum`: `func = make_attrgetter(...)` or `def func(x):`); a module function of that name is not it', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['sums.py', [
        'def make(a):',
        '    return a',
        'def func(x):',
        '    return x',
        'def do_sum(items, attribute=None):',
        '    if attribute is not None:',
        '        func = make(attribute)',
        '    else:',
        '        def func(x):',
        '            return x',
        '    return [func(item) for item in items]',
        'def plain(items):',
        '    func = make(1)',
        '    return func(items)',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && !e.endsWith('#make'));
    assert.deepEqual(out, ['CALLS sums.py#do_sum -> sums.py#do_sum.func']);
  });
});

describe('a property or method that returns a field', () => {
  it('holds what the field holds (Django `QuerySet.query` returns `self._query`), through a copy made with `self.__class__(...)` and in another file; an untyped field stays unknown', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['query.py', [
        'class Query:',
        '    def set_limits(self):',
        '        pass',
        '',
      ].join('\n')],
      ['queryset.py', [
        'from query import Query',
        'class QuerySet:',
        '    def __init__(self, query=None, hints=None):',
        '        self._query = query or Query()',
        '        self._hints = hints',
        '    @property',
        '    def query(self):',
        '        return self._query',
        '    @property',
        '    def hints(self):',
        '        return self._hints',
        '    def get_query(self):',
        '        return self._query',
        '    def _chain(self):',
        '        return self.__class__(query=self.query)',
        '    def first(self):',
        '        qs = self._chain()',
        '        qs.query.set_limits()',
        '    def second(self):',
        '        self.get_query().set_limits()',
        '    def loose(self):',
        '        self.hints.set_limits()',
        '',
      ].join('\n')],
      ['use.py', [
        'from queryset import QuerySet',
        'def run(qs: QuerySet):',
        '    qs.query.set_limits()',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && e.endsWith('#Query.set_limits'));
    assert.deepEqual(out, [
      'CALLS queryset.py#QuerySet.first -> query.py#Query.set_limits',
      'CALLS queryset.py#QuerySet.second -> query.py#Query.set_limits',
      'CALLS use.py#run -> query.py#Query.set_limits',
    ]);
  });
});

describe('a function declared to return a collection', () => {
  it('types what a for over its call binds (`for ext in self.iter_extensions()` with `-> t.Iterator["Ext"]`); an untyped return stays unknown', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['env.py', [
        'import typing as t',
        'class Ext:',
        '    def bind(self):',
        '        pass',
        'class Env:',
        '    def iter_extensions(self) -> t.Iterator["Ext"]:',
        '        return iter([])',
        '    def loose(self):',
        '        return []',
        '    def run(self):',
        '        for ext in self.iter_extensions():',
        '            ext.bind()',
        '    def other(self):',
        '        for ext in self.loose():',
        '            ext.bind()',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && e.endsWith('#Ext.bind'));
    assert.deepEqual(out, ['CALLS env.py#Env.run -> env.py#Ext.bind']);
  });
});

describe('a mapping annotated with its value class', () => {
  it('types `.values()`, `.items()` pairs, `m[k]` and `m.get(k)` for parameters, fields and a field holding a call; a class of the repository keeps its own `get`', async () => {
    const out = edgeList(await buildGraph(new Map([
      ['loaders.py', [
        'import typing as t',
        'class Loader:',
        '    def load(self):',
        '        pass',
        'class Cache:',
        '    def get(self, key) -> Loader:',
        '        pass',
        'def load_all() -> t.Dict[str, "Loader"]:',
        '    return {}',
        'def each(mapping: t.Mapping[str, Loader]):',
        '    for loader in mapping.values():',
        '        loader.load()',
        'def pairs(mapping: t.Mapping[str, Loader]):',
        '    for name, loader in mapping.items():',
        '        loader.load()',
        'def one(mapping: "dict[str, Loader]", key):',
        '    found = mapping.get(key)',
        '    found.load()',
        'def sub(mapping: t.Optional[t.Dict[str, Loader]], key):',
        '    item = mapping[key]',
        '    item.load()',
        'class Prefix:',
        '    def __init__(self, mapping: t.Mapping[str, Loader]):',
        '        self.mapping = mapping',
        '        self.all = load_all()',
        '        self.cache = Cache()',
        '    def from_field(self, key):',
        '        loader = self.mapping[key]',
        '        loader.load()',
        '    def from_call(self):',
        '        for name, loader in self.all.items():',
        '            loader.load()',
        '    def from_cache(self, key):',
        '        hit = self.cache.get(key)',
        '        hit.load()',
        '',
      ].join('\n')],
    ]))).filter((e) => e.startsWith('CALLS') && e.endsWith('#Loader.load')).map((e) => e.split(' -> ')[0].replace('CALLS loaders.py#', ''));
    assert.deepEqual(out, ['Prefix.from_cache', 'Prefix.from_call', 'Prefix.from_field', 'each', 'one', 'pairs', 'sub']);
  });
});
