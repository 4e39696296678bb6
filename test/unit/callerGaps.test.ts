// Issue 34's graph gaps on real code (Django 3.2 from Debian, trimmed to what the case needs): calls
// the graph left unresolved and silent, and callers it could not show. Each case failed before its fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
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
