// Rust stage 2 (issue 16): the RANGER two-file example translated to Rust node for node and edge
// for edge; how rustc finds names across files and crates (a workspace written here: `use` with
// crate/self/super, globs, renames, `pub use` chains, `mod` with `#[path]`, inline modules,
// impls in other files, macros, workspace crates as extern crates, std and dependencies as
// Externals); and named edges in real code (serde_json 1.0.87 files, test/fixtures/real/serde_json).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, buildGraph, edgeList, parse, readTree, tokioModulesTree, treeConfig } from './helpers';

test('RANGER example in Rust: exact nodes and edges', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-rs')), 'ranger-rs');
  const base = 'src/base.rs';
  const ext = 'src/extended.rs';
  const lib = 'src/lib.rs';
  assert.deepEqual(graph.graph.mapNodes((id, a) => `${a.kind} ${id} ${a.qname}`).sort(), [
    `Class ${base}#Calculator ranger_example::base::Calculator`,
    `Class ${ext}#Scientific ranger_example::extended::Scientific`,
    'External ext:rs:std::format! std::format!',
    'External ext:rs:std::panic! std::panic!',
    'External ext:rs:std::string::String std::string::String',
    `Field ${ext}#Scientific.inner ranger_example::extended::Scientific::inner`,
    'Folder dir:. ranger-rs',
    'Folder dir:src src',
    `Function ${base}#format_result ranger_example::base::format_result`,
    `Function ${ext}#quick_add ranger_example::extended::quick_add`,
    `Function ${ext}#show_sum ranger_example::extended::show_sum`,
    `Function ${lib}#demo ranger_example::demo`,
    `GlobalVariable ${base}#PRECISION ranger_example::base::PRECISION`,
    `Interface ${ext}#Divide ranger_example::extended::Divide`,
    `Method ${base}#Calculator.add ranger_example::base::Calculator::add`,
    `Method ${base}#Calculator.multiply ranger_example::base::Calculator::multiply`,
    // `impl Divide for Calculator` sits in extended.rs: the method is that file's, attached to Calculator.
    `Method ${ext}#Calculator.divide ranger_example::extended::Calculator::divide`,
    `Method ${ext}#Divide.divide ranger_example::extended::Divide::divide`,
    `Method ${ext}#Scientific.divide ranger_example::extended::Scientific::divide`,
    `Method ${ext}#Scientific.new ranger_example::extended::Scientific::new`,
    `Module ${base} ranger_example::base`,
    `Module ${ext} ranger_example::extended`,
    `Module ${lib} ranger_example`,
  ]);
  assert.deepEqual(edgeList(graph), [
    `CALLS ${base}#format_result -> ext:rs:std::format!`,
    `CALLS ${ext}#Scientific.divide -> ext:rs:std::panic!`,
    `CALLS ${ext}#Scientific.divide -> ${base}#Calculator.multiply`, // self.inner.multiply(..), inner: Calculator
    `CALLS ${ext}#quick_add -> ${base}#Calculator.add`, // let calc = Calculator; calc.add(..)
    `CALLS ${ext}#show_sum -> ${base}#format_result`,
    `CALLS ${ext}#show_sum -> ${ext}#quick_add`,
    `CALLS ${lib}#demo -> ${base}#format_result`, // base::format_result through `pub mod base;`
    `CALLS ${lib}#demo -> ${ext}#Scientific.divide`, // s.divide(..), s = Scientific::new(), the trait impl's method
    `CALLS ${lib}#demo -> ${ext}#Scientific.new`, // Scientific re-exported by `pub use extended::{..}`
    `CALLS ${lib}#demo -> ${ext}#quick_add`,
    'CONTAINS dir:. -> dir:src',
    `CONTAINS dir:src -> ${base}`,
    `CONTAINS dir:src -> ${ext}`,
    `CONTAINS dir:src -> ${lib}`,
    `CONTAINS ${base} -> ${base}#Calculator`,
    `CONTAINS ${base} -> ${base}#PRECISION`,
    `CONTAINS ${base} -> ${base}#format_result`,
    `CONTAINS ${ext} -> ${ext}#Divide`,
    `CONTAINS ${ext} -> ${ext}#Scientific`,
    `CONTAINS ${ext} -> ${ext}#quick_add`,
    `CONTAINS ${ext} -> ${ext}#show_sum`,
    `CONTAINS ${lib} -> ${lib}#demo`,
    `HAS_FIELD ${ext}#Scientific -> ${ext}#Scientific.inner`,
    `HAS_METHOD ${base}#Calculator -> ${base}#Calculator.add`,
    `HAS_METHOD ${base}#Calculator -> ${base}#Calculator.multiply`,
    `HAS_METHOD ${base}#Calculator -> ${ext}#Calculator.divide`,
    `HAS_METHOD ${ext}#Divide -> ${ext}#Divide.divide`,
    `HAS_METHOD ${ext}#Scientific -> ${ext}#Scientific.divide`,
    `HAS_METHOD ${ext}#Scientific -> ${ext}#Scientific.new`,
    `IMPORTS ${ext} -> ${base}#Calculator`,
    `IMPORTS ${ext} -> ${base}#format_result`,
    `IMPORTS ${lib} -> ${base}`, // pub mod base;
    `IMPORTS ${lib} -> ${ext}`,
    `IMPORTS ${lib} -> ${ext}#Divide`,
    `IMPORTS ${lib} -> ${ext}#Scientific`,
    `IMPORTS ${lib} -> ${ext}#quick_add`,
    `INHERITS ${base}#Calculator -> ${ext}#Divide`,
    `INHERITS ${ext}#Scientific -> ${ext}#Divide`,
    `USES ${base}#format_result -> ext:rs:std::string::String`,
    `USES ${base}#format_result -> ${base}#PRECISION`,
    `USES ${ext}#Scientific -> ${base}#Calculator`,
    `USES ${ext}#Scientific.new -> ${base}#Calculator`,
    `USES ${ext}#Scientific.new -> ${ext}#Scientific`, // -> Self
    `USES ${ext}#Scientific.new -> ${ext}#Scientific.inner`, // `Scientific { inner: Calculator }`
    `USES ${ext}#quick_add -> ${base}#Calculator`,
    `USES ${ext}#show_sum -> ext:rs:std::string::String`,
    `USES ${lib}#demo -> ext:rs:std::string::String`,
    `USES ${lib}#demo -> ${ext}#Scientific`, // `Scientific::new()` goes through the type
  ]);
  assert.deepEqual(graph.importStats(), { internal: 7, resolved: 7, unresolvedSamples: [] });
});

