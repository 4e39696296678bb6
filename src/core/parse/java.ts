// Java extraction (stage 1): one recursive walk over the syntax tree collects definitions
// (types, members), imports as the JLS spells them, and references as name chains.
// - Types: class and record → Class, interface and @interface → Interface, enum → Enum; members are
//   methods, constructors (named as their class, as `new Foo()` reads) and fields (record components
//   and enum constants too). Anonymous class bodies and enum constant bodies define nothing: their
//   code is the enclosing member's.
// - A local, parameter or catch/for/pattern variable of declared type is rewritten to its type
//   (`Foo f; f.run()` → ['Foo', 'run']); an untyped local (`var x = call()`, a lambda parameter)
//   ends its chain. Every other bare name is left for stage 2, which looks it up the way javac does:
//   enclosing classes and their supertypes, the file, single-type imports, the package, on-demand
//   imports, java.lang (see graph/packageScope.ts).
import type { Node } from 'web-tree-sitter';
import type { Language } from '../model/schema';
import type { Extracted, ImportBinding, ReferenceKind, SymbolDef, SymbolKind } from './fileGraph';
import { MAX_CHAIN_PARTS, ReferenceList, SymbolTable, symbolDef } from './extractUtil';
import { SourceTextCollector } from './sourceText';

const TYPE_KINDS: Record<string, SymbolKind> = {
  class_declaration: 'Class',
  record_declaration: 'Class',
  interface_declaration: 'Interface',
  annotation_type_declaration: 'Interface',
  enum_declaration: 'Enum',
};

/** Primitive and placeholder types: nothing to resolve. */
const NOT_A_TYPE = new Set(['var', 'void', 'boolean', 'byte', 'short', 'int', 'long', 'char', 'float', 'double']);

/** A method or field: what its code can see besides class members. */
interface Frame {
  /** The definition references are attributed to; null at file level. */
  owner: SymbolDef | null;
  /** Local name → declared type chain, or null when the type is unknown (`var`, lambda parameters). */
  locals: Map<string, string[] | null>;
  /** Type parameters in scope (`<T>`): names that are not classes. */
  typeParams: Set<string>;
  up: Frame | null;
}

