// Macros at item level: `macro_rules!` definitions, and invocation bodies (`cfg_rt! { … }`) parsed
// again as Rust with only those ranges included, so the items rustc would see after expanding a
// pass-through macro are indexed at their real positions. Which items a body holds is items.ts's.
import { Parser, type Node, type Tree } from 'web-tree-sitter';
import type { ItemContext } from './scopes';
import { UseTrees } from './useTrees';

/** One parser per grammar for re-parsing item-level macro bodies (see expandMacroBodies). */
const macroParsers = new WeakMap<object, Parser>();

export abstract class MacroBodies extends UseTrees {
  /** The items of a container (items.ts), here of a parsed macro body. */
  protected abstract items(container: Node, ctx: ItemContext, range?: [number, number]): void;

  /** Item-level macro bodies waiting to be parsed, with the tree their invocation is in. */
  protected macroBodies: Array<{ start: number; end: number; ctx: ItemContext; tree: number }> = [];
  /** Trees read: the file's, then one per round of macro bodies (deleted by extractRust). */
  readonly trees: Tree[] = [];
  /** Per tree: the body ranges that a later tree parsed, whose tokens are not read from this one. */
  readonly expandedRanges = new Map<number, Array<[number, number]>>();
  /** Start of every token tree whose content was parsed as items. */
  readonly expandedTokenTrees = new Set<number>();

  protected onMacroDefinition(node: Node, ctx: ItemContext): void {
    this.quietSpans.push([node.startIndex, node.endIndex]);
    const nameNode = this.nameOf(node);
    if (!nameNode) return;
    const name = this.text(nameNode);
    const sym = this.define('Function', name, node, `macro_rules! ${name}`, ctx, { exported: this.attribute(node, /^#\[\s*macro_export\b/) !== null });
    this.frame(sym, node, ctx.outer);
  }

  /** Item-level `m! { … }`: its body is parsed again for items (see expandMacroBodies). */
  protected noteMacroBody(node: Node, ctx: ItemContext): void {
    const tree = node.lastNamedChild;
    if (tree?.type !== 'token_tree' || tree.endIndex - tree.startIndex < 3) return;
    const open = this.src[tree.startIndex];
    if (open !== '{' && open !== '(' && open !== '[') return;
    this.macroBodies.push({ start: tree.startIndex + 1, end: tree.endIndex - 1, ctx, tree: this.trees.indexOf(node.tree) });
    this.expandedTokenTrees.add(tree.startIndex);
  }

  /**
   * Item-level macro bodies (`cfg_rt! { pub mod runtime; … }`, tokio's and many crates' feature
   * gates) parsed as Rust with only those ranges included: positions stay those of the file, so
   * ranges, lines and reference attribution need no translation. Bodies that are not items
   * (`lazy_static!`'s `static ref`, DSLs) parse as errors and contribute what they can.
   */
  protected expandMacroBodies(root: Node): void {
    const bodies = this.macroBodies.sort((a, b) => a.start - b.start);
    this.macroBodies = [];
    const language = root.tree.language;
    let parser = macroParsers.get(language);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(language);
      macroParsers.set(language, parser);
    }
    const ranges = bodies.map((b) => ({ startIndex: b.start, endIndex: b.end, startPosition: this.position(b.start), endPosition: this.position(b.end) }));
    const tree = parser.parse(this.src, null, { includedRanges: ranges });
    if (!tree) return;
    this.trees.push(tree);
    for (const body of bodies) {
      let list = this.expandedRanges.get(body.tree);
      if (!list) this.expandedRanges.set(body.tree, (list = []));
      list.push([body.start, body.end]);
      this.items(tree.rootNode, body.ctx, [body.start, body.end]);
    }
  }

  private lineStarts: number[] | null = null;

  private position(index: number): { row: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = this.src.indexOf('\n'); i >= 0; i = this.src.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    // web-tree-sitter counts indices and columns in UTF-16 code units, as JS strings do.
    return { row: lo, column: index - this.lineStarts[lo] };
  }
}