/** A two-crate workspace: a library with modules, impls across files and macros, and a binary using it. */
function workspace(): Map<string, string> {
  return new Map([
    ['Cargo.toml', '[workspace]\nmembers = ["core", "app"]\n'],
    ['core/Cargo.toml', '[package]\nname = "my-core"\n\n[dependencies]\nlog = "0.4"\n'],
    ['core/src/lib.rs', '#[macro_use]\nmod macros;\npub mod shapes;\nmod more;\npub use shapes::Circle;\npub mod prelude {\n    pub use crate::shapes::*;\n}\n'],
    ['core/src/macros.rs', 'macro_rules! square {\n    ($x:expr) => { $x * $x };\n}\n'],
    ['core/src/shapes/mod.rs', 'mod circle;\npub use self::circle::Circle;\n\n/// Has an area.\npub trait Area {\n    fn area(&self) -> f64;\n}\n'],
    ['core/src/shapes/circle.rs', [
      'use super::Area;',
      'pub struct Circle {',
      '    pub r: f64,',
      '}',
      'impl Circle {',
      '    pub fn new(r: f64) -> Self {',
      '        Circle { r }',
      '    }',
      '}',
      'impl Area for Circle {',
      '    fn area(&self) -> f64 {',
      '        log::debug!("area");',
      '        square!(self.r) * 3.14',
      '    }',
      '}',
      '#[cfg(test)]',
      'mod tests {',
      '    use super::*;',
      '    fn it() {',
      '        Circle::new(1.0).area();',
      '    }',
      '}',
      '',
    ].join('\n')],
    ['core/src/more.rs', [
      'use crate::shapes::Circle;',
      'use ::core::fmt::Debug;',
      'mod core {}',
      'impl Circle {',
      '    pub fn grow(&mut self) {',
      '        self.check();',
      '    }',
      '    fn check(&self) {}',
      '}',
      '',
    ].join('\n')],
    ['app/Cargo.toml', '[package]\nname = "app"\n\n[dependencies]\nmy-core = { path = "../core" }\nserde = "1"\n'],
    ['app/src/main.rs', [
      'use my_core::prelude::*;',
      'use my_core::Circle as C;',
      'use serde::Serialize;',
      'use std::collections::HashMap;',
      '#[path = "util/helpers.rs"]',
      'mod helpers;',
      'fn main() {',
      '    let mut c = C::new(1.0);',
      '    c.grow();',
      '    Circle::new(2.0).area();',
      '    helpers::run();',
      '    let m: HashMap<u8, u8> = HashMap::new();',
      '}',
      '',
    ].join('\n')],
    ['app/src/util/helpers.rs', 'pub fn run() {}\n'],
  ]);
}