export function extractJava(root: Node, _filePath: string, _language: Language): Extracted {
  const table = new SymbolTable();
  const imports: ImportBinding[] = [];
  const refs = new ReferenceList();
  const texts = new SourceTextCollector();
  let pkg = '';
  let fileDoc = '';

  const addRef = (frame: Frame, kind: ReferenceKind, chain: string[] | null, node: Node, relation?: 'extends' | 'implements') => {
    if (chain && chain.length > 0) refs.add(frame.owner?.localId ?? null, kind, chain, node.startPosition.row, relation);
  };

  const isTypeParam = (frame: Frame, name: string) => {
    for (let f: Frame | null = frame; f; f = f.up) if (f.typeParams.has(name)) return true;
    return false;
  };
  const localType = (frame: Frame, name: string): string[] | null | undefined => {
    for (let f: Frame | null = frame; f; f = f.up) if (f.locals.has(name)) return f.locals.get(name);
    return undefined;
  };

  /** The class a type node names, as a chain: `List<String>` → ['List'], `Map.Entry` → ['Map', 'Entry']. */
  const typeChain = (frame: Frame, type: Node | null): string[] | null => {
    if (!type) return null;
    switch (type.type) {
      case 'type_identifier':
        return NOT_A_TYPE.has(type.text) || isTypeParam(frame, type.text) ? null : [type.text];
      case 'scoped_type_identifier': {
        const parts = type.namedChildren.filter((c): c is Node => c?.type === 'type_identifier').map((c) => c.text);
        const scope = type.namedChildren.find((c) => c?.type === 'scoped_type_identifier' || c?.type === 'generic_type');
        const head = scope ? typeChain(frame, scope) : null;
        return head ? [...head, ...parts.slice(-1)] : parts.length && !isTypeParam(frame, parts[0]) ? parts : null;
      }
      case 'generic_type':
        return typeChain(frame, type.namedChildren.find((c) => c?.type !== 'type_arguments') ?? null);
      case 'array_type':
        return null; // `Foo[] a; a.length`: an array, not a Foo
      default:
        return null;
    }
  };

  /** USES of every class a type mentions, type arguments included (`Map<String, Foo>` uses Foo). */
  const useTypes = (frame: Frame, type: Node | null) => {
    if (!type) return;
    if (type.type === 'type_identifier' || type.type === 'scoped_type_identifier') {
      addRef(frame, 'USES', typeChain(frame, type), type);
      // `Outer<A>.Inner`: the parts are one name, only type arguments inside are further uses.
      if (type.type === 'scoped_type_identifier') for (const c of type.namedChildren) if (c?.type === 'generic_type') useTypes(frame, c.namedChildren.find((a) => a?.type === 'type_arguments') ?? null);
      return;
    }
    for (const child of type.namedChildren) useTypes(frame, child);
  };

  /** `a.b.c` of identifiers (and a leading this/super) as a chain; null for anything computed, or longer than MAX_CHAIN_PARTS. */
  const nameChain = (node: Node): string[] | null => {
    const reversed: string[] = [];
    for (let at: Node | null = node; at && reversed.length <= MAX_CHAIN_PARTS; ) {
      switch (at.type) {
        case 'identifier':
        case 'this':
        case 'super':
          reversed.push(at.text);
          return reversed.reverse();
        case 'field_access':
        case 'scoped_identifier': {
          const name = at.childForFieldName(at.type === 'field_access' ? 'field' : 'name');
          if (!name) return null;
          reversed.push(name.text);
          at = at.childForFieldName(at.type === 'field_access' ? 'object' : 'scope');
          break;
        }
        default:
          return null;
      }
    }
    return null;
  };

  /** A chain as code wrote it, with a typed local head rewritten to its type; null for untyped locals. */
  const qualify = (frame: Frame, chain: string[]): string[] | null => {
    const local = localType(frame, chain[0]);
    if (local === undefined) return chain;
    return local ? [...local, ...chain.slice(1)] : null;
  };

  const docOf = (decl: Node): string => {
    const prev = decl.previousNamedSibling;
    return prev && isJavadoc(prev) ? cleanJavadoc(prev.text) : '';
  };

  const define = (kind: SymbolKind, name: string, parent: SymbolDef | null, node: Node, signature: string, doc: string, exported: boolean) =>
    table.add(symbolDef(kind, name, parent?.localId ?? null, node, signature, doc, exported));

  const frameFor = (owner: SymbolDef | null, up: Frame | null, typeParams?: Node | null): Frame => {
    const frame: Frame = { owner, locals: new Map(), typeParams: new Set(), up };
    for (const param of typeParams?.namedChildren ?? []) {
      const name = param?.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'identifier');
      if (name) frame.typeParams.add(name.text);
    }
    return frame;
  };

  const declareLocal = (frame: Frame, name: Node | null, type: Node | null, value?: Node | null) => {
    if (!name) return;
    let chain = typeChain(frame, type);
    // `var x = new Foo()` is a Foo.
    if (!chain && type?.text === 'var' && value?.type === 'object_creation_expression') chain = typeChain(frame, value.childForFieldName('type'));
    frame.locals.set(name.text, chain);
  };

  // ---- declarations ------------------------------------------------------------------------------

  /**
   * A class-like declaration: the type, its supertypes, then its body with the type as owner. A loop
   * over a stack of members, not recursion: classes nest as deep as the file likes (2,000 deep). A
   * nested type queues its body's members on top, so they are read before the members after it, in
   * the order a recursive walk would read them.
   */
  type Member = { member: Node; owner: SymbolDef; frame: Frame };
  type Queue = (body: Node, owner: SymbolDef, frame: Frame) => void;
  const visitType = (decl: Node, parent: SymbolDef | null, outer: Frame) => {
    const pending: Member[] = [];
    const queue: Queue = (body, owner, frame) => {
      const members = body.namedChildren;
      for (let i = members.length - 1; i >= 0; i--) {
        const member = members[i];
        if (member) pending.push({ member, owner, frame });
      }
    };
    declareType(decl, parent, outer, queue);
    for (let next = pending.pop(); next; next = pending.pop()) visitMember(next, queue);
  };

  /** The type itself (symbol, supertypes, modifiers, record components); its body's members go to `queue`. */
  const declareType = (decl: Node, parent: SymbolDef | null, outer: Frame, queue: Queue) => {
    const nameNode = decl.childForFieldName('name');
    const body = decl.childForFieldName('body');
    if (!nameNode) return;
    const kind = TYPE_KINDS[decl.type];
    const sym = define(kind, nameNode.text, parent, decl, header(decl, body), docOf(decl), isVisible(decl, parent));
    const frame = frameFor(sym, outer, decl.childForFieldName('type_parameters'));
    const superclass = decl.childForFieldName('superclass');
    if (superclass) for (const t of superclass.namedChildren) inherit(frame, t, 'extends');
    const interfaces = decl.childForFieldName('interfaces') ?? decl.namedChildren.find((c) => c?.type === 'extends_interfaces') ?? null;
    const relation = decl.type === 'interface_declaration' ? 'extends' : 'implements';
    for (const list of interfaces?.namedChildren ?? []) for (const t of list?.namedChildren ?? []) inherit(frame, t, relation);
    visitModifiers(frame, decl);
    if (decl.type === 'record_declaration') {
      for (const param of decl.childForFieldName('parameters')?.namedChildren ?? []) {
        if (param?.type !== 'formal_parameter') continue;
        const name = param.childForFieldName('name');
        const type = param.childForFieldName('type');
        if (!name) continue;
        const field = define('Field', name.text, sym, param, param.text, '', true);
        const chain = typeChain(frame, type);
        if (chain) field.type = chain;
        useTypes(frameFor(field, frame), type);
      }
    }
    if (body) queue(body, sym, frame);
  };

  const inherit = (frame: Frame, type: Node | null, relation: 'extends' | 'implements') => {
    if (!type) return;
    addRef(frame, 'INHERITS', typeChain(frame, type), type, relation);
    for (const args of type.namedChildren) if (args?.type === 'type_arguments') useTypes(frame, args);
  };

  /** One member of a type's body; a nested type or an enum's declarations queue theirs. */
  const visitMember = ({ member, owner, frame }: Member, queue: Queue) => {
    if (TYPE_KINDS[member.type]) {
      declareType(member, owner, frame, queue);
      return;
    }
    switch (member.type) {
      case 'method_declaration':
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
      case 'annotation_type_element_declaration':
        visitMethod(member, owner, frame);
        break;
      case 'field_declaration':
      case 'constant_declaration':
        visitField(member, owner, frame);
        break;
      case 'enum_constant': {
        const name = member.childForFieldName('name');
        if (!name) break;
        const constant = define('Field', name.text, owner, member, name.text, docOf(member), true);
        constant.type = [owner.name];
        const inner = frameFor(constant, frame);
        visitModifiers(inner, member);
        visitExpressions(member.childForFieldName('arguments'), inner);
        const constantBody = member.childForFieldName('body');
        if (constantBody) visitAnonymousBody(constantBody, inner);
        break;
      }
      case 'enum_body_declarations':
        queue(member, owner, frame);
        break;
      case 'block':
      case 'static_initializer':
        visitExpressions(member, frameFor(owner, frame));
        break;
      case 'block_comment':
      case 'line_comment':
        comment(member, frame);
        break;
      default:
        visitExpressions(member, frame);
    }
  };

  const visitMethod = (decl: Node, owner: SymbolDef, outer: Frame) => {
    const isConstructor = decl.type === 'constructor_declaration' || decl.type === 'compact_constructor_declaration';
    const name = isConstructor ? owner.name : decl.childForFieldName('name')?.text;
    if (!name) return;
    const body = decl.childForFieldName('body');
    const sym = define('Method', name, owner, decl, header(decl, body), docOf(decl), isVisible(decl, owner));
    const frame = frameFor(sym, outer, decl.childForFieldName('type_parameters'));
    visitModifiers(frame, decl);
    useTypes(frame, decl.childForFieldName('type'));
    for (const param of decl.childForFieldName('parameters')?.namedChildren ?? []) {
      if (param?.type !== 'formal_parameter' && param?.type !== 'spread_parameter') continue;
      const type = param.childForFieldName('type') ?? param.namedChildren.find((c) => c && c.type.endsWith('type')) ?? null;
      const nameNode = param.childForFieldName('name') ?? param.namedChildren.find((c) => c?.type === 'variable_declarator')?.childForFieldName('name') ?? null;
      useTypes(frame, type);
      // A varargs `Foo... xs` is an array.
      declareLocal(frame, nameNode, param.type === 'spread_parameter' ? null : type);
    }
    if (decl.type === 'compact_constructor_declaration') {
      // The record's components are the compact constructor's parameters.
      for (const s of table.symbols) if (s.parent === owner.localId && s.kind === 'Field') frame.locals.set(s.name, s.type ?? null);
    }
    for (const thrown of decl.namedChildren) if (thrown?.type === 'throws') useTypes(frame, thrown);
    visitExpressions(decl.childForFieldName('value'), frame);
    if (body) visitExpressions(body, frame);
  };

  const visitField = (decl: Node, owner: SymbolDef, outer: Frame) => {
    const type = decl.childForFieldName('type');
    const doc = docOf(decl);
    const visible = isVisible(decl, owner);
    const typeHead = header(decl, null).replace(/=.*$/, '').replace(/,.*$/, '').trim();
    for (const declarator of decl.childrenForFieldName('declarator')) {
      const name = declarator?.childForFieldName('name');
      if (!declarator || !name) continue;
      const multi = decl.childrenForFieldName('declarator').length > 1;
      const sym = define('Field', name.text, owner, decl, multi ? `${typeHead.replace(/\s+\S+$/, '')} ${name.text}` : typeHead, doc, visible);
      const frame = frameFor(sym, outer);
      const chain = declarator.childForFieldName('dimensions') ? null : typeChain(frame, type);
      if (chain) sym.type = chain;
      visitModifiers(frame, decl);
      useTypes(frame, type);
      visitExpressions(declarator.childForFieldName('value'), frame);
    }
  };

  /** Members of an anonymous class or enum constant body: their code belongs to `frame`'s owner. */
  const visitAnonymousBody = (body: Node, frame: Frame) => {
    for (const member of body.namedChildren) {
      if (!member) continue;
      if (member.type === 'method_declaration') {
        const inner = frameFor(frame.owner, frame, member.childForFieldName('type_parameters'));
        visitModifiers(inner, member);
        useTypes(inner, member.childForFieldName('type'));
        for (const param of member.childForFieldName('parameters')?.namedChildren ?? []) {
          if (param?.type !== 'formal_parameter') continue;
          useTypes(inner, param.childForFieldName('type'));
          declareLocal(inner, param.childForFieldName('name'), param.childForFieldName('type'));
        }
        visitExpressions(member.childForFieldName('body'), inner);
      } else if (member.type === 'field_declaration') {
        useTypes(frame, member.childForFieldName('type'));
        for (const d of member.childrenForFieldName('declarator')) {
          if (!d) continue;
          declareLocal(frame, d.childForFieldName('name'), member.childForFieldName('type'));
          visitExpressions(d.childForFieldName('value'), frame);
        }
      } else {
        visitExpressions(member, frame);
      }
    }
  };

  const visitModifiers = (frame: Frame, decl: Node) => {
    const modifiers = decl.namedChildren.find((c) => c?.type === 'modifiers');
    for (const m of modifiers?.namedChildren ?? []) if (m) visitExpressions(m, frame);
  };

  const comment = (node: Node, frame: Frame) => {
    if (isJavadoc(node)) return;
    const text = node.text.startsWith('/*') ? cleanJavadoc(node.text, false) : node.text.replace(/^\/\/+/, '');
    texts.add(frame.owner?.localId ?? null, 'comments', text);
  };

  // ---- code --------------------------------------------------------------------------------------

  /**
   * References in statements and expressions; declares locals as it meets them. A loop over a stack
   * of steps, not recursion: expressions nest as deep as the file likes (20,000 parentheses). A node's
   * handler queues its children with `visit` and what must follow one of them with `then`; the queue
   * runs, in order, before anything queued earlier.
   */
  type Step = { node: Node | null; frame: Frame } | (() => void);
  const visitExpressions = (node: Node | null, frame: Frame): void => {
    const stack: Step[] = [{ node, frame }];
    for (let step = stack.pop(); step; step = stack.pop()) {
      if (typeof step === 'function') {
        step();
        continue;
      }
      const queued: Step[] = [];
      visitNode(step.node, step.frame, (child, childFrame) => queued.push({ node: child, frame: childFrame }), (after) => queued.push(after));
      for (let i = queued.length - 1; i >= 0; i--) stack.push(queued[i]);
    }
  };

  const visitNode = (node: Node | null, frame: Frame, visit: (node: Node | null, frame: Frame) => void, then: (after: () => void) => void): void => {
    if (!node) return;
    if (TYPE_KINDS[node.type]) {
      // A local class: a definition nested in its method.
      visitType(node, frame.owner, frame);
      return;
    }
    switch (node.type) {
      case 'line_comment':
      case 'block_comment':
        comment(node, frame);
        return;
      case 'string_literal':
      case 'text_block':
        texts.add(frame.owner?.localId ?? null, 'literals', node.text.replace(/^"(?:"")?|"(?:"")?$/g, ''));
        return;
      case 'marker_annotation':
      case 'annotation': {
        const name = node.childForFieldName('name');
        if (name) addRef(frame, 'USES', nameChain(name), name);
        visit(node.childForFieldName('arguments'), frame);
        return;
      }
      case 'local_variable_declaration': {
        const type = node.childForFieldName('type');
        useTypes(frame, type);
        for (const d of node.childrenForFieldName('declarator')) {
          if (!d) continue;
          const value = d.childForFieldName('value');
          visit(value, frame);
          then(() => declareLocal(frame, d.childForFieldName('name'), d.childForFieldName('dimensions') ? null : type, value));
        }
        return;
      }
      case 'enhanced_for_statement': {
        const type = node.childForFieldName('type');
        useTypes(frame, type);
        visit(node.childForFieldName('value'), frame);
        then(() => declareLocal(frame, node.childForFieldName('name'), type));
        visit(node.childForFieldName('body'), frame);
        return;
      }
      case 'catch_formal_parameter': {
        const types = node.namedChildren.find((c) => c?.type === 'catch_type');
        for (const t of types?.namedChildren ?? []) useTypes(frame, t);
        const single = types?.namedChildren.length === 1 ? types.namedChildren[0] : null;
        declareLocal(frame, node.childForFieldName('name'), single);
        return;
      }
      case 'resource': {
        const type = node.childForFieldName('type');
        if (type) {
          useTypes(frame, type);
          const value = node.childForFieldName('value');
          visit(value, frame);
          then(() => declareLocal(frame, node.childForFieldName('name'), type, value));
          return;
        }
        break;
      }
      case 'type_pattern':
      case 'record_pattern_component': {
        const type = node.namedChildren.find((c) => c && c.type !== 'identifier') ?? null;
        useTypes(frame, type);
        declareLocal(frame, node.namedChildren.find((c) => c?.type === 'identifier') ?? null, type);
        return;
      }
      case 'instanceof_expression': {
        visit(node.childForFieldName('left'), frame);
        const type = node.childForFieldName('right');
        const name = node.childForFieldName('name');
        then(() => {
          useTypes(frame, type);
          if (name) declareLocal(frame, name, type);
        });
        const pattern = node.childForFieldName('pattern');
        if (pattern) visit(pattern, frame);
        return;
      }
      case 'lambda_expression': {
        const inner = frameFor(frame.owner, frame);
        const params = node.childForFieldName('parameters');
        if (params?.type === 'identifier') inner.locals.set(params.text, null);
        for (const p of params?.namedChildren ?? []) {
          if (p?.type === 'identifier') inner.locals.set(p.text, null);
          else if (p?.type === 'formal_parameter') {
            useTypes(inner, p.childForFieldName('type'));
            declareLocal(inner, p.childForFieldName('name'), p.childForFieldName('type'));
          }
        }
        visit(node.childForFieldName('body'), inner);
        return;
      }
      case 'method_invocation': {
        const object = node.childForFieldName('object');
        const name = node.childForFieldName('name');
        if (!name) break;
        const head = object ? nameChain(object) : [];
        if (head) {
          const chain = qualify(frame, [...head, name.text]);
          addRef(frame, 'CALLS', chain, name);
        } else {
          visit(object, frame);
        }
        then(() => {
          for (const t of node.childrenForFieldName('type_arguments')) useTypes(frame, t);
        });
        visit(node.childForFieldName('arguments'), frame);
        return;
      }
      case 'object_creation_expression': {
        const type = node.childForFieldName('type');
        // `outer.new Inner()`: the outer instance is an expression of its own.
        const outer = node.namedChildren[0];
        if (outer && type && outer.endIndex <= type.startIndex && outer.type !== 'type_arguments') visit(outer, frame);
        then(() => {
          addRef(frame, 'CALLS', typeChain(frame, type), type ?? node);
          for (const args of type?.namedChildren ?? []) if (args?.type === 'type_arguments') useTypes(frame, args);
        });
        visit(node.childForFieldName('arguments'), frame);
        const body = node.namedChildren.find((c) => c?.type === 'class_body');
        if (body) then(() => visitAnonymousBody(body, frameFor(frame.owner, frame)));
        return;
      }
      case 'explicit_constructor_invocation': {
        // `super(x)` / `this(x)`: the superclass's or this class's constructor.
        const ctor = node.childForFieldName('constructor');
        if (ctor?.type === 'super') addRef(frame, 'CALLS', ['super'], ctor);
        visit(node.childForFieldName('arguments'), frame);
        return;
      }
      case 'method_reference': {
        const [target, method] = [node.namedChildren[0], node.namedChildren[node.namedChildren.length - 1]];
        const head = target ? (target.type.endsWith('type') || target.type === 'generic_type' ? typeChain(frame, target) : nameChain(target)) : null;
        if (head && method?.type === 'identifier') addRef(frame, 'USES', qualify(frame, [...head, method.text]), node);
        else visit(target, frame);
        return;
      }
      case 'field_access': {
        const chain = nameChain(node);
        if (chain) {
          addRef(frame, 'USES', qualify(frame, chain), node);
          return;
        }
        visit(node.childForFieldName('object'), frame);
        return;
      }
      case 'class_literal':
      case 'cast_expression':
      case 'array_creation_expression':
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.type.endsWith('type') || child.type === 'type_identifier') then(() => useTypes(frame, child));
          else visit(child, frame);
        }
        return;
      case 'identifier': {
        if (localType(frame, node.text) === undefined) addRef(frame, 'USES', [node.text], node);
        return;
      }
      case 'labeled_statement':
      case 'break_statement':
      case 'continue_statement':
        // Labels are not names of anything.
        for (const child of node.namedChildren) if (child && child.type !== 'identifier') visit(child, frame);
        return;
      case 'type_identifier':
      case 'scoped_type_identifier':
      case 'generic_type':
        useTypes(frame, node);
        return;
    }
    for (const child of node.namedChildren) visit(child, frame);
  };

  // ---- the file ----------------------------------------------------------------------------------

  const fileFrame = frameFor(null, null);
  for (const child of root.namedChildren) {
    if (!child) continue;
    if (TYPE_KINDS[child.type]) {
      visitType(child, null, fileFrame);
      continue;
    }
    switch (child.type) {
      case 'package_declaration': {
        const name = child.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
        if (name) pkg = name.text.replace(/\s+/g, '');
        const doc = docOf(child);
        if (doc) fileDoc = doc;
        visitModifiers(fileFrame, child);
        for (const a of child.namedChildren) if (a?.type === 'annotation' || a?.type === 'marker_annotation') visitExpressions(a, fileFrame);
        break;
      }
      case 'import_declaration':
        collectImport(child, imports);
        break;
      case 'module_declaration':
        // module-info.java names modules and packages, not classes: nothing to resolve.
        break;
      case 'block_comment':
      case 'line_comment':
        comment(child, fileFrame);
        break;
      default:
        visitExpressions(child, fileFrame);
    }
  }

  return { package: pkg, doc: fileDoc, symbols: table.symbols, imports, exports: [], refs: refs.refs, texts: texts.result() };
}

