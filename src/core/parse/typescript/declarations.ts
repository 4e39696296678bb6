// Pass 1, declarations: classes (with heritage), functions and function-valued consts, module and
// namespace variables, class and interface members, enums, type aliases (with the object types they
// are made of), namespaces, and the scope facts of parameters, type parameters and typed locals.
import type { Node } from 'web-tree-sitter';
import { JS_GLOBALS } from '../../model/builtins';
import type { SymbolKind } from '../fileGraph';
import { FUNCTION_NODES, FUNCTION_VALUES, REQUIRE_VALUE, callChain, plainChain, stripComments, unquote } from './syntax';
import type { Frame } from './scopes';
import { type ObjectFacade, TypeFacts, assertedType, holdsItsArguments } from './types';

/** Type syntax an alias's object types can sit in and still be its members (not a property's type: that is another object). */
const COMPOSED_TYPES = new Set(['union_type', 'intersection_type', 'parenthesized_type', 'conditional_type', 'generic_type', 'type_arguments']);

export abstract class Declarations extends TypeFacts {
  private readonly handledDeclarators = new Set<number>();

  private lastParam: { start: number; name: string; frame: Frame | null } | null = null;
  private lastParamProp = -1;
  private lastLocal = -1;

  /** `class_declaration`, `abstract_class_declaration`, or a class expression named by `declNode`. */
  protected onClass(classNode: Node, declNode: Node, nameOverride: string | null): void {
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
    // `class String$ extends make<string>(ast) {}`, `extends transform(…).annotations(…)`: the base is what the
    // call returns; the call itself stays a call.
    const called = target.type === 'call_expression';
    const chain = called ? callChain(target) : plainChain(this.text(target));
    if (!chain) return;
    if (!called) this.skipStarts.add(target.startIndex);
    this.addRef(frame.sym.localId, 'INHERITS', chain, target.startPosition.row, relation);
  }

  private declarationKeyword(declNode: Node): string {
    const m = /^(?:export\s+)?(?:declare\s+)?(const|let|var|using)\b/.exec(this.src.slice(declNode.startIndex, declNode.startIndex + 30));
    return m ? m[1] : 'const';
  }

