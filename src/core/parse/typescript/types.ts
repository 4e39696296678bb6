// Light type inference: the declared or constructed type of parameters, locals, fields and return
// values as chains (type parameters read through their constraint), callback parameter types taken
// from the callee, and the rewriting of a call chain's head to its type (`c.add` → `Calculator.add`).
// Both passes use it: definitions record types, references rewrite chains with them.
import type { Node } from 'web-tree-sitter';
import { JS_GLOBALS } from '../../model/builtins';
import { FUNCTION_VALUES, plainChain } from './syntax';
import { Scopes, type Frame } from './scopes';

/** What a union may add to a named type without changing whose members a call reaches. */
const NOTHING_TYPES = new Set(['undefined', 'null', 'void']);
const NAMED_TYPES = new Set(['type_identifier', 'nested_type_identifier', 'generic_type', 'identifier', 'member_expression']);
/** Built-in mapped types whose members are the wrapped type's. */
const SAME_MEMBERS = new Set(['Partial', 'Required', 'Readonly', 'NonNullable']);

/**
 * A module-level `const` holding an object literal built from names (`const z = { ..._schemas, iso: _iso }`):
 * its keys with the chain of the value each holds (null: a value that is no name), and the names spread into it.
 */
export interface ObjectFacade {
  keys: Map<string, string[] | null>;
  spreads: string[][];
}

export abstract class TypeFacts extends Scopes {
  /** Names declared as type parameters anywhere in the file (boundedChain). */
  private typeParamNames: Set<string> | undefined;
  /** Module-level consts holding object literals, by name (Declarations.onVariables). */
  protected readonly facades = new Map<string, ObjectFacade>();

  /** Type chain of a type node when it is a plain (dotted, possibly generic) name, or reads as one (namedConstituent). */
  protected typeChain(node: Node | null): string[] | null {
    if (node) node = this.namedConstituent(node);
    if (!node) return null;
    if (node.type === 'generic_type') node = node.childForFieldName('name');
    if (!node) return null;
    if (node.type !== 'type_identifier' && node.type !== 'nested_type_identifier' && node.type !== 'identifier' && node.type !== 'member_expression') return null;
    return plainChain(this.text(node));
  }

  /**
   * The named type whose members a value of a composed type is read with: parentheses dropped;
   * `Foo | undefined` and `Foo | null` as Foo (`x?.m()` and `x!.m()` reach Foo.m; a union of two
   * named types has no one answer: null); an intersection `S & Schema<A>` has every constituent's
   * members, read through its first named constituent that is not a type parameter (else the first
   * named, which boundedChain reads through its constraint).
   */
  private namedConstituent(node: Node): Node | null {
    if (node.type === 'parenthesized_type') return node.firstNamedChild ? this.namedConstituent(node.firstNamedChild) : null;
    // `Partial<Observer<T>>`, `Readonly<Options>`: the same members (optional or read-only) as the type they wrap.
    if (node.type === 'generic_type' && SAME_MEMBERS.has(this.text(node.childForFieldName('name') ?? node))) {
      const wrapped = node.childForFieldName('type_arguments')?.firstNamedChild;
      return wrapped ? this.namedConstituent(wrapped) : null;
    }
    if (node.type !== 'union_type' && node.type !== 'intersection_type') return node;
    const parts = this.constituents(node);
    if (node.type === 'union_type') return parts.length === 1 ? this.namedConstituent(parts[0]) : null;
    const named = parts.map((p) => this.namedConstituent(p)).filter((p): p is Node => p !== null && NAMED_TYPES.has(p.type));
    return named.find((p) => !this.fileTypeParams().has(this.text(p.type === 'generic_type' ? p.childForFieldName('name') ?? p : p))) ?? named[0] ?? null;
  }

