// Items: the walk over item-level nodes (file, inline module bodies, impl and trait bodies, function
// bodies' direct statements) and the definitions it makes: functions and their parameters, structs
// and their fields, enums, traits, type aliases, consts and statics, `mod` items. `collect` runs the
// walk, then impls and macro bodies in rounds, then struct fields.
import type { Node } from 'web-tree-sitter';
import type { ImportBinding, SymbolDef, SymbolKind } from '../fileGraph';
import { headerText } from './paths';
import type { Frame, ItemContext, Owner } from './scopes';
import { Impls } from './impls';

export class RustExtraction extends Impls {
  /**
   * Items of the file and of item-level macro bodies, then impl blocks (whose type may be declared
   * further down or inside a macro body), then macro bodies inside impl blocks.
   */
  collect(root: Node): void {
    this.trees.push(root.tree);
    this.items(root, { mod: '', fn: null, outer: null });
    let implsDone = 0;
    for (let round = 0; round < 8; round++) {
      if (this.macroBodies.length > 0) this.expandMacroBodies(root);
      else if (implsDone < this.impls.length) {
        for (; implsDone < this.impls.length; implsDone++) this.onImpl(this.impls[implsDone].node, this.impls[implsDone].ctx);
      } else break;
    }
    for (const fields of this.fieldLists) this.defineFields(fields);
  }

  /** Items waiting to be read, the next on top; `associated`: in a trait body, where `type X;` declares the trait's type. */
  private readonly pendingItems: Array<{ node: Node; ctx: ItemContext; associated: boolean }> = [];
  private walking = false;

  /** Children of a container that are items; ERROR nodes are searched too, so broken syntax keeps what parsed. */
  protected items(container: Node, ctx: ItemContext, range?: [number, number]): void {
    const children = container.namedChildren.filter((child): child is Node => !!child && (!range || (child.endIndex > range[0] && child.startIndex < range[1])));
    this.walk(children, ctx);
  }

  /**
   * Reads `nodes` as items in `ctx`, in order. A loop over a stack, not recursion: modules nest as
   * deep as the file likes (`mod m { mod m { … } }` 4,000 deep). A handler that meets items inside
   * its item (a module, function, trait or impl body) calls this as its last step, and they are read
   * next, before the item's later siblings, in the order a recursive walk would read them.
   */
  protected walk(nodes: Node[], ctx: ItemContext, associatedTypes = false): void {
    for (let i = nodes.length - 1; i >= 0; i--) this.pendingItems.push({ node: nodes[i], ctx, associated: associatedTypes });
    if (this.walking) return;
    this.walking = true;
    try {
      for (let next = this.pendingItems.pop(); next; next = this.pendingItems.pop()) {
        if (next.associated && next.node.type === 'associated_type') this.onTypeAlias(next.node, next.ctx, next.ctx.owner!);
        else this.item(next.node, next.ctx);
      }
    } finally {
      this.walking = false;
      this.pendingItems.length = 0;
    }
  }

