// RANGER stage 1 for Go: the definitions, import placeholders and symbolic references of one file.
//
// Declarations are read by a short JS walk over the file's top level (Go has no nested named
// declarations that matter outside their function); expressions come from one tree-sitter query
// whose captures arrive in document order, attributed to the innermost definition by a stack of
// definition spans, as in the TypeScript extractor.
//
// How Go maps onto the graph, and why:
// - struct → Class, interface → Interface, any other named type (`type N int`, `type F func()`) and
//   alias (`type A = B`) → TypeAlias; struct fields → Field, interface method specs → Method.
// - Methods: `parent` is the receiver type when it is declared in this file; otherwise (a method in
//   another file of the package) `parent` is null, the localId is still `Type.method` and `receiver`
//   names the type for stage 2. Pointer and value receivers are the same method set to Go users.
// - Embedding (`struct { Base; *pkg.T }`, `interface { io.Reader }`) → INHERITS with relation
//   'extends': embedding promotes the embedded type's fields and methods, which is what member lookup
//   through bases models. It is not 'implements': Go interfaces are satisfied implicitly and no
//   declaration states it, so there is nothing to record at stage 1.
// - A composite literal `Foo{...}` / `&pkg.Foo{...}` is a CALLS to the type, as `Foo()` and `new Foo()`
//   are in Python and TypeScript: it is where a value of the type is built.
// - Every identifier in a body that is not a local, a parameter or a builtin is a package-level name
//   (Go rejects undeclared names), of this file or of another file in the package: each becomes a
//   USES (a CALLS when called), resolved by stage 2 through same-package visibility.
// - Receivers and locals of a declared or cheaply inferred type are rewritten to the type
//   (`func (c *Command) f() { c.g() }` → ['Command', 'g']); an untyped local's members are dropped,
//   so a local never passes for a package of the same name.
// - Exported means what Go says: the name starts with an upper-case letter.
import type { Node, QueryCapture } from 'web-tree-sitter';
import type { Extracted, FileGraph, ImportBinding, Reference, ReferenceKind, SymbolDef, SymbolKind } from './fileGraph';
import { MAX_CHAIN_PARTS, SymbolTable, allCaptures, compiledQuery, oneLine, symbolDef } from './extractUtil';
import { SourceTextCollector } from './sourceText';

export type GoExtracted = Extracted & Pick<FileGraph, 'package' | 'generated'>;

const QUERY_SOURCE = `
(call_expression) @call
(composite_literal) @literal
(selector_expression) @selector
(qualified_type) @qualified
(type_identifier) @type
(identifier) @id
(parameter_declaration) @param
(variadic_parameter_declaration) @param
(short_var_declaration) @shortvar
(var_spec) @localvar
(const_spec) @localvar
(range_clause) @range
(type_switch_statement alias: (expression_list) @bind)
(receive_statement left: (expression_list) @bind)
(type_parameter_declaration) @tparam
(keyed_element . (literal_element (identifier) @key))
(block (statement_list (type_declaration [(type_spec) (type_alias)] @localtype)))
(import_spec path: (_) @nottext)
(field_declaration tag: (_) @nottext)
(interpreted_string_literal) @string
(raw_string_literal) @string
(comment) @comment
`;

const queryFor = compiledQuery(QUERY_SOURCE);

// Predeclared identifiers. `min`, `max` and `clear` are left out on purpose: they are builtins only
// since Go 1.21, and code written before defines its own, which stage 2 then finds in the package.
const BUILTIN_VALUES = new Set(
  'append cap close complex copy delete imag len make new panic print println real recover true false iota nil _'.split(' '),
);
const BUILTIN_TYPES = new Set(
  'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr'.split(' '),
);

/** `// Code generated … DO NOT EDIT.` (https://go.dev/s/generatedcode), before the package clause. */
const GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$/;
/** Comment lines meant for tools, never part of a doc comment (go/doc drops them too). */
const DIRECTIVE = /^\/\/(?:go:|line |extern |export |nolint|lint:|\s*\+build\b)/;

/** A definition whose span attributes captures, with what its body declares. */
interface Frame {
  sym: SymbolDef;
  start: number;
  end: number;
  /** Names a body declares (parameters, results, `:=`, `var`, range variables): they hide package names. */
  locals: Set<string>;
  /** Locals of known named type (receivers, typed parameters, `x := &Foo{}`): name → type chain. */
  typed: Map<string, string[]>;
  typeParams: Set<string>;
}