  /**
   * A union of two or more named types as one chain step, `(|NextObserver,ns.ErrorObserver)`: resolution
   * follows each alternative (resolve.ts, UNION_STEP). Null unless the type is such a union; constituents
   * that name no type of the code (`string`, literals, function types) are left out.
   */
  protected unionStep(node: Node | null): string[] | null {
    while (node?.type === 'parenthesized_type') node = node.firstNamedChild;
    if (node?.type !== 'union_type') return null;
    const alternatives = new Set<string>();
    for (const part of this.constituents(node)) {
      const chain = this.boundedChain(part, this.typeChain(part));
      if (chain && !JS_GLOBALS.has(chain[0])) alternatives.add(chain.join('.'));
    }
    return alternatives.size > 1 ? [`(|${[...alternatives].join(',')})`] : null;
  }

  /** The members of a union or intersection, nested ones of the same kind flattened; a union's `undefined`, `null` and `void` left out. */
  private constituents(node: Node): Node[] {
    const parts: Node[] = [];
    const flatten = (at: Node) => {
      for (const child of at.namedChildren) {
        if (!child) continue;
        if (child.type === node.type) flatten(child);
        else if (node.type === 'intersection_type' || !NOTHING_TYPES.has(this.text(child))) parts.push(child);
      }
    };
    flatten(node);
    return parts;
  }

  protected annotationChain(typeAnnotation: Node | null): string[] | null {
    const type = typeAnnotation?.firstNamedChild ?? null;
    return type ? this.boundedChain(type, this.typeChain(type)) : null;
  }

  /** Most annotations name no type parameter: one pass over the tree lists the file's, once. */
  private fileTypeParams(): Set<string> {
    this.typeParamNames ??= new Set(this.parents.root.descendantsOfType('type_parameter').map((p) => p?.childForFieldName('name')).filter((n): n is Node => !!n).map((n) => this.text(n)));
    return this.typeParamNames;
  }

  /**
   * A type parameter stands for its constraint, else its default, as the checker reads members of a
   * value of that type (`_zod: Internals` with `Internals extends $ZodTypeInternals` → $ZodTypeInternals;
   * `schema: S` with `S extends Schema`, `Schema extends $ZodType` → $ZodType). Other chains unchanged.
   */
  protected boundedChain(at: Node, chain: string[] | null, depth = 0): string[] | null {
    if (!chain || chain.length !== 1 || depth > 3) return chain;
    const param = this.typeParamAround(at, chain[0]);
    if (!param) return chain;
    const bound = boundOf(param);
    return bound ? this.boundedChain(param, this.typeChain(bound), depth + 1) : null;
  }

  /** The declaration of the type parameter `name` in scope at `at`, if `name` is one. */
  private typeParamAround(at: Node, name: string): Node | undefined {
    if (!this.fileTypeParams().has(name)) return undefined;
    for (let n: Node | null = this.parents.of(at); n; n = this.parents.of(n)) {
      const declared = n.childForFieldName('type_parameters');
      const param = declared?.namedChildren.find((p) => p?.type === 'type_parameter' && p.childForFieldName('name') && this.text(p.childForFieldName('name')!) === name);
      if (param) return param;
    }
    return undefined;
  }

  /**
   * What iterating a value of this type gives, as a chain (`for (const x of xs)`, `xs[0]`, `xs.pop()`):
   * the element type of `T[]`, `readonly T[]` and the standard collections (`Array<T>`, `Iterable<T>`,
   * `Set<T>`…), through `| undefined` and through a type parameter's constraint
   * (`<A extends Iterable<Fiber>>(fibers: A)`). Null for anything else.
   */
  protected elementChain(node: Node | null, depth = 0): string[] | null {
    const type = node && this.namedConstituent(node);
    if (!type || depth > 3) return null;
    if (type.type === 'readonly_type') return this.elementChain(type.firstNamedChild, depth + 1);
    const collection = type.type === 'generic_type' ? this.text(type.childForFieldName('name') ?? type) : '';
    const args = collection ? type.childForFieldName('type_arguments')?.namedChildren.filter((a) => a && a.type !== 'comment') ?? [] : [];
    // A map's elements, as far as `.get(key)` is concerned, are its values.
    const element = type.type === 'array_type' ? type.firstNamedChild : COLLECTIONS.has(collection) ? args[0] ?? null : MAPS.has(collection) ? args[1] ?? null : null;
    if (element) return this.boundedChain(element, this.typeChain(element));
    if (type.type !== 'type_identifier') return null;
    const param = this.typeParamAround(type, this.text(type));
    return param ? this.elementChain(boundOf(param), depth + 1) : null;
  }