test('Rust paths across modules and crates: use forms, pub use chains, impls in other files, #[path], inline modules, macros, externals', async () => {
  const tree = workspace();
  const graph = await buildGraph(tree, 'ws');
  const edges = edgeList(graph, (kind) => kind !== 'CONTAINS');
  const circle = 'core/src/shapes/circle.rs';
  const main = 'app/src/main.rs';
  const expected = [
    // impl Circle in more.rs: its methods are Circle's; `self.check()` finds the method there.
    `HAS_METHOD ${circle}#Circle -> core/src/more.rs#Circle.grow`,
    `HAS_METHOD ${circle}#Circle -> core/src/more.rs#Circle.check`,
    'CALLS core/src/more.rs#Circle.grow -> core/src/more.rs#Circle.check',
    // `impl Area for Circle` with Area from `use super::Area`.
    `INHERITS ${circle}#Circle -> core/src/shapes/mod.rs#Area`,
    // the macro of another module (`#[macro_use] mod macros;`), and a dependency's macro.
    `CALLS ${circle}#Circle.area -> core/src/macros.rs#square`,
    `CALLS ${circle}#Circle.area -> ext:rs:log::debug!`,
    // `mod tests { use super::*; }`: the parent module's names.
    `CALLS ${circle}#tests.it -> ${circle}#Circle.new`,
    // the workspace library is an extern crate of the binary: through a glob of a `pub use` glob, and a rename.
    `IMPORTS ${main} -> ${circle}#Circle`,
    `CALLS ${main}#main -> ${circle}#Circle.new`,
    `CALLS ${main}#main -> core/src/more.rs#Circle.grow`,
    // #[path] module
    `IMPORTS ${main} -> app/src/util/helpers.rs`,
    `CALLS ${main}#main -> app/src/util/helpers.rs#run`,
    // `::core` is the extern crate even beside a module `core`.
    'IMPORTS core/src/more.rs -> ext:rs:core::fmt::Debug',
    // std and dependencies are External.
    `IMPORTS ${main} -> ext:rs:serde::Serialize`,
    `IMPORTS ${main} -> ext:rs:std::collections::HashMap`,
    `CALLS ${main}#main -> ext:rs:std::collections::HashMap::new`,
  ];
  for (const edge of expected) assert.ok(edges.includes(edge), `${edge}\nnot among:\n${edges.join('\n')}`);
  assert.equal(graph.graph.getNodeAttributes(`${circle}#Circle`).qname, 'my_core::shapes::circle::Circle');
  // `#[path = "util/helpers.rs"] mod helpers;` in main.rs: rustc's module `helpers`, whatever the folder.
  assert.equal(graph.graph.getNodeAttributes('app/src/util/helpers.rs#run').qname, 'app(bin)::helpers::run');
  assert.deepEqual(graph.importStats().unresolvedSamples, []);
  // `use super::*` in `mod tests` imports the file's own module: no edge from a module to itself.
  assert.ok(!edges.includes(`IMPORTS ${circle} -> ${circle}`));

  // Renaming the library's package makes `my_core` an unknown crate: the binary's paths go External;
  // the library's own qnames follow. Incremental, through the config alone.
  tree.set('core/Cargo.toml', '[package]\nname = "other-core"\n');
  graph.apply({ config: treeConfig(tree) });
  const after = edgeList(graph, (kind) => kind !== 'CONTAINS');
  assert.ok(after.includes(`IMPORTS ${main} -> ext:rs:my_core::Circle`), after.join('\n'));
  assert.ok(!after.some((e) => e.startsWith(`CALLS ${main}#main -> core/`)));
  assert.equal(graph.graph.getNodeAttributes(`${circle}#Circle`).qname, 'other_core::shapes::circle::Circle');
  const scratch = await buildGraph(tree, 'ws');
  assert.deepEqual(after, edgeList(scratch, (kind) => kind !== 'CONTAINS'));
});

