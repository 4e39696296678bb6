// Go stage 2 (issue 16): the RANGER two-file example in Go node for node and edge for edge, named
// edges of real code (cobra 1.6.1 from Debian, test/fixtures/real/cobra, checked by reading it), and
// how imports find their package: go.mod module paths, `replace`, `vendor/`, the standard library as
// its own module (`module std`), GOPATH-style trees without a go.mod, and the engine on a go.mod save.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Engine } from '../../src/core/engine';
import { FIXTURES, buildGraph, edgeList, parse, readTree } from './helpers';

const nodeRows = (graph: Awaited<ReturnType<typeof buildGraph>>) =>
  graph.graph.mapNodes((id, a) => `${a.kind} ${id} ${a.qname}`).filter((row) => !row.startsWith('Folder')).sort();

test('RANGER example in Go: exact nodes and edges', async () => {
  // base.go and extended.go are one package (`calc`, module example.com/calc): Scientific embeds
  // Calculator, and extended.go adds Subtract to base.go's Calculator.
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-go')), 'ranger-go');
  assert.deepEqual(nodeRows(graph), [
    'Class base.go#Calculator example.com/calc.Calculator',
    'Class extended.go#Scientific example.com/calc.Scientific',
    'External ext:go:errors errors',
    'External ext:go:errors.New errors.New',
    'External ext:go:fmt fmt',
    'External ext:go:fmt.Sprint fmt.Sprint',
    'External ext:go:strconv strconv',
    'External ext:go:strconv.FormatFloat strconv.FormatFloat',
    'Field base.go#Calculator.Precision example.com/calc.Calculator.Precision',
    'Function base.go#FormatResult example.com/calc.FormatResult',
    'Function extended.go#Demo example.com/calc.Demo',
    'Function extended.go#NewScientific example.com/calc.NewScientific',
    'Function extended.go#QuickAdd example.com/calc.QuickAdd',
    'GlobalVariable base.go#precision example.com/calc.precision',
    'Method base.go#Calculator.Add example.com/calc.Calculator.Add',
    'Method base.go#Calculator.Multiply example.com/calc.Calculator.Multiply',
    'Method extended.go#Calculator.Subtract example.com/calc.Calculator.Subtract',
    'Method extended.go#Scientific.Divide example.com/calc.Scientific.Divide',
    'Module base.go base.go',
    'Module extended.go extended.go',
  ]);
  assert.deepEqual(edgeList(graph), [
    'CALLS base.go#FormatResult -> ext:go:strconv.FormatFloat',
    'CALLS extended.go#Calculator.Subtract -> base.go#Calculator.Add', // c.Add in the other file
    'CALLS extended.go#Demo -> base.go#FormatResult', // same package, no import
    'CALLS extended.go#Demo -> ext:go:fmt.Sprint',
    'CALLS extended.go#Demo -> extended.go#NewScientific',
    'CALLS extended.go#Demo -> extended.go#QuickAdd',
    'CALLS extended.go#Demo -> extended.go#Scientific.Divide', // s := NewScientific()
    'CALLS extended.go#NewScientific -> extended.go#Scientific', // &Scientific{}
    'CALLS extended.go#QuickAdd -> base.go#Calculator', // &Calculator{...}
    'CALLS extended.go#QuickAdd -> base.go#Calculator.Add',
    'CALLS extended.go#Scientific.Divide -> base.go#Calculator.Multiply', // s.Multiply: promoted from the embedded Calculator
    'CALLS extended.go#Scientific.Divide -> ext:go:errors.New',
    'CONTAINS base.go -> base.go#Calculator',
    'CONTAINS base.go -> base.go#FormatResult',
    'CONTAINS base.go -> base.go#precision',
    'CONTAINS dir:. -> base.go',
    'CONTAINS dir:. -> extended.go',
    'CONTAINS extended.go -> extended.go#Demo',
    'CONTAINS extended.go -> extended.go#NewScientific',
    'CONTAINS extended.go -> extended.go#QuickAdd',
    'CONTAINS extended.go -> extended.go#Scientific',
    'HAS_FIELD base.go#Calculator -> base.go#Calculator.Precision',
    'HAS_METHOD base.go#Calculator -> base.go#Calculator.Add', // pointer receiver
    'HAS_METHOD base.go#Calculator -> base.go#Calculator.Multiply', // value receiver
    'HAS_METHOD base.go#Calculator -> extended.go#Calculator.Subtract', // across files
    'HAS_METHOD extended.go#Scientific -> extended.go#Scientific.Divide',
    'IMPORTS base.go -> ext:go:strconv',
    'IMPORTS extended.go -> ext:go:errors',
    'IMPORTS extended.go -> ext:go:fmt',
    'INHERITS extended.go#Scientific -> base.go#Calculator', // embedding
    'USES base.go#FormatResult -> base.go#precision',
    'USES extended.go#Demo -> base.go#Calculator.Precision', // s.Precision: a promoted field
    'USES extended.go#NewScientific -> extended.go#Scientific',
    'USES extended.go#QuickAdd -> base.go#Calculator.Precision', // the key of &Calculator{Precision: precision}
    'USES extended.go#QuickAdd -> base.go#precision',
  ]);
  assert.deepEqual(graph.importStats(), { internal: 0, resolved: 0, unresolvedSamples: [] });
});