  /**
   * Parameters whose declared type is a function type (`init: (inst: T, def: D) => void`), with the
   * type parameters and the generic return type's arguments, which say what T is at a call (SymbolDef.callbacks).
   */
  protected setCallbacks(frame: Frame, fn: Node | null): void {
    // `type Handler<T> = (event: T, ctx: Ctx) => void`: the alias is the function type, key `=.i`.
    const aliased = fn?.type === 'type_alias_declaration' ? fn.childForFieldName('value') : null;
    const params = aliased ? (aliased.type === 'function_type' ? aliased.childForFieldName('parameters') : null) : fn?.childForFieldName('parameters');
    if (!fn || !params) return;
    const callbacks: Record<string, string[]> = {};
    const declared = fn.childForFieldName('type_parameters');
    const typeParams = (declared?.namedChildren ?? []).map((p) => (p?.type === 'type_parameter' && p.childForFieldName('name') ? this.text(p.childForFieldName('name')!) : '')).filter(Boolean);
    // Parameter i of a function type's parameter list, by its declared type, under key `${at}.${i}`.
    const record = (list: Node, at: string) =>
      parameterNodes(list).forEach((p, i) => {
        const type = p.childForFieldName('type')?.firstNamedChild ?? null;
        let chain = this.typeChain(type);
        // `type $Parse = <T extends $ZodType>(schema: T) => …`: the function type's own type parameter is its
        // bound (a type parameter of the alias or function is fixed at the call instead: `t=`, `r=`).
        if (chain && type && !typeParams.includes(chain[0])) chain = this.boundedChain(type, chain);
        if (chain) callbacks[`${at}.${i}`] = chain;
      });
    if (aliased) record(params, '=');
    else {
      parameterNodes(params).forEach((param, j) => {
        const type = param.childForFieldName('type')?.firstNamedChild;
        const inner = type?.type === 'function_type' ? type.childForFieldName('parameters') : null;
        if (inner) record(inner, String(j));
        // `options: { eval: (fiber: Fiber) => R; done(exit: Exit): void }`: the methods of an object
        // literal passed there take these types, key `${j}.eval.${i}`.
        else if (type?.type === 'object_type') {
          for (const member of type.namedChildren) {
            const name = member?.childForFieldName('name');
            const value = member?.type === 'property_signature' ? member.childForFieldName('type')?.firstNamedChild : null;
            const list = member?.type === 'method_signature' ? member.childForFieldName('parameters') : value?.type === 'function_type' ? value.childForFieldName('parameters') : null;
            if (name && list) record(list, `${j}.${this.memberName(name)}`);
          }
        }
      });
    }
    if (Object.keys(callbacks).length === 0) return;
    frame.sym.callbacks = callbacks;
    if (typeParams.length > 0) frame.sym.typeParams = typeParams;
    const returned = fn.childForFieldName('return_type')?.firstNamedChild;
    const args = returned?.type === 'generic_type' ? returned.childForFieldName('type_arguments')?.namedChildren ?? [] : [];
    const returnArgs = args.filter((a) => a && a.type !== 'comment').map((a) => (a!.type === 'type_identifier' && typeParams.includes(this.text(a!)) ? this.text(a!) : ''));
    if (returnArgs.some(Boolean)) frame.sym.returnArgs = returnArgs;
  }

