// RANGER stage 1 for TypeScript, TSX and JavaScript (ES modules and CommonJS): definitions, import
// placeholders, export bindings and symbolic references of one file, straight from its syntax tree.
//
// One tree-sitter query per grammar does the walking in WASM. Its DEFS patterns find declarations,
// module statements and scope facts (parameters, type parameters, typed locals); its REFS patterns
// find calls, type references and identifier uses. Captures come in document order (outer nodes
// before inner ones at the same position), so the innermost enclosing definition of any capture is
// the top of a stack of definition ranges: no JS walk over expression nodes.
//
// Decisions worth knowing:
// - `namespace N {}` / `module N {}` / `declare namespace N {}` become a GlobalVariable `N` (a
//   namespace is a value holding its members, and `N.f` resolves like any dotted chain); its
//   declarations are nested under it (`N.f`) and are exported when marked `export` and N is.
//   String-named ambient modules (`declare module 'x' {}`) and `declare global {}` are transparent:
//   their declarations sit at module level.
// - Functions nest: named function declarations and function/arrow/class consts anywhere inside a
//   definition become children of the innermost definition (anonymous callbacks are transparent).
//   Other `const/let/var` become GlobalVariables only at module or namespace level.
// - Overload signatures and getter/setter pairs are separate definitions (`f`, `f@2`).
// - Light type inference rewrites the head of a call chain: a parameter or local typed with a plain
//   (possibly dotted or generic) type name, a local initialised with `new C()`, and `this.f.m()`
//   when class field `f` (or parameter property) is typed `C`.
import { Query, type Language as TSLanguage, type Node, type QueryCapture } from 'web-tree-sitter';
import { JS_GLOBALS } from '../model/builtins';
import type { Language } from '../model/schema';
import type { ExportBinding, Extracted, ImportBinding, Reference, SymbolDef, SymbolKind } from './fileGraph';
import { MAX_CHAIN_PARTS, Parents, SymbolTable, allCaptures, symbolDef } from './extractUtil';
import { SourceTextCollector } from './sourceText';

type Dialect = 'ts' | 'tsx' | 'js';

// ---------------------------------------------------------------------------------------------
// The query (compiled once per grammar). The tree is traversed once (the traversal is most of the
// cost), then two JS loops read the capture list: definitions first (they decide which names are
// module-level), references second.
const DEFS_COMMON = `
(class_declaration) @class
(function_declaration) @function
(generator_function_declaration) @function
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function) (class)]) @fnvar
(class_body (method_definition) @method)
(program [(lexical_declaration) (variable_declaration)] @vars)
(program (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars))
(import_statement) @import
(program (export_statement) @export)
(expression_statement (assignment_expression left: (member_expression) @cjs))
(arrow_function parameter: (identifier) @param)
(variable_declarator name: (identifier) value: (new_expression)) @local
(variable_declarator name: (identifier) value: (call_expression)) @local
(variable_declarator name: (identifier) value: (await_expression (call_expression))) @local
`;

const DEFS_JS = `
(class_body (field_definition) @field)
(formal_parameters (identifier) @param)
(formal_parameters (assignment_pattern left: (identifier) @param))
`;

const DEFS_TS = `
(abstract_class_declaration) @class
(function_signature) @function
(class_body [(abstract_method_signature) (method_signature)] @method)
(class_body (public_field_definition) @field)
(required_parameter [(accessibility_modifier) (override_modifier) "readonly"]) @paramprop
(optional_parameter [(accessibility_modifier) (override_modifier) "readonly"]) @paramprop
(interface_declaration) @interface
(interface_body [(property_signature) (method_signature)] @member)
(type_alias_declaration value: (object_type [(property_signature) (method_signature)] @member))
(enum_declaration) @enum
(enum_body name: (_) @enummember)
(enum_body (enum_assignment) @enummember)
(type_alias_declaration) @typealias
[(internal_module) (module)] @namespace
(program (ambient_declaration [(lexical_declaration) (variable_declaration)] @vars))
(program (export_statement declaration: (ambient_declaration [(lexical_declaration) (variable_declaration)] @vars)))
(internal_module body: (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(internal_module body: (statement_block (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars)))
(module body: (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(module body: (statement_block (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars)))
(ambient_declaration (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(type_parameter name: (type_identifier) @tparam)
(mapped_type_clause name: (type_identifier) @tparam)
(infer_type (type_identifier) @tparam)
[(required_parameter pattern: (identifier) @param) (optional_parameter pattern: (identifier) @param)]
(required_parameter pattern: (identifier) type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @paramtype))
(optional_parameter pattern: (identifier) type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @paramtype))
(variable_declarator name: (identifier) type: (type_annotation)) @local
`;

// A call is captured as the whole call_expression: it precedes (outer first) its callee's @thismember
// and @id captures, so those can see the callee was consumed. Requiring `arguments:` in the pattern
// would keep every call's match pending until its arguments, and the cursor then buffers all
// captures inside long callee chains: 4x slower on compiled JavaScript.
const REFS_COMMON = `
(call_expression) @call
(new_expression constructor: (_) @new)
(string) @string
(template_string) @string
(comment) @comment
`;
const REFS_JSX = `
(jsx_opening_element name: (_) @jsx)
(jsx_self_closing_element name: (_) @jsx)
(jsx_closing_element name: (_) @jsxclose)
`;
const REFS_TS_TYPES = `
(nested_type_identifier) @ntype
(type_identifier) @type
`;
// Object literals and destructuring patterns whose type is declared where they stand: their keys are
// uses of that type's members (contextual typing, as the TypeScript service resolves them).
const REFS_TS_CONTEXT = `
(variable_declarator type: (type_annotation) value: (object)) @typedobject
(public_field_definition type: (type_annotation) value: (object)) @typedobject
(satisfies_expression (object)) @typedobject
(as_expression (object)) @typedobject
(return_statement (object) @returnedobject)
(arrow_function return_type: (type_annotation) body: (parenthesized_expression (object) @returnedobject))
[(required_parameter pattern: (object_pattern) type: (type_annotation)) (optional_parameter pattern: (object_pattern) type: (type_annotation))] @typedpattern
`;
const REFS_TAIL = `
(member_expression object: (this)) @thismember
(identifier) @id
(shorthand_property_identifier) @id
(shorthand_property_identifier_pattern) @bind
`;

const QUERIES = new Map<TSLanguage, Query>();

function queryFor(language: TSLanguage, dialect: Dialect): Query {
  let q = QUERIES.get(language);
  if (!q) {
    const ts = dialect !== 'js';
    const jsx = dialect !== 'ts';
    q = new Query(language, DEFS_COMMON + (ts ? DEFS_TS : DEFS_JS) + REFS_COMMON + (jsx ? REFS_JSX : '') + (ts ? REFS_TS_TYPES + REFS_TS_CONTEXT : '') + REFS_TAIL);
    QUERIES.set(language, q);
  }
  return q;
}

function dialectOf(language: Language): Dialect {
  return language === 'typescript' ? 'ts' : language === 'tsx' ? 'tsx' : 'js';
}

// ---------------------------------------------------------------------------------------------
// Small text helpers

const SEGMENT = /^#?[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

const SIMPLE_CHAIN = /^#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*$/;

/** `a.b?.c!` → ['a','b','c']; null for anything that is not a plain dotted name (calls, indexing, comments). */
function plainChain(text: string): string[] | null {
  if (text.length > 200) return null;
  if (SIMPLE_CHAIN.test(text)) return text.split('.');
  const parts = text.replace(/\s+/g, '').replace(/!(?=\.|$)/g, '').replace(/\?\./g, '.').split('.');
  for (const p of parts) if (!SEGMENT.test(p)) return null;
  return parts;
}

/**
 * A callee chain through calls, a call standing as `()` for its result:
 * `this.#client.getQueryCache().notify` → ['this', '#client', 'getQueryCache', '()', 'notify'].
 * Null unless every step is a name, `this` or a call (the inner calls are captured on their own).
 */
function callChain(node: Node): string[] | null {
  // A loop from the end of the chain back to its head, bounded: generated code chains thousands of calls.
  const reversed: string[] = [];
  for (let at: Node | null = node; at && reversed.length <= MAX_CHAIN_PARTS; ) {
    switch (at.type) {
      case 'identifier':
      case 'this':
        reversed.push(at.text);
        return reversed.reverse();
      case 'non_null_expression':
      case 'parenthesized_expression':
        at = at.firstNamedChild;
        break;
      case 'member_expression': {
        const property = at.childForFieldName('property');
        at = property ? at.childForFieldName('object') : null;
        if (property) reversed.push(property.text);
        break;
      }
      case 'call_expression':
        at = at.childForFieldName('arguments')?.type === 'arguments' ? at.childForFieldName('function') : null;
        reversed.push('()');
        break;
      default:
        return null;
    }
  }
  return null;
}

/** Comments inside a declaration header (JSDoc on parameters, trailing notes) do not belong in a signature. */
function stripComments(text: string): string {
  if (!text.includes('/')) return text;
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|\s)\/\/[^\n]*/g, '$1');
  return stripped === text ? text : stripped.replace(/([([{])\s+/g, '$1').replace(/\s+([)\]}])/g, '$1');
}