test('serde_json 1.0.87 (5 of its files): edges read off the source', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'serde_json')), 'serde_json');
  const edges = edgeList(graph);
  for (const edge of [
    // lib.rs:384 `pub use crate::value::{.., Map, .., Value}`; value/mod.rs re-exports map::Map (`pub use crate::map::Map`).
    'IMPORTS src/lib.rs -> src/map.rs#Map',
    'IMPORTS src/lib.rs -> src/value/mod.rs#Value',
    'IMPORTS src/lib.rs -> src/value/mod.rs', // lib.rs:408 `pub mod value;` → value/mod.rs
    'IMPORTS src/map.rs -> src/value/mod.rs#Value', // map.rs:9 `use crate::value::Value;`
    'IMPORTS src/value/mod.rs -> src/value/index.rs#Index', // value/mod.rs:103 `pub use self::index::Index;`
    'IMPORTS src/map.rs -> ext:rs:core::fmt::Debug', // map.rs:12 `use core::fmt::{self, Debug};`
    'IMPORTS src/map.rs -> ext:rs:alloc::collections::BTreeMap',
    // value/index.rs:98 `*v = Value::Object(Map::new());` in `impl Index for str`, Map from `use crate::map::Map`.
    'CALLS src/value/index.rs#str.index_or_insert -> src/map.rs#Map.new',
    'CALLS src/value/index.rs#str.index_or_insert -> src/value/mod.rs#Value.Object',
    // map.rs:382 `tri!(serializer.serialize_map(..))`: the crate's macro, defined in lib.rs:388.
    'CALLS src/map.rs#Map.serialize -> src/lib.rs#tri',
    // value/index.rs: `impl<I> ops::Index<I> for Value` — methods of Value declared in another file.
    'HAS_METHOD src/value/mod.rs#Value -> src/value/index.rs#Value.index',
    'HAS_METHOD src/value/mod.rs#Value -> src/value/index.rs#Value.index_mut',
  ]) assert.ok(edges.includes(edge), edge);
  // Imports of modules left out of the fixture (de.rs, error.rs, ...) are the only unresolved ones.
  const stats = graph.importStats();
  assert.ok(stats.unresolvedSamples.every((s) => /crate::(de|error|number|raw|ser)\b|crate:io|self::ser/.test(s)), stats.unresolvedSamples.join('\n'));
  assert.equal(graph.graph.getNodeAttributes('src/map.rs#Map.new').qname, 'serde_json::map::Map::new');
});

/** Edges of the vendored tokio files (test/fixtures/real/tokio), built once for the tests below. */
let tokio: Promise<string[]> | undefined;
const tokioEdges = () => (tokio ??= buildGraph(readTree(path.join(FIXTURES, 'real', 'tokio')), 'tokio').then((graph) => edgeList(graph)));

/** Every edge of `expected` is among tokio's. */
async function assertTokioEdges(expected: string[]): Promise<string[]> {
  const edges = await tokioEdges();
  for (const edge of expected) assert.ok(edges.includes(edge), edge);
  return edges;
}

