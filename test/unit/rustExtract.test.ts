// RANGER stage 1 for Rust: the per-file graph of the paper's two-file example (translated into a
// small crate), of every syntax form the extractor maps, and of real code (serde_json 1.0.87 from
// Debian, test/fixtures/real/serde_json), checked by reading the sources.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { extractFile } from '../../src/core/parse/extract';
import type { FileGraph, SymbolDef } from '../../src/core/parse/fileGraph';
import { ParserPool } from '../../src/core/parse/parser';
import { FIXTURES } from './helpers';

const pool = new ParserPool();

function extractPath(...parts: string[]): Promise<FileGraph> {
  const file = path.join(FIXTURES, ...parts);
  return extractFile(pool, parts.slice(1).join('/'), 'rust', fs.readFileSync(file, 'utf8'));
}
const extract = (text: string) => extractFile(pool, 'inline.rs', 'rust', text);

/** `localId Kind parent exported` rows. */
function symbolRows(g: FileGraph): string[] {
  return g.symbols.map((s) => `${s.localId} ${s.kind} ${s.parent ?? '-'} ${s.exported ? 'pub' : 'private'}`);
}
function sym(g: FileGraph, localId: string): SymbolDef {
  const found = g.symbols.find((s) => s.localId === localId);
  assert.ok(found, `no symbol ${localId} in ${g.symbols.map((s) => s.localId).join(', ')}`);
  return found;
}
/** `line from KIND a::b [relation] [subject]` rows in extraction order. */
function refRows(g: FileGraph): string[] {
  return g.refs.map((r) => `${r.line} ${r.from ?? '-'} ${r.kind} ${r.chain.join('::')}${r.relation ? ` ${r.relation}` : ''}${r.subject ? ` for ${r.subject.join('::')}` : ''}`);
}
function importRows(g: FileGraph): string[] {
  return g.imports.map((i) => `${i.local || '_'} <- ${i.module} ${i.imported ?? '(module)'}${i.scope ? ` in ${i.scope}` : ''}${i.path ? ` path=${i.path}` : ''}`);
}