const DOCUMENTED = new Set([
  ...Object.keys(TYPE_KINDS), 'method_declaration', 'constructor_declaration', 'compact_constructor_declaration',
  'annotation_type_element_declaration', 'field_declaration', 'constant_declaration', 'enum_constant', 'package_declaration',
]);

/** A `/** … *\/` comment right before a declaration: that declaration's `doc`, not text. */
function isJavadoc(comment: Node): boolean {
  if (comment.type !== 'block_comment' || !comment.text.startsWith('/**')) return false;
  const next = comment.nextNamedSibling;
  return next !== null && DOCUMENTED.has(next.type);
}

/** JLS imports, bound as LANG-CONVENTIONS.md says: the module is everything before the last name. */
function collectImport(node: Node, imports: ImportBinding[]): void {
  const path = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
  if (!path) return;
  const parts = path.text.replace(/\s+/g, '').split('.');
  const onDemand = node.namedChildren.some((c) => c?.type === 'asterisk');
  const line = node.startPosition.row;
  if (onDemand) {
    imports.push({ local: '', module: parts.join('.'), imported: '*', line, scope: null });
    return;
  }
  const name = parts.pop()!;
  imports.push({ local: name, module: parts.join('.'), imported: name, line, scope: null });
}

/** Text of a declaration up to its body, on one line, annotations left out. */
function header(decl: Node, body: Node | null): string {
  const end = body?.startIndex ?? decl.endIndex;
  let start = decl.startIndex;
  const pieces: string[] = [];
  const modifiers = decl.namedChildren.find((c) => c?.type === 'modifiers');
  if (modifiers) {
    for (const m of modifiers.children) if (m && m.type !== 'marker_annotation' && m.type !== 'annotation' && !m.type.endsWith('comment')) pieces.push(m.text);
    start = modifiers.endIndex;
  }
  const text = decl.text.slice(start - decl.startIndex, end - decl.startIndex).replace(/[;{]\s*$/, '');
  return [...pieces, text.trim()].join(' ').replace(/\s+/g, ' ').trim();
}

/** Seen from other files: not private (package-private names are visible in the package); interface members are public. */
function isVisible(decl: Node, parent: SymbolDef | null): boolean {
  const modifiers = decl.namedChildren.find((c) => c?.type === 'modifiers');
  if (modifiers?.children.some((m) => m?.type === 'private')) return false;
  return parent === null || parent.kind !== 'Method';
}

/**
 * A Javadoc comment as its first paragraph of plain text: no `*` margins, no block tags (`@param`…),
 * inline tags reduced to their text (`{@link Foo#bar}` → `Foo#bar`), HTML tags dropped.
 * With `firstParagraph` false (ordinary block comments) the whole text is kept.
 */
export function cleanJavadoc(comment: string, firstParagraph = true): string {
  const lines = comment
    .replace(/^\/\*+/, '')
    .replace(/\*+\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*+ ?/, '').trimEnd());
  const kept: string[] = [];
  for (const line of lines) {
    if (firstParagraph && /^\s*@\w+/.test(line)) break;
    if (firstParagraph && line.trim() === '' && kept.some((l) => l.trim())) break;
    if (firstParagraph && /^\s*<p>/i.test(line) && kept.some((l) => l.trim())) break;
    kept.push(line);
  }
  return kept
    .join('\n')
    .replace(/\{@(?:code|literal|link|linkplain|value)\s+([^}]*)\}/g, '$1')
    .replace(/\{@\w+\s*([^}]*)\}/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .trim();
}