  /**
   * An untyped parameter of a function passed to a call (`make("x", (inst, def) => …)`): typed by the
   * callee's declared callback parameter, found where the callee is resolved. The chain is the
   * callee's, then a step `(j.i)` (argument j, its parameter i; `(j.key.i)` for a method or property `key` of
   * an object literal passed as argument j) carrying what fixes the callee's type
   * parameters here: explicit type arguments (`;t=` `make<Foo>(…)`) or the declared type the result is
   * assigned to (`;r=` `const x: Box<Foo> = make(…)`), each a dotted chain, comma-separated.
   */
  protected callbackParam(node: Node, name: string, frame: Frame): void {
    let param: Node = node;
    const wrapper = this.parents.of(node);
    if (wrapper?.type === 'required_parameter' || wrapper?.type === 'optional_parameter') {
      if (wrapper.childForFieldName('type') || wrapper.childForFieldName('pattern')?.startIndex !== node.startIndex) return;
      param = wrapper;
    }
    const list = this.parents.of(param)?.type === 'formal_parameters' ? this.parents.of(param) : null;
    const fn = list ? this.parents.of(list) : this.parents.of(param);
    if (!fn || !(FUNCTION_VALUES.has(fn.type) || fn.type === 'method_definition')) return;
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
    const { argument, key } = this.passedAs(fn);
    const args = argument ? this.parents.of(argument) : null;
    const call = args?.type === 'arguments' ? this.parents.of(args) : null;
    // `new Observable((subscriber) => …)`: a constructor's callback, typed by the constructor's parameters.
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : call?.type === 'new_expression' ? call.childForFieldName('constructor') : null;
    const chain = callee && (callee.type === 'identifier' || callee.type === 'member_expression') ? plainChain(this.text(callee)) : null;
    if (!argument || !args || !call || !chain || i < 0) return;
    const written = key ? null : this.explicitCallbackType(call.childForFieldName('type_arguments'), list ? parameterNodes(list).length : 1, i);
    if (written) {
      (frame.types ??= new Map()).set(name, written);
      return;
    }
    const j = `${args.namedChildren.filter((a) => a && a.type !== 'comment').findIndex((a) => a!.startIndex === argument.startIndex)}${key ? `.${key}` : ''}`;
    let fixed = '';
    const explicit = call.childForFieldName('type_arguments');
    const declarator = this.parents.of(call)?.type === 'variable_declarator' ? this.parents.of(call) : null;
    const declared = declarator?.childForFieldName('type')?.firstNamedChild;
    if (explicit) fixed = `;t=${argChains(explicit)}`;
    else if (declared?.type === 'generic_type') fixed = `;r=${argChains(declared.childForFieldName('type_arguments'))}`;
    (frame.types ??= new Map()).set(name, [...chain, `(${j}.${i}${fixed})`]);
  }

  /**
   * The argument a function value is passed in: itself, or an object literal holding it as a method
   * or a property (`make({ eval(fiber) {…} })`, `make({ eval: (fiber) => … })`), with that key.
   */
  private passedAs(fn: Node): { argument: Node | null; key: string } {
    const holder = fn.type === 'method_definition' ? fn : this.parents.of(fn)?.type === 'pair' ? this.parents.of(fn)! : null;
    if (!holder) return { argument: fn, key: '' };
    const object = this.parents.of(holder);
    const name = holder.childForFieldName(holder.type === 'pair' ? 'key' : 'name');
    const key = name && (name.type === 'property_identifier' || name.type === 'string') ? this.memberName(name) : '';
    return object?.type === 'object' && key ? { argument: object, key } : { argument: null, key: '' };
  }

  /**
   * Parameter i of a function passed to a call whose explicit type arguments spell its type:
   * `dual<(f: F) => (self: Metric<A>) => B, (self: Metric<A>, f: F) => B>(2, (self, f) => …)` (effect's
   * data-first/data-last pairs) — the callee takes the function as a type parameter fixed here, so the
   * one written function type with as many parameters is its contextual type. Null when none or
   * several fit, or parameter i is untyped there.
   */
  private explicitCallbackType(typeArgs: Node | null, arity: number, i: number): string[] | null {
    const lists = (typeArgs?.namedChildren ?? []).map((a) => (a?.type === 'function_type' ? a.childForFieldName('parameters') : null));
    const fits = lists.filter((l): l is Node => l !== null && parameterNodes(l).length === arity);
    if (fits.length !== 1) return null;
    const param = parameterNodes(fits[0])[i];
    return param ? this.annotationChain(param.childForFieldName('type')) : null;
  }

