// RANGER stage 1 for Go: the per-file graph of the paper's two-file example translated to Go, of the
// syntax forms Go code uses, and golden symbols and references of real code (spf13/cobra 1.6.1 from
// Debian, checked by reading it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { extractFile } from '../../src/core/parse/extract';
import type { FileGraph, SymbolDef } from '../../src/core/parse/fileGraph';
import { assumedPackageName } from '../../src/core/parse/go';
import { FIXTURES, buildGraph, edgeList, pool, readTree } from './helpers';

const RANGER = path.join(FIXTURES, 'ranger-go');
const COBRA = path.join(FIXTURES, 'real', 'cobra');

function extract(text: string, filePath = 'inline.go'): Promise<FileGraph> {
  return extractFile(pool, filePath, 'go', text);
}
function extractFixture(dir: string, rel: string): Promise<FileGraph> {
  return extractFile(pool, rel, 'go', fs.readFileSync(path.join(dir, rel), 'utf8'));
}

/** `localId Kind parent exported [receiver=…] [type=…]` rows. */
function symbolRows(g: FileGraph): string[] {
  return g.symbols.map(
    (s) =>
      `${s.localId} ${s.kind} ${s.parent ?? '-'} ${s.exported ? 'exported' : 'local'}${s.receiver ? ` receiver=${s.receiver.join('.')}` : ''}${s.type ? ` type=${s.type.join('.')}` : ''}`,
  );
}
function sym(g: FileGraph, localId: string): SymbolDef {
  const found = g.symbols.find((s) => s.localId === localId);
  assert.ok(found, `no symbol ${localId} in ${g.symbols.map((s) => s.localId).join(', ')}`);
  return found;
}
/** `line from KIND a.b.c [relation]` rows (1-based lines, as an editor shows them). */
function refRows(g: FileGraph): string[] {
  return g.refs.map((r) => `${r.line + 1} ${r.from ?? '-'} ${r.kind} ${r.chain.join('.')}${r.relation ? ` ${r.relation}` : ''}`);
}
function refsOf(g: FileGraph, from: string): string[] {
  return g.refs.filter((r) => r.from === from).map((r) => `${r.kind} ${r.chain.join('.')}${r.relation ? ` ${r.relation}` : ''}`);
}

