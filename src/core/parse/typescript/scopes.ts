// Definition scopes: the state of one extraction (symbol table, bindings, references, texts), the
// stack of definition ranges that attributes a capture to its innermost definition, `define`, the
// final `exported` flags, and the declaration-syntax questions every layer asks (export keyword,
// JSDoc, header text, member names). The base of the layered extraction (index.ts lists the layers).
import type { Node } from 'web-tree-sitter';
import type { ExportBinding, ImportBinding, Reference, SymbolDef, SymbolKind } from '../fileGraph';
import { Parents, SymbolTable, symbolDef } from '../extractUtil';
import { SourceTextCollector } from '../sourceText';
import { cleanDoc } from './docs';
import { stripComments, unquote } from './syntax';

export interface Frame {
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
  /** Local name → the class chain of its elements (an array, an iterable), for `for … of`, `xs[i]`, `xs.pop()`. */
  elements?: Map<string, string[]>;
  typeParams?: Set<string>;
  /** Class field name → type chain, for `this.field.method()`. */
  fields?: Map<string, string[]>;
  /** Where a name is known to hold a type, in source order: an `instanceof` test's, a function's declared `this` (Declarations). */
  narrowings?: Narrowing[];
}

/** Within [start, end) the value named `name` is a `chain` (`if (x instanceof C) { … }`, `function (this: C) { … }`). */
export interface Narrowing {
  name: string;
  start: number;
  end: number;
  chain: string[];
}

type Role = 'top' | 'member' | 'nsmember' | 'nested' | 'cjs';
interface Meta {
  role: Role;
  exportedSelf: boolean;
  private: boolean;
}

const MEMBER_KINDS = new Set<SymbolKind>(['Method', 'Field']);
/** TypeAlias: an object type's members (`type T = { a: X; b(): Y }`) are its members, as an interface's. */
const CONTAINER_KINDS = new Set<SymbolKind>(['Class', 'Interface', 'Enum', 'TypeAlias']);

export abstract class Scopes {
  readonly table = new SymbolTable();
  readonly imports: ImportBinding[] = [];
  readonly exports: ExportBinding[] = [];
  private readonly refs = new Map<string, Reference>();
  readonly texts = new SourceTextCollector();
  protected readonly frames: Frame[] = [];
  private readonly metas: Meta[] = [];
  private readonly byLocalId = new Map<string, number>();
  private stack: Frame[] = [];
  /** Identifier/type positions that are declarations or already covered by another reference. */
  protected readonly skipStarts = new Set<number>();
  protected readonly defaultDecls = new Set<number>();
  protected readonly exportNames = new Set<string>();

  constructor(
    protected readonly src: string,
    protected readonly parents: Parents,
  ) {}

  protected frameAt(pos: number): Frame | null {
    const stack = this.stack;
    while (stack.length > 0 && stack[stack.length - 1].end <= pos) stack.pop();
    return stack.length > 0 ? stack[stack.length - 1] : null;
  }

  protected text(node: Node): string {
    return this.src.slice(node.startIndex, node.endIndex);
  }

  protected addRef(from: string | null, kind: Reference['kind'], chain: string[], line: number, relation?: 'extends' | 'implements', exact?: true): void {
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
  protected define(
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

  /** `export` keyword on the declaration (directly or around `declare`). */
  protected isExported(node: Node): boolean {
    let p = this.parents.of(node);
    if (p && p.type === 'ambient_declaration') p = this.parents.of(p);
    return p !== null && p.type === 'export_statement';
  }

  /** The JSDoc right before a declaration, its `export`/`declare` wrapper, or its decorators. */
  protected docOf(node: Node): string {
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
  protected header(node: Node, end: number): string {
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

  protected memberScope(node: Node, kind: SymbolKind): Frame | null {
    const frame = this.frameAt(node.startIndex);
    if (!frame || frame.sym.kind !== kind) return null;
    const body = this.parents.of(node);
    return body && body.startIndex === frame.bodyStart ? frame : null;
  }

  protected memberName(nameNode: Node | null): string {
    if (!nameNode) return '';
    const text = this.text(nameNode);
    return nameNode.type === 'string' ? unquote(text) : text;
  }

  protected isPrivate(signature: string, name: string): boolean {
    return name.startsWith('#') || /^(?:[\w]+\s+)*?private\s/.test(signature);
  }

  /** localId of the enclosing function or method (imports inside functions), null at module level. */
  protected functionScope(pos: number): string | null {
    for (let f = this.frameAt(pos); f; f = f.up) {
      if (f.sym.kind === 'Function' || f.sym.kind === 'Method') return f.sym.localId;
    }
    return null;
  }

  protected lastDefined(): Meta {
    return this.metas[this.metas.length - 1];
  }

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

  protected isShadowed(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.locals?.has(name)) return true;
    return false;
  }

  protected isTypeParam(name: string, frame: Frame | null): boolean {
    for (let f = frame; f; f = f.up) if (f.typeParams?.has(name)) return true;
    return false;
  }

  references(): Reference[] {
    return [...this.refs.values()];
  }
}