describe('cobra 1.6.1 (Debian golang-github-spf13-cobra-dev)', () => {
  test('methods, calls and types across the files of package cobra, and the doc package through its import', async () => {
    const graph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'cobra')), 'cobra');
    const edges = new Set(edgeList(graph));
    const expected = [
      // flag_groups.go: `func (c *Command) ValidateFlagGroups() error`, Command being command.go's.
      'HAS_METHOD command.go#Command -> flag_groups.go#Command.ValidateFlagGroups',
      'HAS_METHOD command.go#Command -> flag_groups.go#Command.enforceFlagGroupsForCompletion',
      // command.go:911 `if err := c.ValidateFlagGroups(); err != nil`
      'CALLS command.go#Command.execute -> flag_groups.go#Command.ValidateFlagGroups',
      // command.go:1070 `return ArbitraryArgs(c, args)` (args.go), command.go:696 `legacyArgs(...)`
      'CALLS command.go#Command.ValidateArgs -> args.go#ArbitraryArgs',
      'CALLS command.go#Command.Find -> args.go#legacyArgs',
      // args.go:60 `stringInSlice(v, validArgs)` (cobra.go), args.go:61 `cmd.findSuggestions(args[0])` (command.go)
      'CALLS args.go#OnlyValidArgs -> cobra.go#stringInSlice',
      'CALLS args.go#OnlyValidArgs -> command.go#Command.findSuggestions',
      'USES args.go#NoArgs -> command.go#Command', // func NoArgs(cmd *Command, ...)
      // doc/md_docs.go imports "github.com/spf13/cobra": the module's root folder.
      'IMPORTS doc/md_docs.go -> dir:.',
      'IMPORTS doc/util.go -> dir:.',
      'USES doc/md_docs.go#GenMarkdownCustom -> command.go#Command', // cmd *cobra.Command
      'CALLS doc/md_docs.go#GenMarkdownCustom -> command.go#Command.InitDefaultHelpCmd', // cmd.InitDefaultHelpCmd()
      'USES doc/md_docs.go#GenMarkdownCustom -> command.go#Command.Short', // cmd.Short
      'CALLS doc/md_docs.go#printOptions -> command.go#Command.NonInheritedFlags',
      'USES doc/util.go#byName -> command.go#Command', // type byName []*cobra.Command
      // pflag is a requirement, not part of the repository.
      'IMPORTS command.go -> ext:go:github.com/spf13/pflag',
    ];
    assert.deepEqual(expected.filter((edge) => !edges.has(edge)), [], 'edges read off the source are missing');
    assert.equal(graph.graph.getNodeAttribute('flag_groups.go#Command.ValidateFlagGroups', 'qname'), 'github.com/spf13/cobra.Command.ValidateFlagGroups');
    assert.equal(graph.graph.getNodeAttribute('doc/util.go#hasSeeAlso', 'qname'), 'github.com/spf13/cobra/doc.hasSeeAlso');
    // A method declared away from its type is not a package-level name: no bare `ValidateFlagGroups` resolves.
    assert.ok(![...edges].some((e) => e.startsWith('CONTAINS flag_groups.go -> flag_groups.go#Command.')));
    assert.deepEqual(graph.importStats(), { internal: 2, resolved: 2, unresolvedSamples: [] });
  });
});