describe('RANGER two-file example (Rust)', () => {
  test('base.rs: const, unit struct with an impl, function; rustdoc and module doc', async () => {
    const g = await extractPath('ranger-rs', 'src', 'base.rs');
    assert.deepEqual(
      g.symbols.map((s) => [s.localId, s.kind, s.parent, s.exported, s.signature]),
      [
        ['PRECISION', 'GlobalVariable', null, true, 'pub const PRECISION: usize = 2'],
        ['Calculator', 'Class', null, true, 'pub struct Calculator'],
        ['Calculator.add', 'Method', 'Calculator', true, 'pub fn add(&self, a: f64, b: f64) -> f64'],
        ['Calculator.multiply', 'Method', 'Calculator', true, 'pub fn multiply(&self, a: f64, b: f64) -> f64'],
        ['format_result', 'Function', null, true, 'pub fn format_result(value: f64) -> String'],
      ],
    );
    assert.equal(g.doc, 'Arithmetic basics.');
    assert.equal(sym(g, 'Calculator').doc, 'A basic calculator with addition and multiplication.');
    assert.equal(sym(g, 'Calculator.add').doc, 'Returns the sum of two numbers.');
    assert.equal(sym(g, 'PRECISION').doc, 'Number of decimal places used when formatting results.');
    assert.deepEqual(sym(g, 'Calculator.add').range, { startLine: 10, startCol: 4, endLine: 12, endCol: 5 });
    assert.deepEqual(g.imports, []);
    assert.deepEqual(refRows(g), ['21 format_result USES String', '22 format_result CALLS format!', '22 format_result USES PRECISION']);
    assert.equal(g.syntaxErrors, 0);
  });

  test('extended.rs: trait, impl Trait for a local type and for a type of another module, typed receivers', async () => {
    const g = await extractPath('ranger-rs', 'src', 'extended.rs');
    assert.deepEqual(symbolRows(g), [
      'Divide Interface - pub',
      'Divide.divide Method Divide pub',
      'Scientific Class - pub',
      'Scientific.inner Field Scientific private',
      'Scientific.new Method Scientific pub',
      'Scientific.divide Method Scientific pub',
      'Calculator.divide Method - pub',
      'quick_add Function - pub',
      'show_sum Function - pub',
    ]);
    // Calculator is declared in base.rs: its method here names it through `receiver`.
    assert.deepEqual(sym(g, 'Calculator.divide').receiver, ['Calculator']);
    assert.equal(sym(g, 'Scientific.divide').receiver, undefined);
    assert.deepEqual(sym(g, 'Scientific.inner').type, ['Calculator']);
    assert.deepEqual(importRows(g), ['format_result <- crate::base format_result', 'Calculator <- crate::base Calculator']);
    assert.deepEqual(refRows(g), [
      '20 Scientific INHERITS Divide implements',
      '31 - INHERITS Divide implements for Calculator',
      '10 Scientific USES Calculator',
      '16 Scientific.new USES Scientific::inner', // the literal's key, exact: a field of Scientific or nothing
      '16 Scientific.new USES Scientific',
      '16 Scientific.new USES Calculator',
      '24 Scientific.divide CALLS Calculator::multiply', // self.inner: Calculator
      '25 Scientific.divide CALLS panic!',
      '39 quick_add USES Calculator',
      '40 quick_add CALLS Calculator::add', // let calc = Calculator;
      '44 show_sum USES String',
      '45 show_sum CALLS format_result',
      '45 show_sum CALLS quick_add',
    ]);
    assert.deepEqual(g.texts, [{ from: 'Scientific.divide', literals: 'inexact division', comments: '' }]);
  });

  test('lib.rs: `mod x;` bindings, `pub use` re-exports, paths and a local of inferred type', async () => {
    const g = await extractPath('ranger-rs', 'src', 'lib.rs');
    assert.deepEqual(symbolRows(g), ['demo Function - pub']);
    assert.deepEqual(importRows(g), [
      'base <- self::base (module)',
      'extended <- self::extended (module)',
      'quick_add <- extended quick_add',
      'Scientific <- extended Scientific',
      'Divide <- extended Divide',
    ]);
    assert.deepEqual(g.exports, [
      { exported: 'base', local: 'base' },
      { exported: 'extended', local: 'extended' },
      { exported: 'quick_add', from: 'extended', imported: 'quick_add' },
      { exported: 'Scientific', from: 'extended', imported: 'Scientific' },
    ]);
    assert.deepEqual(refRows(g), [
      '8 demo USES String',
      '9 demo CALLS Scientific::new',
      '9 demo USES Scientific', // the path goes through the type: a use of it, as rustc records it
      '10 demo CALLS base::format_result',
      '10 demo CALLS Scientific::divide', // let s = Scientific::new();
      '10 demo CALLS quick_add',
    ]);
    assert.equal(g.doc, 'The RANGER example crate.');
  });
});