  protected onFunction(node: Node): void {
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
  protected onDeclarator(declarator: Node, scope: Frame | null): void {
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
  protected onVariables(statement: Node): void {
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
      if (value?.type === 'object' && keyword === 'const' && nameNode.type === 'identifier' && !declarator.childForFieldName('type')) this.facades.set(this.text(nameNode), this.facadeOf(value));
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

  /** What an object literal is made of: its keys and the names spread into it (TypeFacts.throughFacade). */
  private facadeOf(literal: Node): ObjectFacade {
    const facade: ObjectFacade = { keys: new Map(), spreads: [] };
    for (const entry of literal.namedChildren) {
      if (entry?.type === 'shorthand_property_identifier') facade.keys.set(this.text(entry), [this.text(entry)]);
      else if (entry?.type === 'spread_element') {
        const spread = entry.firstNamedChild;
        const chain = spread?.type === 'identifier' || spread?.type === 'member_expression' ? plainChain(this.text(spread)) : null;
        if (chain) facade.spreads.push(chain);
      } else if (entry?.type === 'pair' || entry?.type === 'method_definition') {
        const key = entry.childForFieldName(entry.type === 'pair' ? 'key' : 'name');
        const value = entry.type === 'pair' ? entry.childForFieldName('value') : null;
        const chain = value?.type === 'identifier' || value?.type === 'member_expression' ? plainChain(this.text(value)) : null;
        const name = key?.type === 'property_identifier' ? this.text(key) : key?.type === 'string' ? unquote(this.text(key)) : null;
        if (name) facade.keys.set(name, chain);
      }
    }
    return facade;
  }

  /**
   * Identifiers a binding pattern introduces: `a`, `{ a, b: c, ...d }`, `[e, f = 1]`. An explicit
   * stack, children pushed last-first so names keep their source order: patterns nest as deep as the file likes.
   */
  private boundIdentifiers(pattern: Node, out: Node[]): void {
    const pending = [pattern];
    for (let at = pending.pop(); at; at = pending.pop()) {
      switch (at.type) {
        case 'identifier':
        case 'shorthand_property_identifier_pattern':
          out.push(at);
          break;
        case 'object_pattern':
        case 'array_pattern': {
          const children = at.namedChildren;
          for (let i = children.length - 1; i >= 0; i--) if (children[i]) pending.push(children[i]!);
          break;
        }
        case 'pair_pattern': {
          const value = at.childForFieldName('value');
          if (value) pending.push(value);
          break;
        }
        case 'assignment_pattern':
        case 'object_assignment_pattern': {
          const left = at.childForFieldName('left') ?? at.firstNamedChild;
          if (left) pending.push(left);
          break;
        }
        case 'rest_pattern': {
          const inner = at.firstNamedChild;
          if (inner) pending.push(inner);
          break;
        }
      }
    }
  }

  protected onMethod(node: Node): void {
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

  protected onField(node: Node): void {
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
    // `this.destination.next()` with `destination: Subscriber<any> | Observer<any>`: each alternative's that no other derives from (resolve.ts).
    const held = type ?? this.unionStep(typeNode?.firstNamedChild ?? null);
    if (held) (cls.fields ??= new Map()).set(name, held);
    this.fieldElements(cls, name, typeNode?.firstNamedChild ?? null);
  }

  /** `observers: Observer<T>[]`: what `for (const o of this.observers)` takes, kept as `this.observers` on the class. */
  private fieldElements(cls: Frame, name: string, type: Node | null): void {
    const elements = this.elementChain(type);
    if (elements) (cls.elements ??= new Map()).set(`this.${name}`, elements);
  }

  /** `constructor(private readonly x: Foo)` declares field `x` on the class. */
  protected onParamProp(node: Node): void {
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
    this.fieldElements(cls, name, node.childForFieldName('type')?.firstNamedChild ?? null);
  }

  protected onInterface(node: Node): void {
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

  protected onInterfaceMember(node: Node): void {
    if (!this.memberScope(node, 'Interface') && !this.memberScope(node, 'TypeAlias') && !this.heritageScope(node)) return;
    const name = this.memberName(node.childForFieldName('name'));
    if (!name) return;
    const kind: SymbolKind = node.type === 'method_signature' ? 'Method' : 'Field';
    const frame = this.define(kind, name, node, this.header(node, node.endIndex), this.docOf(node));
    this.setType(frame, kind === 'Method' ? this.returnChain(node) : this.annotationChain(node.childForFieldName('type')));
    if (kind === 'Method') this.setCallbacks(frame, node);
  }

  /**
   * An interface whose base is given its body as a type argument (`interface Read extends Op<"read", {
   * readonly upstream: Executor }> {}` with `type Op<Tag, Body> = Base & Body & …`, effect's channel
   * primitives): the argument's members are the interface's, as the TypeScript service reads them.
   */
  private heritageScope(node: Node): Frame | null {
    const frame = this.frameAt(node.startIndex);
    if (frame?.sym.kind !== 'Interface') return null;
    let at = this.parents.of(node); // the object type
    for (const type of ['type_arguments', 'generic_type', 'extends_type_clause']) {
      at = at && this.parents.of(at);
      if (at?.type !== type) return null;
      const generic = type === 'generic_type' ? at.childForFieldName('name') : null;
      if (generic && holdsItsArguments(this.text(generic))) return null;
    }
    const declaration = at && this.parents.of(at);
    return declaration?.childForFieldName('body')?.startIndex === frame.bodyStart ? frame : null;
  }

  protected onEnum(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skipStarts.add(nameNode.startIndex);
    const body = node.childForFieldName('body');
    const bodyStart = body ? body.startIndex : node.endIndex;
    this.define('Enum', this.text(nameNode), node, this.header(node, bodyStart), this.docOf(node), { exportedSelf: this.isExported(node), bodyStart });
  }

  protected onEnumMember(node: Node): void {
    if (!this.memberScope(node, 'Enum')) return;
    const name = this.memberName(node.type === 'enum_assignment' ? node.childForFieldName('name') : node);
    if (!name) return;
    this.define('Field', name, node, this.header(node, node.endIndex), this.docOf(node));
  }

  protected onTypeAlias(node: Node): void {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) return;
    this.skipStarts.add(nameNode.startIndex);
    const value = node.childForFieldName('value');
    let signature = this.header(node, node.endIndex);
    if ((signature.length > 120 || signature.includes('\n')) && value) signature = `${this.header(node, value.startIndex)} …`;
    // An object type's members are found by their position in it (memberScope).
    const bodyStart = value?.type === 'object_type' ? value.startIndex : -1;
    const frame = this.define('TypeAlias', this.text(nameNode), node, signature, this.docOf(node), { exportedSelf: this.isExported(node), bodyStart });
    // `type A = B`: A's members are B's; `type A = B | C`: each of B's and C's (resolve.ts, unionAlternatives).
    this.setType(frame, this.typeChain(value) ?? this.unionStep(value));
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

  protected onNamespace(node: Node): void {
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

  protected onTypeParam(node: Node): void {
    this.skipStarts.add(node.startIndex);
    const frame = this.frameAt(node.startIndex);
    if (frame) (frame.typeParams ??= new Set()).add(this.text(node));
  }

  protected onParam(node: Node): void {
    const name = this.text(node);
    const frame = this.frameAt(node.startIndex);
    this.skipStarts.add(node.startIndex);
    this.lastParam = { start: node.startIndex, name, frame };
    if (frame) (frame.locals ??= new Set()).add(name);
    if (frame?.narrowings) this.unnarrow(frame, name, node);
    // A second parameter of that name in the frame (an anonymous callback's, which has no frame of its own):
    // which one a later `name.member` means is unknown, so neither's member types are kept.
    for (const key of frame?.types?.keys() ?? []) if (key.startsWith(`${name}.`)) frame!.types!.delete(key);
    if (frame) this.callbackParam(node, name, frame);
  }

  protected onParamType(node: Node): void {
    const param = this.lastParam;
    if (!param || !param.frame) return;
    const chain = this.boundedChain(node, this.typeChain(node)) ?? this.unionStep(node);
    if (chain) (param.frame.types ??= new Map()).set(param.name, chain);
    // An options object typed in place (`options: { readonly while?: Predicate<A>; body: LazyArg<B> }`):
    // each member's written type, under `options.while` (see TypeFacts.memberType).
    if (node.type === 'object_type') {
      for (const member of node.namedChildren) {
        const name = member?.type === 'property_signature' ? member.childForFieldName('name') : null;
        const type = name ? member!.childForFieldName('type')?.firstNamedChild : null;
        const typed = type ? this.boundedChain(type, this.typeChain(type)) : null;
        if (typed) (param.frame.types ??= new Map()).set(`${param.name}.${this.text(name!)}`, typed);
      }
    }
    const elements = this.elementChain(node);
    if (elements) (param.frame.elements ??= new Map()).set(param.name, elements);
  }

  /**
   * `const c = new C()` / `const c: C = …` / `const c = x as C` inside a definition, and what it holds
   * when it is an array or iterable (`const xs: C[] = …`), or takes an element of one (`xs[0]`, `xs.pop()`).
   */
  protected onTypedLocal(declarator: Node): void {
    if (declarator.startIndex === this.lastLocal) return;
    this.lastLocal = declarator.startIndex;
    const frame = this.frameAt(declarator.startIndex);
    if (!frame) return;
    const nameNode = declarator.childForFieldName('name');
    if (!nameNode) return;
    const value = declarator.childForFieldName('value');
    const declared = declarator.childForFieldName('type')?.firstNamedChild ?? (value && assertedType(value));
    let chain = declared ? this.boundedChain(declared, this.typeChain(declared)) ?? this.unionStep(declared) : null;
    if (!chain) {
      if (value?.type === 'new_expression') chain = this.typeChain(value.childForFieldName('constructor'));
      // `const inputExecutor = this._input`: what the member holds, read through its type where used (as onDestructure).
      else if (value?.type === 'member_expression') chain = plainChain(this.text(value));
      else chain = (value && this.elementTaken(value, frame)) ?? this.callResultChain(value);
    }
    const name = this.text(nameNode);
    if (chain) (frame.types ??= new Map()).set(name, chain);
    const elements = declared ? this.elementChain(declared) : value?.type === 'array' ? this.literalElements(value) : value && this.elementsCopied(value, frame);
    if (elements) (frame.elements ??= new Map()).set(name, elements);
  }

  /** `[r as Read]`, `[new C(), new C()]`: the class every element is, as the TypeScript service infers the array's. */
  private literalElements(array: Node): string[] | null {
    const chains = array.namedChildren.map((element) => {
      const asserted = element && assertedType(element);
      if (asserted) return this.boundedChain(asserted, this.typeChain(asserted));
      return element?.type === 'new_expression' ? this.typeChain(element.childForFieldName('constructor')) : null;
    });
    const first = chains[0];
    return first && chains.every((c) => c?.join('.') === first.join('.')) ? first : null;
  }

  /**
   * `const { _buffer, _timestampProvider: clock } = this` (or `= options`) inside a definition: each name is
   * that member of the value, read through its type where it is used (`clock.now()` → `this._timestampProvider.now`).
   */
  protected onDestructure(declarator: Node): void {
    const frame = this.frameAt(declarator.startIndex);
    const value = declarator.childForFieldName('value');
    if (!frame || !value) return;
    for (const property of declarator.childForFieldName('name')?.namedChildren ?? []) {
      const key = property?.type === 'shorthand_property_identifier_pattern' ? property : property?.type === 'pair_pattern' ? property.childForFieldName('key') : null;
      const local = property?.type === 'pair_pattern' ? property.childForFieldName('value') : key;
      if (key?.type !== 'shorthand_property_identifier_pattern' && key?.type !== 'property_identifier') continue;
      if (local?.type !== 'identifier' && local?.type !== 'shorthand_property_identifier_pattern') continue;
      (frame.types ??= new Map()).set(this.text(local), [this.text(value), this.text(key)]);
      // `const { observers } = this` with `observers: Observer<T>[]`: the local holds what the field does.
      const elements = value.type === 'this' ? this.localElements(`this.${this.text(key)}`, frame) : undefined;
      if (elements) (frame.elements ??= new Map()).set(this.text(local), elements);
    }
  }

  /**
   * `x instanceof C` narrows x to C where the test must have held: an `if`'s or `while`'s body, a
   * ternary's true side, what follows it in `&&` (climbing through `&&` and parentheses; not through
   * `!` or `||`). The TypeScript service reads `x.m()` there as C's m (rxjs: `if (teardown instanceof
   * Subscription) teardown._addParent(this)` with `teardown: TeardownLogic`).
   */
  protected onNarrowing(test: Node): void {
    const left = test.childForFieldName('left');
    const right = test.childForFieldName('right');
    if (left?.type !== 'identifier' || (right?.type !== 'identifier' && right?.type !== 'member_expression')) return;
    const chain = plainChain(this.text(right));
    const frame = this.frameAt(test.startIndex);
    if (!chain || !frame || JS_GLOBALS.has(chain[0])) return;
    const name = this.text(left);
    const narrow = (holds: Node | null) => {
      if (holds) (frame.narrowings ??= []).push({ name, start: holds.startIndex, end: holds.endIndex, chain });
    };
    let at = test;
    for (let up = this.parents.of(at); up; at = up, up = this.parents.of(up)) {
      if (up.type === 'parenthesized_expression') continue;
      if (up.type === 'binary_expression' && up.childForFieldName('operator')?.type === '&&') {
        if (up.childForFieldName('left')?.id === at.id) narrow(up.childForFieldName('right'));
        continue;
      }
      const tested = up.childForFieldName('condition')?.id === at.id;
      if (tested && up.type === 'if_statement') narrow(up.childForFieldName('consequence'));
      else if (tested && up.type === 'while_statement') narrow(up.childForFieldName('body'));
      else if (tested && up.type === 'ternary_expression') narrow(up.childForFieldName('consequence'));
      return;
    }
  }

  /**
   * `function (this: Subscriber<R>, …) { this.error(err) }` (rxjs's `operate`, outside any class): `this`
   * is what the function declares it to be, over the whole function.
   */
  protected onThisType(annotation: Node): void {
    const type = annotation.firstNamedChild;
    const chain = type ? this.boundedChain(type, this.typeChain(type)) : null;
    const fn = this.functionAround(annotation);
    const frame = fn && this.frameAt(annotation.startIndex);
    if (chain && fn && frame && !JS_GLOBALS.has(chain[0])) (frame.narrowings ??= []).push({ name: 'this', start: fn.startIndex, end: fn.endIndex, chain });
  }

  /**
   * A parameter of a function with no frame of its own (`(teardown) => …` inside `if (teardown instanceof
   * S)`) is another value of that name: the narrowing does not hold in that function.
   */
  private unnarrow(frame: Frame, name: string, param: Node): void {
    const fn = this.functionAround(param);
    if (!fn) return;
    const { startIndex: start, endIndex: end } = fn;
    frame.narrowings = frame.narrowings!.flatMap((n) => (n.name !== name || end <= n.start || n.end <= start ? [n] : [
      { ...n, end: start },
      { ...n, start: end },
    ]));
  }

  /** The function a parameter (or its type) belongs to. */
  private functionAround(node: Node): Node | null {
    let fn: Node | null = node;
    while (fn && !FUNCTION_NODES.has(fn.type)) fn = this.parents.of(fn);
    return fn;
  }

  /** `for (const x of xs)` (or `of this.xs`) with xs an array or iterable of a known class: x is one. */
  protected onForOf(statement: Node): void {
    const left = statement.childForFieldName('left');
    let right = statement.childForFieldName('right');
    if (right?.type === 'non_null_expression') right = right.firstNamedChild;
    const field = right?.type === 'member_expression' && right.childForFieldName('object')?.type === 'this';
    if (statement.childForFieldName('operator')?.type !== 'of' || left?.type !== 'identifier' || !right || (right.type !== 'identifier' && !field)) return;
    const frame = this.frameAt(statement.startIndex);
    const elements = frame ? this.localElements(this.text(right), frame) : undefined;
    if (frame && elements) (frame.types ??= new Map()).set(this.text(left), elements);
  }
}