describe('Go imports to packages', () => {
  const moduleTree = new Map([
    ['go.mod', 'module example.com/app\n\ngo 1.21\n\nreplace example.com/lib => ./third_party/lib\n'],
    ['third_party/lib/go.mod', 'module example.com/lib\n'],
    ['third_party/lib/lib.go', 'package lib\n\n// Reader reads.\ntype Reader interface{ Read() string }\n'],
    ['store/store.go', `package store

import (
	l "example.com/lib"
	. "example.com/app/util"
	_ "example.com/app/missing"
	"github.com/x/y/v2"
	"vendored.org/z"
)

type Store struct {
	l.Reader
	*Base
}

func (s *Store) Get() string {
	Helper()
	y.Do()
	z.Z()
	return s.Read() + s.name
}
`],
    ['store/base.go', 'package store\n\ntype Base struct{ name string }\n\nfunc (b Base) Close() {}\n'],
    ['util/util.go', 'package util\n\nfunc Helper() {}\n'],
    ['vendor/vendored.org/z/z.go', 'package z\n\nfunc Z() {}\n'],
    ['main.go', 'package main\n\nimport "example.com/app/store"\n\nfunc main() {\n\ts := &store.Store{}\n\ts.Get()\n\ts.Close()\n}\n'],
  ]);

  test('aliases, dot and blank imports, replace, vendor, third-party, embedding across packages', async () => {
    const graph = await buildGraph(moduleTree, 'app');
    const edges = edgeList(graph, (kind) => kind !== 'CONTAINS');
    assert.deepEqual(edges, [
      'CALLS main.go#main -> store/base.go#Base.Close', // promoted through the embedded *Base
      'CALLS main.go#main -> store/store.go#Store',
      'CALLS main.go#main -> store/store.go#Store.Get',
      'CALLS store/store.go#Store.Get -> ext:go:github.com/x/y/v2.Do', // `y`: the path's last element without /v2
      'CALLS store/store.go#Store.Get -> third_party/lib/lib.go#Reader.Read', // promoted from the embedded l.Reader
      'CALLS store/store.go#Store.Get -> util/util.go#Helper', // dot import
      'CALLS store/store.go#Store.Get -> vendor/vendored.org/z/z.go#Z',
      'HAS_FIELD store/base.go#Base -> store/base.go#Base.name',
      'HAS_METHOD store/base.go#Base -> store/base.go#Base.Close',
      'HAS_METHOD store/store.go#Store -> store/store.go#Store.Get',
      'HAS_METHOD third_party/lib/lib.go#Reader -> third_party/lib/lib.go#Reader.Read',
      'IMPORTS main.go -> dir:store',
      'IMPORTS store/store.go -> dir:third_party/lib', // replace example.com/lib => ./third_party/lib
      'IMPORTS store/store.go -> dir:util',
      'IMPORTS store/store.go -> dir:vendor/vendored.org/z',
      'IMPORTS store/store.go -> ext:go:github.com/x/y/v2',
      'INHERITS store/store.go#Store -> store/base.go#Base',
      'INHERITS store/store.go#Store -> third_party/lib/lib.go#Reader',
      'USES store/store.go#Store.Get -> store/base.go#Base.name',
    ]);
    // example.com/app/missing is the module's own folder with no Go file: internal, and unresolved.
    assert.deepEqual(graph.importStats(), { internal: 5, resolved: 4, unresolvedSamples: ['store/store.go: example.com/app/missing'] });
    const qname = (id: string) => graph.graph.getNodeAttribute(id, 'qname');
    assert.equal(qname('store/store.go#Store.Get'), 'example.com/app/store.Store.Get');
    assert.equal(qname('third_party/lib/lib.go#Reader'), 'example.com/lib.Reader');
    assert.equal(qname('vendor/vendored.org/z/z.go#Z'), 'vendored.org/z.Z', 'a vendored package is named by its import path');
  });

  test('editing go.mod renames packages and re-resolves their importers', async () => {
    const renamed = new Map(moduleTree).set('go.mod', 'module example.com/renamed\n');
    const graph = await buildGraph(renamed, 'app');
    const edges = edgeList(graph, (kind) => kind === 'IMPORTS');
    // The module no longer provides example.com/app/...: those imports are third-party now. Without the
    // replace, example.com/lib is still found: third_party/lib/go.mod makes it a module of the repository.
    assert.ok(edges.includes('IMPORTS main.go -> ext:go:example.com/app/store'));
    assert.ok(edges.includes('IMPORTS store/store.go -> ext:go:example.com/app/util'));
    assert.ok(edges.includes('IMPORTS store/store.go -> dir:third_party/lib'));
    assert.equal(graph.graph.getNodeAttribute('store/store.go#Store', 'qname'), 'example.com/renamed/store.Store');
  });

  test('the standard library as its own module (GOROOT/src: module std) and its vendored golang.org/x', async () => {
    const graph = await buildGraph(new Map([
      ['go.mod', 'module std\n\ngo 1.19\n'],
      ['net/url/url.go', 'package url\n\ntype URL struct{ Host string }\n'],
      ['net/http/client.go', 'package http\n\nimport (\n\t"crypto/tls"\n\t"net/url"\n\t"golang.org/x/net/idna"\n)\n\nfunc Get(u *url.URL) { idna.ToASCII(u.Host); tls.Dial() }\n'],
      ['vendor/golang.org/x/net/idna/idna.go', 'package idna\n\nfunc ToASCII(s string) string { return s }\n'],
    ]), 'src');
    const edges = edgeList(graph, (kind) => kind !== 'CONTAINS');
    for (const expected of [
      'IMPORTS net/http/client.go -> dir:net/url',
      'IMPORTS net/http/client.go -> dir:vendor/golang.org/x/net/idna',
      'IMPORTS net/http/client.go -> ext:go:crypto/tls', // not in this tree
      'CALLS net/http/client.go#Get -> vendor/golang.org/x/net/idna/idna.go#ToASCII',
      'USES net/http/client.go#Get -> net/url/url.go#URL.Host',
    ]) {
      assert.ok(edges.includes(expected), `missing ${expected}\n${edges.join('\n')}`);
    }
    assert.equal(graph.graph.getNodeAttribute('net/http/client.go#Get', 'qname'), 'net/http.Get');
    assert.equal(graph.graph.getNodeAttribute('vendor/golang.org/x/net/idna/idna.go#ToASCII', 'qname'), 'vendor/golang.org/x/net/idna.ToASCII');
  });

  test('no go.mod: a package is its folder, imported by that path (GOPATH/src layout)', async () => {
    const graph = await buildGraph(new Map([
      ['example.org/a/a.go', 'package a\n\nimport "example.org/b"\n\nfunc A() { b.B() }\n'],
      ['example.org/b/b.go', 'package b\n\nfunc B() {}\n'],
    ]), 'src');
    const edges = edgeList(graph, (kind) => kind === 'IMPORTS' || kind === 'CALLS');
    assert.deepEqual(edges, ['CALLS example.org/a/a.go#A -> example.org/b/b.go#B', 'IMPORTS example.org/a/a.go -> dir:example.org/b']);
    assert.equal(graph.graph.getNodeAttribute('example.org/b/b.go#B', 'qname'), 'example.org/b.B');
  });
});