describe('RANGER two-file example (Go)', () => {
  test('base.go: package, doc, symbols, import, refs', async () => {
    const g = await extractFixture(RANGER, 'base.go');
    assert.equal(g.language, 'go');
    assert.equal(g.package, 'calc');
    assert.equal(g.generated, undefined);
    assert.equal(g.doc, "Package calc is the RANGER paper's two-file example translated to Go.");
    assert.deepEqual(
      g.symbols.map((s) => [s.localId, s.kind, s.parent, s.exported, s.signature]),
      [
        ['Calculator', 'Class', null, true, 'type Calculator struct'],
        ['Calculator.Precision', 'Field', 'Calculator', true, 'Precision int'],
        ['Calculator.Add', 'Method', 'Calculator', true, 'func (c *Calculator) Add(a, b float64) float64'],
        ['Calculator.Multiply', 'Method', 'Calculator', true, 'func (c Calculator) Multiply(a, b float64) float64'],
        ['FormatResult', 'Function', null, true, 'func FormatResult(value float64) string'],
        ['precision', 'GlobalVariable', null, false, 'var precision = 2'],
      ],
    );
    assert.equal(sym(g, 'Calculator').doc, 'Calculator is a basic calculator with addition and multiplication.');
    assert.equal(sym(g, 'Calculator.Precision').doc, 'Precision is the number of decimal places its results keep.');
    assert.equal(sym(g, 'Calculator.Add').doc, 'Add returns the sum of a and b.');
    assert.equal(sym(g, 'precision').doc, 'precision is the number of decimal places used when formatting results.');
    assert.deepEqual(sym(g, 'Calculator').range, { startLine: 6, startCol: 0, endLine: 9, endCol: 1 });
    assert.deepEqual(sym(g, 'Calculator.Add').range, { startLine: 12, startCol: 0, endLine: 14, endCol: 1 });
    assert.deepEqual(g.imports, [{ local: 'strconv', module: 'strconv', imported: null, line: 3, scope: null, guessedLocal: true }]);
    assert.deepEqual(g.exports, []);
    assert.deepEqual(refRows(g), ['24 FormatResult CALLS strconv.FormatFloat', '24 FormatResult USES precision']);
    assert.equal(g.syntaxErrors, 0);
  });

  test('extended.go: embedding, a method away from its type, inferred locals', async () => {
    const g = await extractFixture(RANGER, 'extended.go');
    assert.equal(g.package, 'calc');
    assert.equal(g.doc, '');
    assert.deepEqual(symbolRows(g), [
      'Scientific Class - exported',
      'Scientific.Divide Method Scientific exported',
      // Calculator is declared in base.go: no parent here, the receiver names it for stage 2.
      'Calculator.Subtract Method - exported receiver=Calculator',
      'QuickAdd Function - exported',
      'NewScientific Function - exported type=Scientific',
      'Demo Function - exported',
    ]);
    assert.equal(sym(g, 'Calculator.Subtract').name, 'Subtract');
    assert.deepEqual(g.imports, [
      { local: 'errors', module: 'errors', imported: null, line: 3, scope: null, guessedLocal: true },
      { local: 'fmt', module: 'fmt', imported: null, line: 4, scope: null, guessedLocal: true },
    ]);
    assert.deepEqual(refRows(g), [
      '10 Scientific INHERITS Calculator extends',
      '16 Scientific.Divide CALLS Scientific.Multiply', // promoted from the embedded Calculator
      '17 Scientific.Divide CALLS errors.New',
      '24 Calculator.Subtract CALLS Calculator.Add',
      '29 QuickAdd CALLS Calculator', // &Calculator{...}
      '29 QuickAdd USES Calculator.Precision', // the key of Calculator{Precision: precision}
      '29 QuickAdd USES precision',
      '30 QuickAdd CALLS Calculator.Add', // calc := &Calculator{...}
      '34 NewScientific USES Scientific',
      '35 NewScientific CALLS Scientific',
      '40 Demo CALLS NewScientific',
      '41 Demo CALLS Scientific.Divide', // s := NewScientific() returns *Scientific
      '41 Demo CALLS QuickAdd',
      '42 Demo CALLS FormatResult',
      '42 Demo CALLS fmt.Sprint',
      '42 Demo USES Scientific.Precision',
    ]);
    assert.deepEqual(g.texts, [{ from: 'Scientific.Divide', literals: 'inexact division', comments: '' }]);
  });

  test('the repository graph: Go members, Go externals, nothing resolved as JavaScript', async () => {
    const graph = await buildGraph(readTree(RANGER), 'ranger-go');
    const edges = edgeList(graph);
    for (const expected of [
      'HAS_FIELD base.go#Calculator -> base.go#Calculator.Precision',
      'HAS_METHOD base.go#Calculator -> base.go#Calculator.Add',
      'HAS_METHOD base.go#Calculator -> base.go#Calculator.Multiply',
      'HAS_METHOD extended.go#Scientific -> extended.go#Scientific.Divide',
      'HAS_METHOD base.go#Calculator -> extended.go#Calculator.Subtract', // stage 2: the method joins its type across files
      'IMPORTS base.go -> ext:go:strconv',
      'IMPORTS extended.go -> ext:go:errors',
      'IMPORTS extended.go -> ext:go:fmt',
      'CALLS base.go#FormatResult -> ext:go:strconv.FormatFloat',
      'USES base.go#FormatResult -> base.go#precision',
      'CALLS extended.go#Demo -> extended.go#NewScientific',
      'CALLS extended.go#Demo -> extended.go#Scientific.Divide',
      'CALLS extended.go#Demo -> ext:go:fmt.Sprint',
    ]) {
      assert.ok(edges.includes(expected), `missing ${expected}\n${edges.join('\n')}`);
    }
    const nodes = graph.graph.mapNodes((id) => id);
    assert.deepEqual(nodes.filter((id) => id.startsWith('ext:') && !id.startsWith('ext:go:')), []);
  });
});