describe('Rust syntax forms (test/fixtures/rust-syntax/forms.rs)', () => {
  let g: FileGraph;
  test('definitions: structs, enums, traits, impls, macros, inline modules, nested functions', async () => {
    g = await extractPath('rust-syntax', 'forms.rs');
    assert.deepEqual(symbolRows(g), [
      'Config Class - pub',
      'Config.name Field Config pub',
      'Config.inner Field Config private',
      'Config.items Field Config private',
      'Mode Enum - pub',
      'Mode.Fast Field Mode pub',
      'Mode.Slow Field Mode pub',
      'Shape Interface - pub',
      'Shape.area Method Shape pub',
      'Shape.describe Method Shape pub',
      'Shape.SIDES Field Shape pub',
      'Shape.Unit TypeAlias Shape pub',
      'Config.new Method Config pub',
      'Config.validate Method Config private',
      'Config.go Method Config private',
      'Config.area Method Config pub', // trait impl members are as visible as the type
      'Engine.fmt Method - pub',
      'Printable.print Method - pub', // blanket impl: filed under the trait
      'square Function - pub', // #[macro_export]
      'private_mac Function - private',
      'gated Function - pub', // inside `cfg_feature! { … }`
      'inner.Helper Class - pub',
      'inner.Helper.help Method inner.Helper pub',
      'inner.deeper.deep Function - pub',
      'tests.it_works Function - private',
      'helper Function - private',
      'helper.nested Function helper private',
      'LIMIT GlobalVariable - pub',
      'COUNTER GlobalVariable - pub',
      'Result TypeAlias - pub',
    ]);
    assert.deepEqual(g.inlineModules, ['inner', 'inner.deeper', 'tests']);
    assert.deepEqual(sym(g, 'Engine.fmt').receiver, ['engine', 'Engine'], 'generic-free path as written');
    assert.deepEqual(sym(g, 'Config.inner').type, ['Engine'], 'Box<Engine> derefs to Engine');
    assert.deepEqual(sym(g, 'Config.items').type, ['Vec']);
    assert.equal(sym(g, 'Config').signature, 'pub struct Config<T: Clone>');
    assert.equal(sym(g, 'Config').doc, 'Block-documented struct.', 'through #[derive] attributes');
    assert.equal(sym(g, 'Config.name').doc, 'The name.');
    assert.equal(sym(g, 'Mode').doc, '', 'a plain // comment is no doc');
    assert.equal(sym(g, 'gated').doc, 'Behind a feature.');
    assert.equal(sym(g, 'Mode.Fast').signature, 'Fast = 1');
    assert.equal(sym(g, 'square').signature, 'macro_rules! square');
    assert.equal(sym(g, 'Result').signature, 'pub type Result<T> = std::result::Result<T, Error>');
    assert.equal(g.doc, 'Module doc, first line.\nSecond line.');
    // A definition inside a macro body keeps its real position in the file.
    const gated = sym(g, 'gated');
    const lines = fs.readFileSync(path.join(FIXTURES, 'rust-syntax', 'forms.rs'), 'utf8').split('\n');
    assert.ok(lines[gated.range.startLine].slice(gated.range.startCol).startsWith('pub fn gated()'));
  });

  test('use trees: groups, self, renames, globs, pub re-exports, `as _`, extern crate, use and mod in inline modules', () => {
    assert.deepEqual(importRows(g), [
      'HashMap <- std::collections HashMap',
      'hash_map <- std::collections::hash_map (module)',
      'E <- std::collections::hash_map Entry',
      'PublicHelper <- self::inner Helper',
      '_ <- crate::other *',
      'sibling <- super sibling',
      '_ <- serde (module)',
      'heap <- alloc (module)',
      'Config <- super Config in inner',
      'leaf <- self::leaf (module) in inner',
      '_ <- super * in tests',
    ]);
    assert.deepEqual(g.exports, [
      { exported: 'PublicHelper', from: 'self::inner', imported: 'Helper' },
      { exported: '*', from: 'crate::other', imported: '*' },
    ]);
  });

  test('references: supertraits, impls, typed locals, Self::, self.field.method(), macros and calls in their arguments', () => {
    const refs = refRows(g);
    for (const row of [
      '25 Shape INHERITS Clone extends',
      '25 Shape INHERITS fmt::Debug extends',
      '46 Config INHERITS Shape implements',
      '50 - INHERITS fmt::Display implements for engine::Engine',
      '28 Shape.describe CALLS format!',
      '28 Shape.describe CALLS self::area', // inside format!(…)
      '35 Config.new CALLS Engine::start',
      '37 Config.new CALLS Engine::run', // let engine = Engine::start(name).unwrap();
      '36 Config.new CALLS HashMap::new',
      '38 Config.new CALLS HashMap::len', // let map: HashMap<…> = …
      '39 Config.new CALLS Config::validate', // Self::validate
      '40 Config.new CALLS Box::new',
      '43 Config.go CALLS Engine::spin', // self.inner: Box<Engine>
      '43 Config.go CALLS String::len',
      '43 Config.go CALLS helper',
      '51 Engine.fmt USES fmt::Formatter',
      '51 Engine.fmt CALLS self::id', // inside write!(…)
      '63 - CALLS cfg_feature!',
      '65 gated CALLS square!',
      '65 gated CALLS helper', // inside square!(…)
      '80 tests.it_works CALLS assert_eq!',
      '80 tests.it_works CALLS helper',
      '86 helper CALLS nested',
      '92 Result USES std::result::Result',
    ]) assert.ok(refs.includes(row), `missing ${row} in\n${refs.join('\n')}`);
    // Declarations are not uses of themselves; `Self`, generics and primitives are no references.
    assert.ok(!refs.some((r) => / USES (Config|Shape|T|Self|u32|f64)$/.test(r) && /^(15|24|33) /.test(r)), refs.join('\n'));
    assert.ok(!refs.some((r) => r.includes('USES LOCAL')), 'a static inside a function is a local of it');
    assert.deepEqual(g.texts, [
      { from: null, literals: '', comments: 'a plain comment, not a doc' },
      { from: 'Shape.describe', literals: 'area {}', comments: '' },
      { from: 'tests.it_works', literals: 'helper must give two', comments: '' },
    ]);
  });

  test('locals shadow module names; untyped receivers are not guessed; prelude variants are no calls', async () => {
    const h = await extract(`
fn config() -> u32 { 1 }
fn run(items: Vec<u32>) -> Option<u32> {
    let config = 2;
    let total = config + items.len() as u32;
    for item in items { item.touch(); }
    match total { n => Some(n) }
}
`);
    const refs = refRows(h);
    assert.ok(!refs.some((r) => / USES config$/.test(r)), refs.join('\n'));
    assert.ok(refs.includes('4 run CALLS Vec::len'));
    assert.ok(!refs.some((r) => /touch|Some/.test(r)), refs.join('\n'));
  });

  test('a getter named like its field keeps the plain id (paths name methods, never fields); `Item = T` names no type', async () => {
    const h = await extract(`
pub struct Group { id: Id }
impl Group {
    pub fn id(&self) -> &Id { &self.id }
    pub fn ids(&self) -> impl Iterator<Item = Id> { std::iter::once(self.id) }
}
`);
    assert.deepEqual(symbolRows(h), ['Group Class - pub', 'Group.id@2 Field Group private', 'Group.id Method Group pub', 'Group.ids Method Group pub']);
    assert.equal(sym(h, 'Group.id').kind, 'Method');
    const refs = refRows(h);
    assert.ok(refs.includes('4 Group.ids USES Iterator'));
    assert.ok(!refs.some((r) => r.endsWith('USES Item')), refs.join('\n'));
  });

  test('broken syntax keeps what tree-sitter recovered', async () => {
    const h = await extract(`
pub struct Good { a: u8 }
impl Good { pub fn fine(&self) -> u8 { self.a } }
fn broken( { let x = ; }
pub fn after() -> Good { Good { a: 1 } }
`);
    assert.ok(h.syntaxErrors > 0);
    const ids = h.symbols.map((s) => s.localId);
    for (const id of ['Good', 'Good.a', 'Good.fine', 'after']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  });
});

describe('real code: serde_json 1.0.87 (Debian librust-serde-json-dev)', () => {
  test('value/index.rs: the sealed Index trait, impls for primitives, String, a blanket impl, an inline module', async () => {
    const g = await extractPath('real', 'serde_json', 'src', 'value', 'index.rs');
    assert.deepEqual(symbolRows(g), [
      'Index Interface - pub',
      'Index.index_into Method Index pub',
      'Index.index_into_mut Method Index pub',
      'Index.index_or_insert Method Index pub',
      'usize.index_into Method - pub', // impl Index for usize
      'usize.index_into_mut Method - pub',
      'usize.index_or_insert Method - pub',
      'str.index_into Method - pub', // impl Index for str
      'str.index_into_mut Method - pub',
      'str.index_or_insert Method - pub',
      'String.index_into Method - pub', // impl Index for String
      'String.index_into_mut Method - pub',
      'String.index_or_insert Method - pub',
      'Index.index_into@2 Method Index pub', // impl<'a, T> Index for &'a T where T: ?Sized + Index
      'Index.index_into_mut@2 Method Index pub',
      'Index.index_or_insert@2 Method Index pub',
      'private.Sealed Interface - pub', // mod private { pub trait Sealed {} … }
      'Type Class - private', // struct Type<'a>(&'a Value);
      'Type.fmt Method Type private', // impl<'a> Display for Type<'a>
      'Value.index Method - pub', // impl<I> ops::Index<I> for Value (Value is in value/mod.rs)
      'Value.index_mut Method - pub',
    ]);
    assert.deepEqual(sym(g, 'usize.index_into').receiver, ['usize']);
    assert.deepEqual(sym(g, 'Value.index').receiver, ['Value']);
    assert.deepEqual(g.inlineModules, ['private']);
    assert.match(sym(g, 'Index').doc, /^A type that can be used to index into a `serde_json::Value`\./);
    assert.equal(sym(g, 'Type').doc, 'Used in panic messages.');
    const refs = refRows(g);
    for (const row of [
      '36 Index INHERITS private::Sealed extends', // pub trait Index: private::Sealed
      '106 - INHERITS Index implements for String',
      '138 - INHERITS Sealed implements for alloc::string::String',
      '145 Type INHERITS Display implements',
      '177 - INHERITS ops::Index implements for Value',
      '217 - INHERITS ops::IndexMut implements for Value',
      '148 Type.fmt CALLS fmt::Formatter::write_str', // formatter: &mut fmt::Formatter; formatter.write_str("null")
      '148 Type.fmt USES Value::Null',
    ]) assert.ok(refs.includes(row), `missing ${row}`);
    assert.deepEqual(importRows(g).slice(0, 2), ['Value <- super Value', 'Map <- crate::map Map']);
  });

  test('map.rs: a struct over a cfg-chosen alias, many trait impls, calls through the typed field', async () => {
    const g = await extractPath('real', 'serde_json', 'src', 'map.rs');
    const ids = g.symbols.map((s) => s.localId);
    assert.deepEqual(ids.slice(0, 5), ['Map', 'Map.map', 'MapImpl', 'MapImpl@2', 'Map.new']);
    assert.deepEqual(sym(g, 'Map.map').type, ['MapImpl']);
    assert.equal(sym(g, 'Map.get').signature, 'pub fn get<Q>(&self, key: &Q) -> Option<&Value> where String: Borrow<Q>, Q: ?Sized + Ord + Eq + Hash');
    const refs = refRows(g);
    for (const row of [
      '39 Map.new CALLS MapImpl::new', // Map { map: MapImpl::new() }
      '61 Map.clear CALLS MapImpl::clear', // self.map.clear()
      '74 Map.get CALLS MapImpl::get',
      '290 Map INHERITS Default implements',
      '366 Map INHERITS Debug implements',
      '374 Map INHERITS serde::ser::Serialize implements',
    ]) assert.ok(refs.includes(row), `missing ${row}`);
    // Entry is an enum with two variants; its methods come from `impl<'a> Entry<'a>`.
    assert.deepEqual(ids.filter((id) => /^Entry\.(Vacant|Occupied|key|or_insert)$/.test(id)), ['Entry.Vacant', 'Entry.Occupied', 'Entry.key', 'Entry.or_insert']);
  });

  test('lib.rs: crate docs, `mod` declarations, the public API re-exported with `pub use`', async () => {
    const g = await extractPath('real', 'serde_json', 'src', 'lib.rs');
    assert.match(g.doc, /^# Serde JSON\n\nJSON is a ubiquitous open-standard format/);
    assert.deepEqual(symbolRows(g), ['tri Function - private']); // macro_rules! tri, textually scoped
    const reexports = g.exports.filter((e) => e.from).map((e) => `${e.exported} from ${e.from}`);
    assert.deepEqual(reexports, [
      'from_reader from crate::de', 'from_slice from crate::de', 'from_str from crate::de', 'Deserializer from crate::de', 'StreamDeserializer from crate::de',
      'Error from crate::error', 'Result from crate::error',
      'to_string from crate::ser', 'to_string_pretty from crate::ser', 'to_vec from crate::ser', 'to_vec_pretty from crate::ser',
      'to_writer from crate::ser', 'to_writer_pretty from crate::ser', 'Serializer from crate::ser',
      'from_value from crate::value', 'to_value from crate::value', 'Map from crate::value', 'Number from crate::value', 'Value from crate::value',
    ]);
    assert.deepEqual(g.exports.filter((e) => !e.from).map((e) => e.exported), ['de', 'error', 'map', 'ser', 'value']);
  });
});
