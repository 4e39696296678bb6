// RANGER stage 1 for Rust: definitions, `use` placeholders, re-exports and symbolic references of
// one file, straight from its syntax tree.
//
// Definitions come from a JS walk over item-level nodes only (the file, inline module bodies, impl
// and trait bodies, function bodies' direct statements): items are few. References come from one
// tree-sitter query whose captures arrive in document order, attributed to the innermost definition
// through a stack of definition ranges, as in the TypeScript extractor: no JS walk over expressions.
//
// How Rust maps onto the graph (see docs/rust.md for the full list):
// - struct / union → Class (named fields → Field), enum → Enum (variants → Field), trait → Interface
//   (methods with or without default bodies → Method, associated consts → Field, associated types →
//   TypeAlias), `type` → TypeAlias, fn → Function, const / static → GlobalVariable,
//   `macro_rules! m` → Function `m` (exported when `#[macro_export]`).
// - `impl T { fn m }` and `impl Tr for T { fn m }`: Method `T.m`, parent T when T is declared in this
//   file (same module scope), else parent null and `receiver` = T's path as written (generics and
//   `&` stripped). `impl Tr for T` is also an INHERITS reference (relation 'implements') from T, or
//   from null with `subject` = T's path when T is elsewhere. `trait A: B + C` → INHERITS 'extends'.
// - Inline modules (`mod inner { … }`) are not nodes: their items are flattened into the file with
//   qualified localIds (`inner.Thing`, parent null). `use` inside them has scope 'inner', their
//   `pub use` re-exports carry scope 'inner', and `FileGraph.inlineModules` lists them.
// - Items inside macro invocations at item level (`cfg_rt! { pub mod runtime; … }`, tokio's and many
//   crates' feature gates) are parsed again with the macro body as the only included range, so what
//   rustc would see after expanding such a pass-through macro is indexed at its real position.
// - Reference chains split `::` paths (`Foo::new` → ['Foo','new']); a leading `self::` is dropped
//   (a bare name already resolves in the current module), `super` / `crate` stay; `Self` becomes the
//   impl's type; `self.m()` → ['self','m']; `x.m()` with `x` of known type (parameter annotation,
//   `let x: T`, `let x = T::new(..)` / `T { .. }` / `T(..)`, `?` / `.unwrap()` after them) →
//   ['T','m']; `self.f.m()` with field `f: T` of the impl's struct → ['T','m']. Macro invocations
//   are CALLS to the macro's path, its last segment marked `name!`; calls written inside macro arguments (`println!("{}", f(x))`)
//   are found by scanning the token tree. Prelude variant constructors (`Some`, `Ok`, `Err`) and
//   primitive-type paths (`u32::MAX`) are not references.
//
// The extraction is one object built in layers, each a module of its own concern:
//   scopes.ts      state, item context, `define`, item syntax, type paths
//   useTrees.ts    `use` and `extern crate` bindings and re-exports
//   macros.ts      `macro_rules!` and item-level macro bodies parsed again
//   impls.ts       `impl` blocks
//   items.ts       the item walk and the definitions it makes
// then references.ts reads references with its own query; paths.ts (path chains, signatures) and
// docs.ts (rustdoc) are free helpers. This file runs the passes and frees the extra trees.
import type { Node } from 'web-tree-sitter';
import type { Extracted } from '../fileGraph';
import { moduleDoc } from './docs';
import { RustExtraction } from './items';
import { References, capturesOf, queryFor } from './references';

export function extractRust(root: Node): Extracted {
  // Node offsets index the whole source; the root starts after leading whitespace, so pad it back.
  const src = ' '.repeat(root.startIndex) + root.text;
  const x = new RustExtraction(src);
  try {
    x.collect(root);
    new References(x, src).run(capturesOf(x, queryFor(root)));
  } finally {
    for (const tree of x.trees.slice(1)) tree.delete();
  }
  const out: Extracted = {
    doc: moduleDoc(root, src),
    symbols: x.orderedSymbols(),
    imports: x.imports,
    exports: x.exports,
    refs: x.references(),
    texts: x.texts.result(),
  };
  if (x.inlineModules.length > 0) out.inlineModules = x.inlineModules;
  return out;
}