/** The named type a type expression denotes, through pointers and instantiation: `*pkg.T[int]` → ['pkg', 'T']. */
function namedType(node: Node | null): string[] | null {
  for (let n = node; n; ) {
    switch (n.type) {
      case 'type_identifier':
        return BUILTIN_TYPES.has(n.text) ? null : [n.text];
      case 'qualified_type': {
        const pkg = n.childForFieldName('package');
        const name = n.childForFieldName('name');
        return pkg && name ? [pkg.text, name.text] : null;
      }
      case 'pointer_type':
      case 'parenthesized_type':
        n = n.namedChild(0);
        break;
      case 'generic_type':
        n = n.childForFieldName('type');
        break;
      default:
        return null;
    }
  }
  return null;
}

/** goimports' guess at an imported package's name: the last path element without a `/vN` suffix, `go-` prefix, or anything from the first non-identifier character (`yaml.v3` → yaml). */
export function assumedPackageName(importPath: string): string {
  const parts = importPath.split('/');
  let base = parts[parts.length - 1];
  if (/^v\d+$/.test(base) && parts.length > 1) base = parts[parts.length - 2];
  if (base.startsWith('go-')) base = base.slice(3);
  const cut = base.search(/[^\p{L}\p{Nd}_]/u);
  return cut >= 0 ? base.slice(0, cut) : base;
}

