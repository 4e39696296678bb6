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
import { Parser, Query, type Node, type QueryCapture, type Tree } from 'web-tree-sitter';
import type { ExportBinding, Extracted, ImportBinding, Reference, SymbolDef, SymbolKind } from './fileGraph';
import { SymbolTable, allCaptures, compiledQuery, oneLine, symbolDef } from './extractUtil';
import { SourceTextCollector } from './sourceText';

const QUERY_SOURCE = `
(call_expression function: (_) @callee)
(macro_invocation) @macro
(scoped_identifier) @path
(scoped_type_identifier) @stype
(type_binding name: (type_identifier) @bindingname)
(type_identifier) @type
(field_expression value: (self) field: (field_identifier)) @selffield
(let_declaration) @let
(struct_expression) @structlit
(struct_pattern) @structpat
(identifier) @id
(string_literal) @string
(raw_string_literal) @string
(line_comment) @comment
(block_comment) @comment
`;
const queryFor = compiledQuery(QUERY_SOURCE);

/** One parser per grammar for re-parsing item-level macro bodies (see expandedItems). */
const macroParsers = new WeakMap<object, Parser>();

const PRIMITIVES = new Set([
  'bool', 'char', 'str', 'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64',
]);
/** Enum variant constructors of the prelude: building a value, not calling a function. */
const PRELUDE_VARIANTS = new Set(['Some', 'Ok', 'Err']);
/** Smart pointers that auto-deref to what they hold, so `x.m()` reaches the inner type's method. */
const DEREF_WRAPPERS = new Set(['Box', 'Rc', 'Arc']);
/** Calls after a constructor that still give the constructed type (`File::open(p)?`, `.unwrap()`). */
const UNWRAPPERS = new Set(['unwrap', 'expect']);
/** Parents under which an identifier is bound (a pattern), not read. */
const PATTERN_PARENTS = new Set([
  'tuple_pattern', 'ref_pattern', 'mut_pattern', 'captured_pattern', 'or_pattern', 'slice_pattern', 'match_pattern',
  'closure_parameters', 'field_pattern', 'reference_pattern',
]);
const FIELD_PATTERN_PARENTS = new Set(['let_declaration', 'parameter', 'for_expression', 'let_condition']);
const SEGMENT = /^(?:r#)?[A-Za-z_][A-Za-z0-9_]*$/;
/** Callee expressions that are names or paths (`f`, `a::f`, `x.m`, `f::<T>`), as opposed to calls on computed values. */
const PLAIN_CALLEES = new Set(['identifier', 'scoped_identifier', 'field_expression', 'generic_function']);

/**
 * `a::b::<T>::c`, `::std::mem::swap`, `Vec::<u8>::new` → segments with generic arguments dropped;
 * null when the text is not a plain path (qualified `<T as Tr>::f`, macros' `$crate`).
 */
function pathChain(text: string): string[] | null {
  if (text.length > 300) return null;
  let t = text.replace(/\s+/g, '');
  if (t.includes('<')) {
    if (t.startsWith('<')) return null;
    let out = '';
    let depth = 0;
    for (const ch of t) {
      if (ch === '<') depth++;
      else if (ch === '>') depth--;
      else if (depth === 0) out += ch;
    }
    t = out.replace(/::(?=::|$)/g, '');
  }
  if (t.startsWith('::')) t = t.slice(2);
  const parts = t.split('::');
  for (let i = 0; i < parts.length; i++) {
    if (!SEGMENT.test(parts[i])) return null;
    if (parts[i].startsWith('r#')) parts[i] = parts[i].slice(2);
  }
  return parts;
}

/** A macro invocation's path as a reference chain: `!` marks the macro (`vec` → `vec!`). */
function macroChain(chain: string[]): string[] {
  return [...chain.slice(0, -1), `${chain[chain.length - 1]}!`];
}

/** `a.b.c` of a field expression (identifiers and `self` only), null for anything else. */
function fieldChain(text: string): string[] | null {
  if (text.length > 200) return null;
  const parts = text.replace(/\s+/g, '').split('.');
  for (const p of parts) if (!SEGMENT.test(p)) return null;
  return parts;
}

/** Collapses a header into one line without its comments. */
function headerText(src: string, start: number, end: number): string {
  let text = src.slice(start, Math.min(end, start + 1000));
  if (text.includes('/')) text = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  return oneLine(text.replace(/[\s;{,]+$/, ''));
}

/** Text of `///` / `/** … *\/` (outer) or `//!` / `/*! … *\/` (inner) doc comments, markers and one space removed. */
function docText(comment: string): string {
  if (comment.startsWith('/*')) {
    return comment
      .replace(/^\/\*[*!]/, '')
      .replace(/\*\/$/, '')
      .split('\n')
      .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
      .join('\n')
      .trim();
  }
  return comment.replace(/^\/\/[/!] ?/, '').replace(/\r?\n$/, '').trimEnd();
}

function isOuterDoc(text: string): boolean {
  return (text.startsWith('///') && !text.startsWith('////')) || (text.startsWith('/**') && !text.startsWith('/***') && text !== '/**/');
}
function isInnerDoc(text: string): boolean {
  return text.startsWith('//!') || text.startsWith('/*!');
}

// ---------------------------------------------------------------------------------------------

/** A definition's source range and what references inside it need to know. */
interface Frame {
  sym: SymbolDef | null;
  start: number;
  end: number;
  up: Frame | null;
  /** `Self` inside an impl or trait: the type's path. */
  selfType?: string[];
  /** localId of the impl's type when it is declared in this file (for `self.field` types). */
  selfLocal?: string;
  typeParams?: Set<string>;
  locals?: Set<string>;
  /** Local or parameter name → type path, for call-head rewriting. */
  types?: Map<string, string[]>;
}

/** The type whose body a member sits in (impl or trait), and how its members are named. */
interface Owner {
  parent: string | null;
  /** localId prefix when the parent is not in this file (`Foo` for `impl Foo` with Foo elsewhere). */
  qualifier?: string;
  /** Members of trait impls are as visible as the type; others say `pub` themselves. */
  exported?: boolean;
  selfType?: string[];
  selfLocal?: string;
  receiver?: string[];
}

/** Where an item sits: its inline module path and the function whose body holds it, if any. */
interface ItemContext {
  /** Inline module path joined with '.', '' at file level. */
  mod: string;
  /** Enclosing function frame (items declared inside a body), null at module level. */
  fn: Frame | null;
  /** Frame whose range encloses the item (function, impl or trait), for `up` links. */
  outer: Frame | null;
  /** Set inside impl and trait bodies (and macro bodies there): functions are its methods. */
  owner?: Owner;
}

interface PendingImpl {
  node: Node;
  ctx: ItemContext;
}

class RustExtraction {
  readonly table = new SymbolTable();
  readonly imports: ImportBinding[] = [];
  readonly exports: ExportBinding[] = [];
  readonly inlineModules: string[] = [];
  readonly texts = new SourceTextCollector();
  readonly frames: Frame[] = [];
  private readonly refs = new Map<string, Reference>();
  /** Type declarations by `<scope>\u0000<name>` (scope: inline module path or 'fn:' + localId) → localId. */
  private readonly types = new Map<string, string>();
  /** Struct localId → field name → field type path. */
  private readonly fieldTypes = new Map<string, Map<string, string[]>>();
  private readonly impls: PendingImpl[] = [];
  /** Names bound at some module level (items, `use`, `mod`): identifiers that may reference them. */
  readonly moduleNames = new Set<string>();
  /** Starts of identifiers and types that are declarations, not references. */
  readonly skipStarts = new Set<number>();
  /** Spans (`use`, `mod x;`, `extern crate`, macro definitions) whose identifiers are not references. */
  readonly quietSpans: Array<[number, number]> = [];

  constructor(private readonly src: string) {}

  private text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  addRef(from: string | null, kind: Reference['kind'], chain: string[], line: number, extra?: Pick<Reference, 'relation' | 'subject' | 'exact'>): void {
    // Per line, not per scope: completion context and its benchmark ask what one line uses.
    const key = `${from ?? ''}\u0000${kind}\u0000${extra?.subject?.join('::') ?? ''}\u0000${chain.join('\u0000')}\u0000${line}`;
    if (this.refs.has(key)) return;
    this.refs.set(key, extra ? { from, kind, chain, ...extra, line } : { from, kind, chain, line });
  }

  references(): Reference[] {
    return [...this.refs.values()];
  }

  // --- definitions ----------------------------------------------------------------------------

  /**
   * Items of the file and of item-level macro bodies, then impl blocks (whose type may be declared
   * further down or inside a macro body), then macro bodies inside impl blocks.
   */
  collect(root: Node): void {
    this.trees.push(root.tree);
    this.items(root, { mod: '', fn: null, outer: null });
    let implsDone = 0;
    for (let round = 0; round < 8; round++) {
      if (this.macroBodies.length > 0) this.expandMacroBodies(root);
      else if (implsDone < this.impls.length) {
        for (; implsDone < this.impls.length; implsDone++) this.onImpl(this.impls[implsDone].node, this.impls[implsDone].ctx);
      } else break;
    }
    for (const fields of this.fieldLists) this.defineFields(fields);
  }

  /** Item-level macro bodies waiting to be parsed, with the tree their invocation is in. */
  private macroBodies: Array<{ start: number; end: number; ctx: ItemContext; tree: number }> = [];
  /** Trees read: the file's, then one per round of macro bodies (deleted by extractRust). */
  readonly trees: Tree[] = [];
  /** Per tree: the body ranges that a later tree parsed, whose tokens are not read from this one. */
  readonly expandedRanges = new Map<number, Array<[number, number]>>();
  /** Start of every token tree whose content was parsed as items. */
  readonly expandedTokenTrees = new Set<number>();

  /** Children of a container that are items; ERROR nodes are searched too, so broken syntax keeps what parsed. */
  private items(container: Node, ctx: ItemContext, range?: [number, number]): void {
    for (const child of container.namedChildren) {
      if (!child) continue;
      if (range && (child.endIndex <= range[0] || child.startIndex >= range[1])) continue;
      this.item(child, ctx);
    }
  }

  private item(node: Node, ctx: ItemContext): void {
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        this.onFunction(node, ctx, ctx.owner ?? null);
        break;
      case 'struct_item':
      case 'union_item':
        this.onStruct(node, ctx);
        break;
      case 'enum_item':
        this.onEnum(node, ctx);
        break;
      case 'trait_item':
        this.onTrait(node, ctx);
        break;
      case 'impl_item':
        this.impls.push({ node, ctx });
        break;
      case 'type_item':
        // `type Item = X;` in an impl only fills in a trait's associated type: not a definition of its own.
        if (!ctx.owner) this.onTypeAlias(node, ctx, null);
        break;
      case 'const_item':
      case 'static_item':
        // A const or static inside a function body is a local of it, as `let` is.
        if (ctx.owner || !ctx.fn) this.onConst(node, ctx, ctx.owner ?? null);
        break;
      case 'mod_item':
        this.onMod(node, ctx);
        break;
      case 'use_declaration':
        this.onUse(node, ctx);
        break;
      case 'extern_crate_declaration':
        this.onExternCrate(node, ctx);
        break;
      case 'macro_definition':
        this.onMacroDefinition(node, ctx);
        break;
      case 'macro_invocation':
        if (ctx.fn === null || ctx.owner) this.noteMacroBody(node, ctx);
        break;
      case 'ERROR':
        this.items(node, ctx);
        break;
    }
  }

  /** Qualifier of items at module level: the inline module path; null inside function bodies (parent does it). */
  private define(kind: SymbolKind, name: string, node: Node, signature: string, ctx: ItemContext, opts: Partial<Owner> = {}): SymbolDef {
    const parent = opts.parent !== undefined ? opts.parent : (ctx.fn?.sym?.localId ?? null);
    const qualifier = opts.qualifier ?? (parent === null && ctx.mod ? ctx.mod : undefined);
    const sym = this.table.add(symbolDef(kind, name, parent, node, signature, this.docOf(node), opts.exported ?? this.isPub(node)), qualifier);
    if (opts.receiver) sym.receiver = opts.receiver;
    if (parent === null && ctx.fn === null && !opts.receiver) this.moduleNames.add(name);
    return sym;
  }

  private frame(sym: SymbolDef | null, node: Node, up: Frame | null, extra: Partial<Frame> = {}): Frame {
    const frame: Frame = { sym, start: node.startIndex, end: node.endIndex, up, ...extra };
    this.frames.push(frame);
    return frame;
  }

  private isPub(node: Node): boolean {
    return node.firstNamedChild?.type === 'visibility_modifier';
  }

  /** `///` and `/** … *\/` comments directly above an item, through its attributes. */
  private docOf(node: Node): string {
    const lines: string[] = [];
    for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
      if (prev.type === 'attribute_item') continue;
      if (prev.type !== 'line_comment' && prev.type !== 'block_comment') break;
      const text = this.text(prev);
      if (!isOuterDoc(text)) break;
      lines.unshift(docText(text));
    }
    return lines.join('\n').trim();
  }

  /** The first attribute above an item (through comments and other attributes) that matches. */
  private attribute(node: Node, pattern: RegExp): RegExpExecArray | null {
    for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
      if (prev.type === 'attribute_item') {
        const m = pattern.exec(this.text(prev));
        if (m) return m;
      } else if (prev.type !== 'line_comment' && prev.type !== 'block_comment') return null;
    }
    return null;
  }

  private nameOf(node: Node): Node | null {
    const name = node.childForFieldName('name');
    if (name) this.skipStarts.add(name.startIndex);
    return name;
  }

  private typeParamsOf(node: Node): Set<string> | undefined {
    const params = node.childForFieldName('type_parameters');
    if (!params) return undefined;
    const names = new Set<string>();
    for (const p of params.namedChildren) {
      const name = p?.type === 'type_parameter' || p?.type === 'const_parameter' ? p.childForFieldName('name') : null;
      if (name) {
        names.add(this.text(name));
        this.skipStarts.add(name.startIndex);
      }
    }
    return names;
  }

  private scopeKey(ctx: ItemContext): string {
    return ctx.fn?.sym ? `fn:${ctx.fn.sym.localId}` : ctx.mod;
  }

  private declareType(sym: SymbolDef, ctx: ItemContext): void {
    const key = `${this.scopeKey(ctx)}\u0000${sym.name}`;
    if (!this.types.has(key)) this.types.set(key, sym.localId);
  }

  private onFunction(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const signature = headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex);
    const kind: SymbolKind = owner ? 'Method' : 'Function';
    const sym = this.define(kind, this.text(nameNode), node, signature, ctx, owner ?? {});
    const typeParams = this.typeParamsOf(node);
    const frame = this.frame(sym, node, ctx.outer, { selfType: owner?.selfType, selfLocal: owner?.selfLocal, typeParams });
    this.parameters(node, frame);
    if (body && body.type === 'block') this.items(body, { mod: ctx.mod, fn: frame, outer: frame });
  }

  private parameters(fn: Node, frame: Frame): void {
    const params = fn.childForFieldName('parameters');
    if (!params) return;
    for (const param of params.namedChildren) {
      if (param?.type !== 'parameter') continue;
      const pattern = param.childForFieldName('pattern');
      if (!pattern) continue;
      if (pattern.type === 'identifier') {
        const name = this.text(pattern);
        (frame.locals ??= new Set()).add(name);
        const type = this.typePath(param.childForFieldName('type'), frame);
        if (type) (frame.types ??= new Map()).set(name, type);
      }
    }
  }

  /**
   * The type whose methods a value of this annotation answers: `Foo`, `a::Foo`, `&mut Foo`,
   * `Box<Foo>`, `impl Tr`, `dyn Tr` (the trait), `Vec<T>` (Vec); null for primitives, tuples,
   * slices and type parameters.
   */
  typePath(node: Node | null, frame: Frame | null): string[] | null {
    for (let depth = 0; node && depth < 6; depth++) {
      switch (node.type) {
        case 'reference_type':
          node = node.childForFieldName('type');
          continue;
        case 'abstract_type':
        case 'dynamic_type':
          node = node.childForFieldName('trait');
          continue;
        case 'generic_type': {
          const base = node.childForFieldName('type');
          const args = node.childForFieldName('type_arguments');
          if (base && DEREF_WRAPPERS.has(this.text(base)) && args?.firstNamedChild) {
            node = args.firstNamedChild;
            continue;
          }
          node = base;
          continue;
        }
        case 'type_identifier': {
          const name = this.text(node);
          if (name === 'Self') return frame ? (this.selfTypeOf(frame) ?? null) : null;
          return this.isTypeParam(name, frame) ? null : [name];
        }
        case 'scoped_type_identifier': {
          const chain = pathChain(this.text(node));
          return chain ? this.rewriteSelf(chain, frame) : null;
        }
        default:
          return null;
      }
    }
    return null;
  }

  private onStruct(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const signature = headerText(this.src, node.startIndex, body?.type === 'field_declaration_list' ? body.startIndex : node.endIndex);
    const sym = this.define('Class', this.text(nameNode), node, signature, ctx);
    this.declareType(sym, ctx);
    const frame = this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    if (body?.type !== 'field_declaration_list') return;
    // Fields are defined after the impls: a path (`T::len`) only ever names a method, so a getter
    // named like its field keeps the plain id `T.len` and the field becomes `T.len@2`.
    this.fieldLists.push({ body, sym, frame, ctx });
  }

  private readonly fieldLists: Array<{ body: Node; sym: SymbolDef; frame: Frame; ctx: ItemContext }> = [];

  private defineFields({ body, sym, frame, ctx }: { body: Node; sym: SymbolDef; frame: Frame; ctx: ItemContext }): void {
    const types = new Map<string, string[]>();
    this.fieldTypes.set(sym.localId, types);
    for (const field of body.namedChildren) {
      if (field?.type !== 'field_declaration') continue;
      const fieldName = this.nameOf(field);
      if (!fieldName) continue;
      const name = this.text(fieldName);
      const fieldSym = this.define('Field', name, field, headerText(this.src, field.startIndex, field.endIndex), ctx, { parent: sym.localId });
      const type = this.typePath(field.childForFieldName('type'), frame);
      if (type) {
        fieldSym.type = type;
        types.set(name, type);
      }
    }
  }

  private onEnum(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const sym = this.define('Enum', this.text(nameNode), node, headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex), ctx);
    this.declareType(sym, ctx);
    this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    for (const variant of body?.namedChildren ?? []) {
      if (variant?.type !== 'enum_variant') continue;
      const variantName = this.nameOf(variant);
      if (variantName) this.define('Field', this.text(variantName), variant, headerText(this.src, variant.startIndex, variant.endIndex), ctx, { parent: sym.localId, exported: sym.exported });
    }
  }

  private onTrait(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const name = this.text(nameNode);
    const sym = this.define('Interface', name, node, headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex), ctx);
    this.declareType(sym, ctx);
    const selfType = [name];
    const frame = this.frame(sym, node, ctx.outer, { selfType, selfLocal: sym.localId, typeParams: this.typeParamsOf(node) });
    for (const bound of node.childForFieldName('bounds')?.namedChildren ?? []) {
      const chain = bound ? this.boundPath(bound, frame) : null;
      if (chain && bound) this.addRef(sym.localId, 'INHERITS', chain, bound.startPosition.row, { relation: 'extends' });
    }
    const owner: Owner = { parent: sym.localId, exported: sym.exported, selfType, selfLocal: sym.localId };
    const member: ItemContext = { mod: ctx.mod, fn: ctx.fn, outer: frame, owner };
    for (const item of body?.namedChildren ?? []) {
      if (item?.type === 'associated_type') this.onTypeAlias(item, member, owner);
      else if (item) this.item(item, member);
    }
  }

  /** A supertrait or implemented trait: `Display`, `fmt::Debug`, `From<u8>` → path without generics; null for lifetimes and `?Sized`. */
  private boundPath(node: Node, frame: Frame | null): string[] | null {
    if (node.type === 'generic_type') node = node.childForFieldName('type') ?? node;
    if (node.type !== 'type_identifier' && node.type !== 'scoped_type_identifier') return null;
    this.skipStarts.add(node.startIndex);
    if (node.type === 'scoped_type_identifier') {
      const name = node.childForFieldName('name');
      if (name) this.skipStarts.add(name.startIndex);
    }
    const chain = pathChain(this.text(node));
    return chain ? this.rewriteSelf(chain, frame) : null;
  }

  private onImpl(node: Node, ctx: ItemContext): void {
    const typeNode = node.childForFieldName('type');
    const body = node.childForFieldName('body');
    const typeParams = this.typeParamsOf(node);
    const probe: Frame = { sym: null, start: node.startIndex, end: node.endIndex, up: ctx.outer, typeParams };
    // The impl's own type: `Foo<T>` → Foo, `&'a mut Foo` → Foo, `dyn Tr + Send` → Tr, `u32` → u32.
    let target = typeNode;
    for (let depth = 0; target && depth < 4; depth++) {
      if (target.type === 'reference_type') target = target.childForFieldName('type');
      else if (target.type === 'generic_type') target = target.childForFieldName('type');
      else if (target.type === 'bounded_type') target = target.firstNamedChild;
      else if (target.type === 'dynamic_type') target = target.childForFieldName('trait');
      else break;
    }
    let chain = target && (target.type === 'type_identifier' || target.type === 'scoped_type_identifier' || target.type === 'primitive_type') ? pathChain(this.text(target)) : null;
    if (target && chain) {
      this.skipStarts.add(target.startIndex);
      const name = target.childForFieldName('name');
      if (name) this.skipStarts.add(name.startIndex);
    }
    const traitNode = node.childForFieldName('trait');
    const trait = traitNode ? this.boundPath(traitNode, probe) : null;
    // A blanket impl (`impl<T: Display> ToString for T`) or one for a tuple or slice provides the
    // trait's methods for many types: they are filed under the trait.
    const blanket = !chain || (chain.length === 1 && this.isTypeParam(chain[0], probe));
    if (blanket) chain = trait;
    if (!chain) {
      this.frame(null, node, ctx.outer, { typeParams });
      return;
    }
    const local = this.localType(chain, ctx);
    const localSym = local ? this.table.symbols.find((s) => s.localId === local) : undefined;
    const selfType = blanket ? undefined : chain;
    const frame = this.frame(localSym ?? null, node, ctx.outer, { selfType, selfLocal: local ?? undefined, typeParams });
    if (trait && !blanket) {
      const line = traitNode!.startPosition.row;
      if (local) this.addRef(local, 'INHERITS', trait, line, { relation: 'implements' });
      else this.addRef(null, 'INHERITS', trait, line, { relation: 'implements', subject: chain });
    }
    const typeName = chain[chain.length - 1];
    const modPrefix = ctx.fn === null && ctx.mod ? `${ctx.mod}.` : '';
    // Trait impl members have no visibility of their own: they are as visible as the type.
    const exported = trait ? (localSym?.exported ?? true) : undefined;
    const owner: Owner = local
      ? { parent: local, exported, selfType, selfLocal: local }
      : ctx.fn?.sym
        ? { parent: ctx.fn.sym.localId, exported, selfType, receiver: chain }
        : { parent: null, qualifier: `${modPrefix}${typeName}`, exported, selfType, receiver: chain };
    const member: ItemContext = { mod: ctx.mod, fn: ctx.fn, outer: frame, owner };
    for (const item of body?.namedChildren ?? []) if (item && item.type !== 'associated_type') this.item(item, member);
  }

  /** localId of the type a path names when it is declared in this file, seen from `ctx`. */
  private localType(chain: string[], ctx: ItemContext): string | null {
    let path = chain;
    if (path[0] === 'self') path = path.slice(1);
    if (path.length === 1) {
      for (let f: Frame | null = ctx.fn; f; f = f.up) {
        if (!f.sym || (f.sym.kind !== 'Function' && f.sym.kind !== 'Method')) continue;
        const hit = this.types.get(`fn:${f.sym.localId}\u0000${path[0]}`);
        if (hit) return hit;
      }
    }
    const mod = ctx.mod ? ctx.mod.split('.') : [];
    while (path[0] === 'super') {
      if (mod.length === 0) return null; // the parent module is another file
      mod.pop();
      path = path.slice(1);
    }
    if (path.length === 0 || path[0] === 'crate') return null;
    return this.types.get(`${[...mod, ...path.slice(0, -1)].join('.')}\u0000${path[path.length - 1]}`) ?? null;
  }

  private onTypeAlias(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const value = node.childForFieldName('type');
    let signature = headerText(this.src, node.startIndex, node.endIndex);
    if (signature.length > 120 && value) signature = `${headerText(this.src, node.startIndex, value.startIndex)} …`;
    const sym = this.define('TypeAlias', this.text(nameNode), node, signature, ctx, owner ?? {});
    const frame = this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    // What the alias names (`type EntryList = LinkedList<..>`): `x.m()` on an EntryList is LinkedList's `m`.
    const type = this.typePath(value, frame);
    if (type) sym.type = type;
  }

  private onConst(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const value = node.childForFieldName('value');
    let signature = headerText(this.src, node.startIndex, node.endIndex);
    if (signature.length > 120 && value) signature = `${headerText(this.src, node.startIndex, value.startIndex)} = …`;
    const sym = this.define(owner ? 'Field' : 'GlobalVariable', this.text(nameNode), node, signature, ctx, owner ?? {});
    const frame = this.frame(sym, node, ctx.outer);
    const type = this.typePath(node.childForFieldName('type'), frame);
    if (type) sym.type = type;
  }

  private onMod(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    this.moduleNames.add(name);
    if (!body) {
      // `mod x;` loads x.rs or x/mod.rs (or the `#[path]` file): a binding of the child module.
      this.quietSpans.push([node.startIndex, node.endIndex]);
      const binding: ImportBinding = { local: name, module: `self::${name}`, imported: null, line: node.startPosition.row, scope: this.importScope(ctx) };
      const path = this.attribute(node, /^#\[\s*path\s*=\s*"([^"]*)"\s*\]$/);
      if (path) binding.path = path[1];
      this.imports.push(binding);
      if (this.isPub(node) && ctx.fn === null) this.exports.push(ctx.mod ? { exported: name, local: name, scope: ctx.mod } : { exported: name, local: name });
      return;
    }
    const mod = ctx.mod ? `${ctx.mod}.${name}` : name;
    if (ctx.fn === null) this.inlineModules.push(mod);
    // A module inside a function body is rare; its items are treated as the function's.
    this.items(body, ctx.fn === null ? { mod, fn: null, outer: ctx.outer } : ctx);
  }

  /** An import's scope: the enclosing function, else the inline module path, else null. */
  private importScope(ctx: ItemContext): string | null {
    return ctx.fn?.sym?.localId ?? (ctx.mod || null);
  }

  private onUse(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const argument = node.childForFieldName('argument');
    if (!argument) return;
    const reexport = this.isPub(node);
    const scope = this.importScope(ctx);
    const line = node.startPosition.row;
    // `use ::core::fmt` names the extern crate even where a module `core` is in scope: the module keeps a leading `::`.
    const global = this.text(argument).startsWith('::') ? '::' : '';
    const bind = (prefix: string[], name: string, local: string) => {
      // `use a::b::C` → module 'a::b', imported 'C'; `{self}` and single-segment `use serde;` bind the module itself.
      const isModule = name === 'self' || prefix.length === 0;
      const module = global + (isModule && name !== 'self' ? [name] : prefix).join('::');
      const imported = isModule ? null : name;
      const bound = local === '_' ? '' : local;
      this.imports.push({ local: bound, module, imported, line, scope });
      if (bound && ctx.fn === null) this.moduleNames.add(bound);
      if (reexport && bound && ctx.fn === null) {
        const exp: ExportBinding = { exported: bound, from: module, imported };
        if (scope) exp.scope = scope;
        this.exports.push(exp);
      }
    };
    const walk = (tree: Node, prefix: string[]) => {
      switch (tree.type) {
        case 'identifier':
        case 'crate':
        case 'super':
        case 'self': {
          const name = this.text(tree);
          if (name === 'self' && prefix.length > 0) bind(prefix, 'self', prefix[prefix.length - 1]);
          else bind(prefix, name, name);
          return;
        }
        case 'scoped_identifier': {
          const chain = pathChain(this.text(tree));
          if (chain) bind([...prefix, ...chain.slice(0, -1)], chain[chain.length - 1], chain[chain.length - 1]);
          return;
        }
        case 'use_as_clause': {
          const path = tree.childForFieldName('path');
          const alias = tree.childForFieldName('alias');
          const chain = path ? pathChain(this.text(path)) : null;
          if (!chain || !alias) return;
          const full = [...prefix, ...chain];
          const last = full[full.length - 1];
          if (last === 'self') bind(full.slice(0, -1), 'self', this.text(alias));
          else bind(full.slice(0, -1), last, this.text(alias));
          return;
        }
        case 'use_wildcard': {
          const path = tree.firstNamedChild;
          const chain = path ? pathChain(this.text(path)) : [];
          if (!chain) return;
          const module = global + [...prefix, ...chain].join('::');
          this.imports.push({ local: '', module, imported: '*', line, scope });
          if (reexport && ctx.fn === null) {
            const exp: ExportBinding = { exported: '*', from: module, imported: '*' };
            if (scope) exp.scope = scope;
            this.exports.push(exp);
          }
          return;
        }
        case 'scoped_use_list': {
          const path = tree.childForFieldName('path');
          const chain = path ? pathChain(this.text(path)) : [];
          const list = tree.childForFieldName('list');
          if (chain && list) walk(list, [...prefix, ...chain]);
          return;
        }
        case 'use_list':
          for (const item of tree.namedChildren) if (item) walk(item, prefix);
          return;
      }
    };
    walk(argument, []);
  }

  private onExternCrate(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const name = node.childForFieldName('name');
    if (!name) return;
    const alias = node.childForFieldName('alias');
    const local = this.text(alias ?? name);
    this.imports.push({ local, module: this.text(name), imported: null, line: node.startPosition.row, scope: this.importScope(ctx) });
    if (ctx.fn === null) this.moduleNames.add(local);
  }

  private onMacroDefinition(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const name = this.text(nameNode);
    const sym = this.define('Function', name, node, `macro_rules! ${name}`, ctx, { exported: this.attribute(node, /^#\[\s*macro_export\b/) !== null });
    this.frame(sym, node, ctx.outer);
  }

  /** Item-level `m! { … }`: its body is parsed again for items (see expandMacroBodies). */
  private noteMacroBody(node: Node, ctx: ItemContext): void {
    const tree = node.lastNamedChild;
    if (tree?.type !== 'token_tree' || tree.endIndex - tree.startIndex < 3) return;
    const open = this.src[tree.startIndex];
    if (open !== '{' && open !== '(' && open !== '[') return;
    this.macroBodies.push({ start: tree.startIndex + 1, end: tree.endIndex - 1, ctx, tree: this.trees.indexOf(node.tree) });
    this.expandedTokenTrees.add(tree.startIndex);
  }

  /**
   * Item-level macro bodies (`cfg_rt! { pub mod runtime; … }`, tokio's and many crates' feature
   * gates) parsed as Rust with only those ranges included: positions stay those of the file, so
   * ranges, lines and reference attribution need no translation. Bodies that are not items
   * (`lazy_static!`'s `static ref`, DSLs) parse as errors and contribute what they can.
   */
  private expandMacroBodies(root: Node): void {
    const bodies = this.macroBodies.sort((a, b) => a.start - b.start);
    this.macroBodies = [];
    const language = root.tree.language;
    let parser = macroParsers.get(language);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(language);
      macroParsers.set(language, parser);
    }
    const ranges = bodies.map((b) => ({ startIndex: b.start, endIndex: b.end, startPosition: this.position(b.start), endPosition: this.position(b.end) }));
    const tree = parser.parse(this.src, null, { includedRanges: ranges });
    if (!tree) return;
    this.trees.push(tree);
    for (const body of bodies) {
      let list = this.expandedRanges.get(body.tree);
      if (!list) this.expandedRanges.set(body.tree, (list = []));
      list.push([body.start, body.end]);
      this.items(tree.rootNode, body.ctx, [body.start, body.end]);
    }
  }

  private lineStarts: number[] | null = null;
  private position(index: number): { row: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = this.src.indexOf('\n'); i >= 0; i = this.src.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    // web-tree-sitter counts indices and columns in UTF-16 code units, as JS strings do.
    return { row: lo, column: index - this.lineStarts[lo] };
  }

  // --- helpers shared with the reference pass ----------------------------------------------------

  isTypeParam(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.typeParams?.has(name)) return true;
    return false;
  }

  selfTypeOf(frame: Frame | null): string[] | undefined {
    for (let f = frame; f; f = f.up) if (f.selfType) return f.selfType;
    return undefined;
  }

  /** `Self::X` → the impl's type path + X; `self::x` → x; a type parameter or primitive head → null. */
  rewriteSelf(chain: string[], frame: Frame | null): string[] | null {
    const head = chain[0];
    if (head === 'Self') {
      const self = this.selfTypeOf(frame);
      return self ? [...self, ...chain.slice(1)] : null;
    }
    if (head === 'self' && chain.length > 1) return chain.slice(1);
    if (PRIMITIVES.has(head) || (chain.length > 1 && this.isTypeParam(head, frame))) return null;
    return chain;
  }

  fieldTypeOf(frame: Frame | null, field: string): string[] | undefined {
    for (let f = frame; f; f = f.up) if (f.selfLocal) return this.fieldTypes.get(f.selfLocal)?.get(field);
    return undefined;
  }

  /** Symbols in source order with every parent before its children (impl methods may precede their type). */
  orderedSymbols(): SymbolDef[] {
    const symbols = this.table.symbols.slice().sort((a, b) => a.range.startLine - b.range.startLine || a.range.startCol - b.range.startCol);
    const emitted = new Set<string>();
    const waiting = new Map<string, SymbolDef[]>();
    const out: SymbolDef[] = [];
    const emit = (sym: SymbolDef) => {
      out.push(sym);
      emitted.add(sym.localId);
      const children = waiting.get(sym.localId);
      if (children) {
        waiting.delete(sym.localId);
        for (const child of children) emit(child);
      }
    };
    for (const sym of symbols) {
      if (sym.parent === null || emitted.has(sym.parent)) emit(sym);
      else {
        const list = waiting.get(sym.parent);
        if (list) list.push(sym);
        else waiting.set(sym.parent, [sym]);
      }
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// The reference pass

class References {
  private readonly frames: Frame[];
  private readonly stack: Frame[] = [];
  private next = 0;
  private coveredEnd = -1;
  private readonly covered = new Set<number>();
  private quiet = 0;

  constructor(private readonly x: RustExtraction, private readonly src: string) {
    this.frames = x.frames.slice().sort((a, b) => a.start - b.start || b.end - a.end);
    x.quietSpans.sort((a, b) => a[0] - b[0]);
  }

  private text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  private frameAt(pos: number): Frame | null {
    const { frames, stack } = this;
    while (this.next < frames.length && frames[this.next].start <= pos) {
      const f = frames[this.next++];
      while (stack.length > 0 && stack[stack.length - 1].end <= f.start) stack.pop();
      stack.push(f);
    }
    while (stack.length > 0 && stack[stack.length - 1].end <= pos) stack.pop();
    return stack.length > 0 ? stack[stack.length - 1] : null;
  }

  private fromOf(frame: Frame | null): string | null {
    for (let f = frame; f; f = f.up) if (f.sym) return f.sym.localId;
    return null;
  }

  private inQuietSpan(pos: number): boolean {
    const spans = this.x.quietSpans;
    while (this.quiet < spans.length && spans[this.quiet][1] <= pos) this.quiet++;
    return this.quiet < spans.length && spans[this.quiet][0] <= pos;
  }

  private isLocal(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.locals?.has(name)) return true;
    return false;
  }

  private typeOfLocal(name: string, frame: Frame | null): string[] | undefined {
    for (let f = frame; f; f = f.up) {
      const type = f.types?.get(name);
      if (type) return type;
      if (f.locals?.has(name)) return undefined;
    }
    return undefined;
  }

  /** A method call's receiver chain rewritten to a type: null when the head's type is not known. */
  private receiverChain(chain: string[], frame: Frame | null): string[] | null {
    const [head, ...rest] = chain;
    if (head === 'self') {
      if (rest.length >= 2) {
        const type = this.x.fieldTypeOf(frame, rest[0]);
        if (type) return [...type, ...rest.slice(1)];
      }
      return chain;
    }
    const type = this.typeOfLocal(head, frame);
    if (type) return [...type, ...rest];
    if (!this.isLocal(head, frame) && this.x.moduleNames.has(head)) return chain;
    return null;
  }

  /** CALLS chain of a callee expression, or null. */
  private calleeChain(callee: Node, frame: Frame | null): string[] | null {
    switch (callee.type) {
      case 'identifier': {
        const name = this.text(callee);
        if (PRELUDE_VARIANTS.has(name) || this.isLocal(name, frame)) return null;
        return [name];
      }
      case 'scoped_identifier': {
        const chain = pathChain(this.text(callee));
        return chain ? this.x.rewriteSelf(chain, frame) : null;
      }
      case 'field_expression': {
        const chain = fieldChain(this.text(callee));
        return chain ? this.receiverChain(chain, frame) : null;
      }
      case 'generic_function': {
        const fn = callee.childForFieldName('function');
        return fn ? this.calleeChain(fn, frame) : null;
      }
      default:
        return null;
    }
  }

  run(captures: QueryCapture[]): void {
    const x = this.x;
    for (const { name, node } of captures) {
      const start = node.startIndex;
      switch (name) {
        case 'callee': {
          if (start < this.coveredEnd || this.inQuietSpan(start)) break;
          // A method called on an expression (`T::open(p).unwrap()`) is no chain: the calls inside it are read on their own.
          if (!PLAIN_CALLEES.has(node.type) || (node.type === 'field_expression' && !fieldChain(this.text(node)))) break;
          this.coveredEnd = node.endIndex;
          const frame = this.frameAt(start);
          const chain = this.calleeChain(node, frame);
          if (chain) x.addRef(this.fromOf(frame), 'CALLS', chain, node.startPosition.row);
          const path = node.type === 'generic_function' ? node.childForFieldName('function') : node;
          if (path?.type === 'scoped_identifier') this.addTypeOfPath(this.fromOf(frame), pathChain(this.text(path)), chain, node.startPosition.row);
          break;
        }
        case 'macro': {
          if (this.inQuietSpan(start)) break;
          const macro = node.childForFieldName('macro');
          if (!macro) break;
          this.coveredEnd = Math.max(this.coveredEnd, macro.endIndex);
          const frame = this.frameAt(start);
          const chain = pathChain(this.text(macro));
          const from = this.fromOf(frame);
          // Macros live in a namespace of their own: the last segment keeps its `!` (`format!`, `crate::m!`).
          if (chain && !chain[0].startsWith('$')) x.addRef(from, 'CALLS', macroChain(chain[0] === 'self' && chain.length > 1 ? chain.slice(1) : chain), macro.startPosition.row);
          const tree = node.lastNamedChild;
          if (tree?.type === 'token_tree' && !x.expandedTokenTrees.has(tree.startIndex)) this.tokenTreeCalls(tree, frame, from);
          break;
        }
        case 'path': {
          if (start < this.coveredEnd || this.covered.has(start) || this.inQuietSpan(start)) break;
          this.coveredEnd = node.endIndex;
          const frame = this.frameAt(start);
          const raw = pathChain(this.text(node));
          const chain = raw ? x.rewriteSelf(raw, frame) : null;
          if (chain && chain.length > 0) x.addRef(this.fromOf(frame), 'USES', chain, node.startPosition.row);
          this.addTypeOfPath(this.fromOf(frame), raw, chain, node.startPosition.row);
          break;
        }
        case 'stype': {
          const nameNode = node.childForFieldName('name');
          if (nameNode) this.covered.add(nameNode.startIndex);
          if (start < this.coveredEnd) break;
          this.coveredEnd = node.childForFieldName('path')?.endIndex ?? start;
          if (x.skipStarts.has(start) || this.inQuietSpan(start)) break;
          const frame = this.frameAt(start);
          const raw = pathChain(this.text(node));
          const chain = raw ? x.rewriteSelf(raw, frame) : null;
          if (chain) x.addRef(this.fromOf(frame), 'USES', chain, node.startPosition.row);
          break;
        }
        case 'bindingname':
          this.covered.add(start); // `Item` in `Iterator<Item = T>` names the trait's associated type, not a type in scope
          break;
        case 'type': {
          if (start < this.coveredEnd || x.skipStarts.has(start) || this.covered.has(start) || this.inQuietSpan(start)) break;
          const typeName = this.text(node);
          if (typeName === 'Self') break;
          const frame = this.frameAt(start);
          if (x.isTypeParam(typeName, frame)) break;
          x.addRef(this.fromOf(frame), 'USES', [typeName], node.startPosition.row);
          break;
        }
        case 'selffield': {
          if (start < this.coveredEnd) break;
          const field = node.childForFieldName('field');
          if (!field) break;
          const frame = this.frameAt(start);
          x.addRef(this.fromOf(frame), 'USES', ['self', this.text(field)], node.startPosition.row);
          break;
        }
        case 'let':
          this.onLet(node);
          break;
        case 'structlit':
        case 'structpat':
          this.onStructFields(node, name === 'structlit');
          break;
        case 'id':
          this.onIdentifier(node);
          break;
        case 'string': {
          const frame = this.frameAt(start);
          x.texts.add(this.fromOf(frame), 'literals', this.text(node).replace(/^b?r?#*"/, '').replace(/"#*$/, ''));
          break;
        }
        case 'comment': {
          const text = this.text(node);
          if (isOuterDoc(text) || isInnerDoc(text)) break; // rustdoc: the documented item's `doc` already
          const frame = this.frameAt(start);
          x.texts.add(this.fromOf(frame), 'comments', text.replace(/^\/[/*]+|\*+\/$/g, ''));
          break;
        }
      }
    }
  }

  /**
   * The fields a struct literal sets (`T { a, b: 1, ..base }`) or a struct pattern takes apart
   * (`let T { a, b: c } = x;`) are uses of `T.a`, `T.b`, each on its own line, as rustc records them;
   * only a field `T` declares counts (`exact`), not a method of that name.
   */
  private onStructFields(node: Node, literal: boolean): void {
    if (this.inQuietSpan(node.startIndex)) return;
    const type = node.childForFieldName(literal ? 'name' : 'type');
    const frame = this.frameAt(node.startIndex);
    const raw = type ? pathChain(this.text(type)) : null;
    const chain = raw ? this.x.rewriteSelf(raw, frame) : null;
    if (!chain) return;
    const from = this.fromOf(frame);
    const entries = (literal ? node.childForFieldName('body')?.namedChildren : node.namedChildren) ?? [];
    for (const entry of entries) {
      if (!entry) continue;
      const field =
        entry.type === 'field_initializer' || entry.type === 'field_pattern'
          ? entry.childForFieldName(entry.type === 'field_pattern' ? 'name' : 'field')
          : entry.type === 'shorthand_field_initializer' ? entry.firstNamedChild : null;
      const name = field ? this.text(field) : '';
      if (field && SEGMENT.test(name)) this.x.addRef(from, 'USES', [...chain, name], field.startPosition.row, { exact: true });
    }
  }

  /** `let x: T = …`, `let x = T::new(..)?`, `let x = T { .. }`, `let x = T(..)`: x has type T. */
  private onLet(node: Node): void {
    const frame = this.frameAt(node.startIndex);
    if (!frame) return;
    const pattern = node.childForFieldName('pattern');
    if (pattern?.type !== 'identifier') return;
    const name = this.text(pattern);
    (frame.locals ??= new Set()).add(name);
    const type = this.x.typePath(node.childForFieldName('type'), frame) ?? this.constructedType(node.childForFieldName('value'), frame);
    if (type) (frame.types ??= new Map()).set(name, type);
    else frame.types?.delete(name); // shadowed by an untyped binding
  }

  private constructedType(value: Node | null, frame: Frame): string[] | null {
    for (let depth = 0; value && depth < 4; depth++) {
      if (value.type === 'try_expression') {
        value = value.firstNamedChild;
        continue;
      }
      // A unit struct's value (`let c = Calculator;`): CapWords with a lowercase letter, not a CONSTANT.
      if (value.type === 'identifier') return /^[A-Z]\w*[a-z]/.test(this.text(value)) ? [this.text(value)] : null;
      if (value.type === 'struct_expression') {
        const name = value.childForFieldName('name');
        const chain = name ? pathChain(this.text(name)) : null;
        return chain ? this.x.rewriteSelf(chain, frame) : null;
      }
      if (value.type !== 'call_expression') return null;
      const fn = value.childForFieldName('function');
      if (!fn) return null;
      if (fn.type === 'field_expression') {
        // `T::open(p).unwrap()` / `.expect("…")`: look through to the constructor.
        const method = fn.childForFieldName('field');
        if (!method || !UNWRAPPERS.has(this.text(method))) return null;
        value = fn.childForFieldName('value');
        continue;
      }
      const raw = fn.type === 'generic_function' ? fn.childForFieldName('function') : fn;
      const chain = raw ? pathChain(this.text(raw)) : null;
      const rewritten = chain ? this.x.rewriteSelf(chain, frame) : null;
      if (!rewritten) return null;
      // `Foo(..)` (tuple struct) or `Foo::new(..)` / `a::Foo::open(..)`: an associated function of a CapWords type.
      if (rewritten.length === 1) return /^[A-Z]/.test(rewritten[0]) && !PRELUDE_VARIANTS.has(rewritten[0]) ? rewritten : null;
      const type = rewritten.slice(0, -1);
      return /^[A-Z]/.test(type[type.length - 1]) ? type : null;
    }
    return null;
  }

  private onIdentifier(node: Node): void {
    const start = node.startIndex;
    if (start < this.coveredEnd || this.covered.has(start) || this.x.skipStarts.has(start)) return;
    const name = this.text(node);
    // Only module-level names can be uses worth an edge, and only bindings of them need shadowing.
    if (!this.x.moduleNames.has(name)) return;
    const parent = node.parent;
    if (!parent) return;
    const ptype = parent.type;
    if (PATTERN_PARENTS.has(ptype) || (FIELD_PATTERN_PARENTS.has(ptype) && parent.childForFieldName('pattern')?.startIndex === start) ||
      (ptype === 'tuple_struct_pattern' && parent.childForFieldName('type')?.startIndex !== start)) {
      // A binding, unless it names a constant or unit variant in scope (`FOO =>`, `None =>`).
      if (!/^[A-Z]/.test(name) || !this.x.moduleNames.has(name)) {
        const frame = this.frameAt(start);
        if (frame) (frame.locals ??= new Set()).add(name);
        return;
      }
    }
    if (!this.x.moduleNames.has(name) || this.inQuietSpan(start)) return;
    if (ptype === 'mod_item' || ptype === 'lifetime' || ptype === 'macro_invocation') return;
    const frame = this.frameAt(start);
    if (this.isLocal(name, frame)) return;
    this.x.addRef(this.fromOf(frame), 'USES', [name], node.startPosition.row);
  }

  /**
   * Calls written inside a macro's arguments, which the grammar keeps as tokens: `f(..)`,
   * `a::b(..)`, `self.m(..)`, `x.m(..)` (x of known type) and nested `m!(..)`.
   */
  private tokenTreeCalls(tree: Node, frame: Frame | null, from: string | null): void {
    const children = tree.children;
    for (let i = 1; i < children.length; i++) {
      const child = children[i];
      if (!child || child.type !== 'token_tree') continue;
      this.tokenTreeCalls(child, frame, from);
      const prev = children[i - 1];
      if (!prev) continue;
      let end = i - 1;
      let macro = false;
      if (prev.type === '!') {
        macro = true;
        end = i - 2;
      } else if (this.src[child.startIndex] !== '(') continue;
      const last = children[end];
      if (!last || last.type !== 'identifier') continue;
      const parts = [this.text(last)];
      let j = end - 1;
      let dotted = false;
      while (j >= 1) {
        const sep = children[j];
        const seg = children[j - 1];
        if (!sep || !seg || (sep.type !== '::' && sep.type !== '.') || !['identifier', 'self', 'super', 'crate'].includes(seg.type)) break;
        if (sep.type === '.') {
          dotted = true;
          parts.unshift(this.text(seg));
          j -= 2;
          break; // `a.b.c(` chains: the receiver is the element before the last dot only
        }
        parts.unshift(this.text(seg));
        j -= 2;
      }
      // A preceding `.` means this is a method on an expression we cannot type (`x.a().b(`).
      const before = children[j];
      if (before && before.type === '.') continue;
      for (let k = j + 1; k <= end; k++) if (children[k]?.type === 'identifier') this.covered.add(children[k]!.startIndex);
      let chain: string[] | null = parts;
      if (dotted) chain = this.receiverChain(parts, frame);
      else if (!macro) chain = parts.length === 1 ? (PRELUDE_VARIANTS.has(parts[0]) || this.isLocal(parts[0], frame) ? null : parts) : this.x.rewriteSelf(parts, frame);
      if (chain) this.x.addRef(from, 'CALLS', chain, last.startPosition.row);
      if (!dotted && !macro) this.addTypeOfPath(from, parts, chain, last.startPosition.row);
    }
  }

  /**
   * A path through a type (`Interest::READABLE`, `BufReader::new(..)`, `State::Idle`) uses that type
   * too, as rustc records a reference for every segment that names one. Types are told from modules
   * by Rust's naming convention (UpperCamelCase types, snake_case modules); `Self::` names no type
   * written here. `raw` is the path as written, `chain` the reference it became.
   */
  private addTypeOfPath(from: string | null, raw: string[] | null, chain: string[] | null, line: number): void {
    if (!raw || !chain || raw.length < 2 || raw[0] === 'Self' || !/^[A-Z]/.test(raw[raw.length - 2])) return;
    this.x.addRef(from, 'USES', chain.slice(0, -1), line);
  }
}

/** `//!` / `/*! … *\/` comments at the top of the file (through inner attributes): the module's doc. */
function moduleDoc(root: Node, src: string): string {
  const lines: string[] = [];
  for (const child of root.children) {
    if (!child) continue;
    if (child.type === 'inner_attribute_item') continue;
    if (child.type !== 'line_comment' && child.type !== 'block_comment') break;
    const text = src.slice(child.startIndex, child.endIndex);
    if (isInnerDoc(text)) lines.push(docText(text));
  }
  return lines.join('\n').trim();
}

/** Captures of every tree read, in document order, without the tokens of bodies a later tree parsed. */
function capturesOf(x: RustExtraction, query: Query): QueryCapture[] {
  const all: QueryCapture[] = [];
  x.trees.forEach((tree, index) => {
    const ranges = (x.expandedRanges.get(index) ?? []).sort((a, b) => a[0] - b[0]);
    let r = 0;
    for (const capture of allCaptures(query, tree.rootNode)) {
      const start = capture.node.startIndex;
      while (r < ranges.length && ranges[r][1] <= start) r++;
      if (r < ranges.length && ranges[r][0] <= start) continue;
      all.push(capture);
    }
  });
  // Stable: for one node captured by several patterns, the query's order is kept.
  if (x.trees.length > 1) all.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  return all;
}

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