describe('Go syntax forms', () => {
  test('imports: aliases, blank, dot, major versions and decorated names', async () => {
    const g = await extract(`package p

import (
	"fmt"
	str "strings"
	_ "embed"
	. "math"
	"github.com/spf13/cobra/v2"
	"gopkg.in/yaml.v3"
	"github.com/mattn/go-isatty"
)
`);
    assert.deepEqual(
      // Only an import without a name binds a guess (stage 2 binds the package's clause when it can read it).
      g.imports.map((b) => [b.local, b.module, b.imported, b.guessedLocal ?? false]),
      [
        ['fmt', 'fmt', null, true],
        ['str', 'strings', null, false],
        ['', 'embed', null, false],
        ['', 'math', '*', false],
        ['cobra', 'github.com/spf13/cobra/v2', null, true],
        ['yaml', 'gopkg.in/yaml.v3', null, true],
        ['isatty', 'github.com/mattn/go-isatty', null, true],
      ],
    );
    assert.equal(assumedPackageName('k8s.io/api/v1'), 'api');
    assert.equal(assumedPackageName('v2'), 'v2');
  });

  test('types: interface specs and embedding, named types, aliases, generics', async () => {
    const g = await extract(`package p

// Store keeps things.
type Store interface {
	io.Reader
	Base
	// Get returns a thing.
	Get(key string) (Thing, error)
}

type Number interface { ~int | ~float64 }

type (
	ID int
	Alias = Thing
)

type List[T any] struct {
	items []T
	head  *T
	owner *Owner
}

func (l *List[T]) Push(v T) *List[T] { l.items = append(l.items, v); return l }
`);
    assert.deepEqual(symbolRows(g), [
      'Store Interface - exported',
      'Store.Get Method Store exported type=Thing',
      'Number Interface - exported',
      'ID TypeAlias - exported',
      'Alias TypeAlias - exported',
      'List Class - exported',
      'List.items Field List local',
      'List.head Field List local',
      'List.owner Field List local type=Owner',
      'List.Push Method List exported type=List',
    ]);
    assert.equal(sym(g, 'Store').doc, 'Store keeps things.');
    assert.equal(sym(g, 'Store.Get').doc, 'Get returns a thing.');
    assert.equal(sym(g, 'Store.Get').signature, 'Get(key string) (Thing, error)');
    assert.equal(sym(g, 'ID').signature, 'type ID int');
    assert.equal(sym(g, 'Alias').signature, 'type Alias = Thing');
    assert.equal(sym(g, 'List').signature, 'type List[T any] struct');
    const rows = refRows(g);
    assert.ok(rows.includes('5 Store INHERITS io.Reader extends'));
    assert.ok(rows.includes('6 Store INHERITS Base extends'));
    assert.ok(rows.includes('8 Store.Get USES Thing'));
    assert.ok(rows.includes('15 Alias USES Thing'));
    assert.ok(rows.includes('21 List.owner USES Owner'));
    // Constraints are not embedding; type parameters and builtins are not references.
    assert.deepEqual(refsOf(g, 'Number'), []);
    assert.deepEqual(refsOf(g, 'List.items'), []);
    assert.deepEqual(refsOf(g, 'List.Push'), ['USES List', 'USES List.items']);
  });

  test('a method above its type still gets the type as parent, after it', async () => {
    const g = await extract(`package p

func (s *Server) Run() { s.listen() }

type Server struct{ addr string }

func (s Server) listen() {}
`);
    assert.deepEqual(symbolRows(g), [
      'Server Class - exported',
      'Server.addr Field Server local',
      'Server.Run Method Server exported',
      'Server.listen Method Server local',
    ]);
    assert.deepEqual(refRows(g), ['3 Server.Run CALLS Server.listen']);
  });

  test('package variables and constants: groups, iota, inferred types, trailing docs', async () => {
    const g = await extract(`package p

// Kind says what a thing is.
type Kind int

const (
	// KindA is the first kind.
	KindA Kind = iota
	KindB // the second kind
	kindC
)

var (
	defaultServer = &Server{}
	client, conn  = NewClient(), Conn{}
	_             = check()
)

var Timeout = 5 * time.Second

func NewClient() *Client { return nil }
`);
    assert.deepEqual(symbolRows(g), [
      'Kind TypeAlias - exported',
      'KindA GlobalVariable - exported type=Kind',
      'KindB GlobalVariable - exported type=Kind',
      'kindC GlobalVariable - local type=Kind',
      'defaultServer GlobalVariable - local type=Server',
      'client GlobalVariable - local type=Client',
      'conn GlobalVariable - local type=Conn',
      'Timeout GlobalVariable - exported',
      'NewClient Function - exported type=Client',
    ]);
    assert.equal(sym(g, 'KindA').doc, 'KindA is the first kind.');
    assert.equal(sym(g, 'KindB').doc, 'the second kind');
    assert.equal(sym(g, 'KindB').signature, 'const KindB Kind');
    assert.equal(sym(g, 'Timeout').signature, 'var Timeout = 5 * time.Second');
    const rows = refRows(g);
    assert.ok(rows.includes('14 defaultServer CALLS Server'));
    assert.ok(rows.includes('15 - CALLS NewClient'));
    assert.ok(rows.includes('15 - CALLS Conn'));
    assert.ok(rows.includes('16 - CALLS check'), rows.join('\n'));
    assert.ok(rows.includes('19 Timeout USES time.Second'));
  });

  test('bodies: receivers, typed locals, shadowing, closures, builtins, struct keys', async () => {
    const g = await extract(`package p

import "strings"

func (s *Server) Handle(req *http.Request, opts Options) error {
	var buf bytes.Buffer
	buf.WriteString(req.URL.Path)
	strings := []string{"shadowed"}
	strings.Join()
	n := len(strings)
	c := NewClient()
	c.Do(opts.Timeout)
	x := compute()
	x.Method()
	cfg := Config{Name: "a", Retries: n}
	each(func(item *Item) { item.Save(); s.count++ })
	for i, v := range s.items { use(i, v) }
	return s.fail(errDefault)
}

func NewClient() (*Client, error) { return nil, nil }
`);
    assert.deepEqual(refsOf(g, 'Server.Handle'), [
      'USES http.Request',
      'USES Options',
      'USES bytes.Buffer',
      'CALLS bytes.Buffer.WriteString',
      'USES http.Request.URL.Path',
      'CALLS NewClient',
      'CALLS Client.Do',
      'USES Options.Timeout',
      'CALLS compute',
      'CALLS compute.().Method', // x := compute(): compute's result type, read by stage 2
      'CALLS Config',
      'USES Config.Name', // Config{Name: "a", Retries: n}
      'USES Config.Retries',
      'CALLS each',
      'USES Item',
      'CALLS Item.Save',
      'USES Server.count',
      'USES Server.items',
      'CALLS use',
      'CALLS Server.fail',
      'USES errDefault',
    ]);
  });

  test('a type declared inside a function is local to it', async () => {
    const g = await extract(`package p

func sortAll(xs []Item) {
	type byKey []Item
	sort.Sort(byKey(xs))
	p := pair{}
	_ = p
}
`);
    assert.deepEqual(g.symbols.map((s) => s.localId), ['sortAll']);
    assert.deepEqual(refsOf(g, 'sortAll'), ['USES Item', 'USES Item', 'CALLS sort.Sort', 'CALLS pair']); // lines 3 and 4; byKey is no package name
  });

  test('generated files are flagged, docs skip directives and licence headers, texts skip docs', async () => {
    const g = await extract(`// Code generated by protoc-gen-go. DO NOT EDIT.
// source: api.proto

// Licensed under the Apache License.

// Package api talks to the service.
package api

//go:generate stringer -type=Kind

// Kind of call.
//
//nolint:revive
type Kind int

func f() {
	// retry once: the server drops the first request
	g("request failed")
}
`);
    assert.equal(g.generated, true);
    assert.equal(g.package, 'api');
    assert.equal(g.doc, 'Package api talks to the service.');
    assert.equal(sym(g, 'Kind').doc, 'Kind of call.');
    assert.deepEqual(g.texts.find((t) => t.from === 'f'), { from: 'f', literals: 'request failed', comments: 'retry once: the server drops the first request' });
    assert.equal((await extract('package p\n\n// Code generated for users: edit freely.\n')).generated, undefined);
  });

  test('syntax errors keep what tree-sitter recovered', async () => {
    const g = await extract(`package p

type Good struct{ A int }

func broken( {
	x := 
}

func (g *Good) Fine() int { return helper() }
`);
    assert.ok(g.syntaxErrors > 0);
    const ids = g.symbols.map((s) => s.localId);
    assert.ok(ids.includes('Good'));
    assert.ok(ids.includes('Good.A'));
    assert.ok(ids.includes('Good.Fine'), ids.join(', '));
    assert.ok(refRows(g).includes('9 Good.Fine CALLS helper'));
  });
});