function isExported(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

function unquote(literal: string): string {
  return literal.length >= 2 ? literal.slice(1, -1) : literal;
}

/** A call's result as a chain step (`f().x` → ['f', '()', 'x']), as stage 2 (resolve.ts) reads it. */
const CALL_RESULT = '()';

const CHAIN = /^[\p{L}_][\p{L}\p{Nd}_]*(?:\s*\.\s*[\p{L}_][\p{L}\p{Nd}_]*)*$/u;

function chainOf(text: string): string[] | null {
  if (text.length > 200 || !CHAIN.test(text)) return null;
  return text.split('.').map((part) => part.trim());
}

/** Text of a doc comment group: `//` lines without their marker, `/* *\/` blocks without delimiters. */
function cleanComments(comments: Node[]): string {
  const lines: string[] = [];
  for (const c of comments) {
    const text = c.text;
    if (text.startsWith('//')) lines.push(text.slice(2).replace(/^ /, '').trimEnd());
    else lines.push(...text.slice(2, -2).split('\n').map((l) => l.replace(/^\s*\* ?/, '').trimEnd()));
  }
  return lines.join('\n').trim();
}

class GoExtraction {
  readonly table = new SymbolTable();
  readonly imports: ImportBinding[] = [];
  readonly texts = new SourceTextCollector();
  private readonly refs = new Map<string, Reference>();
  private readonly frames: Frame[] = [];
  private readonly frameById = new Map<string, Frame>();
  /** Comments used as docs: not repeated as comment text. */
  private readonly docComments = new Set<number>();
  /** Node starts that name something being defined, or were consumed by a longer reference. */
  private readonly skip = new Set<number>();
  /** Types declared in this file: name → the Class/Interface/TypeAlias definition (or pending). */
  private readonly fileTypes = new Map<string, SymbolDef | null>();
  /** Methods met before their type's declaration: emitted right after the type, so parents precede children. */
  private readonly pendingMethods = new Map<string, Node[]>();
  /** Same-file functions' result types by position, for `x, err := NewFoo()`. */
  private readonly results = new Map<string, Array<string[] | null>>();
  /** Callees (start·2²⁴ + end) recorded as a CALLS through a call's result: their selector is no separate use. */
  private readonly calledSelectors = new Set<number>();
  /** Package-level names declared in this file (shadow builtins like `new` or `len`). */
  private readonly topNames = new Set<string>();
  packageName: string | undefined;
  generated = false;
  fileDoc = '';

  constructor(private readonly src: string) {}

  private text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  // --- declarations -------------------------------------------------------------------------------

  declarations(root: Node): void {
    const top = root.namedChildren.filter((n): n is Node => n !== null);
    // Type names and function results first: methods need to know whether their type is here.
    for (const node of top) {
      if (node.type === 'type_declaration') {
        for (const spec of node.namedChildren) if (spec && (spec.type === 'type_spec' || spec.type === 'type_alias')) this.declareName(spec);
      } else if (node.type === 'function_declaration') {
        const name = node.childForFieldName('name')?.text;
        if (name) {
          this.topNames.add(name);
          this.results.set(name, this.resultTypes(node.childForFieldName('result')));
        }
      }
    }
    for (const node of top) {
      switch (node.type) {
        case 'package_clause':
          this.packageName = node.namedChild(0)?.text;
          this.packageComments(node);
          break;
        case 'import_declaration':
          this.onImports(node);
          break;
        case 'type_declaration':
          for (const spec of node.namedChildren) if (spec && (spec.type === 'type_spec' || spec.type === 'type_alias')) this.onType(spec, node);
          break;
        case 'function_declaration':
          this.onFunction(node);
          break;
        case 'method_declaration':
          this.onMethod(node);
          break;
        case 'var_declaration':
        case 'const_declaration':
          this.onPackageVars(node);
          break;
      }
    }
    // Methods whose type declaration was never reached (a type inside a recovered ERROR node).
    for (const [typeName, methods] of this.pendingMethods) for (const m of methods) this.addMethod(m, typeName, null);
  }

  private declareName(spec: Node): void {
    const name = spec.childForFieldName('name')?.text;
    if (!name) return;
    this.topNames.add(name);
    if (!this.fileTypes.has(name)) this.fileTypes.set(name, null);
  }

  private resultTypes(result: Node | null): Array<string[] | null> {
    if (!result) return [];
    if (result.type !== 'parameter_list') return [namedType(result)];
    const out: Array<string[] | null> = [];
    for (const decl of result.namedChildren) {
      if (decl?.type !== 'parameter_declaration') continue;
      const type = namedType(decl.childForFieldName('type'));
      const names = decl.childrenForFieldName('name').length;
      for (let i = 0; i < Math.max(1, names); i++) out.push(type);
    }
    return out;
  }

  /** The package doc (the comment group right above `package`) and the generated-code marker. */
  private packageComments(clause: Node): void {
    const before: Node[] = [];
    for (let prev = clause.previousNamedSibling; prev?.type === 'comment'; prev = prev.previousNamedSibling) before.unshift(prev);
    this.generated = before.some((c) => c.text.split('\n').some((line) => GENERATED.test(line.trimEnd())));
    const doc = this.commentsAbove(clause);
    this.fileDoc = cleanComments(doc);
  }

  /** The comment group ending on the line right above `node` (no blank line between), directives left out. */
  private commentsAbove(node: Node): Node[] {
    const group: Node[] = [];
    let line = node.startPosition.row;
    for (let prev = node.previousSibling; prev?.type === 'comment' && prev.endPosition.row === line - 1; prev = prev.previousSibling) {
      // A comment trailing code on its own line documents that code, not this declaration.
      const before = prev.previousSibling;
      if (before && before.endPosition.row === prev.startPosition.row) break;
      group.unshift(prev);
      line = prev.startPosition.row;
    }
    const doc = group.filter((c) => !DIRECTIVE.test(c.text));
    for (const c of doc) this.docComments.add(c.startIndex);
    return doc;
  }

  /** GoDoc of a declaration or spec: the comment group above it, else (for specs in a group) a comment trailing it on its line. */
  private docOf(node: Node, outer?: Node): string {
    let group = this.commentsAbove(node);
    if (group.length === 0 && outer && outer.namedChildren.filter((c) => c?.type !== 'comment').length === 1) group = this.commentsAbove(outer);
    if (group.length === 0) {
      const next = node.nextSibling;
      if (next?.type === 'comment' && next.startPosition.row === node.endPosition.row && next.text.startsWith('//')) {
        group = [next];
        this.docComments.add(next.startIndex);
      }
    }
    return cleanComments(group);
  }

  private frame(sym: SymbolDef, node: Node): Frame {
    const frame: Frame = { sym, start: node.startIndex, end: node.endIndex, locals: new Set(), typed: new Map(), typeParams: new Set() };
    this.frames.push(frame);
    this.frameById.set(sym.localId, frame);
    return frame;
  }

  private onImports(decl: Node): void {
    const specs: Node[] = [];
    for (const child of decl.namedChildren) {
      if (child?.type === 'import_spec') specs.push(child);
      else if (child?.type === 'import_spec_list') for (const spec of child.namedChildren) if (spec?.type === 'import_spec') specs.push(spec);
    }
    for (const spec of specs) {
      const pathNode = spec.childForFieldName('path');
      if (!pathNode) continue;
      const module = unquote(pathNode.text);
      const alias = spec.childForFieldName('name');
      const line = spec.startPosition.row;
      if (alias?.type === 'dot') this.imports.push({ local: '', module, imported: '*', line, scope: null });
      else {
        const local = alias?.type === 'blank_identifier' ? '' : alias ? alias.text : assumedPackageName(module);
        const binding: ImportBinding = { local, module, imported: null, line, scope: null };
        if (!alias) binding.guessedLocal = true;
        this.imports.push(binding);
      }
    }
  }

  private onType(spec: Node, decl: Node): void {
    const nameNode = spec.childForFieldName('name');
    const typeNode = spec.childForFieldName('type');
    if (!nameNode || !typeNode) return;
    this.skip.add(nameNode.startIndex);
    const name = nameNode.text;
    const kind: SymbolKind = spec.type === 'type_alias' ? 'TypeAlias' : typeNode.type === 'struct_type' ? 'Class' : typeNode.type === 'interface_type' ? 'Interface' : 'TypeAlias';
    const body = kind === 'TypeAlias' ? null : typeNode.namedChildren.find((c) => c?.type === 'field_declaration_list') ?? typeNode;
    // `type Command struct` / `type L[T any] interface`: the header, not the members (they are nodes of their own).
    const header = kind === 'TypeAlias' ? this.text(spec) : this.src.slice(spec.startIndex, typeNode.startIndex) + (kind === 'Class' ? 'struct' : 'interface');
    const node = decl.namedChildren.filter((c) => c?.type !== 'comment').length === 1 ? decl : spec;
    const sym = this.table.add(symbolDef(kind, name, null, node, `type ${header}`, this.docOf(spec, decl), isExported(name)));
    if (!this.fileTypes.get(name)) this.fileTypes.set(name, sym);
    const frame = this.frame(sym, node);
    this.typeParameters(spec.childForFieldName('type_parameters'), frame);
    if (kind === 'Class' && body) this.onStructFields(body, sym);
    if (kind === 'Interface') this.onInterfaceElements(typeNode, sym);
    for (const method of this.pendingMethods.get(name) ?? []) this.addMethod(method, name, sym);
    this.pendingMethods.delete(name);
  }

  private typeParameters(list: Node | null, frame: Frame): void {
    for (const decl of list?.namedChildren ?? []) {
      if (decl?.type !== 'type_parameter_declaration') continue;
      for (const n of decl.childrenForFieldName('name')) if (n) frame.typeParams.add(n.text);
    }
  }

  private onStructFields(list: Node, struct: SymbolDef): void {
    for (const field of list.namedChildren) {
      if (field?.type !== 'field_declaration') continue;
      const typeNode = field.childForFieldName('type');
      const names = field.childrenForFieldName('name').filter((n): n is Node => n !== null);
      if (names.length === 0) {
        // Embedded field: its type's fields and methods are promoted into the struct.
        const chain = namedType(typeNode);
        if (chain && typeNode) {
          this.addRef(struct.localId, 'INHERITS', chain, typeNode.startPosition.row, 'extends');
          this.skipType(typeNode);
        }
        continue;
      }
      const named = namedType(typeNode);
      const type = named && !(named.length === 1 && this.frameById.get(struct.localId)?.typeParams.has(named[0])) ? named : null;
      const doc = this.docOf(field);
      for (const n of names) {
        this.skip.add(n.startIndex);
        const sym = this.table.add(symbolDef('Field', n.text, struct.localId, field, `${n.text} ${typeNode ? this.text(typeNode) : ''}`, doc, isExported(n.text)));
        if (type) sym.type = type;
        this.frame(sym, field);
      }
    }
  }

  private onInterfaceElements(iface: Node, owner: SymbolDef): void {
    for (const el of iface.namedChildren) {
      if (el?.type === 'method_elem') {
        const name = el.childForFieldName('name');
        if (!name) continue;
        const sym = this.table.add(symbolDef('Method', name.text, owner.localId, el, this.text(el), this.docOf(el), isExported(name.text)));
        this.setResultType(sym, el, this.frame(sym, el));
      } else if (el?.type === 'type_elem' && el.namedChildCount === 1) {
        // A single named type is an embedded interface; unions and `~T` are constraints, not embedding.
        const typeNode = el.namedChild(0);
        const chain = typeNode?.type === 'type_identifier' || typeNode?.type === 'qualified_type' || typeNode?.type === 'generic_type' ? namedType(typeNode) : null;
        if (chain && typeNode) {
          this.addRef(owner.localId, 'INHERITS', chain, typeNode.startPosition.row, 'extends');
          this.skipType(typeNode);
        }
      }
    }
  }

  /** The type expression was recorded as a whole: its identifiers are not separate uses. */
  private skipType(typeNode: Node): void {
    for (let n: Node | null = typeNode; n; ) {
      this.skip.add(n.startIndex);
      n = n.type === 'pointer_type' ? n.namedChild(0) : n.type === 'generic_type' ? n.childForFieldName('type') : n.type === 'qualified_type' ? n.childForFieldName('name') : null;
    }
  }

  private signature(node: Node): string {
    const body = node.childForFieldName('body');
    return this.src.slice(node.startIndex, body ? body.startIndex : node.endIndex);
  }

  private onFunction(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skip.add(nameNode.startIndex);
    const name = nameNode.text;
    const sym = this.table.add(symbolDef('Function', name, null, node, this.signature(node), this.docOf(node), isExported(name)));
    const frame = this.frame(sym, node);
    this.typeParameters(node.childForFieldName('type_parameters'), frame);
    this.setResultType(sym, node, frame);
  }

  /** A function's first result's named type: what `x := f()` holds, for stage 2 (`x.m()`). */
  private setResultType(sym: SymbolDef, node: Node, frame: Frame): void {
    const type = this.resultTypes(node.childForFieldName('result'))[0];
    if (type && !(type.length === 1 && (frame.typeParams.has(type[0]) || this.isTypeParam(type[0], frame)))) sym.type = type;
  }

  private onMethod(node: Node): void {
    const receiverType = node.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration')?.childForFieldName('type') ?? null;
    const typeName = namedType(receiverType)?.[0];
    if (!typeName) return;
    if (this.fileTypes.has(typeName) && this.fileTypes.get(typeName) === null) {
      const pending = this.pendingMethods.get(typeName) ?? [];
      pending.push(node);
      this.pendingMethods.set(typeName, pending);
      return;
    }
    this.addMethod(node, typeName, this.fileTypes.get(typeName) ?? null);
  }

  private addMethod(node: Node, typeName: string, type: SymbolDef | null): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    const name = nameNode.text;
    const signature = this.signature(node);
    const doc = this.docOf(node);
    let sym: SymbolDef;
    if (type) sym = this.table.add(symbolDef('Method', name, type.localId, node, signature, doc, isExported(name)));
    else {
      // The type lives in another file of the package: the id is still `Type.method` (unique per
      // package, as Go requires), and `receiver` tells stage 2 which type to attach it to.
      sym = this.table.add(symbolDef('Method', `${typeName}.${name}`, null, node, signature, doc, isExported(name)));
      sym.name = name;
      sym.receiver = [typeName];
    }
    const frame = this.frame(sym, node);
    const receiver = node.childForFieldName('receiver');
    // `func (l *List[T]) Push(v T)`: the receiver's type arguments are the method's type parameters.
    for (const arg of receiver?.descendantsOfType('type_arguments') ?? []) {
      for (const t of arg?.descendantsOfType('type_identifier') ?? []) if (t) frame.typeParams.add(t.text);
    }
    // The receiver's type is the method's owner (HAS_METHOD), not a use.
    for (const decl of receiver?.namedChildren ?? []) {
      const type = decl?.childForFieldName('type');
      if (type) this.skipType(type);
    }
    this.setResultType(sym, node, frame);
  }

  private onPackageVars(decl: Node): void {
    const keyword = decl.type === 'var_declaration' ? 'var' : 'const';
    const specs: Node[] = [];
    for (const child of decl.namedChildren) {
      if (child?.type === 'var_spec' || child?.type === 'const_spec') specs.push(child);
      else if (child?.type === 'var_spec_list') for (const s of child.namedChildren) if (s?.type === 'var_spec') specs.push(s);
    }
    // In a const group a spec without a value repeats the previous one's type and expression (iota).
    let implicit: { text: string; chain: string[] | null } | null = null;
    for (const spec of specs) {
      const typeNode = spec.childForFieldName('type');
      const value = spec.childForFieldName('value');
      if (keyword === 'const' && (typeNode || value)) implicit = typeNode ? { text: this.text(typeNode), chain: namedType(typeNode) } : null;
      const repeated = keyword === 'const' && !value ? implicit : null;
      const type = namedType(typeNode) ?? this.valueType(value, 0) ?? repeated?.chain ?? null;
      const doc = this.docOf(spec, specs.length === 1 ? decl : undefined);
      const node = specs.length === 1 ? decl : spec;
      const names = spec.childrenForFieldName('name').filter((n): n is Node => n !== null);
      names.forEach((n, i) => {
        this.skip.add(n.startIndex);
        if (n.text === '_') return;
        this.topNames.add(n.text);
        const signature = repeated ? `const ${n.text} ${repeated.text}` : oneLine(`${keyword} ${this.text(spec)}`, 100);
        const sym = this.table.add(symbolDef('GlobalVariable', n.text, null, node, signature, doc, isExported(n.text)));
        const t = names.length > 1 && !typeNode ? this.valueType(value, i) : type;
        if (t) sym.type = t;
        // `var a, b = f(), g()` shares one span: its references stay the package's, not b's.
        if (names.length === 1) this.frame(sym, node);
      });
    }
  }

  /** The named type of the i-th value of an initializer list, when cheap to know. */
  private valueType(values: Node | null, i: number, frame?: Frame): string[] | null {
    if (!values) return null;
    const list = values.type === 'expression_list' ? values.namedChildren.filter((c): c is Node => c !== null) : [values];
    if (list.length === 1 && list[0].type === 'call_expression' && i > 0) return this.callResult(list[0], i, frame);
    const v = list[i];
    if (!v) return null;
    switch (v.type) {
      case 'composite_literal':
        return namedType(v.childForFieldName('type'));
      case 'unary_expression': {
        const operand = v.childForFieldName('operand');
        return this.src[v.startIndex] === '&' && operand?.type === 'composite_literal' ? namedType(operand.childForFieldName('type')) : null;
      }
      case 'call_expression':
        return this.callResult(v, 0, frame);
      case 'identifier':
        return frame?.typed.get(v.text) ?? null;
      default:
        return null;
    }
  }

  /**
   * `new(Foo)`, a conversion `Foo(x)` to a type of this file, a same-file function's declared result;
   * else the first result of any other call as the callee's chain + '()' (`c.Parent()` →
   * ['Command', 'Parent', '()']), which stage 2 reads off the callee's declared result type.
   */
  private callResult(call: Node, i: number, frame?: Frame): string[] | null {
    const callee = call.childForFieldName('function');
    if (callee?.type === 'identifier') {
      const name = callee.text;
      if (frame && frame.locals.has(name)) return null;
      if (name === 'new' && i === 0 && !this.topNames.has('new')) return namedType(call.childForFieldName('arguments')?.namedChild(0) ?? null);
      if (i === 0 && this.fileTypes.has(name)) return [name];
      if (this.results.has(name)) return this.results.get(name)?.[i] ?? null;
    } else if (callee?.type !== 'selector_expression') return null;
    const chain = i === 0 && callee ? chainOf(this.text(callee)) : null;
    const qualified = chain && this.qualify(chain, frame ?? null);
    return qualified ? [...qualified, CALL_RESULT] : null;
  }

  // --- bodies: locals, then references ---------------------------------------------------------------

  private sortedFrames(): Frame[] {
    return this.frames.slice().sort((a, b) => a.start - b.start || b.end - a.end);
  }

  /** Walks captures with the innermost frame at hand (captures are in document order). */
  private walk(captures: QueryCapture[], visit: (capture: QueryCapture, frame: Frame | null) => void): void {
    const frames = this.sortedFrames();
    const stack: Frame[] = [];
    let next = 0;
    for (const capture of captures) {
      const pos = capture.node.startIndex;
      while (next < frames.length && frames[next].start <= pos) {
        const f = frames[next++];
        while (stack.length > 0 && stack[stack.length - 1].end <= f.start) stack.pop();
        stack.push(f);
      }
      while (stack.length > 0 && stack[stack.length - 1].end <= pos) stack.pop();
      visit(capture, stack.length > 0 ? stack[stack.length - 1] : null);
    }
  }

  locals(captures: QueryCapture[]): void {
    this.walk(captures, ({ name, node }, frame) => {
      // Struct literal keys (`Command{Use: ...}`) name fields of the literal's type, not package names;
      // import paths and struct tags are not prose. Marked here so the references pass asks no parents.
      if (name === 'key' || name === 'nottext') this.skip.add(node.startIndex);
      if (!frame) return;
      switch (name) {
        case 'param': {
          const type = node.type === 'parameter_declaration' ? namedType(node.childForFieldName('type')) : null;
          for (const n of node.childrenForFieldName('name')) if (n) this.bindLocal(frame, n, type);
          break;
        }
        case 'shortvar': {
          const left = node.childForFieldName('left');
          const right = node.childForFieldName('right');
          left?.namedChildren.forEach((n, i) => {
            if (n?.type === 'identifier') this.bindLocal(frame, n, this.valueType(right, i, frame));
          });
          break;
        }
        case 'localvar': {
          // Package-level specs are definitions (GlobalVariable), not locals of the variable's own frame.
          if (node.parent?.parent?.type === 'source_file' || node.parent?.parent?.parent?.type === 'source_file') return;
          const type = namedType(node.childForFieldName('type'));
          const value = node.childForFieldName('value');
          node.childrenForFieldName('name').forEach((n, i) => {
            if (n) this.bindLocal(frame, n, type ?? this.valueType(value, i, frame));
          });
          break;
        }
        case 'range':
          for (const n of node.childForFieldName('left')?.namedChildren ?? []) if (n?.type === 'identifier') this.bindLocal(frame, n, null);
          break;
        case 'bind':
          for (const n of node.namedChildren) if (n?.type === 'identifier') this.bindLocal(frame, n, null);
          break;
        case 'tparam':
          for (const n of node.childrenForFieldName('name')) if (n) frame.typeParams.add(n.text);
          break;
        case 'localtype': {
          // A type declared inside a function is the function's own: its uses are not package names.
          const nameNode = node.childForFieldName('name');
          if (nameNode) this.bindLocal(frame, nameNode, null);
          break;
        }
      }
    });
  }

  private bindLocal(frame: Frame, nameNode: Node, type: string[] | null): void {
    this.skip.add(nameNode.startIndex);
    const name = nameNode.text;
    if (name === '_') return;
    frame.locals.add(name);
    if (type) frame.typed.set(name, type);
    else frame.typed.delete(name);
  }

  private addRef(from: string | null, kind: ReferenceKind, chain: string[], line: number, relation?: 'extends'): void {
    // Per line, not per scope: completion context and its benchmark ask what one line uses.
    const key = `${from ?? ''}\u0000${kind}\u0000${chain.join('\u0000')}\u0000${line}`;
    if (this.refs.has(key)) return;
    this.refs.set(key, relation ? { from, kind, chain, relation, line } : { from, kind, chain, line });
  }

  /** A chain as seen from `frame`: a typed head becomes its type, an untyped local's members are dropped. */
  private qualify(chain: string[], frame: Frame | null): string[] | null {
    const head = chain[0];
    if (frame) {
      const type = frame.typed.get(head);
      if (type) return [...type, ...chain.slice(1)];
      if (frame.locals.has(head) || frame.typeParams.has(head)) return null;
    }
    if ((BUILTIN_VALUES.has(head) || (chain.length === 1 && BUILTIN_TYPES.has(head))) && !this.topNames.has(head)) return null;
    return chain;
  }

  references(captures: QueryCapture[]): void {
    let coveredEnd = -1;
    this.walk(captures, ({ name, node }, frame) => {
      const start = node.startIndex;
      const from = frame ? frame.sym.localId : null;
      const line = node.startPosition.row;
      switch (name) {
        case 'call': {
          // The whole call is captured (not its callee) so it comes before the callee's own captures.
          const callee = node.childForFieldName('function');
          const chain = callee?.type === 'identifier' || callee?.type === 'selector_expression' ? chainOf(this.text(callee)) : null;
          if (!chain || !callee) {
            // `cmd.Root().Name()`: through the inner call's result; its own parts are captured as usual.
            const through = callee?.type === 'selector_expression' ? this.resultChain(callee, frame) : null;
            if (through && callee) {
              this.calledSelectors.add(callee.startIndex * 2 ** 24 + callee.endIndex);
              this.addRef(from, 'CALLS', through, line);
            }
            break;
          }
          coveredEnd = callee.endIndex;
          const qualified = this.qualify(chain, frame);
          if (qualified) this.addRef(from, 'CALLS', qualified, line);
          break;
        }
        case 'literal': {
          const type = node.childForFieldName('type');
          const chain = type?.type === 'type_identifier' || type?.type === 'qualified_type' || type?.type === 'generic_type' ? namedType(type) : null;
          if (!chain || !type || (chain.length === 1 && (this.isTypeParam(chain[0], frame) || frame?.locals.has(chain[0])))) break;
          this.skipType(type);
          this.addRef(from, 'CALLS', chain, line);
          // `Command{Use: "x"}` sets the field Command.Use (go/types records the key as its use).
          for (const element of node.childForFieldName('body')?.namedChildren ?? []) {
            const key = element?.type === 'keyed_element' ? element.namedChild(0)?.namedChild(0) : null;
            if (key?.type === 'identifier') this.addRef(from, 'USES', [...this.qualify(chain, frame) ?? chain, key.text], key.startPosition.row);
          }
          break;
        }
        case 'selector': {
          if (start < coveredEnd) break;
          const chain = chainOf(this.text(node));
          if (!chain) {
            // `cmd.Root().TraverseChildren`: a member of a call's result (not the callee of a call already recorded).
            const through = this.calledSelectors.has(start * 2 ** 24 + node.endIndex) ? null : this.resultChain(node, frame);
            if (through) this.addRef(from, 'USES', through, line);
            break;
          }
          coveredEnd = node.endIndex;
          const qualified = this.qualify(chain, frame);
          if (qualified) this.addRef(from, 'USES', qualified, line);
          break;
        }
        case 'qualified': {
          if (this.skip.has(start)) break;
          const chain = namedType(node);
          this.skip.add(node.childForFieldName('name')?.startIndex ?? -1);
          if (chain) this.addRef(from, 'USES', chain, line);
          break;
        }
        case 'type': {
          if (this.skip.has(start)) break;
          const typeName = this.text(node);
          if (BUILTIN_TYPES.has(typeName) && !this.topNames.has(typeName)) break;
          if (this.isTypeParam(typeName, frame) || frame?.locals.has(typeName)) break;
          this.addRef(from, 'USES', [typeName], line);
          break;
        }
        case 'id': {
          if (start < coveredEnd || this.skip.has(start)) break;
          const id = this.text(node);
          if (frame?.locals.has(id) || this.isTypeParam(id, frame)) break;
          if (BUILTIN_VALUES.has(id) && !this.topNames.has(id)) break;
          this.addRef(from, 'USES', [id], line);
          break;
        }
        case 'string':
          if (!this.skip.has(start)) this.texts.add(from, 'literals', unquote(this.text(node)));
          break;
        case 'comment': {
          const text = this.text(node);
          if (this.docComments.has(start) || DIRECTIVE.test(text)) break;
          this.texts.add(from, 'comments', text.startsWith('//') ? text.slice(2) : text.slice(2, -2));
          break;
        }
      }
    });
  }

  /** `a.b().c` as a chain through call results (['a', 'b', '()', 'c']), qualified; null without a call in it. */
  private resultChain(node: Node, frame: Frame | null): string[] | null {
    // A loop from the end of the chain to its head, bounded: generated code chains thousands of calls.
    const parts = (n: Node | null): string[] | null => {
      const reversed: string[] = [];
      for (let at = n; at && reversed.length <= MAX_CHAIN_PARTS; ) {
        switch (at.type) {
          case 'identifier':
            reversed.push(at.text);
            return reversed.reverse();
          case 'selector_expression': {
            const field = at.childForFieldName('field');
            if (!field) return null;
            reversed.push(field.text);
            at = at.childForFieldName('operand');
            break;
          }
          case 'call_expression':
            reversed.push(CALL_RESULT);
            at = at.childForFieldName('function');
            break;
          default:
            return null;
        }
      }
      return null;
    };
    const chain = parts(node);
    return chain && chain.length <= 12 && chain.includes(CALL_RESULT) ? this.qualify(chain, frame) : null;
  }

  private isTypeParam(name: string, frame: Frame | null): boolean {
    if (!frame) return false;
    if (frame.typeParams.has(name)) return true;
    // A struct field's or interface method's type parameters are its type's.
    const parent = frame.sym.parent ? this.frameById.get(frame.sym.parent) : undefined;
    return parent?.typeParams.has(name) ?? false;
  }

  result(): Reference[] {
    return [...this.refs.values()];
  }
}

export function extractGo(root: Node): GoExtracted {
  // Node offsets index the whole source; the root starts after leading whitespace, so pad it back.
  const src = ' '.repeat(root.startIndex) + root.text;
  const x = new GoExtraction(src);
  x.declarations(root);
  const captures = allCaptures(queryFor(root), root);
  x.locals(captures);
  x.references(captures);
  const out: GoExtracted = { doc: x.fileDoc, symbols: x.table.symbols, imports: x.imports, exports: [], refs: x.result(), texts: x.texts.result() };
  if (x.packageName !== undefined) out.package = x.packageName;
  if (x.generated) out.generated = true;
  return out;
}
