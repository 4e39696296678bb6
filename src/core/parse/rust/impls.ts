// `impl` blocks: the implemented type (generics, references, `dyn` stripped), whether it is declared
// in this file, the INHERITS reference of a trait impl, how its methods are named and owned, and
// blanket impls filed under their trait. Read after all items, as the type may come later.
import type { Node } from 'web-tree-sitter';
import { pathChain } from './paths';
import type { Frame, ItemContext, Owner } from './scopes';
import { MacroBodies } from './macros';

interface PendingImpl {
  node: Node;
  ctx: ItemContext;
}

export abstract class Impls extends MacroBodies {
  /** Reads items (items.ts), here the members of an impl body. */
  protected abstract walk(nodes: Node[], ctx: ItemContext): void;

  protected readonly impls: PendingImpl[] = [];

  protected onImpl(node: Node, ctx: ItemContext): void {
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
    this.walk((body?.namedChildren ?? []).filter((item): item is Node => !!item && item.type !== 'associated_type'), member);
  }

  /** A supertrait or implemented trait: `Display`, `fmt::Debug`, `From<u8>` → path without generics; null for lifetimes and `?Sized`. */
  protected boundPath(node: Node, frame: Frame | null): string[] | null {
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
}
