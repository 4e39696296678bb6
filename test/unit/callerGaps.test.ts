// Issue 34's graph gaps on real code (Django 3.2 from Debian, trimmed to what the case needs): calls
// the graph left unresolved and silent, and callers it could not show. Each case failed before its fix.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { LocalRepository } from '../../src/core/service/localRepository';
import type { ToolResult } from '../../src/core/service/repository';
import { buildGraph, edgeList } from './helpers';

/** The CALLS and USES edges of a tree, as `KIND source -> target`. */
async function references(tree: Record<string, string>): Promise<string[]> {
  const graph = await buildGraph(new Map(Object.entries(tree)));
  return edgeList(graph).filter((e) => e.startsWith('CALLS') || e.startsWith('USES'));
}

test('an import inside a function binds its names there: the call and the use resolve (django.contrib.sites, flatpages)', async () => {
  const edges = await references({
    'sites/__init__.py': '',
    'sites/models.py': 'class SiteManager:\n    def get_current(self, request=None):\n        pass\n\n\nclass Site:\n    objects = SiteManager()\n',
    'sites/requests.py': 'class RequestSite:\n    def __init__(self, request):\n        self.domain = self.name = request.get_host()\n',
    'sites/shortcuts.py': [
      'from django.apps import apps',
      '',
      'from .requests import RequestSite',
      '',
      '',
      'def get_current_site(request):',
      '    # Imports are inside the function because its point is to avoid importing',
      "    # the Site models when django.contrib.sites isn't installed.",
      "    if apps.is_installed('django.contrib.sites'):",
      '        from .models import Site',
      '        return Site.objects.get_current(request)',
      '    else:',
      '        return RequestSite(request)',
      '',
    ].join('\n'),
    'flatpages/__init__.py': '',
    'flatpages/views.py': 'def flatpage(request, url):\n    pass\n',
    'flatpages/models.py': [
      'from django.urls import NoReverseMatch, reverse',
      '',
      '',
      'class FlatPage:',
      '    def get_absolute_url(self):',
      '        from .views import flatpage',
      '',
      "        for url in (self.url.lstrip('/'), self.url):",
      '            try:',
      "                return reverse(flatpage, kwargs={'url': url})",
      '            except NoReverseMatch:',
      '                pass',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS sites/shortcuts.py#get_current_site -> sites/models.py#SiteManager.get_current'), edges.join('\n'));
  assert.ok(edges.includes('CALLS sites/shortcuts.py#get_current_site -> sites/requests.py#RequestSite'), edges.join('\n'));
  assert.ok(edges.includes('USES flatpages/models.py#FlatPage.get_absolute_url -> flatpages/views.py#flatpage'), edges.join('\n'));
});

test('self inside a function nested in a method is the method\'s class (django.template.library.Library.filter)', async () => {
  const edges = await references({
    'library.py': [
      'class Library:',
      '    def filter(self, name=None, filter_func=None, **flags):',
      '        if name is None and filter_func is None:',
      '            # @register.filter()',
      '            def dec(func):',
      '                return self.filter_function(func, **flags)',
      '            return dec',
      '        return filter_func',
      '',
      '    def filter_function(self, func, **flags):',
      '        name = getattr(func, "_decorated_function", func).__name__',
      '        return self.filter(name, func, **flags)',
      '',
      '    def simple_tag(self, func=None):',
      '        def dec(func):',
      '            def compile_func(parser, token):',
      '                return self.filter(token)',
      '            return compile_func',
      '        return dec',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS library.py#Library.filter.dec -> library.py#Library.filter_function'), edges.join('\n'));
  assert.ok(edges.includes('CALLS library.py#Library.simple_tag.dec.compile_func -> library.py#Library.filter'), edges.join('\n'));
});

test('a parameter named self in a nested function is its own, not the method\'s receiver', async () => {
  const edges = await references({
    'manager.py': [
      'class BaseManager:',
      '    def get_queryset(self):',
      '        pass',
      '',
      '    @classmethod',
      '    def _get_queryset_methods(cls, queryset_class):',
      '        def create_method(name, method):',
      '            def manager_method(self, *args, **kwargs):',
      '                return getattr(self.get_queryset(), name)(*args, **kwargs)',
      '            return manager_method',
      '        return create_method',
      '',
    ].join('\n'),
  });
  assert.ok(!edges.some((e) => e.includes('manager_method -> manager.py#BaseManager.get_queryset')), edges.join('\n'));
});

test("a method's first parameter is its receiver whatever its name, unless the method is static (CPython 3.11 enum, django.contrib.admin)", async () => {
  const edges = await references({
    'enum.py': [
      'class EnumType(type):',
      '    def __new__(metacls, cls, bases, classdict, *, boundary=None, _simple=False, **kwds):',
      '        member_type, first_enum = metacls._get_mixins_(cls, bases)',
      '        return member_type',
      '',
      '    @classmethod',
      '    def _get_mixins_(mcls, class_name, bases):',
      '        return object, None',
      '',
    ].join('\n'),
    'options.py': [
      'class ModelAdmin:',
      '    def get_action(self, action):',
      '        return action',
      '',
      '    @staticmethod',
      '    def _get_action_description(func, name):',
      '        return func.get_action(name)',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS enum.py#EnumType.__new__ -> enum.py#EnumType._get_mixins_'), edges.join('\n'));
  assert.ok(!edges.some((e) => e.includes('_get_action_description -> options.py#ModelAdmin.get_action')), edges.join('\n'));
});

/** A repository of `files` on disk, indexed, for the agent tools; closed and removed after `use`. */
async function withRepository(files: Record<string, string>, use: (repo: LocalRepository) => Promise<void>): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-callers-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const repo = await LocalRepository.open(root, { storeDir: null });
  try {
    await repo.index();
    await use(repo);
  } finally {
    await repo.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function ok(result: ToolResult): { text: string; structured: Record<string, unknown> } {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result;
}

/** django/core/management/base.py and commands/check.py, trimmed: execute() calls self.handle(), which each command overrides. */
const MANAGEMENT = {
  'base.py': [
    'class BaseCommand:',
    '    def execute(self, *args, **options):',
    '        output = self.handle(*args, **options)',
    '        return output',
    '',
    '    def handle(self, *args, **options):',
    "        raise NotImplementedError('subclasses of BaseCommand must provide a handle() method')",
    '',
    '',
    'class LabelCommand(BaseCommand):',
    '    def handle(self, *labels, **options):',
    '        return self.handle_label(labels[0], **options)',
    '',
    '    def handle_label(self, label, **options):',
    '        return label',
    '',
    '',
    'def call_command(command_name, *args, **options):',
    '    command = BaseCommand()',
    '    return command.execute(*args, **options)',
    '',
  ].join('\n'),
  'check.py': 'from base import BaseCommand\n\n\nclass Command(BaseCommand):\n    def handle(self, *app_labels, **options):\n        return super().handle(*app_labels, **options)\n',
};

test('impact of a change to an override reaches the callers of the method it overrides, marked possible (django BaseCommand.handle)', async () => {
  await withRepository(MANAGEMENT, async (repo) => {
    const answer = ok(await repo.runTool('impact', { ids: ['check.py#Command.handle'], depth: 2 }));
    const affected = answer.structured.affected as Array<{ qname: string; distance: number; possible?: boolean }>;
    assert.deepEqual(affected.map((a) => [a.qname, a.distance, a.possible ?? false]), [
      ['base.BaseCommand.execute', 1, true],
      ['base.call_command', 2, true],
    ], answer.text);
    assert.match(answer.text, /1\? Method base\.BaseCommand\.execute .* via ← CALLS\? \(may dispatch from base\.BaseCommand\.handle\) base\.BaseCommand\.execute/);
    assert.match(answer.text, /2 possible, marked \?: through an unresolved reference of the same name or a call of an overridden method/);
    // The base method's own impact is resolved, not possible; the override's super() call is no dispatch to itself.
    const base = ok(await repo.runTool('impact', { ids: ['base.py#BaseCommand.handle'], depth: 1 }));
    assert.deepEqual((base.structured.affected as Array<{ qname: string; possible?: boolean }>).map((a) => [a.qname, a.possible ?? false]).sort(), [
      ['base.BaseCommand.execute', false],
      ['check.Command.handle', false],
    ]);
    // A sibling subclass's own calls of the base method never run on this class: LabelCommand.handle
    // overrides too, and Command's callers through BaseCommand.handle do not include LabelCommand's code.
    const explored = ok(await repo.runTool('explore_graph', { id: 'check.py#Command.handle', direction: 'in', edgeKinds: ['CALLS'] }));
    assert.match(explored.text, /\+1 possible through overriding[\s\S]*\? base\.BaseCommand\.execute {2}base\.py:3 {2}\(calls base\.BaseCommand\.handle\)/);
  });
});

test('callers of a property or a decorator are its USES, with the kind said (django URLResolver, login_required)', async () => {
  await withRepository({
    'functional.py': 'class cached_property:\n    def __init__(self, func, name=None):\n        self.real_func = func\n',
    'decorators.py': 'def login_required(function=None, redirect_field_name=None, login_url=None):\n    return function\n',
    'resolvers.py': [
      'from functional import cached_property',
      'from decorators import login_required',
      '',
      '',
      'class URLResolver:',
      '    @cached_property',
      '    def urlconf_module(self):',
      '        return self.urlconf_name',
      '',
      '    @cached_property',
      '    def url_patterns(self):',
      '        patterns = getattr(self.urlconf_module, "urlpatterns", self.urlconf_module)',
      '        return patterns',
      '',
      '',
      '@login_required',
      'def password_change(request):',
      '    return request',
      '',
    ].join('\n'),
  }, async (repo) => {
    const property = ok(await repo.runTool('explore_graph', { name: 'URLResolver.urlconf_module', direction: 'in', edgeKinds: ['CALLS'] }));
    assert.match(property.text, /← USES\s+resolvers\.URLResolver\.url_patterns {2}resolvers\.py:12/);
    assert.match(property.text, /USES rows are callers with no call written/);
    const decorator = ok(await repo.runTool('search_code', { query: 'callers of login_required' }));
    assert.match(decorator.text, /Function resolvers\.password_change .*\[structural USES/);
  });
});

test('a call on a value of unknown type is listed as a possible caller, not dropped (django.core.management.call_command)', async () => {
  await withRepository({
    'base.py': MANAGEMENT['base.py'],
    'management.py': [
      'from base import BaseCommand',
      '',
      '',
      'def call_command(command_name, *args, **options):',
      '    if isinstance(command_name, BaseCommand):',
      '        # Command object passed in.',
      '        command = command_name',
      "        command_name = command.__class__.__module__.split('.')[-1]",
      '    defaults = dict(options)',
      '    return command.execute(*args, **defaults)',
      '',
    ].join('\n'),
  }, async (repo) => {
    const answer = ok(await repo.runTool('explore_graph', { id: 'base.py#BaseCommand.execute', direction: 'in', edgeKinds: ['CALLS'] }));
    assert.match(answer.text, /← CALLS\s+base\.call_command/);
    assert.match(answer.text, /\+1 possible, unresolved[\s\S]*\? management\.call_command {2}management\.py:10/);
    // impact lists it too, as a row marked possible after the resolved ones, and does not walk on from a guess
    const changed = ok(await repo.runTool('impact', { ids: ['base.py#BaseCommand.execute'], depth: 2 }));
    const rows = changed.structured.affected as Array<{ id: string; distance: number; possible?: boolean }>;
    const guess = rows.find((r) => r.id === 'management.py#call_command');
    assert.ok(guess?.possible && guess.distance === 1, JSON.stringify(rows));
    assert.ok(rows.findIndex((r) => r.possible) > rows.findIndex((r) => r.id === 'base.py#call_command'), 'resolved rows first');
    assert.match(changed.text, /1\? Function management\.call_command {2}management\.py:4 {3}via ← CALLS\? \(unresolved "execute"\) management\.call_command/);
  });
});

test('what an unannotated function returns, a property and an `or` default type the calls on them (django backends, migrations)', async () => {
  const edges = await references({
    'backends/__init__.py': '',
    'backends/utils.py': [
      'class CursorWrapper:',
      '    def __init__(self, cursor, db):',
      '        self.cursor = cursor',
      '        self.db = db',
      '',
      '    def __enter__(self):',
      '        return self',
      '',
      '    def execute(self, sql, params=None):',
      '        return self.cursor.execute(sql, params)',
      '',
    ].join('\n'),
    'backends/base.py': [
      'from . import utils',
      '',
      '',
      'class BaseDatabaseWrapper:',
      '    def _prepare_cursor(self, cursor):',
      '        if self.queries_logged:',
      '            wrapped_cursor = self.make_debug_cursor(cursor)',
      '        else:',
      '            wrapped_cursor = self.make_cursor(cursor)',
      '        return wrapped_cursor',
      '',
      '    def _cursor(self, name=None):',
      '        self.ensure_connection()',
      '        with self.wrap_database_errors:',
      '            return self._prepare_cursor(self.create_cursor(name))',
      '',
      '    def cursor(self):',
      '        """Create a cursor, opening a connection if necessary."""',
      '        return self._cursor()',
      '',
      '    def _savepoint(self, sid):',
      '        with self.cursor() as cursor:',
      '            cursor.execute(self.ops.savepoint_create_sql(sid))',
      '',
      '    def make_debug_cursor(self, cursor):',
      '        return utils.CursorDebugWrapper(cursor, self)',
      '',
      '    def make_cursor(self, cursor):',
      '        return utils.CursorWrapper(cursor, self)',
      '',
    ].join('\n'),
    'state.py': [
      'from functools import cached_property',
      '',
      '',
      'class StateApps:',
      '    def render_multiple(self, model_states):',
      '        pass',
      '',
      '',
      'class ProjectState:',
      '    @cached_property',
      '    def apps(self):',
      '        return StateApps(self.real_apps, self.models)',
      '',
      '    def _reload(self, related_models):',
      '        self.apps.render_multiple(related_models)',
      '',
    ].join('\n'),
    'autodetector.py': [
      'class MigrationQuestioner:',
      '    def ask_rename(self, model_name, old_name, new_name, field_instance):',
      '        return self.defaults.get("ask_rename", False)',
      '',
      '',
      'class MigrationAutodetector:',
      '    def __init__(self, from_state, to_state, questioner=None):',
      '        self.questioner = questioner or MigrationQuestioner()',
      '',
      '    def generate_renamed_fields(self):',
      '        return self.questioner.ask_rename("m", "a", "b", None)',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS backends/base.py#BaseDatabaseWrapper._savepoint -> backends/utils.py#CursorWrapper.execute'), edges.join('\n'));
  assert.ok(edges.includes('CALLS state.py#ProjectState._reload -> state.py#StateApps.render_multiple'), edges.join('\n'));
  assert.ok(edges.includes('CALLS autodetector.py#MigrationAutodetector.generate_renamed_fields -> autodetector.py#MigrationQuestioner.ask_rename'), edges.join('\n'));
});

test('a typed parameter rebound to its own method\'s result, a Type[] annotation and a class attribute naming a class (jinja2 3.1.2 compiler, loaders, nativetypes)', async () => {
  const edges = await references({
    'compiler.py': [
      'import typing as t',
      '',
      '',
      'class Symbols:',
      '    def analyze_node(self, node, **kwargs):',
      '        pass',
      '',
      '',
      'class Frame:',
      '    def __init__(self, eval_ctx, parent: t.Optional["Frame"] = None, level: t.Optional[int] = None) -> None:',
      '        self.symbols = Symbols(level=level)',
      '',
      '    def inner(self, isolated: bool = False) -> "Frame":',
      '        return Frame(self.eval_ctx, self)',
      '',
      '',
      'class CodeGenerator:',
      '    def macro_body(self, node, frame: Frame):',
      '        frame = frame.inner()',
      '        frame.symbols.analyze_node(node)',
      '',
    ].join('\n'),
    'environment.py': [
      'import typing as t',
      '',
      '',
      'class Template:',
      '    @classmethod',
      '    def from_code(cls, environment, code, globals, uptodate=None):',
      '        return cls',
      '',
      '',
      'class Environment:',
      '    template_class: t.Type[Template]',
      '',
      '    def from_string(self, source, globals=None, template_class: t.Optional[t.Type["Template"]] = None):',
      '        cls = template_class or self.template_class',
      '        return cls.from_code(self, self.compile(source), globals, None)',
      '',
      '',
      'class NativeEnvironment(Environment):',
      '    def concat(self, values):',
      '        pass',
      '',
      '',
      'class NativeTemplate(Template):',
      '    environment_class = NativeEnvironment',
      '',
      '    def render(self, *args, **kwargs):',
      '        return self.environment_class.concat(self.root_render_func(self.new_context(vars)))',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS compiler.py#CodeGenerator.macro_body -> compiler.py#Symbols.analyze_node'), edges.join('\n'));
  assert.ok(edges.includes('CALLS environment.py#Environment.from_string -> environment.py#Template.from_code'), edges.join('\n'));
  assert.ok(edges.includes('CALLS environment.py#NativeTemplate.render -> environment.py#NativeEnvironment.concat'), edges.join('\n'));
});

test("an attribute the base class's __init__ sets through self is read as the subclass's (django.db.backends: introspection_class, self.__class__)", async () => {
  const edges = await references({
    'backends/__init__.py': '',
    'backends/base/__init__.py': '',
    'backends/base/introspection.py': 'class BaseDatabaseIntrospection:\n    def __init__(self, connection):\n        self.connection = connection\n\n    def table_names(self, cursor=None, include_views=False):\n        return []\n',
    'backends/base/base.py': [
      'class BaseDatabaseWrapper:',
      '    # Classes instantiated in __init__().',
      '    client_class = None',
      '    introspection_class = None',
      '',
      '    def __init__(self, settings_dict, alias=None):',
      '        self.settings_dict = settings_dict',
      '        self.introspection = self.introspection_class(self)',
      '',
      '    def close(self):',
      '        pass',
      '',
      '    def _nodb_cursor(self):',
      "        conn = self.__class__({**self.settings_dict, 'NAME': None}, alias='__no_db__')",
      '        conn.close()',
      '',
    ].join('\n'),
    'backends/sqlite3/__init__.py': '',
    'backends/sqlite3/introspection.py': 'from ..base.introspection import BaseDatabaseIntrospection\n\n\nclass DatabaseIntrospection(BaseDatabaseIntrospection):\n    def get_primary_key_column(self, cursor, table_name):\n        return None\n',
    'backends/sqlite3/base.py': [
      'from ..base.base import BaseDatabaseWrapper',
      'from .introspection import DatabaseIntrospection',
      '',
      '',
      'class DatabaseWrapper(BaseDatabaseWrapper):',
      '    introspection_class = DatabaseIntrospection',
      '',
      '    def check_constraints(self, table_names=None):',
      '        if table_names is None:',
      '            table_names = self.introspection.table_names(None)',
      '        for table_name in table_names:',
      '            primary_key_column_name = self.introspection.get_primary_key_column(None, table_name)',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS backends/sqlite3/base.py#DatabaseWrapper.check_constraints -> backends/base/introspection.py#BaseDatabaseIntrospection.table_names'), edges.join('\n'));
  assert.ok(edges.includes('CALLS backends/sqlite3/base.py#DatabaseWrapper.check_constraints -> backends/sqlite3/introspection.py#DatabaseIntrospection.get_primary_key_column'), edges.join('\n'));
  assert.ok(edges.includes('CALLS backends/base/base.py#BaseDatabaseWrapper._nodb_cursor -> backends/base/base.py#BaseDatabaseWrapper.close'), edges.join('\n'));
});

test('type(self)() and copy.copy(self) are of self\'s class (django.db.models.query_utils.Q)', async () => {
  const edges = await references({
    'tree.py': 'class Node:\n    def add(self, data, conn_type):\n        pass\n\n    def negate(self):\n        pass\n',
    'query_utils.py': [
      'import copy',
      '',
      'from tree import Node',
      '',
      '',
      'class Q(Node):',
      '    def _combine(self, other, conn):',
      '        obj = type(self)()',
      '        obj.add(self, conn)',
      '        return obj',
      '',
      '    def __invert__(self):',
      '        obj = copy.deepcopy(self)',
      '        obj.negate()',
      '        return obj',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS query_utils.py#Q._combine -> tree.py#Node.add'), edges.join('\n'));
  assert.ok(edges.includes('CALLS query_utils.py#Q.__invert__ -> tree.py#Node.negate'), edges.join('\n'));
});

test('a for loop over a collection whose items are typed binds its variable to the item class (jinja2 3.1.2 ChoiceLoader)', async () => {
  const edges = await references({
    'loaders.py': [
      'import typing as t',
      '',
      '',
      'class BaseLoader:',
      '    def get_source(self, environment: "Environment", template: str):',
      '        raise TemplateNotFound(template)',
      '',
      '    def load(self, environment, name, globals=None):',
      '        pass',
      '',
      '',
      'class ChoiceLoader(BaseLoader):',
      '    def __init__(self, loaders: t.Sequence[BaseLoader]) -> None:',
      '        self.loaders = loaders',
      '',
      '    def get_source(self, environment: "Environment", template: str):',
      '        for loader in self.loaders:',
      '            try:',
      '                return loader.get_source(environment, template)',
      '            except TemplateNotFound:',
      '                pass',
      '        raise TemplateNotFound(template)',
      '',
      '    def load(self, environment, name, globals=None):',
      '        for loader in self.loaders:',
      '            return loader.load(environment, name, globals)',
      '',
      '',
      'def first_source(loaders: t.List["BaseLoader"], environment, template):',
      '    for loader in loaders:',
      '        return loader.get_source(environment, template)',
      '',
      '',
      'def untyped(loaders, environment, template):',
      '    for loader in loaders:',
      '        return loader.get_source(environment, template)',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS loaders.py#ChoiceLoader.get_source -> loaders.py#BaseLoader.get_source'), edges.join('\n'));
  assert.ok(edges.includes('CALLS loaders.py#ChoiceLoader.load -> loaders.py#BaseLoader.load'), edges.join('\n'));
  assert.ok(edges.includes('CALLS loaders.py#first_source -> loaders.py#BaseLoader.get_source'), edges.join('\n'));
  // nothing says what an untyped parameter holds: no edge is guessed
  assert.ok(!edges.some((e) => e.startsWith('CALLS loaders.py#untyped ->')), edges.join('\n'));
});

test('a call returning an annotated tuple types the names it is unpacked into (jinja2 3.1.2 PrefixLoader.get_loader)', async () => {
  const edges = await references({
    'loaders.py': [
      'import typing as t',
      '',
      '',
      'class BaseLoader:',
      '    def get_source(self, environment, template: str):',
      '        raise TemplateNotFound(template)',
      '',
      '',
      'class PrefixLoader(BaseLoader):',
      '    def __init__(self, mapping: t.Mapping[str, BaseLoader], delimiter: str = "/") -> None:',
      '        self.mapping = mapping',
      '',
      '    def get_loader(self, template: str) -> t.Tuple[BaseLoader, str]:',
      '        prefix, name = template.split(self.delimiter, 1)',
      '        return self.mapping[prefix], name',
      '',
      '    def get_source(self, environment, template: str):',
      '        loader, name = self.get_loader(template)',
      '        return loader.get_source(environment, name)',
      '',
      '    def describe(self, template: str):',
      '        name, loader = self.get_loader(template)',
      '        return loader.get_source(None, name)',
      '',
      '',
      'def pair() -> "tuple[t.Optional[BaseLoader], t.Dict[str, int]]":',
      '    return BaseLoader(), {}',
      '',
      '',
      'first, counts = pair()',
      'first.get_source(None, "index.html")',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS loaders.py#PrefixLoader.get_source -> loaders.py#BaseLoader.get_source'), edges.join('\n'));
  // at module level too, through a quoted annotation with Optional and a subscripted element
  assert.ok(edges.includes('CALLS loaders.py -> loaders.py#BaseLoader.get_source'), edges.join('\n'));
  // the element unpacked into `loader` there is a str: nothing is guessed
  assert.ok(!edges.some((e) => e.startsWith('CALLS loaders.py#PrefixLoader.describe -> loaders.py#BaseLoader')), edges.join('\n'));
});

test('a conditional expression types its target when its branches agree, a None branch aside (django.contrib.gis GEOSGeometryBase._cs)', async () => {
  const edges = await references({
    'coordseq.py': 'class GEOSCoordSeq:\n    def __init__(self, ptr, z=False):\n        self._ptr = ptr\n\n    def clone(self):\n        return GEOSCoordSeq(self._ptr)\n',
    'geometry.py': [
      'from .coordseq import GEOSCoordSeq',
      '',
      '',
      'class GEOSGeometryBase:',
      '    has_cs = False',
      '',
      '    def _post_init(self):',
      '        self._cs = GEOSCoordSeq(self.ptr, self.hasz) if self.has_cs else None',
      '',
      '    @property',
      '    def coord_seq(self):',
      '        if self.has_cs:',
      '            return self._cs.clone()',
      '',
      '',
      'class Other:',
      '    def clone(self):',
      '        return Other()',
      '',
      '',
      'def either(flag):',
      '    seq = GEOSCoordSeq(1) if flag else Other()',
      '    return seq.clone()',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS geometry.py#GEOSGeometryBase.coord_seq -> coordseq.py#GEOSCoordSeq.clone'), edges.join('\n'));
  // branches of two classes: neither is guessed
  assert.ok(!edges.some((e) => /^CALLS geometry\.py#either -> .*clone$/.test(e)), edges.join('\n'));
});

test('a local rebound to another class reaches each class where it holds it (django.db.models.deletion.Collector.delete)', async () => {
  const edges = await references({
    'models/__init__.py': '',
    'models/sql.py': [
      'class UpdateQuery:',
      '    def update_batch(self, pk_list, values, using):',
      '        pass',
      '',
      '',
      'class DeleteQuery:',
      '    def delete_batch(self, pk_list, using):',
      '        pass',
      '',
    ].join('\n'),
    'models/deletion.py': [
      'from . import sql',
      '',
      '',
      'class Collector:',
      '    def delete(self):',
      '        for model, instances_for_fieldvalues in self.field_updates.items():',
      '            for (field, value), instances in instances_for_fieldvalues.items():',
      '                query = sql.UpdateQuery(model)',
      '                query.update_batch([obj.pk for obj in instances], {field.name: value}, self.using)',
      '',
      '        for model, instances in self.data.items():',
      '            query = sql.DeleteQuery(model)',
      '            pk_list = [obj.pk for obj in instances]',
      '            count = query.delete_batch(pk_list, self.using)',
      '',
      '    def unknown_after(self, make):',
      '        query = sql.DeleteQuery(None)',
      '        query = make(query)',
      '        query.update_batch([], {}, None)',
      '',
    ].join('\n'),
  });
  assert.ok(edges.includes('CALLS models/deletion.py#Collector.delete -> models/sql.py#UpdateQuery.update_batch'), edges.join('\n'));
  assert.ok(edges.includes('CALLS models/deletion.py#Collector.delete -> models/sql.py#DeleteQuery.delete_batch'), edges.join('\n'));
  // rebound to what an unknown call returns, it is no longer the class it was
  assert.ok(!edges.some((e) => e.startsWith('CALLS models/deletion.py#Collector.unknown_after -> models/sql.py#UpdateQuery') || e.includes('DeleteQuery.update_batch')), edges.join('\n'));
});

test('an unannotated parameter is what its default is: a class or an instance (django.db.models.sql.query.Query.__init__, where=WhereNode)', async () => {
  const edges = await references({
    'sql/where.py': 'class WhereNode:\n    def clone(self):\n        return self\n\n    def add(self, data, conn_type):\n        pass\n',
    'sql/query.py': [
      'from sql.where import WhereNode',
      '',
      '',
      'class Query:',
      '    def __init__(self, model, where=WhereNode, alias_cols=True):',
      '        self.model = model',
      '        self.where = where()',
      '        self.where_class = where',
      '',
      '    def clone(self):',
      '        obj = Query(self.model)',
      '        obj.where = self.where.clone()',
      '        return obj',
      '',
      '    def build_filter(self):',
      '        clause = self.where_class()',
      '        clause.add(None, "AND")',
      '',
      '',
      'def split(node=WhereNode(), label="x"):',
      '    return node.clone()',
      '',
    ].join('\n'),
  });
  for (const expected of ['Query.__init__ -> sql/where.py#WhereNode', 'Query.clone -> sql/where.py#WhereNode.clone', 'Query.build_filter -> sql/where.py#WhereNode.add', 'split -> sql/where.py#WhereNode.clone']) {
    assert.ok(edges.includes(`CALLS sql/query.py#${expected}`), `${expected}\n${edges.join('\n')}`);
  }
});