function cleanDoc(comment: string): string {
  return comment
    .replace(/^\/\*\*+/, '')
    .replace(/\*+\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
    .join('\n')
    .trim();
}

function unquote(text: string): string {
  const q = text[0];
  return (q === '"' || q === "'" || q === '`') && text.length >= 2 ? text.slice(1, -1) : text;
}

/** Initialisers that make a declarator an import rather than a variable: `require('m')`, `require('m').x`. */
const REQUIRE_VALUE = /^require\s*\(\s*(['"])[^'"]*\1\s*\)(?:\s*\.\s*[\p{ID_Start}$_][\p{ID_Continue}$]*)?$/u;

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'generator_function', 'function']);
/** What a `return` returns from: the nearest of these above it. */
const FUNCTION_NODES = new Set([...FUNCTION_VALUES, 'function_declaration', 'generator_function_declaration', 'method_definition']);
/** Nested literals typed through their parent's member types (`{ a: { b: 1 } }` → T.a.b): deeper is rare and costs chains. */
const MAX_KEY_DEPTH = 3;
const DOCUMENTABLE_STATEMENTS = new Set([
  'class_declaration', 'abstract_class_declaration', 'function_declaration', 'generator_function_declaration',
  'function_signature', 'interface_declaration', 'enum_declaration', 'type_alias_declaration',
  'lexical_declaration', 'variable_declaration', 'ambient_declaration', 'module', 'internal_module',
]);
const NOT_A_USE_PARENTS = new Set([
  'import_specifier', 'import_clause', 'namespace_import', 'import_require_clause', 'export_specifier',
  'namespace_export', 'export_statement', 'jsx_closing_element', 'nested_type_identifier', 'nested_identifier',
  'labeled_statement', 'break_statement', 'continue_statement',
]);

/** Where an identifier no declaration binds is still no use of a global: JSX tag names (`<div>`) besides the above. */
const FREE_NAME_PARENTS_SKIPPED = new Set([
  ...NOT_A_USE_PARENTS, 'jsx_opening_element', 'jsx_self_closing_element', 'jsx_closing_element',
]);

/** Node types and the field that binds a name there (`null`: every identifier child binds). */
const BINDING_FIELDS: ReadonlyMap<string, string | null> = new Map([
  ['variable_declarator', 'name'], ['required_parameter', 'pattern'], ['optional_parameter', 'pattern'],
  ['arrow_function', 'parameter'], ['catch_clause', 'parameter'], ['for_in_statement', 'left'],
  ['function_declaration', 'name'], ['function_expression', 'name'], ['generator_function_declaration', 'name'],
  ['generator_function', 'name'], ['pair_pattern', 'value'], ['assignment_pattern', 'left'],
  ['index_signature', 'name'], ['array_pattern', null], ['rest_pattern', null], ['formal_parameters', null],
]);

/**
 * Every name some declaration of the file binds (variables, parameters, destructured names, catch
 * and loop variables, definitions at any depth), wherever it stands: what is left of the file's
 * identifiers is free, i.e. a global. Scopes are ignored: a name bound anywhere is never taken for
 * a global (a miss costs one unused global, a false global would cost a wrong edge).
 */
function boundNames(captures: QueryCapture[], symbols: readonly SymbolDef[], parents: Parents): Set<string> {
  const bound = new Set(['arguments', ...symbols.map((s) => s.name)]);
  for (const { name, node } of captures) {
    if (name === 'bind') {
      bound.add(node.text);
      continue;
    }
    if (name !== 'id' || node.type !== 'identifier') continue;
    const parent = parents.of(node);
    const field = parent ? BINDING_FIELDS.get(parent.type) : undefined;
    if (field === undefined) continue;
    if (field === null || parent!.childForFieldName(field)?.startIndex === node.startIndex) bound.add(node.text);
  }
  return bound;
}

// ---------------------------------------------------------------------------------------------
// Definition scopes

interface Frame {
  sym: SymbolDef;
  start: number;
  end: number;
  /** Enclosing frame by position (not necessarily the symbol parent: parameter properties). */
  up: Frame | null;
  /** Start of the class/interface/enum body, so members of other (anonymous) classes are not adopted. */
  bodyStart: number;
  namespace: boolean;
  /** Parameters and locals that shadow module-level names. */
  locals?: Set<string>;
  /** Local name → class chain, for call-head rewriting. */
  types?: Map<string, string[]>;
  typeParams?: Set<string>;
  /** Class field name → type chain, for `this.field.method()`. */
  fields?: Map<string, string[]>;
}

type Role = 'top' | 'member' | 'nsmember' | 'nested' | 'cjs';
interface Meta {
  role: Role;
  exportedSelf: boolean;
  private: boolean;
}

const MEMBER_KINDS = new Set<SymbolKind>(['Method', 'Field']);
/** Type syntax an alias's object types can sit in and still be its members (not a property's type: that is another object). */
const COMPOSED_TYPES = new Set(['union_type', 'intersection_type', 'parenthesized_type', 'conditional_type', 'generic_type', 'type_arguments']);
/** TypeAlias: an object type's members (`type T = { a: X; b(): Y }`) are its members, as an interface's. */
const CONTAINER_KINDS = new Set<SymbolKind>(['Class', 'Interface', 'Enum', 'TypeAlias']);

class TsExtraction {
  readonly table = new SymbolTable();
  readonly imports: ImportBinding[] = [];
  readonly exports: ExportBinding[] = [];
  private readonly refs = new Map<string, Reference>();
  readonly texts = new SourceTextCollector();
  private readonly frames: Frame[] = [];
  private readonly metas: Meta[] = [];
  private readonly byLocalId = new Map<string, number>();
  private stack: Frame[] = [];
  /** Identifier/type positions that are declarations or already covered by another reference. */
  private readonly skipStarts = new Set<number>();
  private readonly handledDeclarators = new Set<number>();
  private readonly defaultDecls = new Set<number>();
  private readonly exportNames = new Set<string>();
  private lastParam: { start: number; name: string; frame: Frame | null } | null = null;
  private lastParamProp = -1;
  private lastLocal = -1;

  /** Names declared as type parameters anywhere in the file (boundedChain). */
  private typeParamNames: Set<string> | undefined;

  constructor(
    private readonly src: string,
    private readonly parents: Parents,
  ) {}

  // --- scope stack ------------------------------------------------------------------------

  private frameAt(pos: number): Frame | null {
    const stack = this.stack;
    while (stack.length > 0 && stack[stack.length - 1].end <= pos) stack.pop();
    return stack.length > 0 ? stack[stack.length - 1] : null;
  }

  private text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  private addRef(from: string | null, kind: Reference['kind'], chain: string[], line: number, relation?: 'extends' | 'implements', exact?: true): void {
    // Per line, not per scope: completion context and its benchmark ask what one line uses.
    const key = `${from ?? ''}\u0000${kind}\u0000${relation ?? ''}\u0000${chain.join('\u0000')}\u0000${line}`;
    if (this.refs.has(key)) return;
    const ref: Reference = relation ? { from, kind, chain, relation, line } : { from, kind, chain, line };
    if (exact) ref.exact = true;
    this.refs.set(key, ref);
  }

  /**
   * Adds a definition under the innermost enclosing one (or `parentFrame`), and makes it the
   * innermost scope for what follows inside its range.
   */
  private define(
    kind: SymbolKind,
    name: string,
    node: Node,
    signature: string,
    doc: string,
    opts: { exportedSelf?: boolean; private?: boolean; role?: Role; parentFrame?: Frame | null; bodyStart?: number; namespace?: boolean; scope?: boolean } = {},
  ): Frame {
    const start = node.startIndex;
    const up = this.frameAt(start);
    const parentFrame = opts.parentFrame !== undefined ? opts.parentFrame : up;
    const parent = parentFrame ? parentFrame.sym.localId : null;
    const sym = this.table.add(symbolDef(kind, name, parent, node, signature, doc, false));
    let role: Role;
    if (opts.role) role = opts.role;
    else if (!parentFrame) role = 'top';
    else if (MEMBER_KINDS.has(kind) && CONTAINER_KINDS.has(parentFrame.sym.kind)) role = 'member';
    else if (parentFrame.namespace) role = 'nsmember';
    else role = 'nested';
    const frame: Frame = { sym, start, end: node.endIndex, up, bodyStart: opts.bodyStart ?? -1, namespace: opts.namespace ?? false };
    this.byLocalId.set(sym.localId, this.metas.length);
    this.metas.push({ role, exportedSelf: opts.exportedSelf ?? false, private: opts.private ?? false });
    if (opts.scope !== false) {
      this.frames.push(frame);
      this.stack.push(frame);
    }
    return frame;
  }

  // --- syntax helpers -----------------------------------------------------------------------

  /** `export` keyword on the declaration (directly or around `declare`). */
  private isExported(node: Node): boolean {
    let p = this.parents.of(node);
    if (p && p.type === 'ambient_declaration') p = this.parents.of(p);
    return p !== null && p.type === 'export_statement';
  }

  /** The JSDoc right before a declaration, its `export`/`declare` wrapper, or its decorators. */
  private docOf(node: Node): string {
    let target: Node = node;
    let p = this.parents.of(node);
    if (p && p.type === 'ambient_declaration') {
      target = p;
      p = this.parents.of(p);
    }
    if (p && p.type === 'export_statement') target = p;
    let prev = this.parents.previousSibling(target);
    while (prev && prev.type === 'decorator') prev = this.parents.previousSibling(prev);
    if (prev && prev.type === 'comment') {
      const text = this.text(prev);
      if (text.startsWith('/**')) return cleanDoc(text);
    }
    return '';
  }

  /** Source of `node` from its first non-decorator child up to `end` (usually the body). */
  private header(node: Node, end: number): string {
    let start = node.startIndex;
    if (this.src.charCodeAt(start) === 64 /* @ */) {
      for (let i = 0; i < node.childCount; i++) {
        const child = node.child(i);
        if (child && child.type !== 'decorator') {
          start = child.startIndex;
          break;
        }
      }
    }
    return stripComments(this.src.slice(start, Math.min(end, start + 1000))).replace(/[\s;,]+$/, '');
  }

  /** Type chain of a type node when it is a plain (dotted, possibly generic) name. */
  private typeChain(node: Node | null): string[] | null {
    if (!node) return null;
    if (node.type === 'generic_type') node = node.childForFieldName('name');
    if (!node) return null;
    if (node.type !== 'type_identifier' && node.type !== 'nested_type_identifier' && node.type !== 'identifier' && node.type !== 'member_expression') return null;
    return plainChain(this.text(node));
  }

  private annotationChain(typeAnnotation: Node | null): string[] | null {
    const type = typeAnnotation?.firstNamedChild ?? null;
    return type ? this.boundedChain(type, this.typeChain(type)) : null;
  }

  /**
   * A type parameter stands for its constraint, else its default, as the checker reads members of a
   * value of that type (`_zod: Internals` with `Internals extends $ZodTypeInternals` → $ZodTypeInternals;
   * `schema: S` with `S extends Schema`, `Schema extends $ZodType` → $ZodType). Other chains unchanged.
   */
  private boundedChain(at: Node, chain: string[] | null, depth = 0): string[] | null {
    if (!chain || chain.length !== 1 || depth > 3) return chain;
    // Most annotations name no type parameter: one pass over the tree lists the file's, once.
    if (!this.typeParamNames) {
      this.typeParamNames = new Set(this.parents.root.descendantsOfType('type_parameter').map((p) => p?.childForFieldName('name')).filter((n): n is Node => !!n).map((n) => this.text(n)));
    }
    if (!this.typeParamNames.has(chain[0])) return chain;
    for (let n: Node | null = this.parents.of(at); n; n = this.parents.of(n)) {
      const declared = n.childForFieldName('type_parameters');
      const param = declared?.namedChildren.find((p) => p?.type === 'type_parameter' && p.childForFieldName('name') && this.text(p.childForFieldName('name')!) === chain[0]);
      if (!param) continue;
      const bound = (param.childForFieldName('constraint') ?? param.childForFieldName('value'))?.firstNamedChild ?? null;
      return bound ? this.boundedChain(param, this.typeChain(bound), depth + 1) : null;
    }
    return chain;
  }

  /**
   * Parameters whose declared type is a function type (`init: (inst: T, def: D) => void`), with the
   * type parameters and the generic return type's arguments, which say what T is at a call (SymbolDef.callbacks).
   */
  private setCallbacks(frame: Frame, fn: Node | null): void {
    // `type Handler<T> = (event: T, ctx: Ctx) => void`: the alias is the function type, key `=.i`.
    const aliased = fn?.type === 'type_alias_declaration' ? fn.childForFieldName('value') : null;
    const params = aliased ? (aliased.type === 'function_type' ? aliased.childForFieldName('parameters') : null) : fn?.childForFieldName('parameters');
    if (!fn || !params) return;
    const callbacks: Record<string, string[]> = {};
    // Parameter i of a function type's parameter list, by its declared type, under key `${at}.${i}`.
    const record = (list: Node, at: string) =>
      parameterNodes(list).forEach((p, i) => {
        const chain = this.typeChain(p.childForFieldName('type')?.firstNamedChild ?? null);
        if (chain) callbacks[`${at}.${i}`] = chain;
      });
    if (aliased) record(params, '=');
    else {
      parameterNodes(params).forEach((param, j) => {
        const type = param.childForFieldName('type')?.firstNamedChild;
        const inner = type?.type === 'function_type' ? type.childForFieldName('parameters') : null;
        if (inner) record(inner, String(j));
      });
    }
    if (Object.keys(callbacks).length === 0) return;
    frame.sym.callbacks = callbacks;
    const declared = fn.childForFieldName('type_parameters');
    const typeParams = (declared?.namedChildren ?? []).map((p) => (p?.type === 'type_parameter' && p.childForFieldName('name') ? this.text(p.childForFieldName('name')!) : '')).filter(Boolean);
    if (typeParams.length > 0) frame.sym.typeParams = typeParams;
    const returned = fn.childForFieldName('return_type')?.firstNamedChild;
    const args = returned?.type === 'generic_type' ? returned.childForFieldName('type_arguments')?.namedChildren ?? [] : [];
    const returnArgs = args.filter((a) => a && a.type !== 'comment').map((a) => (a!.type === 'type_identifier' && typeParams.includes(this.text(a!)) ? this.text(a!) : ''));
    if (returnArgs.some(Boolean)) frame.sym.returnArgs = returnArgs;
  }

  /**
   * An untyped parameter of a function passed to a call (`make("x", (inst, def) => …)`): typed by the
   * callee's declared callback parameter, found where the callee is resolved. The chain is the
   * callee's, then a step `(j.i)` (argument j, its parameter i) carrying what fixes the callee's type
   * parameters here: explicit type arguments (`;t=` `make<Foo>(…)`) or the declared type the result is
   * assigned to (`;r=` `const x: Box<Foo> = make(…)`), each a dotted chain, comma-separated.
   */
  private callbackParam(node: Node, name: string, frame: Frame): void {
    let param: Node = node;
    const wrapper = this.parents.of(node);
    if (wrapper?.type === 'required_parameter' || wrapper?.type === 'optional_parameter') {
      if (wrapper.childForFieldName('type') || wrapper.childForFieldName('pattern')?.startIndex !== node.startIndex) return;
      param = wrapper;
    }
    const list = this.parents.of(param)?.type === 'formal_parameters' ? this.parents.of(param) : null;
    const fn = list ? this.parents.of(list) : this.parents.of(param);
    if (!fn || !FUNCTION_VALUES.has(fn.type)) return;
    const i = list ? parameterNodes(list).findIndex((p) => p.startIndex === param.startIndex) : 0;
    const argChains = (args: Node | null | undefined) => (args?.namedChildren ?? []).filter((a) => a && a.type !== 'comment').map((a) => this.typeChain(a)?.join('.') ?? '').join(',');
    // `const p: Processor<X> = (schema, ctx, json) => …`: the declared type is a function type (alias).
    const fnParent = this.parents.of(fn);
    const holder = fnParent?.type === 'variable_declarator' && fnParent.childForFieldName('value')?.startIndex === fn.startIndex ? fnParent : null;
    const typed = holder?.childForFieldName('type')?.firstNamedChild;
    const alias = typed ? this.typeChain(typed) : null;
    if (alias && i >= 0) {
      const fixed = typed!.type === 'generic_type' ? `;t=${argChains(typed!.childForFieldName('type_arguments'))}` : '';
      (frame.types ??= new Map()).set(name, [...alias, `(=.${i}${fixed})`]);
      return;
    }
    const args = this.parents.of(fn);
    const call = args?.type === 'arguments' ? this.parents.of(args) : null;
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
    const chain = callee && (callee.type === 'identifier' || callee.type === 'member_expression') ? plainChain(this.text(callee)) : null;
    if (!args || !call || !chain || i < 0) return;
    const j = args.namedChildren.filter((a) => a && a.type !== 'comment').findIndex((a) => a!.startIndex === fn.startIndex);
    let fixed = '';
    const explicit = call.childForFieldName('type_arguments');
    const declarator = this.parents.of(call)?.type === 'variable_declarator' ? this.parents.of(call) : null;
    const declared = declarator?.childForFieldName('type')?.firstNamedChild;
    if (explicit) fixed = `;t=${argChains(explicit)}`;
    else if (declared?.type === 'generic_type') fixed = `;r=${argChains(declared.childForFieldName('type_arguments'))}`;
    (frame.types ??= new Map()).set(name, [...chain, `(${j}.${i}${fixed})`]);
  }

  /**
   * What a function-like node returns when its return type is a plain type name (`Promise<T>` and
   * other generics give their name): stored as the symbol's `type`, so `make().run` and
   * `const x = make(); x.run` reach the member (resolve.ts, CALL_RESULT).
   */
  private returnChain(fn: Node | null): string[] | null {
    return fn ? this.annotationChain(fn.childForFieldName('return_type')) : null;
  }

  /** `make()`, `this.open(x)`, `await make()` as a chain ending in a call step (`['make', '()']`); null for other values. */
  private callResultChain(value: Node | null): string[] | null {
    if (value?.type === 'await_expression') value = value.firstNamedChild;
    if (value?.type !== 'call_expression') return null;
    const callee = value.childForFieldName('function');
    if (!callee || (callee.type !== 'identifier' && callee.type !== 'member_expression')) return null;
    const chain = plainChain(this.text(callee));
    return chain && chain[0] !== 'require' ? [...chain, '()'] : null;
  }

  /** The declared type of a symbol (`x: Foo`, `(): Foo`), when it is a plain type name. */
  private setType(frame: Frame, chain: string[] | null): void {
    if (chain) frame.sym.type = chain;
  }

  // --- pass 1: definitions, imports, exports ------------------------------------------------

  defs(captures: QueryCapture[]): void {
    for (const { name, node } of captures) {
      switch (name) {
        case 'class': this.onClass(node, node, null); break;
        case 'function': this.onFunction(node); break;
        case 'fnvar': this.onDeclarator(node, this.frameAt(node.startIndex)); break;
        case 'vars': this.onVariables(node); break;
        case 'method': this.onMethod(node); break;
        case 'field': this.onField(node); break;
        case 'paramprop': this.onParamProp(node); break;
        case 'interface': this.onInterface(node); break;
        case 'member': this.onInterfaceMember(node); break;
        case 'enum': this.onEnum(node); break;
        case 'enummember': this.onEnumMember(node); break;
        case 'typealias': this.onTypeAlias(node); break;
        case 'namespace': this.onNamespace(node); break;
        case 'import': this.onImport(node); break;
        case 'export': this.onExport(node); break;
        case 'call': if (this.src.startsWith('require', node.startIndex)) this.onRequireCall(node); break;
        case 'cjs': this.onCommonJsExport(node); break;
        case 'tparam': this.onTypeParam(node); break;
        case 'param': this.onParam(node); break;
        case 'paramtype': this.onParamType(node); break;
        case 'local': this.onTypedLocal(node); break;
      }
    }
  }

  /** `class_declaration`, `abstract_class_declaration`, or a class expression named by `declNode`. */
  private onClass(classNode: Node, declNode: Node, nameOverride: string | null): void {
    const nameNode = classNode.childForFieldName('name');
    const name = nameOverride ?? (nameNode ? this.text(nameNode) : 'default');
    const body = classNode.childForFieldName('body');
    const bodyStart = body ? body.startIndex : classNode.endIndex;
    let signature: string;
    if (declNode === classNode) {
      signature = this.header(classNode, bodyStart);
      if (nameNode) this.skipStarts.add(nameNode.startIndex);
    } else {
      signature = `${this.declarationKeyword(declNode)} ${name} = ${this.header(classNode, bodyStart)}`;
    }
    const exported = this.isExported(declNode);
    const frame = this.define('Class', name, declNode, signature, this.docOf(declNode), { exportedSelf: exported, bodyStart });
    if (this.defaultDecls.has(classNode.startIndex) && nameNode) this.exports.push({ exported: 'default', local: name });
    // Heritage: `extends` / `implements` clauses sit between the name and the body.
    for (let i = 0; i < classNode.childCount; i++) {
      const child = classNode.child(i);
      if (!child) continue;
      if (child.type === 'class_heritage') this.onHeritage(child, frame);
      else if (child.type === 'class_body') break;
    }
  }

  private onHeritage(heritage: Node, frame: Frame): void {
    for (const clause of heritage.namedChildren) {
      if (!clause) continue;
      if (clause.type === 'extends_clause') {
        for (const value of clause.childrenForFieldName('value')) if (value) this.inherits(value, frame, 'extends');
      } else if (clause.type === 'implements_clause') {
        for (const type of clause.namedChildren) if (type) this.inherits(type, frame, 'implements');
      } else if (clause.type !== 'comment') {
        this.inherits(clause, frame, 'extends'); // JavaScript: `extends <expression>`
      }
    }
  }

  private inherits(node: Node, frame: Frame, relation: 'extends' | 'implements'): void {
    const target = node.type === 'generic_type' ? node.childForFieldName('name') : node;
    if (!target) return;
    const chain = plainChain(this.text(target));
    if (!chain) return;
    this.skipStarts.add(target.startIndex);
    this.addRef(frame.sym.localId, 'INHERITS', chain, target.startPosition.row, relation);
  }

  private declarationKeyword(declNode: Node): string {
    const m = /^(?:export\s+)?(?:declare\s+)?(const|let|var|using)\b/.exec(this.src.slice(declNode.startIndex, declNode.startIndex + 30));
    return m ? m[1] : 'const';
  }

  private onFunction(node: Node): void {
    const nameNode = node.childForFieldName('name');
    const name = nameNode ? this.text(nameNode) : 'default';
    if (nameNode) this.skipStarts.add(nameNode.startIndex);
    const body = node.childForFieldName('body');
    const signature = this.header(node, body ? body.startIndex : node.endIndex);
    const frame = this.define('Function', name, node, signature, this.docOf(node), { exportedSelf: this.isExported(node) });
    this.setType(frame, this.returnChain(node));
    this.setCallbacks(frame, node);
    if (this.defaultDecls.has(node.startIndex) && nameNode) this.exports.push({ exported: 'default', local: name });
  }

  /** `const f = () => …`, `const f = function …`, `const C = class …` anywhere. */
  private onDeclarator(declarator: Node, scope: Frame | null): void {
    if (this.handledDeclarators.has(declarator.startIndex)) return;
    this.handledDeclarators.add(declarator.startIndex);
    const nameNode = declarator.childForFieldName('name');
    const value = declarator.childForFieldName('value');
    if (!nameNode || !value) return;
    // Class members and interfaces never hold declarators; a const inside a class field initialiser is fine.
    if (scope && (scope.sym.kind === 'Interface' || scope.sym.kind === 'Enum')) return;
    const name = this.text(nameNode);
    this.skipStarts.add(nameNode.startIndex);
    const statement = this.parents.of(declarator);
    // A single-declarator statement is the definition (so `export const` and its JSDoc belong to it).
    const node = statement && statement.namedChildCount === 1 ? statement : declarator;
    if (value.type === 'class') {
      this.onClass(value, node, name);
      return;
    }
    const body = value.childForFieldName('body');
    const keyword = statement ? this.declarationKeyword(statement) : 'const';
    const signature = `${keyword} ${stripComments(this.src.slice(declarator.startIndex, Math.min(body ? body.startIndex : value.endIndex, declarator.startIndex + 1000)))}`;
    const doc = statement ? this.docOf(statement) : '';
    const frame = this.define('Function', name, node, signature, doc, { exportedSelf: statement ? this.isExported(statement) : false });
    this.setType(frame, this.returnChain(value));
    this.setCallbacks(frame, value);
  }

  /** Module- or namespace-level `const/let/var` statements. */
  private onVariables(statement: Node): void {
    const scope = this.frameAt(statement.startIndex);
    if (scope && !scope.namespace) return;
    const exported = this.isExported(statement);
    const keyword = this.declarationKeyword(statement);
    let doc: string | null = null;
    for (const declarator of statement.namedChildren) {
      if (!declarator || declarator.type !== 'variable_declarator') continue;
      const value = declarator.childForFieldName('value');
      if (value && (FUNCTION_VALUES.has(value.type) || value.type === 'class')) {
        if (declarator.childForFieldName('name')?.type === 'identifier') this.onDeclarator(declarator, scope);
        continue;
      }
      this.handledDeclarators.add(declarator.startIndex);
      if (value && this.src.startsWith('require', value.startIndex) && REQUIRE_VALUE.test(this.text(value))) continue; // an import
      const nameNode = declarator.childForFieldName('name');
      if (!nameNode) continue;
      const names: Node[] = [];
      this.boundIdentifiers(nameNode, names);
      if (names.length === 0) continue;
      doc ??= this.docOf(statement);
      const full = this.text(declarator);
      const node = statement.namedChildCount === 1 ? statement : declarator;
      let signature = `${keyword} ${full}`;
      if (value && (full.length > 120 || full.includes('\n'))) {
        signature = `${keyword} ${this.src.slice(declarator.startIndex, value.startIndex).replace(/\s*=\s*$/, '')} = …`;
      }
      // `const config: Config = …`, `const x = new C()`, `const x = make()`: what members of the variable are.
      const type = names.length !== 1 ? null
        : this.annotationChain(declarator.childForFieldName('type'))
          ?? (value?.type === 'new_expression' ? this.typeChain(value.childForFieldName('constructor')) : this.callResultChain(value));
      let first = true;
      for (const id of names) {
        this.skipStarts.add(id.startIndex);
        const frame = this.define('GlobalVariable', this.text(id), node, signature, doc, { exportedSelf: exported, scope: first, parentFrame: scope });
        this.setType(frame, type);
        first = false;
      }
    }
  }

  /** Identifiers a binding pattern introduces: `a`, `{ a, b: c, ...d }`, `[e, f = 1]`. */
  private boundIdentifiers(pattern: Node, out: Node[]): void {
    switch (pattern.type) {
      case 'identifier':
      case 'shorthand_property_identifier_pattern':
        out.push(pattern);
        return;
      case 'object_pattern':
      case 'array_pattern':
        for (const child of pattern.namedChildren) if (child) this.boundIdentifiers(child, out);
        return;
      case 'pair_pattern': {
        const value = pattern.childForFieldName('value');
        if (value) this.boundIdentifiers(value, out);
        return;
      }
      case 'assignment_pattern':
      case 'object_assignment_pattern': {
        const left = pattern.childForFieldName('left') ?? pattern.firstNamedChild;
        if (left) this.boundIdentifiers(left, out);
        return;
      }
      case 'rest_pattern': {
        const inner = pattern.firstNamedChild;
        if (inner) this.boundIdentifiers(inner, out);
        return;
      }
    }
  }

  private memberScope(node: Node, kind: SymbolKind): Frame | null {
    const frame = this.frameAt(node.startIndex);
    if (!frame || frame.sym.kind !== kind) return null;
    const body = this.parents.of(node);
    return body && body.startIndex === frame.bodyStart ? frame : null;
  }

  private memberName(nameNode: Node | null): string {
    if (!nameNode) return '';
    const text = this.text(nameNode);
    return nameNode.type === 'string' ? unquote(text) : text;
  }

  private isPrivate(signature: string, name: string): boolean {
    return name.startsWith('#') || /^(?:[\w]+\s+)*?private\s/.test(signature);
  }

  private onMethod(node: Node): void {
    const cls = this.memberScope(node, 'Class');
    if (!cls) return;
    const name = this.memberName(node.childForFieldName('name'));
    if (!name) return;
    const body = node.childForFieldName('body');
    const signature = this.header(node, body ? body.startIndex : node.endIndex);
    const frame = this.define('Method', name, node, signature, this.docOf(node), { private: this.isPrivate(signature, name) });
    this.setType(frame, this.returnChain(node));
    this.setCallbacks(frame, node);
  }

  private onField(node: Node): void {
    const cls = this.memberScope(node, 'Class');
    if (!cls) return;
    const nameNode = node.childForFieldName('name') ?? node.childForFieldName('property');
    const name = this.memberName(nameNode);
    if (!name) return;
    const value = node.childForFieldName('value');
    let end = node.endIndex;
    const typeNode = node.childForFieldName('type');
    if (value) {
      // `handler = (e: Event) => …` reads best with its parameters; a typed field with its type.
      const body = !typeNode && FUNCTION_VALUES.has(value.type) ? value.childForFieldName('body') : null;
      end = body ? body.startIndex : value.startIndex;
    }
    const signature = this.header(node, end).replace(/\s*=$/, '');
    const frame = this.define('Field', name, node, signature, this.docOf(node), { private: this.isPrivate(signature, name) });
    const type = this.annotationChain(typeNode) ?? (value?.type === 'new_expression' ? this.typeChain(value.childForFieldName('constructor')) : null);
    this.setType(frame, type);
    if (type) (cls.fields ??= new Map()).set(name, type);
  }

  /** `constructor(private readonly x: Foo)` declares field `x` on the class. */
  private onParamProp(node: Node): void {
    if (node.startIndex === this.lastParamProp) return;
    this.lastParamProp = node.startIndex;
    let cls = this.frameAt(node.startIndex);
    while (cls && cls.sym.kind !== 'Class') cls = cls.up;
    if (!cls) return;
    const pattern = node.childForFieldName('pattern');
    if (!pattern || pattern.type !== 'identifier') return;
    const name = this.text(pattern);
    const value = node.childForFieldName('value');
    const signature = stripComments(this.src.slice(node.startIndex, value ? value.startIndex : node.endIndex)).replace(/\s*=?\s*$/, '');
    const frame = this.define('Field', name, node, signature, this.docOf(node), { parentFrame: cls, role: 'member', private: this.isPrivate(signature, name) });
    const type = this.annotationChain(node.childForFieldName('type'));
    this.setType(frame, type);
    if (type) (cls.fields ??= new Map()).set(name, type);
  }

  private onInterface(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skipStarts.add(nameNode.startIndex);
    const body = node.childForFieldName('body');
    const bodyStart = body ? body.startIndex : node.endIndex;
    const name = this.text(nameNode);
    const frame = this.define('Interface', name, node, this.header(node, bodyStart), this.docOf(node), { exportedSelf: this.isExported(node), bodyStart });
    if (this.defaultDecls.has(node.startIndex)) this.exports.push({ exported: 'default', local: name });
    for (const child of node.namedChildren) {
      if (child?.type === 'extends_type_clause') {
        for (const type of child.childrenForFieldName('type')) if (type) this.inherits(type, frame, 'extends');
      }
    }
  }

  private onInterfaceMember(node: Node): void {
    if (!this.memberScope(node, 'Interface') && !this.memberScope(node, 'TypeAlias')) return;
    const name = this.memberName(node.childForFieldName('name'));
    if (!name) return;
    const kind: SymbolKind = node.type === 'method_signature' ? 'Method' : 'Field';
    const frame = this.define(kind, name, node, this.header(node, node.endIndex), this.docOf(node));
    this.setType(frame, kind === 'Method' ? this.returnChain(node) : this.annotationChain(node.childForFieldName('type')));
    if (kind === 'Method') this.setCallbacks(frame, node);
  }

  private onEnum(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skipStarts.add(nameNode.startIndex);
    const body = node.childForFieldName('body');
    const bodyStart = body ? body.startIndex : node.endIndex;
    this.define('Enum', this.text(nameNode), node, this.header(node, bodyStart), this.docOf(node), { exportedSelf: this.isExported(node), bodyStart });
  }

  private onEnumMember(node: Node): void {
    if (!this.memberScope(node, 'Enum')) return;
    const name = this.memberName(node.type === 'enum_assignment' ? node.childForFieldName('name') : node);
    if (!name) return;
    this.define('Field', name, node, this.header(node, node.endIndex), this.docOf(node));
  }

  private onTypeAlias(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skipStarts.add(nameNode.startIndex);
    const value = node.childForFieldName('value');
    let signature = this.header(node, node.endIndex);
    if ((signature.length > 120 || signature.includes('\n')) && value) signature = `${this.header(node, value.startIndex)} …`;
    // An object type's members are found by their position in it (memberScope).
    const bodyStart = value?.type === 'object_type' ? value.startIndex : -1;
    const frame = this.define('TypeAlias', this.text(nameNode), node, signature, this.docOf(node), { exportedSelf: this.isExported(node), bodyStart });
    // `type A = B`: A's members are B's.
    this.setType(frame, this.typeChain(value));
    if (value && value.type !== 'object_type') this.nestedObjectMembers(value, frame);
    this.setCallbacks(frame, node);
  }

  /**
   * `type R = { a: X } | { b: Y }`, `type R<T> = T extends any ? Flatten<P<T> & { input: unknown }> : never`:
   * the members of the object types the alias is made of (through unions, intersections, conditional
   * branches and type arguments) are the alias's, as the TypeScript service finds `r.input`. Not
   * scopes of their own: they are defined here, out of capture order.
   */
  private nestedObjectMembers(type: Node, alias: Frame): void {
    // An explicit stack, children pushed last-first so members keep their source order: a type can nest thousands deep.
    const pending = [type];
    for (let at = pending.pop(); at; at = pending.pop()) {
      if (at.type === 'object_type') this.objectTypeMembers(at, alias);
      else if (COMPOSED_TYPES.has(at.type)) pending.push(...at.namedChildren.filter((c): c is Node => !!c).reverse());
    }
  }

  private objectTypeMembers(type: Node, alias: Frame): void {
    for (const member of type.namedChildren) {
      if (member?.type !== 'property_signature' && member?.type !== 'method_signature') continue;
      const name = this.memberName(member.childForFieldName('name'));
      if (!name) continue;
      const kind: SymbolKind = member.type === 'method_signature' ? 'Method' : 'Field';
      const frame = this.define(kind, name, member, this.header(member, member.endIndex), this.docOf(member), { parentFrame: alias, scope: false });
      this.setType(frame, kind === 'Method' ? this.returnChain(member) : this.annotationChain(member.childForFieldName('type')));
    }
  }

  private onNamespace(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode || nameNode.type === 'string') return; // ambient `declare module 'x'`: transparent
    this.skipStarts.add(nameNode.startIndex);
    const body = node.childForFieldName('body');
    const signature = this.header(node, body ? body.startIndex : node.endIndex);
    // `namespace A.B {}` is written `expression_statement > internal_module` unless exported.
    let target = node;
    const p = this.parents.of(node);
    if (p && (p.type === 'expression_statement' || p.type === 'ambient_declaration')) target = p;
    this.define('GlobalVariable', this.text(nameNode), node, signature, this.docOf(target), { exportedSelf: this.isExported(target), namespace: true });
  }

  private onImport(node: Node): void {
    const source = node.childForFieldName('source');
    const line = node.startPosition.row;
    const scope = this.functionScope(node.startIndex);
    let module = source ? unquote(this.text(source)) : '';
    let bound = false;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'import_clause') {
        for (const part of child.namedChildren) {
          if (!part) continue;
          if (part.type === 'identifier') {
            this.skipStarts.add(part.startIndex);
            this.imports.push({ local: this.text(part), module, imported: 'default', line, scope });
            bound = true;
          } else if (part.type === 'namespace_import') {
            const id = part.firstNamedChild;
            if (id) {
              this.skipStarts.add(id.startIndex);
              this.imports.push({ local: this.text(id), module, imported: null, line, scope });
              bound = true;
            }
          } else if (part.type === 'named_imports') {
            for (const spec of part.namedChildren) {
              if (!spec || spec.type !== 'import_specifier') continue;
              const nameNode = spec.childForFieldName('name');
              const alias = spec.childForFieldName('alias');
              if (!nameNode) continue;
              const local = alias ?? nameNode;
              this.skipStarts.add(local.startIndex);
              // Each name on its own line (`import {\n  a,\n  b,\n} from`): the line that binds it, which per-line context asks about.
              this.imports.push({ local: this.text(local), module, imported: unquote(this.text(nameNode)), line: spec.startPosition.row, scope });
              bound = true;
            }
          }
        }
      } else if (child.type === 'import_require_clause') {
        const id = child.firstNamedChild;
        const req = child.childForFieldName('source');
        if (req) module = unquote(this.text(req));
        if (id && id.type === 'identifier') {
          this.skipStarts.add(id.startIndex);
          this.imports.push({ local: this.text(id), module, imported: null, line, scope });
          bound = true;
        }
      }
    }
    if (!bound && module) this.imports.push({ local: '', module, imported: null, line, scope });
  }

  /** localId of the enclosing function or method (imports inside functions), null at module level. */
  private functionScope(pos: number): string | null {
    for (let f = this.frameAt(pos); f; f = f.up) {
      if (f.sym.kind === 'Function' || f.sym.kind === 'Method') return f.sym.localId;
    }
    return null;
  }

  private onExport(node: Node): void {
    let isDefault = false;
    let star = false;
    let hasEquals = false;
    let source: string | undefined;
    let clause: Node | null = null;
    let nsExport: Node | null = null;
    let declaration: Node | null = null;
    let value: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'declaration') declaration = child;
      else if (field === 'value') value = child;
      else if (field === 'source') source = unquote(this.text(child));
      else if (child.type === 'default') isDefault = true;
      else if (child.type === '*') star = true;
      else if (child.type === '=') hasEquals = true;
      else if (child.type === 'export_clause') clause = child;
      else if (child.type === 'namespace_export') nsExport = child;
      else if (hasEquals && child.isNamed && child.type !== 'comment' && !value) value = child;
    }
    if (declaration) {
      if (isDefault) this.defaultDecls.add(declaration.startIndex);
      return;
    }
    if (clause) {
      for (const spec of clause.namedChildren) {
        if (!spec || spec.type !== 'export_specifier') continue;
        const nameNode = spec.childForFieldName('name');
        const alias = spec.childForFieldName('alias');
        if (!nameNode) continue;
        const name = unquote(this.text(nameNode));
        const exported = alias ? unquote(this.text(alias)) : name;
        this.skipStarts.add(nameNode.startIndex);
        if (source !== undefined) this.exports.push({ exported, from: source, imported: name });
        else {
          this.exports.push({ exported, local: name });
          this.exportNames.add(name);
        }
      }
      return;
    }
    if (nsExport && source !== undefined) {
      const id = nsExport.lastNamedChild;
      if (id) this.exports.push({ exported: unquote(this.text(id)), from: source, imported: null });
      return;
    }
    if (star && source !== undefined) {
      this.exports.push({ exported: '*', from: source, imported: '*' });
      return;
    }
    if (value && (isDefault || hasEquals)) this.defaultValue(value, node);
  }

  /** `export default <expr>`, `export = <expr>`, `module.exports = <expr>`. */
  private defaultValue(value: Node, statement: Node): void {
    const type = value.type;
    if (type === 'identifier') {
      this.skipStarts.add(value.startIndex);
      const local = this.text(value);
      this.exports.push({ exported: 'default', local });
      this.exportNames.add(local);
    } else if (type === 'class') {
      const nameNode = value.childForFieldName('name');
      this.onClass(value, value, null);
      if (nameNode) this.exports.push({ exported: 'default', local: this.text(nameNode) });
      this.lastDefined().exportedSelf = true;
    } else if (FUNCTION_VALUES.has(type)) {
      const nameNode = type === 'arrow_function' ? null : value.childForFieldName('name');
      const body = value.childForFieldName('body');
      const name = nameNode ? this.text(nameNode) : 'default';
      this.define('Function', name, value, this.header(value, body ? body.startIndex : value.endIndex), this.docOf(statement), { exportedSelf: true });
      if (nameNode) this.exports.push({ exported: 'default', local: name });
    } else {
      const text = this.text(value);
      const prefix = this.src.slice(statement.startIndex, value.startIndex).trim();
      const signature = text.length <= 120 && !text.includes('\n') ? `${prefix} ${text}` : `${prefix} …`;
      this.define('GlobalVariable', 'default', value, signature, this.docOf(statement), { exportedSelf: true });
    }
  }

  private lastDefined(): Meta {
    return this.metas[this.metas.length - 1];
  }

  private onRequireCall(call: Node): void {
    const callee = call.childForFieldName('function');
    if (!callee || callee.type !== 'identifier' || callee.endIndex - callee.startIndex !== 7) return;
    const args = call.childForFieldName('arguments');
    if (args && args.type === 'arguments' && args.namedChildCount === 1 && args.firstNamedChild?.type === 'string') this.onRequire(call, args.firstNamedChild);
  }

  /** `const x = require('m')`, `const { a, b: c } = require('m')`, `const y = require('m').y`, `require('m')`. */
  private onRequire(call: Node, str: Node): void {
    const module = unquote(this.text(str));
    const line = call.startPosition.row;
    const scope = this.functionScope(call.startIndex);
    let parent = this.parents.of(call);
    let imported: string | null = null;
    if (parent && parent.type === 'member_expression') {
      const prop = parent.childForFieldName('property');
      imported = prop ? this.text(prop) : null;
      parent = this.parents.of(parent);
    }
    if (parent && parent.type === 'variable_declarator') {
      const nameNode = parent.childForFieldName('name');
      if (nameNode?.type === 'identifier') {
        this.skipStarts.add(nameNode.startIndex);
        this.imports.push({ local: this.text(nameNode), module, imported, line, scope });
        return;
      }
      if (nameNode?.type === 'object_pattern' && imported === null) {
        for (const part of nameNode.namedChildren) {
          if (!part) continue;
          if (part.type === 'shorthand_property_identifier_pattern') {
            const name = this.text(part);
            this.imports.push({ local: name, module, imported: name, line, scope });
          } else if (part.type === 'pair_pattern') {
            const key = part.childForFieldName('key');
            const value = part.childForFieldName('value');
            if (key && value?.type === 'identifier') {
              this.skipStarts.add(value.startIndex);
              this.imports.push({ local: this.text(value), module, imported: unquote(this.text(key)), line, scope });
            }
          }
        }
        return;
      }
    }
    this.imports.push({ local: '', module, imported: null, line, scope });
  }

  /** `module.exports = …`, `module.exports.x = …`, `exports.x = …`. */
  private onCommonJsExport(left: Node): void {
    const start = left.startIndex;
    if (!this.src.startsWith('exports', start) && !this.src.startsWith('module', start)) return;
    const lhs = this.text(left).replace(/\s+/g, '');
    const assignment = this.parents.of(left);
    const right = assignment?.childForFieldName('right');
    const statement = assignment ? this.parents.of(assignment) : null;
    if (!right || !statement) return;
    if (lhs === 'module.exports') {
      if (right.type === 'object') this.commonJsObject(right);
      else if (right.type === 'call_expression' && /^require\s*\(/.test(this.text(right))) {
        const str = right.childForFieldName('arguments')?.firstNamedChild;
        if (str && str.type === 'string') this.exports.push({ exported: '*', from: unquote(this.text(str)), imported: '*' });
      } else this.defaultValue(right, statement);
      return;
    }
    const m = /^(?:module\.)?exports\.([\p{ID_Start}$_][\p{ID_Continue}$]*)$/u.exec(lhs);
    if (!m) return;
    const name = m[1];
    if (right.type === 'identifier') {
      const local = this.text(right);
      this.exports.push({ exported: name, local });
      this.exportNames.add(local);
    } else if (FUNCTION_VALUES.has(right.type) || right.type === 'class') {
      const body = right.childForFieldName('body');
      const signature = stripComments(this.src.slice(statement.startIndex, Math.min(body ? body.startIndex : right.endIndex, statement.startIndex + 1000)));
      this.define(right.type === 'class' ? 'Class' : 'Function', name, statement, signature, this.docOf(statement), { role: 'cjs', bodyStart: right.type === 'class' ? body?.startIndex : undefined });
    } else {
      this.define('GlobalVariable', name, statement, this.header(statement, statement.endIndex), this.docOf(statement), { role: 'cjs' });
    }
  }

  private commonJsObject(object: Node): void {
    for (const prop of object.namedChildren) {
      if (!prop) continue;
      if (prop.type === 'shorthand_property_identifier') {
        const name = this.text(prop);
        this.exports.push({ exported: name, local: name });
        this.exportNames.add(name);
      } else if (prop.type === 'pair') {
        const key = prop.childForFieldName('key');
        const value = prop.childForFieldName('value');
        if (!key || !value) continue;
        const name = unquote(this.text(key));
        if (value.type === 'identifier') {
          const local = this.text(value);
          this.exports.push({ exported: name, local });
          this.exportNames.add(local);
        } else if (FUNCTION_VALUES.has(value.type)) {
          const body = value.childForFieldName('body');
          this.define('Function', name, prop, this.header(prop, body ? body.startIndex : prop.endIndex), this.docOf(prop), { role: 'cjs' });
        }
      } else if (prop.type === 'method_definition') {
        const name = this.memberName(prop.childForFieldName('name'));
        const body = prop.childForFieldName('body');
        if (name) this.define('Function', name, prop, this.header(prop, body ? body.startIndex : prop.endIndex), this.docOf(prop), { role: 'cjs' });
      }
    }
  }

  private onTypeParam(node: Node): void {
    this.skipStarts.add(node.startIndex);
    const frame = this.frameAt(node.startIndex);
    if (frame) (frame.typeParams ??= new Set()).add(this.text(node));
  }

  private onParam(node: Node): void {
    const name = this.text(node);
    const frame = this.frameAt(node.startIndex);
    this.skipStarts.add(node.startIndex);
    this.lastParam = { start: node.startIndex, name, frame };
    if (frame) (frame.locals ??= new Set()).add(name);
    if (frame) this.callbackParam(node, name, frame);
  }

  private onParamType(node: Node): void {
    const param = this.lastParam;
    if (!param || !param.frame) return;
    const chain = this.boundedChain(node, this.typeChain(node));
    if (chain) (param.frame.types ??= new Map()).set(param.name, chain);
  }

  /** `const c = new C()` / `const c: C = …` inside a definition. */
  private onTypedLocal(declarator: Node): void {
    if (declarator.startIndex === this.lastLocal) return;
    this.lastLocal = declarator.startIndex;
    const frame = this.frameAt(declarator.startIndex);
    if (!frame) return;
    const nameNode = declarator.childForFieldName('name');
    if (!nameNode) return;
    let chain = this.annotationChain(declarator.childForFieldName('type'));
    if (!chain) {
      const value = declarator.childForFieldName('value');
      if (value?.type === 'new_expression') chain = this.typeChain(value.childForFieldName('constructor'));
      else chain = this.callResultChain(value);
    }
    if (chain) (frame.types ??= new Map()).set(this.text(nameNode), chain);
  }

  // --- after pass 1 ---------------------------------------------------------------------------

  /** Final `exported` flags: parents precede children, so one forward pass sees parents settled. */
  settleExports(): void {
    const symbols = this.table.symbols;
    for (let i = 0; i < symbols.length; i++) {
      const sym = symbols[i];
      const meta = this.metas[i];
      const parent = sym.parent !== null ? symbols[this.byLocalId.get(sym.parent)!] : null;
      switch (meta.role) {
        case 'top': sym.exported = meta.exportedSelf || this.exportNames.has(sym.name); break;
        case 'member': sym.exported = (parent?.exported ?? false) && !meta.private; break;
        case 'nsmember': sym.exported = meta.exportedSelf && (parent?.exported ?? false); break;
        case 'cjs': sym.exported = true; break;
        case 'nested': sym.exported = false; break;
      }
    }
  }

  // --- pass 2: references ---------------------------------------------------------------------

  refsPass(captures: QueryCapture[]): void {
    const moduleNames = new Set<string>();
    for (const sym of this.table.symbols) if (sym.parent === null && sym.name !== 'default') moduleNames.add(sym.name);
    for (const imp of this.imports) if (imp.local && imp.scope === null) moduleNames.add(imp.local);
    const bound = boundNames(captures, this.table.symbols, this.parents);

    // Frames in position order (ancestors first) for attribution.
    const frames = this.frames.slice().sort((a, b) => a.start - b.start || b.end - a.end);
    const stack: Frame[] = [];
    let next = 0;
    const frameAt = (pos: number): Frame | null => {
      while (next < frames.length && frames[next].start <= pos) {
        const f = frames[next++];
        while (stack.length > 0 && stack[stack.length - 1].end <= f.start) stack.pop();
        stack.push(f);
      }
      while (stack.length > 0 && stack[stack.length - 1].end <= pos) stack.pop();
      return stack.length > 0 ? stack[stack.length - 1] : null;
    };

    const skip = this.skipStarts;
    const calleeStarts = new Set<number>();
    const calleeIds = new Set<number>();
    let ntypeEnd = -1;

    for (const { name, node } of captures) {
      const start = node.startIndex;
      switch (name) {
        case 'call':
        case 'new': {
          let callee: Node | null = node;
          if (name === 'call') {
            callee = node.childForFieldName('function');
            if (!callee || this.src.charCodeAt(callee.endIndex) === 96 /* ` */) break; // tagged template
          }
          const type = callee.type;
          if (type !== 'identifier' && type !== 'member_expression' && type !== 'super') break;
          const chain = type === 'super' ? ['super'] : plainChain(this.text(callee));
          if (!chain) {
            // `make().run()`, `this.#client.getQueryCache().notify()`: a call on a call's result.
            const through = type === 'member_expression' ? callChain(callee) : null;
            if (through?.includes('()') && through[0] !== 'require') {
              const frame = frameAt(callee.startIndex);
              this.addRef(frame ? frame.sym.localId : null, 'CALLS', this.inferHead(through, frame), callee.startPosition.row);
            }
            break;
          }
          calleeStarts.add(callee.startIndex);
          calleeIds.add(callee.id);
          if (chain.length === 1 && chain[0] === 'require') break;
          const frame = frameAt(callee.startIndex);
          this.addRef(frame ? frame.sym.localId : null, 'CALLS', this.inferHead(chain, frame), callee.startPosition.row);
          break;
        }
        case 'jsx': {
          calleeStarts.add(start);
          const chain = plainChain(this.text(node));
          if (!chain) break;
          if (chain.length === 1 && !/^[\p{Lu}_$]/u.test(chain[0])) break; // <div>: intrinsic element
          const frame = frameAt(start);
          this.addRef(frame ? frame.sym.localId : null, 'USES', chain, node.startPosition.row);
          break;
        }
        case 'jsxclose':
          calleeStarts.add(start);
          break;
        case 'ntype': {
          ntypeEnd = node.endIndex;
          calleeStarts.add(start);
          if (skip.has(start)) break;
          const chain = plainChain(this.text(node));
          if (!chain) break;
          const frame = frameAt(start);
          this.addRef(frame ? frame.sym.localId : null, 'USES', chain, node.startPosition.row);
          break;
        }
        case 'type': {
          if (skip.has(start)) break;
          const end = node.endIndex;
          if (end === ntypeEnd) break;
          const typeName = this.src.slice(start, end);
          const frame = frameAt(start);
          if (this.isTypeParam(typeName, frame)) break;
          this.addRef(frame ? frame.sym.localId : null, 'USES', [typeName], node.startPosition.row);
          break;
        }
        case 'typedobject': {
          const declared = node.type === 'variable_declarator' || node.type === 'public_field_definition';
          const type = declared ? this.annotationChain(node.childForFieldName('type')) : this.typeChain(node.lastNamedChild);
          const object = declared ? node.childForFieldName('value') : node.firstNamedChild;
          const frame = frameAt(start);
          if (object?.type === 'object') this.typedKeys(object, this.contextualType(type, frame), frame, 0);
          break;
        }
        case 'returnedobject': {
          let fn = this.parents.of(node);
          while (fn && !FUNCTION_NODES.has(fn.type)) fn = this.parents.of(fn);
          const frame = frameAt(start);
          this.typedKeys(node, this.contextualType(this.returnChain(fn), frame), frame, 0);
          break;
        }
        case 'typedpattern': {
          const frame = frameAt(start);
          const pattern = node.childForFieldName('pattern');
          if (pattern) this.typedKeys(pattern, this.contextualType(this.annotationChain(node.childForFieldName('type')), frame), frame, 0);
          break;
        }
        case 'thismember': {
          if (calleeIds.has(node.id)) break;
          // `this.options.x`: the whole chain, so a field's declared type reaches its member.
          const chain = plainChain(this.text(memberChainTop(node, calleeIds, this.parents)));
          if (!chain || chain.length < 2) break;
          const frame = frameAt(start);
          this.addRef(frame ? frame.sym.localId : null, 'USES', chain, node.startPosition.row);
          break;
        }
        case 'string': {
          // Module specifiers are import facts, not words of the code.
          const ptype = this.parents.of(node)?.type;
          if (ptype === 'import_statement' || ptype === 'export_statement' || ptype === 'import_require_clause') break;
          const frame = frameAt(start);
          this.texts.add(frame ? frame.sym.localId : null, 'literals', unquote(this.text(node)));
          break;
        }
        case 'comment': {
          const text = this.text(node);
          if (text.startsWith('/**')) break; // JSDoc: the documented definition's `doc` already
          const frame = frameAt(start);
          this.texts.add(frame ? frame.sym.localId : null, 'comments', text.replace(/^\/[/*]+|\*+\/$/g, ''));
          break;
        }
        case 'id': {
          if (skip.has(start) || calleeStarts.has(start)) break;
          const id = this.src.slice(start, node.endIndex);
          if (!moduleNames.has(id)) {
            const frame = frameAt(start);
            this.typedLocalMember(node, id, frame, calleeIds);
            // Bound nowhere in the file: a global, which a declaration file may declare (graph/ambientGlobals.ts).
            const parent = this.parents.of(node);
            if (!bound.has(id) && !JS_GLOBALS.has(id) && parent && !FREE_NAME_PARENTS_SKIPPED.has(parent.type)) {
              const chain = (parent.type === 'member_expression' && parent.startIndex === start && plainChain(this.text(parent))) || [id];
              this.addRef(frame ? frame.sym.localId : null, 'USES', chain, node.startPosition.row);
            }
            break;
          }
          const frame = frameAt(start);
          if (this.isShadowed(id, frame)) break;
          let chain = [id];
          const parent = this.parents.of(node);
          if (parent) {
            const ptype = parent.type;
            if (NOT_A_USE_PARENTS.has(ptype)) break;
            if (ptype === 'variable_declarator' && parent.startIndex === start) {
              // A local declaration with a module-level name shadows it for the rest of the definition.
              if (frame) (frame.locals ??= new Set()).add(id);
              break;
            }
            if (ptype === 'member_expression' && parent.startIndex === start) {
              const member = plainChain(this.text(parent));
              if (member) chain = member;
            }
          }
          this.addRef(frame ? frame.sym.localId : null, 'USES', chain, node.startPosition.row);
          break;
        }
      }
    }
  }

  /**
   * The declared type an object literal or pattern is checked against, when it names a type of the
   * code (not a type parameter, not a built-in like `Promise` or `Record` whose members are no key's definition).
   */
  private contextualType(chain: string[] | null, frame: Frame | null): string[] | null {
    if (!chain || JS_GLOBALS.has(chain[0]) || this.isTypeParam(chain[0], frame)) return null;
    return chain;
  }

  /**
   * Keys of an object literal or destructuring pattern typed `type` (`const o: T = { a, b: 1, c() {} }`,
   * `return { a }` under `(): T`, `({ a, b = 1, c: d }: T)`): uses of T.a, T.b, T.c; a nested literal's
   * keys through the member's own type (`{ a: { b } }` → T.a.b). Exact: a key T does not declare is no use of T.
   */
  private typedKeys(literal: Node, type: string[] | null, frame: Frame | null, depth: number): void {
    if (!type || depth >= MAX_KEY_DEPTH) return;
    const from = frame ? frame.sym.localId : null;
    for (const child of literal.namedChildren) {
      const { key, nested } = child ? literalEntry(child) : { key: null, nested: null };
      const name = key ? propertyName(key, this.src) : null;
      if (!key || !name) continue;
      const chain = [...type, name];
      this.addRef(from, 'USES', chain, key.startPosition.row, undefined, true);
      if (nested) this.typedKeys(nested, chain, frame, depth + 1);
    }
  }

  /**
   * `config.x` with `config: Config` (a parameter or a typed local, not a call: calls have their own
   * capture): a use of Config's member, as the TypeScript service resolves it.
   */
  private typedLocalMember(node: Node, id: string, frame: Frame | null, calleeIds: ReadonlySet<number>): void {
    const parent = this.parents.of(node);
    if (!frame || parent?.type !== 'member_expression' || parent.startIndex !== node.startIndex || calleeIds.has(parent.id)) return;
    const chain = plainChain(this.text(memberChainTop(node, calleeIds, this.parents)));
    if (!chain || chain[0] !== id) return;
    const rewritten = this.inferHead(chain, frame);
    if (rewritten !== chain) this.addRef(frame.sym.localId, 'USES', rewritten, node.startPosition.row);
  }

  /** Rewrites a call chain's head when its type is known: `c.add` with `c: Calculator` → Calculator.add. */
  private inferHead(chain: string[], frame: Frame | null, depth = 0): string[] {
    if (chain.length < 2 || !frame) return chain;
    const head = chain[0];
    if (head === 'this') {
      if (chain.length < 3) return chain;
      for (let f: Frame | null = frame; f; f = f.up) {
        if (f.sym.kind === 'Class') {
          const type = f.fields?.get(chain[1]);
          return type ? [...type, ...chain.slice(2)] : chain;
        }
      }
      return chain;
    }
    for (let f: Frame | null = frame; f; f = f.up) {
      const type = f.types?.get(head);
      // `const y = x.make()` with x typed: y's chain starts at x, rewritten in turn (a few steps at most).
      if (type) return type[0] !== head && depth < 3 ? this.inferHead([...type, ...chain.slice(1)], frame, depth + 1) : [...type, ...chain.slice(1)];
      if (f.locals?.has(head)) return chain;
    }
    return chain;
  }

  private isShadowed(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.locals?.has(name)) return true;
    return false;
  }

  private isTypeParam(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.typeParams?.has(name)) return true;
    return false;
  }

  references(): Reference[] {
    return [...this.refs.values()];
  }
}

/** The parameters of a parameter list, comments left out. */
function parameterNodes(list: Node): Node[] {
  return list.namedChildren.filter((p): p is Node => p !== null && p.type !== 'comment');
}

/** Where an entry of an object literal or destructuring pattern names its key, and the literal or pattern nested in it. */
function literalEntry(entry: Node): { key: Node | null; nested: Node | null } {
  switch (entry.type) {
    case 'shorthand_property_identifier':
    case 'shorthand_property_identifier_pattern':
      return { key: entry, nested: null };
    case 'method_definition':
      return { key: entry.childForFieldName('name'), nested: null };
    case 'object_assignment_pattern':
      return { key: entry.childForFieldName('left'), nested: null };
    case 'pair':
    case 'pair_pattern': {
      const value = entry.childForFieldName('value');
      return { key: entry.childForFieldName('key'), nested: value?.type === 'object' || value?.type === 'object_pattern' ? value : null };
    }
    default:
      return { key: null, nested: null };
  }
}

/** A literal key's name: `a`, `"a"`, `'a'`; null for computed keys and numbers. */
function propertyName(key: Node, src: string): string | null {
  const text = src.slice(key.startIndex, key.endIndex);
  const name = key.type === 'string' ? unquote(text) : text;
  return SEGMENT.test(name) && !name.startsWith('#') ? name : null;
}

/**
 * The outermost member expression `node` heads (`this.a.b` from `this.a`), stopping below one that is
 * a call's callee: the call records that chain itself.
 */
function memberChainTop(node: Node, calleeIds: ReadonlySet<number>, parents: Parents): Node {
  let top = node;
  for (let p = parents.of(top); p?.type === 'member_expression' && p.childForFieldName('object')?.id === top.id && !calleeIds.has(p.id); p = parents.of(p)) top = p;
  return top;
}

/** Leading `/** … *\/` comment of the file unless it documents the first declaration. */
function fileDoc(root: Node, src: string): string {
  let candidate: Node | null = null;
  let last: Node | null = null;
  let first: Node | null = null;
  for (let i = 0; i < root.childCount; i++) {
    const child = root.child(i);
    if (!child) continue;
    if (child.type === 'hash_bang_line') continue;
    if (child.type !== 'comment') {
      first = child;
      break;
    }
    last = child;
    if (!candidate && src.startsWith('/**', child.startIndex)) candidate = child;
  }
  if (!candidate) return '';
  if (candidate === last && first && documents(first)) return '';
  return cleanDoc(src.slice(candidate.startIndex, candidate.endIndex));
}

function documents(statement: Node): boolean {
  if (statement.type === 'export_statement') return statement.childForFieldName('declaration') !== null || statement.childForFieldName('value') !== null;
  if (statement.type === 'expression_statement') {
    const inner = statement.firstNamedChild;
    return inner !== null && (inner.type === 'internal_module' || inner.type === 'module');
  }
  return DOCUMENTABLE_STATEMENTS.has(statement.type);
}

export function extractTypeScript(root: Node, filePath: string, language: Language): Extracted {
  const tsLanguage = root.tree.language;
  const query = queryFor(tsLanguage, dialectOf(language));
  // Node offsets index the whole source; the root starts after leading whitespace, so pad it back.
  const src = ' '.repeat(root.startIndex) + root.text;
  const x = new TsExtraction(src, new Parents(root));
  const captures = allCaptures(query, root);
  x.defs(captures);
  x.settleExports();
  x.refsPass(captures);
  markAmbientGlobals(root, filePath, x.table.symbols);
  return {
    doc: fileDoc(root, src),
    symbols: x.table.symbols,
    imports: x.imports,
    exports: x.exports,
    refs: x.references(),
    texts: x.texts.result(),
  };
}

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/**
 * Names every file sees without importing them (SymbolDef.global): the top-level declarations of a
 * declaration file that is a script (no top-level import or export: `declare const __DEV__: boolean`
 * in `global.d.ts`), and what `declare global { … }` declares anywhere. Only the block's own
 * top-level declarations: nesting stays as the block's transparency made it (module level).
 */
function markAmbientGlobals(root: Node, filePath: string, symbols: SymbolDef[]): void {
  const blocks: Node[] = [];
  let module = false;
  for (const child of root.namedChildren) {
    if (!child) continue;
    if (child.type === 'import_statement' || child.type === 'export_statement' || child.type === 'import_alias') module = true;
    else if (child.type === 'ambient_declaration' && child.children.some((c) => c?.type === 'global')) {
      const body = child.namedChildren.find((c) => c?.type === 'statement_block');
      if (body) blocks.push(body);
    }
  }
  const script = !module && DECLARATION_FILE.test(filePath);
  if (!script && blocks.length === 0) return;
  const inBlock = (line: number) => blocks.some((b) => b.startPosition.row <= line && line <= b.endPosition.row);
  for (const sym of symbols) if (sym.parent === null && (script || inBlock(sym.range.startLine))) sym.global = true;
}