test('tokio 1.24.2 (a few of its files): a module and the function it re-exports share a name, and a call names the function', async () => {
  // future/mod.rs: `mod poll_fn; pub use poll_fn::poll_fn;` and `cfg_sync! { mod block_on; pub(crate) use block_on::block_on; }`.
  // Modules and values are separate namespaces in Rust: an expression path never ends at a module.
  await assertTokioEdges([
    // fs/read_dir.rs:80-81 `use crate::future::poll_fn;` inside the method, then `poll_fn(|cx| …)`.
    'CALLS src/fs/read_dir.rs#ReadDir.next_entry -> src/future/poll_fn.rs#poll_fn',
    // sync/mpsc/unbounded.rs:247 `crate::future::block_on(self.recv())`.
    'CALLS src/sync/mpsc/unbounded.rs#UnboundedReceiver.blocking_recv -> src/future/block_on.rs#block_on',
    // The `use` lines themselves still import the function, the `mod` lines the module.
    'IMPORTS src/future/mod.rs -> src/future/poll_fn.rs#poll_fn',
    'IMPORTS src/future/mod.rs -> src/future/poll_fn.rs',
  ]);
});

test('tokio 1.24.2: a path through a type (`BufReader::new(..)`) uses the type too; a path through modules uses no module', async () => {
  // io/util/buf_stream.rs:31 `inner: BufReader::new(BufWriter::new(stream)),`, both re-exported by io/util/mod.rs.
  const edges = await assertTokioEdges([
    'CALLS src/io/util/buf_stream.rs#BufStream.new -> src/io/util/buf_reader.rs#BufReader.new',
    'USES src/io/util/buf_stream.rs#BufStream.new -> src/io/util/buf_reader.rs#BufReader',
    'USES src/io/util/buf_stream.rs#BufStream.new -> src/io/util/buf_writer.rs#BufWriter',
  ]);
  // sync/mpsc/unbounded.rs:247 `crate::future::block_on(..)`: `future` is a module, not a type.
  assert.deepEqual(edges.filter((e) => e.startsWith('USES src/sync/mpsc/unbounded.rs#UnboundedReceiver.blocking_recv ') && e.includes('src/future/')), []);
  assert.ok(edges.includes('CALLS src/sync/mpsc/unbounded.rs#UnboundedReceiver.blocking_recv -> src/future/block_on.rs#block_on'));
});

test('tokio 1.24.2: the fields a struct literal sets and a struct pattern takes apart are uses of those fields', async () => {
  // io/util/buf_stream.rs:87-115, the second `From` impl: `let BufWriter { inner: BufReader { inner, buf: rbuf, … },
  // buf: wbuf, written, … } = b;` then `BufStream { inner: BufReader { inner: BufWriter { inner, buf: wbuf, written, … }, … } }`.
  const from = 'src/io/util/buf_stream.rs#BufStream.from@2';
  await assertTokioEdges([
    `USES ${from} -> src/io/util/buf_writer.rs#BufWriter.written`,
    `USES ${from} -> src/io/util/buf_writer.rs#BufWriter.inner`,
    `USES ${from} -> src/io/util/buf_reader.rs#BufReader.pos`,
    `USES ${from} -> src/io/util/buf_reader.rs#BufReader.cap`,
    `USES ${from} -> src/io/util/buf_stream.rs#BufStream.inner`,
  ]);
});

