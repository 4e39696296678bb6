// RANGER stage 1: what one file says about itself, in plain JSON, before the repository is known.
// Cross-file references stay symbolic here (placeholder imports and name chains); stage 2
// (graph/resolve.ts) turns them into edges between real nodes.
import type { Language, NodeKind, SourceRange } from '../graph/schema';

/** Bump when extraction changes what it emits: stored per-file graphs with another version are re-parsed. */
export const PARSER_VERSION = 5;

export interface FileGraph {
  path: string;
  language: Language;
  /** sha1 of the file's text. */
  hash: string;
  parserVersion: number;
  /** Module docstring (Python), leading file JSDoc comment (TS/JS), or the package doc comment above `package` (Go). */
  doc: string;
  /** Number of lines in the file. */
  lines: number;
  /** Definitions in source order; parents always precede their children. */
  symbols: SymbolDef[];
  /** Placeholder Import nodes: every name an import statement binds (or the module it loads). */
  imports: ImportBinding[];
  /** TS/JS explicit export clauses and re-exports. Python modules export their whole top-level scope. */
  exports: ExportBinding[];
  /** Unresolved references, each from the innermost enclosing definition; one per (scope, kind, chain, line). */
  refs: Reference[];
  /** String literals and comments by enclosing definition (docstrings are `doc`, not here); capped. Since parser version 2. */
  texts: ScopeText[];
  /** Count of ERROR/MISSING nodes tree-sitter recovered from (0 for clean syntax). */
  syntaxErrors: number;
  /**
   * Package-scoped languages (graph/packageScope.ts): the package the file belongs to, whose
   * top-level names it sees without imports. Java: the dotted `package` clause ('' for the default
   * package); Go: the `package` clause name. Absent for Python/TS/JS (and Rust, whose modules are files).
   */
  package?: string;
  /** Go: the file says `// Code generated … DO NOT EDIT.` (indexed, but not code anyone wrote or should edit). */
  generated?: boolean;
  /**
   * Rust: inline modules (`mod inner { … }`) by path joined with '.', outer before inner. Their items
   * are flattened into the file with qualified localIds (`inner.Thing`, parent null); `use` inside
   * them has scope 'inner'. Absent when the file has none.
   */
  inlineModules?: string[];
}

/** What a language's extractor says of a file; extract.ts adds the rest (path, hash, version, counts). */
export type Extracted = Pick<FileGraph, 'doc' | 'symbols' | 'imports' | 'exports' | 'refs' | 'texts' | 'package' | 'generated' | 'inlineModules'>;

/** The words a definition's literals and comments carry, newline-separated pieces (sourceText.ts). */
export interface ScopeText {
  /** localId of the innermost enclosing definition; null for module-level code. */
  from: string | null;
  literals: string;
  comments: string;
}

export type SymbolKind = Exclude<NodeKind, 'Folder' | 'Module' | 'External'>;

export interface SymbolDef {
  /** Qualified name inside the file, unique in it: `Calculator.add`; a repeated definition gets `@2`, `@3`. */
  localId: string;
  kind: SymbolKind;
  name: string;
  /** localId of the enclosing definition; null when the module is the parent. */
  parent: string | null;
  range: SourceRange;
  /** One line: `def add(self, a, b) -> float`, `class Scientific(Calculator)`, `function f(a: number): string`. */
  signature: string;
  doc: string;
  /** sha1 of the definition's source text. */
  hash: string;
  exported: boolean;
  /**
   * Fields and variables whose class is known (`self.x = Foo(...)`, `x: "Foo"`, `self.app = app` with
   * `app: Flask`): the class as a name chain, resolved in the definition's scope, so `self.x.run` and
   * `state.app.jinja_env` reach the member.
   */
  type?: string[];
  /**
   * A method whose type is declared in another file (Go methods, Rust `impl T` elsewhere): `parent`
   * is null, `localId` is still `Type.method`, and this is the type as a name chain resolved in the
   * module scope. Absent when the type is in the same file (then `parent` is its localId).
   */
  receiver?: string[];
}

export interface ImportBinding {
  /** Name bound in the file ('' for `import './side-effect'` and star imports). */
  local: string;
  /** The module as written: `os.path`, `.base`, `..utils.text`, `./base`, `react`, `@/lib/x`. */
  module: string;
  /**
   * The name taken from the module: null when the module itself is bound
   * (`import os.path`, `import * as ns from`, `import x = require()`), '*' for star imports
   * (`from x import *`, `export * from` is an ExportBinding), 'default' for default imports.
   */
  imported: string | null;
  line: number;
  /**
   * localId of the definition the import sits in (Python imports inside functions); null at module
   * level. Rust: also the inline module path (`inner`, `a.b`) for `use` inside `mod inner { … }`.
   */
  scope: string | null;
  /** Rust `#[path = "…"] mod x;`: the file the attribute names, relative to the declaring file's folder. */
  path?: string;
}

export interface ExportBinding {
  /** Exported name; '*' for `export * from`; 'default' for default exports. */
  exported: string;
  /** Local name being exported (`export { a as b }` → local 'a'); absent for re-exports. */
  local?: string;
  /** Re-export source module (`export { x } from './y'`, `export * from './y'`). */
  from?: string;
  /** Name taken from `from` ('*' for `export * from`, or `export * as ns from` with exported 'ns' and imported null). */
  imported?: string | null;
  /** Rust `pub use` inside an inline module: that module's path (see FileGraph.inlineModules). */
  scope?: string;
}

export type ReferenceKind = 'CALLS' | 'USES' | 'INHERITS';

export interface Reference {
  /** localId of the innermost enclosing definition; null for module-level code. */
  from: string | null;
  kind: ReferenceKind;
  /**
   * Dotted name chain as written: ['Calculator'], ['os', 'path', 'join'], ['self', 'add'], ['this', 'add'],
   * ['super', 'save'] (Python `super().save`, TS `super.save`). A local of known class type is rewritten to
   * the class name (`c: Calculator; c.add()` → ['Calculator', 'add']).
   */
  chain: string[];
  /** INHERITS only: 'extends' or 'implements'. */
  relation?: 'extends' | 'implements';
  /** INHERITS whose subtype is not declared in this file (Rust `impl Display for Foo`, Foo elsewhere): from is null, this is Foo's path. */
  subject?: string[];
  /**
   * Only the definition the whole chain names counts (an object-literal key typed by its declared
   * type, `const o: T = { a }` → ['T', 'a']): a key T does not declare is no use of T or of anything else.
   */
  exact?: boolean;
  line: number;
}
