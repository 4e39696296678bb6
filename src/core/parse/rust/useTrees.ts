// `use` trees and `extern crate`: import bindings (nested lists, `self`, aliases, globs, a leading
// `::`), `pub use` re-exports, and the module-level names they bind. Their spans are quiet: the
// identifiers in them are no references.
import type { Node } from 'web-tree-sitter';
import type { ExportBinding } from '../fileGraph';
import { pathChain } from './paths';
import { RustScopes, type ItemContext } from './scopes';

export abstract class UseTrees extends RustScopes {
  /** An import's scope: the enclosing function, else the inline module path, else null. */
  protected importScope(ctx: ItemContext): string | null {
    return ctx.fn?.sym?.localId ?? (ctx.mod || null);
  }

  protected onUse(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const argument = node.childForFieldName('argument');
    if (!argument) return;
    const reexport = this.isPub(node);
    const scope = this.importScope(ctx);
    const line = node.startPosition.row;
    // `use ::core::fmt` names the extern crate even where a module `core` is in scope: the module keeps a leading `::`.
    const global = this.text(argument).startsWith('::') ? '::' : '';
    const bind = (prefix: string[], name: string, local: string) => {
      // `use a::b::C` → module 'a::b', imported 'C'; `{self}` and single-segment `use serde;` bind the module itself.
      const isModule = name === 'self' || prefix.length === 0;
      const module = global + (isModule && name !== 'self' ? [name] : prefix).join('::');
      const imported = isModule ? null : name;
      const bound = local === '_' ? '' : local;
      this.imports.push({ local: bound, module, imported, line, scope });
      if (bound && ctx.fn === null) this.moduleNames.add(bound);
      if (reexport && bound && ctx.fn === null) {
        const exp: ExportBinding = { exported: bound, from: module, imported };
        if (scope) exp.scope = scope;
        this.exports.push(exp);
      }
    };
    // A loop over a stack of use trees with their path prefixes, lists pushed last-first so bindings
    // keep their order: `use` lists nest as deep as the file likes.
    const pending: Array<{ tree: Node; prefix: string[] }> = [{ tree: argument, prefix: [] }];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { tree, prefix } = next;
      switch (tree.type) {
        case 'identifier':
        case 'crate':
        case 'super':
        case 'self': {
          const name = this.text(tree);
          if (name === 'self' && prefix.length > 0) bind(prefix, 'self', prefix[prefix.length - 1]);
          else bind(prefix, name, name);
          continue;
        }
        case 'scoped_identifier': {
          const chain = pathChain(this.text(tree));
          if (chain) bind([...prefix, ...chain.slice(0, -1)], chain[chain.length - 1], chain[chain.length - 1]);
          continue;
        }
        case 'use_as_clause': {
          const path = tree.childForFieldName('path');
          const alias = tree.childForFieldName('alias');
          const chain = path ? pathChain(this.text(path)) : null;
          if (!chain || !alias) continue;
          const full = [...prefix, ...chain];
          const last = full[full.length - 1];
          if (last === 'self') bind(full.slice(0, -1), 'self', this.text(alias));
          else bind(full.slice(0, -1), last, this.text(alias));
          continue;
        }
        case 'use_wildcard': {
          const path = tree.firstNamedChild;
          const chain = path ? pathChain(this.text(path)) : [];
          if (!chain) continue;
          const module = global + [...prefix, ...chain].join('::');
          this.imports.push({ local: '', module, imported: '*', line, scope });
          if (reexport && ctx.fn === null) {
            const exp: ExportBinding = { exported: '*', from: module, imported: '*' };
            if (scope) exp.scope = scope;
            this.exports.push(exp);
          }
          continue;
        }
        case 'scoped_use_list': {
          const path = tree.childForFieldName('path');
          const chain = path ? pathChain(this.text(path)) : [];
          const list = tree.childForFieldName('list');
          if (chain && list) pending.push({ tree: list, prefix: [...prefix, ...chain] });
          continue;
        }
        case 'use_list': {
          const items = tree.namedChildren;
          for (let i = items.length - 1; i >= 0; i--) if (items[i]) pending.push({ tree: items[i]!, prefix });
          continue;
        }
      }
    }
  }

  protected onExternCrate(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const name = node.childForFieldName('name');
    if (!name) return;
    const alias = node.childForFieldName('alias');
    const local = this.text(alias ?? name);
    this.imports.push({ local, module: this.text(name), imported: null, line: node.startPosition.row, scope: this.importScope(ctx) });
    if (ctx.fn === null) this.moduleNames.add(local);
  }
}