  /**
   * What a function-like node returns when its return type is a plain type name (`Promise<T>` and
   * other generics give their name): stored as the symbol's `type`, so `make().run` and
   * `const x = make(); x.run` reach the member (resolve.ts, CALL_RESULT).
   */
  protected returnChain(fn: Node | null): string[] | null {
    return fn ? this.annotationChain(fn.childForFieldName('return_type')) : null;
  }

  /** The class of an element taken from a local array or iterable: `xs[i]`, `xs.pop()`, `xs.at(i)`, `xs.find(…)`. */
  protected elementTaken(value: Node, frame: Frame | null): string[] | null {
    let holder: Node | null | undefined = null;
    if (value.type === 'subscript_expression') holder = value.childForFieldName('object');
    else if (value.type === 'call_expression') {
      const callee = value.childForFieldName('function');
      const method = callee?.type === 'member_expression' ? callee.childForFieldName('property') : null;
      if (method && ELEMENT_METHODS.has(this.text(method))) holder = callee!.childForFieldName('object');
    }
    return this.heldElements(holder, frame);
  }

  /**
   * What a local array or iterable holds, or a field of this class (`this.handlers.get(name)`, kept as
   * `this.handlers`: Declarations.fieldElements); null for other values.
   */
  private heldElements(holder: Node | null | undefined, frame: Frame | null): string[] | null {
    if (holder?.type === 'non_null_expression') holder = holder.firstNamedChild;
    const named = holder?.type === 'identifier' || (holder?.type === 'member_expression' && holder.childForFieldName('object')?.type === 'this');
    return named ? this.localElements(this.text(holder!), frame) ?? null : null;
  }

  /**
   * What a copy of a local array holds (`xs.slice()`, `this.observers.filter(…)`, `xs.concat(ys)`): the
   * same elements (rxjs's `const copy = this.observers.slice(); for (const o of copy) o.next(v)`).
   */
  protected elementsCopied(value: Node, frame: Frame | null): string[] | null {
    if (value.type !== 'call_expression') return null;
    const callee = value.childForFieldName('function');
    const method = callee?.type === 'member_expression' ? callee.childForFieldName('property') : null;
    return method && COPY_METHODS.has(this.text(method)) ? this.heldElements(callee!.childForFieldName('object'), frame) : null;
  }

  /**
   * The class of a value a call chain starts from that is no name (callChain's `typed`): a type
   * assertion (`(u as Fiber).poll()`) or an element of a typed collection (`xs[0].poll()`).
   */
  protected expressionType(value: Node, frame: Frame | null): string[] | null {
    const asserted = assertedType(value);
    return asserted ? this.boundedChain(asserted, this.typeChain(asserted)) : this.elementTaken(value, frame);
  }

  /** `make()`, `this.open(x)`, `await make()` as a chain ending in a call step (`['make', '()']`); null for other values. */
  protected callResultChain(value: Node | null): string[] | null {
    if (value?.type === 'await_expression') value = value.firstNamedChild;
    if (value?.type !== 'call_expression') return null;
    const callee = value.childForFieldName('function');
    if (!callee || (callee.type !== 'identifier' && callee.type !== 'member_expression')) return null;
    const chain = plainChain(this.text(callee));
    return chain && chain[0] !== 'require' ? [...chain, '()'] : null;
  }

  /** The declared type of a symbol (`x: Foo`, `(): Foo`), when it is a plain type name. */
  protected setType(frame: Frame, chain: string[] | null): void {
    if (chain) frame.sym.type = chain;
  }

  /**
   * The declared type an object literal or pattern is checked against, when it names a type of the
   * code (not a type parameter, not a built-in like `Promise` or `Record` whose members are no key's definition).
   */
  protected contextualType(chain: string[] | null, frame: Frame | null): string[] | null {
    if (!chain || JS_GLOBALS.has(chain[0]) || this.isTypeParam(chain[0], frame)) return null;
    return chain;
  }

