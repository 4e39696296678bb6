// Definition scopes: the state of one extraction (symbol table, bindings, references, texts, frames),
// where an item sits (ItemContext, Owner), `define` and `frame`, item syntax (visibility, docs,
// attributes, type parameters), the in-file type table, and type paths with `Self` rewritten.
// The base of the layered extraction (index.ts lists the layers); the reference pass reads it too.
import type { Node } from 'web-tree-sitter';
import type { ExportBinding, ImportBinding, Reference, SymbolDef, SymbolKind } from '../fileGraph';
import { SymbolTable, symbolDef } from '../extractUtil';
import { SourceTextCollector } from '../sourceText';
import { docText, isOuterDoc } from './docs';
import { PRIMITIVES, pathChain } from './paths';

/** Smart pointers that auto-deref to what they hold, so `x.m()` reaches the inner type's method. */
const DEREF_WRAPPERS = new Set(['Box', 'Rc', 'Arc']);

/** A definition's source range and what references inside it need to know. */
export interface Frame {
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
export interface Owner {
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
export interface ItemContext {
  /** Inline module path joined with '.', '' at file level. */
  mod: string;
  /** Enclosing function frame (items declared inside a body), null at module level. */
  fn: Frame | null;
  /** Frame whose range encloses the item (function, impl or trait), for `up` links. */
  outer: Frame | null;
  /** Set inside impl and trait bodies (and macro bodies there): functions are its methods. */
  owner?: Owner;
}

export abstract class RustScopes {
  readonly table = new SymbolTable();
  readonly imports: ImportBinding[] = [];
  readonly exports: ExportBinding[] = [];
  readonly inlineModules: string[] = [];
  readonly texts = new SourceTextCollector();
  readonly frames: Frame[] = [];
  private readonly refs = new Map<string, Reference>();
  /** Type declarations by `<scope>\u0000<name>` (scope: inline module path or 'fn:' + localId) → localId. */
  protected readonly types = new Map<string, string>();
  /** Struct localId → field name → field type path. */
  protected readonly fieldTypes = new Map<string, Map<string, string[]>>();
  /** Names bound at some module level (items, `use`, `mod`): identifiers that may reference them. */
  readonly moduleNames = new Set<string>();
  /** Starts of identifiers and types that are declarations, not references. */
  readonly skipStarts = new Set<number>();
  /** Spans (`use`, `mod x;`, `extern crate`, macro definitions) whose identifiers are not references. */
  readonly quietSpans: Array<[number, number]> = [];

  constructor(protected readonly src: string) {}

  protected text(node: Node): string {
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

  /** Qualifier of items at module level: the inline module path; null inside function bodies (parent does it). */
  protected define(kind: SymbolKind, name: string, node: Node, signature: string, ctx: ItemContext, opts: Partial<Owner> = {}): SymbolDef {
    const parent = opts.parent !== undefined ? opts.parent : (ctx.fn?.sym?.localId ?? null);
    const qualifier = opts.qualifier ?? (parent === null && ctx.mod ? ctx.mod : undefined);
    const sym = this.table.add(symbolDef(kind, name, parent, node, signature, this.docOf(node), opts.exported ?? this.isPub(node)), qualifier);
    if (opts.receiver) sym.receiver = opts.receiver;
    if (parent === null && ctx.fn === null && !opts.receiver) this.moduleNames.add(name);
    return sym;
  }

  protected frame(sym: SymbolDef | null, node: Node, up: Frame | null, extra: Partial<Frame> = {}): Frame {
    const frame: Frame = { sym, start: node.startIndex, end: node.endIndex, up, ...extra };
    this.frames.push(frame);
    return frame;
  }

  protected isPub(node: Node): boolean {
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
  protected attribute(node: Node, pattern: RegExp): RegExpExecArray | null {
    for (let prev = node.previousSibling; prev; prev = prev.previousSibling) {
      if (prev.type === 'attribute_item') {
        const m = pattern.exec(this.text(prev));
        if (m) return m;
      } else if (prev.type !== 'line_comment' && prev.type !== 'block_comment') return null;
    }
    return null;
  }

  protected nameOf(node: Node): Node | null {
    const name = node.childForFieldName('name');
    if (name) this.skipStarts.add(name.startIndex);
    return name;
  }

  protected typeParamsOf(node: Node): Set<string> | undefined {
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

  protected declareType(sym: SymbolDef, ctx: ItemContext): void {
    const key = `${this.scopeKey(ctx)}\u0000${sym.name}`;
    if (!this.types.has(key)) this.types.set(key, sym.localId);
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