describe('an import without an alias binds the package clause (json-iterator 1.1.12, Debian)', () => {
  // extra/time_as_int64_codec.go: `import "github.com/json-iterator/go"`, then `jsoniter.RegisterTypeEncoder`:
  // the root package says `package jsoniter`; the path's last element, `go`, names nothing.
  const tree = readTree(path.join(FIXTURES, 'real', 'json-iterator'));
  const intoRoot = (graph: Awaited<ReturnType<typeof buildGraph>>) =>
    edgeList(graph).filter((e) => /^\w+ extra\/time_as_int64_codec\.go/.test(e) && !/-> (extra\/|ext:)/.test(e));

  test('calls and types through `jsoniter.` reach the package at the module root', async () => {
    const graph = await buildGraph(tree, 'go');
    assert.deepEqual(intoRoot(graph), [
      'CALLS extra/time_as_int64_codec.go#RegisterTimeAsInt64Codec -> reflect_extension.go#RegisterTypeDecoder', // line 12
      'CALLS extra/time_as_int64_codec.go#RegisterTimeAsInt64Codec -> reflect_extension.go#RegisterTypeEncoder', // line 11
      'CALLS extra/time_as_int64_codec.go#timeAsInt64Codec.Decode -> iter_int.go#Iterator.ReadInt64', // iter *jsoniter.Iterator; iter.ReadInt64()
      'CALLS extra/time_as_int64_codec.go#timeAsInt64Codec.Encode -> stream_int.go#Stream.WriteInt64', // stream.WriteInt64(…)
      'IMPORTS extra/time_as_int64_codec.go -> dir:.',
      'USES extra/time_as_int64_codec.go#timeAsInt64Codec.Decode -> iter.go#Iterator',
      'USES extra/time_as_int64_codec.go#timeAsInt64Codec.Encode -> stream.go#Stream',
    ]);
    assert.deepEqual(graph.importStats(), { internal: 1, resolved: 1, unresolvedSamples: [] });
  });

  test('an external test package (`package fmt_test`) reaches fmt through its import, though fmt declares `type fmt struct`', async () => {
    // As in the standard library: fmt/format.go declares `type fmt struct`, fmt/example_test.go imports "fmt".
    const graph = await buildGraph(new Map([
      ['go.mod', 'module std\n'],
      ['fmt/format.go', 'package fmt\n\ntype fmt struct{ wid int }\n'],
      ['fmt/print.go', 'package fmt\n\nfunc Println(a ...any) {}\n'],
      ['fmt/example_test.go', 'package fmt_test\n\nimport "fmt"\n\nfunc ExamplePrintln() { fmt.Println() }\n'],
    ]), 'src');
    assert.deepEqual(edgeList(graph, (kind) => kind === 'CALLS'), ['CALLS fmt/example_test.go#ExamplePrintln -> fmt/print.go#Println']);
  });

  test('a clause edit re-resolves the importers; an alias binds its own name; test files and guesses do not name a package', async () => {
    const graph = await buildGraph(new Map(tree).set('extra/more.go', `package extra

import (
	jsoniter "github.com/json-iterator/go"
	golang "example.com/lib/golang-lru"
	"example.com/lib/go-yaml"
)

func More() {
	jsoniter.RegisterTypeEncoder("x", nil) // the alias: bound whatever the clause says
	golang.Add() // an alias equal to the guess binds the alias, not the clause (lru)
	lru.Add()    // no import binds lru here
	yaml.Parse() // go-yaml's clause
	goyaml.Parse()
}
`)
      .set('lib/go.mod', 'module example.com/lib\n')
      .set('lib/golang-lru/lru.go', 'package lru\n\nfunc Add() {}\n')
      .set('lib/go-yaml/yaml.go', 'package yaml\n\nfunc Parse() {}\n')
      .set('lib/go-yaml/yaml_test.go', 'package goyaml\n\nfunc Parse() {}\n'), 'go');
    const more = () => edgeList(graph, (kind) => kind === 'CALLS').filter((e) => e.startsWith('CALLS extra/more.go'));
    assert.deepEqual(more(), [
      'CALLS extra/more.go#More -> lib/go-yaml/yaml.go#Parse',
      'CALLS extra/more.go#More -> lib/golang-lru/lru.go#Add',
      'CALLS extra/more.go#More -> reflect_extension.go#RegisterTypeEncoder',
    ]);
    // The root package's files say `package json` now (one of them first: the other still says jsoniter).
    const renamed = async (file: string) => parse(file, tree.get(file)!.replace(/^package jsoniter$/m, 'package json'));
    graph.apply({ upsert: [await renamed('reflect_extension.go')] });
    assert.equal(intoRoot(graph).length, 7, 'iter.go and the others still say jsoniter');
    graph.apply({ upsert: await Promise.all(['iter.go', 'iter_int.go', 'stream.go', 'stream_int.go'].map(renamed)) });
    assert.deepEqual(intoRoot(graph), ['IMPORTS extra/time_as_int64_codec.go -> dir:.'], '`jsoniter.` names nothing now');
    assert.ok(more().includes('CALLS extra/more.go#More -> reflect_extension.go#RegisterTypeEncoder'), 'the alias still binds');
  });
});