  /**
   * The chain a call's callee stands for: a parameter or local called itself (`predicate(a)` with
   * `predicate: Predicate<A>`, `interface Predicate<A> { (a: A): boolean }`) calls its declared type's
   * call signature, as the TypeScript service places it; other chains go through inferHead.
   */
  protected calleeChain(chain: string[], frame: Frame | null, at: number): string[] {
    const member = chain.length === 2 ? this.memberType(chain, frame) : undefined;
    if (chain.length > 2 || (chain.length === 2 && !member)) return this.inferHead(chain, frame, at);
    const type = member ?? this.localType(chain[0], frame, at);
    // Only a written type: a call result's or a callback's type is a guess one step further.
    return type && !type.some((step) => step.startsWith('(')) ? type : chain;
  }

  /**
   * The type chain of a parameter or local seen from `frame` at source position `at` (an `instanceof`
   * test holding there first); undefined when untyped or not a local (a local shadows outer types).
   */
  private localType(name: string, frame: Frame | null, at: number): string[] | undefined {
    return narrowedAt(name, frame, at) ?? localFact(name, frame, (f) => f.types);
  }

  /** `options.while` of a parameter whose object type is written in place (Declarations.onParamType). */
  private memberType(chain: string[], frame: Frame | null): string[] | undefined {
    for (let f: Frame | null = frame; f; f = f.up) {
      const fact = f.types?.get(`${chain[0]}.${chain[1]}`);
      if (fact) return fact;
      if (f.locals?.has(chain[0])) return undefined;
    }
    return undefined;
  }

  /** The element chain of a parameter or local holding an array or iterable (Frame.elements), seen from `frame`. */
  protected localElements(name: string, frame: Frame | null): string[] | undefined {
    return localFact(name, frame, (f) => f.elements);
  }

  /**
   * `z.never` with `const z = { ..._schemas, ..._checks, iso: _iso }` at module level: a name the literal
   * does not write is the last spread name's that has it (`(>_checks,_schemas).never`, resolve.ts
   * UNION_STEP), `z.iso.datetime` is `_iso.datetime`, as the TypeScript service reads them. `z.iso` itself
   * is the literal's own property: unchanged (undefined).
   */
  private throughFacade(chain: string[], frame: Frame | null): string[] | undefined {
    const facade = this.facades.get(chain[0]);
    if (!facade || this.isShadowed(chain[0], frame)) return undefined;
    const written = facade.keys.get(chain[1]);
    if (written !== undefined) return written && chain.length > 2 ? [...written, ...chain.slice(2)] : undefined;
    const { spreads } = facade;
    if (spreads.length === 0) return undefined;
    const from = spreads.length === 1 ? spreads[0] : [`(>${spreads.map((s) => s.join('.')).reverse().join(',')})`];
    return [...from, ...chain.slice(1)];
  }

  /** What a function declares `this` to be at `at` (`function (this: Subscriber<R>) { … }`), if it does. */
  protected declaredThis(frame: Frame | null, at: number): string[] | undefined {
    return narrowedAt('this', frame, at);
  }

  /** Rewrites a call chain's head when its type is known: `c.add` with `c: Calculator` → Calculator.add. */
  protected inferHead(chain: string[], frame: Frame | null, at: number, depth = 0): string[] {
    if (chain.length < 2 || !frame) return chain;
    const head = chain[0];
    if (head === 'this') {
      const declared = this.declaredThis(frame, at);
      if (declared) return [...declared, ...chain.slice(1)];
      if (chain.length < 3) return chain;
      for (let f: Frame | null = frame; f; f = f.up) {
        if (f.sym.kind === 'Class') {
          const type = f.fields?.get(chain[1]);
          return type ? [...type, ...chain.slice(2)] : chain;
        }
      }
      return chain;
    }
    const member = chain.length > 2 ? this.memberType(chain, frame) : undefined;
    if (member) return [...member, ...chain.slice(2)];
    const type = this.localType(head, frame, at);
    if (!type) {
      const through = this.throughFacade(chain, frame);
      return through && depth < 3 ? this.inferHead(through, frame, at, depth + 1) : through ?? chain;
    }
    // `const y = x.make()` with x typed: y's chain starts at x, rewritten in turn (a few steps at most).
    return type[0] !== head && depth < 3 ? this.inferHead([...type, ...chain.slice(1)], frame, at, depth + 1) : [...type, ...chain.slice(1)];
  }
}