describe('cobra 1.6.1 (Debian golang-github-spf13-cobra-dev)', () => {
  test('command.go: the Command struct, its fields and methods', async () => {
    const g = await extractFixture(COBRA, 'command.go');
    assert.equal(g.package, 'cobra');
    assert.match(g.doc, /^Package cobra is a commander providing a simple interface to create powerful modern CLI interfaces\./);
    assert.equal(g.syntaxErrors, 0);
    const command = sym(g, 'Command');
    assert.equal(command.kind, 'Class');
    assert.equal(command.doc.split('\n')[0], 'Command is just that, a command for your application.');
    const fields = g.symbols.filter((s) => s.parent === 'Command' && s.kind === 'Field').map((s) => s.name);
    // Every named field of `type Command struct` (command.go lines 54-235), in order: read off the source.
    assert.deepEqual(fields, [
      'Use', 'Aliases', 'SuggestFor', 'Short', 'GroupID', 'Long', 'Example', 'ValidArgs', 'ValidArgsFunction', 'Args',
      'ArgAliases', 'BashCompletionFunction', 'Deprecated', 'Annotations', 'Version', 'PersistentPreRun',
      'PersistentPreRunE', 'PreRun', 'PreRunE', 'Run', 'RunE', 'PostRun', 'PostRunE', 'PersistentPostRun',
      'PersistentPostRunE', 'commandgroups', 'args', 'flagErrorBuf', 'flags', 'pflags', 'lflags', 'iflags',
      'parentsPflags', 'globNormFunc', 'usageFunc', 'usageTemplate', 'flagErrorFunc', 'helpTemplate', 'helpFunc',
      'helpCommand', 'helpCommandGroupID', 'completionCommandGroupID', 'versionTemplate', 'inReader', 'outWriter',
      'errWriter', 'FParseErrWhitelist', 'CompletionOptions', 'commandsAreSorted', 'commandCalledAs', 'ctx', 'commands',
      'parent', 'commandsMaxUseLen', 'commandsMaxCommandPathLen', 'commandsMaxNameLen', 'TraverseChildren', 'Hidden',
      'SilenceErrors', 'SilenceUsage', 'DisableFlagParsing', 'DisableAutoGenTag', 'DisableFlagsInUseLine',
      'DisableSuggestions', 'SuggestionsMinimumDistance',
    ]);
    assert.deepEqual(sym(g, 'Command.parent').type, ['Command']);
    assert.deepEqual(sym(g, 'Command.flags').type, ['flag', 'FlagSet']);
    assert.equal(sym(g, 'Command.Use').doc.split('\n')[0], 'Use is the one-line usage message.');
    // 109 `func (c *Command)` methods in command.go, all under Command, none with a receiver of its own.
    const methods = g.symbols.filter((s) => s.kind === 'Method' && s.localId.startsWith('Command.'));
    assert.equal(methods.length, 109);
    assert.ok(methods.every((m) => m.parent === 'Command' && m.receiver === undefined));
    assert.equal(sym(g, 'Command.Execute').signature, 'func (c *Command) Execute() error');
    assert.equal(sym(g, 'FParseErrWhitelist').kind, 'TypeAlias');
    assert.equal(sym(g, 'Group').kind, 'Class');
    // type commandSorterByName []*Command, with value-receiver methods right below it.
    assert.deepEqual(
      g.symbols.filter((s) => s.parent === 'commandSorterByName').map((s) => s.localId),
      ['commandSorterByName.Len', 'commandSorterByName.Swap', 'commandSorterByName.Less'],
    );
    assert.deepEqual(g.imports.find((b) => b.module === 'github.com/spf13/pflag'), { local: 'flag', module: 'github.com/spf13/pflag', imported: null, line: 29, scope: null });
    const rows = refRows(g);
    for (const row of [
      '36 FParseErrWhitelist USES flag.ParseErrorsWhitelist', // type FParseErrWhitelist flag.ParseErrorsWhitelist
      '257 Command.Context USES Command.ctx', // return c.ctx
      '386 Command.getOut CALLS Command.parent.getOut', // return c.parent.getOut(def)
      '422 Command.UsageFunc CALLS tmpl', // cobra.go's tmpl, same package
      '481 Command.UsageString CALLS bytes.Buffer.String', // bb := new(bytes.Buffer); bb.String()
    ]) {
      assert.ok(rows.includes(row), `missing ${row}`);
    }
  });

  test('flag_groups.go: methods on *Command away from command.go carry the receiver', async () => {
    const g = await extractFixture(COBRA, 'flag_groups.go');
    assert.deepEqual(
      g.symbols.filter((s) => s.kind === 'Method').map((s) => [s.localId, s.name, s.parent, s.receiver]),
      [
        ['Command.MarkFlagsRequiredTogether', 'MarkFlagsRequiredTogether', null, ['Command']],
        ['Command.MarkFlagsMutuallyExclusive', 'MarkFlagsMutuallyExclusive', null, ['Command']],
        ['Command.ValidateFlagGroups', 'ValidateFlagGroups', null, ['Command']],
        ['Command.enforceFlagGroupsForCompletion', 'enforceFlagGroupsForCompletion', null, ['Command']],
      ],
    );
    assert.equal(sym(g, 'Command.enforceFlagGroupsForCompletion').exported, false);
    assert.deepEqual(refsOf(g, 'Command.MarkFlagsRequiredTogether'), [
      'CALLS Command.mergePersistentFlags',
      'CALLS Command.Flags.().Lookup', // f := c.Flags().Lookup(v): through Flags' result, at stage 2
      'CALLS Command.Flags',
      'CALLS fmt.Sprintf',
      'CALLS Command.Flags.().SetAnnotation', // c.Flags().SetAnnotation(...), one line further
      'CALLS Command.Flags',
      'USES requiredAsGroup',
      'CALLS strings.Join',
    ]);
    // processFlagForGroupAnnotation(flags *flag.FlagSet, pflag *flag.Flag, ...): pflag.Annotations is flag.Flag's field.
    assert.ok(refsOf(g, 'processFlagForGroupAnnotation').includes('USES flag.Flag.Annotations'));
  });

  test('the doc package uses cobra.Command through its import', async () => {
    const md = await extractFixture(COBRA, 'doc/md_docs.go');
    assert.equal(md.package, 'doc');
    assert.deepEqual(md.imports.find((b) => b.module === 'github.com/spf13/cobra'), { local: 'cobra', module: 'github.com/spf13/cobra', imported: null, line: 26, scope: null, guessedLocal: true });
    const gen = refsOf(md, 'GenMarkdownCustom');
    for (const ref of [
      'USES cobra.Command', // cmd *cobra.Command
      'CALLS cobra.Command.InitDefaultHelpCmd', // cmd.InitDefaultHelpCmd()
      'CALLS cobra.Command.CommandPath',
      'USES cobra.Command.Short', // cmd.Short
      'CALLS bytes.Buffer.WriteString', // buf := new(bytes.Buffer)
      'CALLS printOptions',
      'CALLS hasSeeAlso', // util.go, same package
      'CALLS byName', // conversion to util.go's type
      'CALLS sort.Sort',
      'USES cobra.Command.DisableAutoGenTag', // c.DisableAutoGenTag in func(c *cobra.Command)
    ]) {
      assert.ok(gen.includes(ref), `missing ${ref} in\n${gen.join('\n')}`);
    }
    // parent := cmd.Parent() has a type only stage 2 could know: its members are not guessed.
    assert.ok(!gen.some((r) => r.includes('parent.')));
    const util = await extractFixture(COBRA, 'doc/util.go');
    assert.deepEqual(symbolRows(util), [
      'hasSeeAlso Function - local',
      'forceMultiLine Function - local',
      'byName TypeAlias - local',
      'byName.Len Method byName exported',
      'byName.Swap Method byName exported',
      'byName.Less Method byName exported',
    ]);
    assert.deepEqual(refsOf(util, 'byName'), ['USES cobra.Command']);
  });
});
