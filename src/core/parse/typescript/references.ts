// Pass 2, references: calls, `new`, JSX tags, type references, `this.` members, identifier uses of
// module-level names and of globals, the keys of contextually typed object literals and patterns,
// and the string literals and comments of each definition. Reads the same capture list as pass 1.
import type { Node, QueryCapture } from 'web-tree-sitter';
import { JS_GLOBALS } from '../../model/builtins';
import type { Parents } from '../extractUtil';
import { FUNCTION_NODES, SEGMENT, callChain, plainChain, unquote } from './syntax';
import { boundNames } from './globals';
import type { Frame } from './scopes';
import { ModuleBindings } from './modules';

/** Nested literals typed through their parent's member types (`{ a: { b: 1 } }` → T.a.b): deeper is rare and costs chains. */
const MAX_KEY_DEPTH = 3;
const NOT_A_USE_PARENTS = new Set([
  'import_specifier', 'import_clause', 'namespace_import', 'import_require_clause', 'export_specifier',
  'namespace_export', 'export_statement', 'jsx_closing_element', 'nested_type_identifier', 'nested_identifier',
  'labeled_statement', 'break_statement', 'continue_statement',
]);

/** Where an identifier no declaration binds is still no use of a global: JSX tag names (`<div>`) besides the above. */
const FREE_NAME_PARENTS_SKIPPED = new Set([
  ...NOT_A_USE_PARENTS, 'jsx_opening_element', 'jsx_self_closing_element', 'jsx_closing_element',
]);

export abstract class References extends ModuleBindings {
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
            // `make().run()`, `this.#client.getQueryCache().notify()`: a call on a call's result;
            // `(u as Fiber).poll()`, `xs[0].poll()`: on a value of a known class.
            const frame = frameAt(callee.startIndex);
            let typed = false;
            const typedHead = (value: Node) => {
              const head = this.expressionType(value, frame);
              typed ||= head !== null;
              return head;
            };
            const through = type === 'member_expression' ? callChain(callee, typedHead) : null;
            if (through && (typed || through.includes('()')) && through[0] !== 'require') {
              this.addRef(frame ? frame.sym.localId : null, 'CALLS', this.inferHead(through, frame, callee.startIndex), callee.startPosition.row);
            }
            break;
          }
          calleeStarts.add(callee.startIndex);
          calleeIds.add(callee.id);
          if (chain.length === 1 && chain[0] === 'require') break;
          const frame = frameAt(callee.startIndex);
          this.addRef(frame ? frame.sym.localId : null, 'CALLS', this.calleeChain(chain, frame, callee.startIndex), callee.startPosition.row);
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
          const declared = this.declaredThis(frame, start);
          this.addRef(frame ? frame.sym.localId : null, 'USES', declared ? [...declared, ...chain.slice(1)] : chain, node.startPosition.row);
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
    const rewritten = this.inferHead(chain, frame, node.startIndex);
    if (rewritten !== chain) this.addRef(frame.sym.localId, 'USES', rewritten, node.startPosition.row);
  }
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