/** The type a type assertion asserts (`x as T`, `<T>x`), or null. */
export function assertedType(value: Node): Node | null {
  if (value.type === 'as_expression') return value.lastNamedChild;
  return value.type === 'type_assertion' ? value.firstNamedChild?.firstNamedChild ?? null : null;
}

/** Array methods that return one of its elements. */
const ELEMENT_METHODS = new Set(['pop', 'shift', 'at', 'find', 'findLast', 'get']);
/** Array methods that return an array of its elements (a copy, a part, or the array itself sorted). */
const COPY_METHODS = new Set(['slice', 'filter', 'concat', 'splice', 'reverse', 'sort', 'toSorted', 'toReversed']);
/** Generic maps, whose second type argument is what `.get(key)` gives. */
const MAPS = new Set(['Map', 'ReadonlyMap', 'WeakMap']);

/** Generic collections whose one type argument is what iterating them gives. */
const COLLECTIONS = new Set(['Array', 'ReadonlyArray', 'Iterable', 'IterableIterator', 'Iterator', 'AsyncIterable', 'Generator', 'Set', 'ReadonlySet']);

/** Generic types whose arguments are what they hold (elements, values, a result), not members of their own. */
const HOLDERS = new Set([...COLLECTIONS, ...MAPS, 'WeakSet', 'AsyncIterableIterator', 'AsyncGenerator', 'Promise', 'PromiseLike', 'Record']);

/** True when a type argument of `generic` (a name as written) is something it holds: `Array<{ x }>` has no member `x`. */
export function holdsItsArguments(generic: string): boolean {
  return HOLDERS.has(generic);
}

/** A type parameter's constraint, else its default. */
function boundOf(param: Node): Node | null {
  return (param.childForFieldName('constraint') ?? param.childForFieldName('value'))?.firstNamedChild ?? null;
}

/** What `facts` records for `name` in the innermost frame from `frame` outwards that has it; a local without it shadows outer ones. */
function localFact(name: string, frame: Frame | null, facts: (f: Frame) => Map<string, string[]> | undefined): string[] | undefined {
  for (let f: Frame | null = frame; f; f = f.up) {
    const fact = facts(f)?.get(name);
    if (fact) return fact;
    if (f.locals?.has(name)) return undefined;
  }
  return undefined;
}

/** A frame with no narrowing: shared, so a lookup allocates nothing per frame. */
const NO_NARROWINGS: NonNullable<Frame['narrowings']> = [];

/**
 * The innermost narrowing of `name` holding at `at` (an `instanceof` test's, a declared `this`), from
 * `frame` outwards; a local of that name ends the search.
 */
function narrowedAt(name: string, frame: Frame | null, at: number): string[] | undefined {
  for (let f: Frame | null = frame; f; f = f.up) {
    const narrowings = f.narrowings ?? NO_NARROWINGS;
    // Pushed in source order: a later one holding at `at` is nested in an earlier one.
    for (let i = narrowings.length - 1; i >= 0; i--) {
      const n = narrowings[i];
      if (n.name === name && n.start <= at && at < n.end) return n.chain;
    }
    if (f.locals?.has(name)) return undefined;
  }
  return undefined;
}

/** The parameters of a parameter list, comments and a declared `this` (no argument passes it) left out. */
function parameterNodes(list: Node): Node[] {
  return list.namedChildren.filter((p): p is Node => p !== null && p.type !== 'comment' && p.childForFieldName('pattern')?.type !== 'this');
}