  private item(node: Node, ctx: ItemContext): void {
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        this.onFunction(node, ctx, ctx.owner ?? null);
        break;
      case 'struct_item':
      case 'union_item':
        this.onStruct(node, ctx);
        break;
      case 'enum_item':
        this.onEnum(node, ctx);
        break;
      case 'trait_item':
        this.onTrait(node, ctx);
        break;
      case 'impl_item':
        this.impls.push({ node, ctx });
        break;
      case 'type_item':
        // `type Item = X;` in an impl only fills in a trait's associated type: not a definition of its own.
        if (!ctx.owner) this.onTypeAlias(node, ctx, null);
        break;
      case 'const_item':
      case 'static_item':
        // A const or static inside a function body is a local of it, as `let` is.
        if (ctx.owner || !ctx.fn) this.onConst(node, ctx, ctx.owner ?? null);
        break;
      case 'mod_item':
        this.onMod(node, ctx);
        break;
      case 'use_declaration':
        this.onUse(node, ctx);
        break;
      case 'extern_crate_declaration':
        this.onExternCrate(node, ctx);
        break;
      case 'macro_definition':
        this.onMacroDefinition(node, ctx);
        break;
      case 'macro_invocation':
        if (ctx.fn === null || ctx.owner) this.noteMacroBody(node, ctx);
        break;
      case 'ERROR':
        this.items(node, ctx);
        break;
    }
  }

  private onFunction(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const signature = headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex);
    const kind: SymbolKind = owner ? 'Method' : 'Function';
    const sym = this.define(kind, this.text(nameNode), node, signature, ctx, owner ?? {});
    const typeParams = this.typeParamsOf(node);
    const frame = this.frame(sym, node, ctx.outer, { selfType: owner?.selfType, selfLocal: owner?.selfLocal, typeParams });
    this.parameters(node, frame);
    if (body && body.type === 'block') this.items(body, { mod: ctx.mod, fn: frame, outer: frame });
  }

  private parameters(fn: Node, frame: Frame): void {
    const params = fn.childForFieldName('parameters');
    if (!params) return;
    for (const param of params.namedChildren) {
      if (param?.type !== 'parameter') continue;
      const pattern = param.childForFieldName('pattern');
      if (!pattern) continue;
      if (pattern.type === 'identifier') {
        const name = this.text(pattern);
        (frame.locals ??= new Set()).add(name);
        const type = this.typePath(param.childForFieldName('type'), frame);
        if (type) (frame.types ??= new Map()).set(name, type);
      }
    }
  }

  private onStruct(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const signature = headerText(this.src, node.startIndex, body?.type === 'field_declaration_list' ? body.startIndex : node.endIndex);
    const sym = this.define('Class', this.text(nameNode), node, signature, ctx);
    this.declareType(sym, ctx);
    const frame = this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    if (body?.type !== 'field_declaration_list') return;
    // Fields are defined after the impls: a path (`T::len`) only ever names a method, so a getter
    // named like its field keeps the plain id `T.len` and the field becomes `T.len@2`.
    this.fieldLists.push({ body, sym, frame, ctx });
  }

  private readonly fieldLists: Array<{ body: Node; sym: SymbolDef; frame: Frame; ctx: ItemContext }> = [];

  private defineFields({ body, sym, frame, ctx }: { body: Node; sym: SymbolDef; frame: Frame; ctx: ItemContext }): void {
    const types = new Map<string, string[]>();
    this.fieldTypes.set(sym.localId, types);
    for (const field of body.namedChildren) {
      if (field?.type !== 'field_declaration') continue;
      const fieldName = this.nameOf(field);
      if (!fieldName) continue;
      const name = this.text(fieldName);
      const fieldSym = this.define('Field', name, field, headerText(this.src, field.startIndex, field.endIndex), ctx, { parent: sym.localId });
      const type = this.typePath(field.childForFieldName('type'), frame);
      if (type) {
        fieldSym.type = type;
        types.set(name, type);
      }
    }
  }

  private onEnum(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const sym = this.define('Enum', this.text(nameNode), node, headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex), ctx);
    this.declareType(sym, ctx);
    this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    for (const variant of body?.namedChildren ?? []) {
      if (variant?.type !== 'enum_variant') continue;
      const variantName = this.nameOf(variant);
      if (variantName) this.define('Field', this.text(variantName), variant, headerText(this.src, variant.startIndex, variant.endIndex), ctx, { parent: sym.localId, exported: sym.exported });
    }
  }

  private onTrait(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const body = node.childForFieldName('body');
    const name = this.text(nameNode);
    const sym = this.define('Interface', name, node, headerText(this.src, node.startIndex, body ? body.startIndex : node.endIndex), ctx);
    this.declareType(sym, ctx);
    const selfType = [name];
    const frame = this.frame(sym, node, ctx.outer, { selfType, selfLocal: sym.localId, typeParams: this.typeParamsOf(node) });
    for (const bound of node.childForFieldName('bounds')?.namedChildren ?? []) {
      const chain = bound ? this.boundPath(bound, frame) : null;
      if (chain && bound) this.addRef(sym.localId, 'INHERITS', chain, bound.startPosition.row, { relation: 'extends' });
    }
    const owner: Owner = { parent: sym.localId, exported: sym.exported, selfType, selfLocal: sym.localId };
    const member: ItemContext = { mod: ctx.mod, fn: ctx.fn, outer: frame, owner };
    this.walk((body?.namedChildren ?? []).filter((item): item is Node => !!item), member, true);
  }

  private onTypeAlias(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const value = node.childForFieldName('type');
    let signature = headerText(this.src, node.startIndex, node.endIndex);
    if (signature.length > 120 && value) signature = `${headerText(this.src, node.startIndex, value.startIndex)} …`;
    const sym = this.define('TypeAlias', this.text(nameNode), node, signature, ctx, owner ?? {});
    const frame = this.frame(sym, node, ctx.outer, { typeParams: this.typeParamsOf(node) });
    // What the alias names (`type EntryList = LinkedList<..>`): `x.m()` on an EntryList is LinkedList's `m`.
    const type = this.typePath(value, frame);
    if (type) sym.type = type;
  }

  private onConst(node: Node, ctx: ItemContext, owner: Owner | null): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const value = node.childForFieldName('value');
    let signature = headerText(this.src, node.startIndex, node.endIndex);
    if (signature.length > 120 && value) signature = `${headerText(this.src, node.startIndex, value.startIndex)} = …`;
    const sym = this.define(owner ? 'Field' : 'GlobalVariable', this.text(nameNode), node, signature, ctx, owner ?? {});
    const frame = this.frame(sym, node, ctx.outer);
    const type = this.typePath(node.childForFieldName('type'), frame);
    if (type) sym.type = type;
  }

  private onMod(node: Node, ctx: ItemContext): void {
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const name = this.text(nameNode);
    const body = node.childForFieldName('body');
    this.moduleNames.add(name);
    if (!body) {
      // `mod x;` loads x.rs or x/mod.rs (or the `#[path]` file): a binding of the child module.
      this.quietSpans.push([node.startIndex, node.endIndex]);
      const binding: ImportBinding = { local: name, module: `self::${name}`, imported: null, line: node.startPosition.row, scope: this.importScope(ctx) };
      const path = this.attribute(node, /^#\[\s*path\s*=\s*"([^"]*)"\s*\]$/);
      if (path) binding.path = path[1];
      this.imports.push(binding);
      if (this.isPub(node) && ctx.fn === null) this.exports.push(ctx.mod ? { exported: name, local: name, scope: ctx.mod } : { exported: name, local: name });
      return;
    }
    const mod = ctx.mod ? `${ctx.mod}.${name}` : name;
    if (ctx.fn === null) this.inlineModules.push(mod);
    // A module inside a function body is rare; its items are treated as the function's.
    this.items(body, ctx.fn === null ? { mod, fn: null, outer: ctx.outer } : ctx);
  }
}
