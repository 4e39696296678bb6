// The reference pass: one tree-sitter query over every tree read (the file's and its expanded macro
// bodies'), its captures attributed to the innermost definition: calls, macro invocations and the
// calls in their token trees, paths, types, `self.` fields, struct literal and pattern fields,
// identifier uses of module-level names, typed `let`s, string literals and comments.
import type { Node, Query, QueryCapture } from 'web-tree-sitter';
import { allCaptures, compiledQuery } from '../extractUtil';
import { isInnerDoc, isOuterDoc } from './docs';
import { PRELUDE_VARIANTS, SEGMENT, fieldChain, macroChain, pathChain } from './paths';
import type { Frame } from './scopes';
import type { RustExtraction } from './items';

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
export const queryFor = compiledQuery(QUERY_SOURCE);

/** Calls after a constructor that still give the constructed type (`File::open(p)?`, `.unwrap()`). */
const UNWRAPPERS = new Set(['unwrap', 'expect']);
/** Parents under which an identifier is bound (a pattern), not read. */
const PATTERN_PARENTS = new Set([
  'tuple_pattern', 'ref_pattern', 'mut_pattern', 'captured_pattern', 'or_pattern', 'slice_pattern', 'match_pattern',
  'closure_parameters', 'field_pattern', 'reference_pattern',
]);
const FIELD_PATTERN_PARENTS = new Set(['let_declaration', 'parameter', 'for_expression', 'let_condition']);
/** Callee expressions that are names or paths (`f`, `a::f`, `x.m`, `f::<T>`), as opposed to calls on computed values. */
const PLAIN_CALLEES = new Set(['identifier', 'scoped_identifier', 'field_expression', 'generic_function']);

export class References {
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
    // A loop over a stack of token trees, each at the child it reads, not recursion: macro arguments
    // nest as deep as the file likes. A nested tree is read before the call it is the arguments of.
    const stack: Array<{ children: Array<Node | null>; i: number }> = [{ children: tree.children, i: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.i > 0) this.tokenTreeCall(top.children, top.i, frame, from);
      do top.i++;
      while (top.i < top.children.length && top.children[top.i]?.type !== 'token_tree');
      if (top.i < top.children.length) stack.push({ children: top.children[top.i]!.children, i: 0 });
      else stack.pop();
    }
  }

  /** The call, if any, whose arguments are token tree `children[i]`: `f(`, `a::b(`, `x.m(`, `m!(`. */
  private tokenTreeCall(children: Array<Node | null>, i: number, frame: Frame | null, from: string | null): void {
    const child = children[i]!;
    const prev = children[i - 1];
    if (!prev) return;
    let end = i - 1;
    let macro = false;
    if (prev.type === '!') {
      macro = true;
      end = i - 2;
    } else if (this.src[child.startIndex] !== '(') return;
    const last = children[end];
    if (!last || last.type !== 'identifier') return;
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
    if (before && before.type === '.') return;
    for (let k = j + 1; k <= end; k++) if (children[k]?.type === 'identifier') this.covered.add(children[k]!.startIndex);
    let chain: string[] | null = parts;
    if (dotted) chain = this.receiverChain(parts, frame);
    else if (!macro) chain = parts.length === 1 ? (PRELUDE_VARIANTS.has(parts[0]) || this.isLocal(parts[0], frame) ? null : parts) : this.x.rewriteSelf(parts, frame);
    if (chain) this.x.addRef(from, 'CALLS', chain, last.startPosition.row);
    if (!dotted && !macro) this.addTypeOfPath(from, parts, chain, last.startPosition.row);
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

/** Captures of every tree read, in document order, without the tokens of bodies a later tree parsed. */
export function capturesOf(x: RustExtraction, query: Query): QueryCapture[] {
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