test('a field typed by a type alias or an enum reaches their methods (tokio 1.24 shapes: `pending: EntryList`, EntryList = LinkedList<..>)', async () => {
  const tree = new Map([
    ['Cargo.toml', '[package]\nname = "tokio"\nversion = "1.24.2"\n'],
    ['src/lib.rs', 'pub(crate) mod util;\npub(crate) mod time;\n'],
    ['src/util/mod.rs', 'pub(crate) mod linked_list;\n'],
    // util/linked_list.rs:18-27, 167
    ['src/util/linked_list.rs', 'pub(crate) struct LinkedList<L, T> {\n    head: Option<T>,\n    _marker: PhantomData<*const L>,\n}\n\nimpl<L, T> LinkedList<L, T> {\n    pub(crate) fn is_empty(&self) -> bool {\n        self.head.is_none()\n    }\n}\n'],
    // time/entry.rs:326
    ['src/time/mod.rs', 'mod entry;\npub(crate) use entry::EntryList;\nmod wheel;\nmod driver;\n'],
    // A field of a struct from another file, typed by an enum: through the field's type.
    ['src/time/driver.rs', 'use super::wheel::Wheel;\n\nfn direction_mask(wheel: &Wheel) -> u8 {\n    wheel.direction.mask()\n}\n'],
    ['src/time/entry.rs', 'pub(crate) struct TimerShared;\npub(crate) type EntryList = crate::util::linked_list::LinkedList<TimerShared, TimerShared>;\n\npub(crate) enum Direction {\n    Read,\n    Write,\n}\n\nimpl Direction {\n    pub(crate) fn mask(self) -> u8 {\n        0\n    }\n}\n'],
    // time/wheel/mod.rs:41, 183
    ['src/time/wheel.rs', 'use super::EntryList;\nuse super::entry::Direction;\n\npub(crate) struct Wheel {\n    pending: EntryList,\n    direction: Direction,\n}\n\nimpl Wheel {\n    fn next_expiration(&self) -> bool {\n        self.direction.mask();\n        !self.pending.is_empty()\n    }\n}\n'],
  ]);
  const edges = edgeList(await buildGraph(tree, 'tokio'));
  for (const edge of ['CALLS src/time/wheel.rs#Wheel.next_expiration -> src/util/linked_list.rs#LinkedList.is_empty', 'CALLS src/time/driver.rs#direction_mask -> src/time/entry.rs#Direction.mask']) {
    assert.ok(edges.includes(edge), `${edge}\n${edges.filter((e) => e.includes('next_expiration') || e.includes('direction_mask')).join('\n')}`);
  }
});

test('the same trait implemented for a type in several files is one INHERITS edge, kept while any of them writes it', async () => {
  const impl = (n: string) => `use crate::shapes::Circle;\nimpl From<${n}> for Circle {\n    fn from(_: ${n}) -> Self {\n        Circle { r: 0.0 }\n    }\n}\n`;
  const tree = workspace();
  tree.set('core/src/lib.rs', `mod from_a;\nmod from_b;\n${tree.get('core/src/lib.rs')}`);
  tree.set('core/src/from_a.rs', impl('u8'));
  tree.set('core/src/from_b.rs', impl('u16'));
  const graph = await buildGraph(tree, 'ws');
  const inherits = () => edgeList(graph, (kind) => kind === 'INHERITS').filter((e) => e.includes('From'));
  assert.deepEqual(inherits(), ['INHERITS core/src/shapes/circle.rs#Circle -> ext:rs:std::convert::From']);
  const owner = () => graph.graph.getEdgeAttributes('INHERITS|core/src/shapes/circle.rs#Circle|ext:rs:std::convert::From').owner;
  assert.equal(owner(), 'core/src/from_a.rs');
  tree.delete('core/src/from_a.rs');
  graph.apply({ remove: ['core/src/from_a.rs'], config: treeConfig(tree) });
  assert.deepEqual(inherits(), ['INHERITS core/src/shapes/circle.rs#Circle -> ext:rs:std::convert::From']);
  assert.equal(owner(), 'core/src/from_b.rs');
});