test('the engine: saving go.mod renames the packages and re-resolves their importers, on disk as in the editor', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-go-'));
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
      return path.join(root, rel);
    };
    const gomod = write('go.mod', 'module example.com/app\n\ngo 1.19\n');
    write('lib/lib.go', 'package lib\n\n// Greet greets.\nfunc Greet() string { return "hi" }\n');
    write('cmd/main.go', 'package main\n\nimport "example.com/app/lib"\n\nfunc main() { lib.Greet() }\n');
    const engine = await Engine.open(root, { storeDir: null });
    await engine.index();
    const g = engine.graph.graph;
    assert.ok(g.hasEdge('IMPORTS|cmd/main.go|dir:lib'));
    assert.ok(g.hasEdge('CALLS|cmd/main.go#main|lib/lib.go#Greet'));
    assert.equal(g.getNodeAttribute('lib/lib.go#Greet', 'qname'), 'example.com/app/lib.Greet');

    write('go.mod', 'module example.com/renamed\n');
    await engine.updateFile(gomod);
    assert.ok(g.hasEdge('IMPORTS|cmd/main.go|ext:go:example.com/app/lib'), 'the old path is no package of the repository now');
    assert.ok(g.hasEdge('CALLS|cmd/main.go#main|ext:go:example.com/app/lib.Greet'));
    assert.equal(g.getNodeAttribute('lib/lib.go#Greet', 'qname'), 'example.com/renamed/lib.Greet');

    write('go.mod', 'module example.com/app\n');
    await engine.updateFile(gomod);
    assert.ok(g.hasEdge('CALLS|cmd/main.go#main|lib/lib.go#Greet'), 'back again');
    await engine.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