test('module paths follow the `mod` tree (tokio 1.24.2\'s loom from Debian): `#[path]` twins under cfg macros, children of a non-mod.rs file', async () => {
  const tree = tokioModulesTree();
  const graph = await buildGraph(tree, 'tokio');
  const loom = 'src/loom/std';
  const imports = edgeList(graph, (kind) => kind === 'IMPORTS').filter((e) => e.startsWith(`IMPORTS ${loom}/atomic_u64`) && !e.includes('ext:'));
  assert.deepEqual(imports, [
    // atomic_u64.rs: `cfg_has_atomic_u64! { #[path = "atomic_u64_native.rs"] mod imp; }`, the as_mutex twin, and
    // `pub(crate) use imp::{AtomicU64, StaticAtomicU64};`: one module `imp`, its names from whichever file defines them.
    `IMPORTS ${loom}/atomic_u64.rs -> ${loom}/atomic_u64_as_mutex.rs`,
    `IMPORTS ${loom}/atomic_u64.rs -> ${loom}/atomic_u64_as_mutex.rs#AtomicU64`,
    `IMPORTS ${loom}/atomic_u64.rs -> ${loom}/atomic_u64_native.rs`,
    `IMPORTS ${loom}/atomic_u64.rs -> ${loom}/atomic_u64_native.rs#StaticAtomicU64`,
    // atomic_u64_as_mutex.rs: `#[path = "atomic_u64_static_const_new.rs"] mod static_macro;` (and the once_cell twin),
    // `pub(crate) use static_macro::StaticAtomicU64;`
    `IMPORTS ${loom}/atomic_u64_as_mutex.rs -> ${loom}/atomic_u64_static_const_new.rs`,
    `IMPORTS ${loom}/atomic_u64_as_mutex.rs -> ${loom}/atomic_u64_static_const_new.rs#StaticAtomicU64`,
    `IMPORTS ${loom}/atomic_u64_as_mutex.rs -> ${loom}/atomic_u64_static_once_cell.rs`,
    // `use super::AtomicU64;` in static_macro: super is `imp` (by its folder it was `std`, which has no AtomicU64 item)
    `IMPORTS ${loom}/atomic_u64_static_const_new.rs -> ${loom}/atomic_u64_as_mutex.rs#AtomicU64`,
    `IMPORTS ${loom}/atomic_u64_static_once_cell.rs -> ${loom}/atomic_u64_as_mutex.rs#AtomicU64`,
  ]);
  // runtime/metrics/io.rs: `use crate::loom::sync::atomic::{AtomicU64, …}` through loom's `pub use self::std::*` and
  // the inline `sync::atomic` re-export of `atomic_u64::{AtomicU64, …}`: tokio's own type, where it was std's.
  const io = edgeList(graph).filter((e) => e.startsWith('IMPORTS src/runtime/metrics/io.rs') || e.startsWith('CALLS src/runtime/metrics/io.rs#IoDriverMetrics.incr_fd_count'));
  assert.deepEqual(io, [
    `CALLS src/runtime/metrics/io.rs#IoDriverMetrics.incr_fd_count -> ${loom}/atomic_u64_as_mutex.rs#AtomicU64.fetch_add`,
    'IMPORTS src/runtime/metrics/io.rs -> ext:rs:std::sync::atomic::Ordering::Relaxed',
    `IMPORTS src/runtime/metrics/io.rs -> ${loom}/atomic_u64_as_mutex.rs#AtomicU64`,
  ]);
  assert.equal(graph.graph.getNodeAttributes(`${loom}/atomic_u64_as_mutex.rs#AtomicU64`).qname, 'tokio::loom::std::atomic_u64::imp::AtomicU64');
  assert.equal(graph.graph.getNodeAttributes(`${loom}/atomic_u64_static_const_new.rs#StaticAtomicU64`).qname, 'tokio::loom::std::atomic_u64::imp::static_macro::StaticAtomicU64');

  // Without the declarations the files fall back to their folder's names, incrementally as from scratch.
  const text = tree.get(`${loom}/atomic_u64.rs`)!.replace(/cfg_(not_)?has_atomic_u64! \{[^}]*\}/g, '');
  tree.set(`${loom}/atomic_u64.rs`, text);
  graph.apply({ upsert: [await parse(`${loom}/atomic_u64.rs`, text)] });
  assert.equal(graph.graph.getNodeAttributes(`${loom}/atomic_u64_as_mutex.rs#AtomicU64`).qname, 'tokio::loom::std::atomic_u64_as_mutex::AtomicU64');
  assert.deepEqual(edgeList(graph), edgeList(await buildGraph(tree, 'tokio')));
});
