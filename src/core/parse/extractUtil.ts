// Small pieces every language extractor needs: ranges, hashes, unique local ids, one-line signatures.
import { createHash } from 'node:crypto';
import { Query, type Node, type QueryCapture } from 'web-tree-sitter';
import type { SourceRange } from '../model/schema';
import type { Reference, ReferenceKind, SymbolDef, SymbolKind } from './fileGraph';

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function rangeOf(node: Node): SourceRange {
  return {
    startLine: node.startPosition.row,
    startCol: node.startPosition.column,
    endLine: node.endPosition.row,
    endCol: node.endPosition.column,
  };
}

/** Collapse whitespace so a multi-line header reads as one line; cap it so a huge literal cannot bloat the graph. */
export function oneLine(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Collects definitions in source order and gives each a file-unique local id. A name defined twice
 * in the same scope (property getter and setter, `if PY2: def f` / `else: def f`, TS `type X` + `const X`)
 * keeps its first definition as `X` and numbers the next ones `X@2`, `X@3`, so ids are stable for a given text.
 */
export class SymbolTable {
  readonly symbols: SymbolDef[] = [];
  private readonly seen = new Map<string, number>();
  private readonly byId = new Map<string, SymbolDef>();

  /** `qualifier`: prefix of a parentless definition's id (Rust items of inline modules, methods of types declared elsewhere). */
  add(def: Omit<SymbolDef, 'localId'> & { parent: string | null }, qualifier?: string): SymbolDef {
    const base = def.parent ? `${def.parent}.${def.name}` : qualifier ? `${qualifier}.${def.name}` : def.name;
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    const sym: SymbolDef = { localId: count === 1 ? base : `${base}@${count}`, ...def };
    this.symbols.push(sym);
    this.byId.set(sym.localId, sym);
    return sym;
  }

  has(localId: string): boolean {
    return this.seen.has(localId);
  }

  get(localId: string): SymbolDef | undefined {
    return this.byId.get(localId);
  }
}

export function symbolDef(
  kind: SymbolKind,
  name: string,
  parent: string | null,
  node: Node,
  signature: string,
  doc: string,
  exported: boolean,
): Omit<SymbolDef, 'localId'> {
  return { kind, name, parent, range: rangeOf(node), signature: oneLine(signature), doc, hash: sha1(node.text), exported };
}

/** One extractor query, compiled once per grammar (compiling costs far more than running it on a file). */
export function compiledQuery(source: string): (root: Node) => Query {
  const compiled = new WeakMap<object, Query>();
  return (root) => {
    const language = root.tree.language;
    let query = compiled.get(language);
    if (!query) {
      query = new Query(language, source);
      compiled.set(language, query);
    }
    return query;
  };
}

/** The most parts a name chain through calls may have: a chain of thousands (generated code) is no name to resolve. */
export const MAX_CHAIN_PARTS = 64;

/**
 * How many levels below its root one query run may start a pattern. A tree-sitter query cursor keeps a
 * state open for every ancestor that began a parent-child pattern (`(call function: (_) @callee)`) and
 * steps all of them at every node, so one run over 20,000 nested parentheses took seconds; bounded,
 * the open states are at most this many per pattern. No ordinary file is this deep: it gets one run.
 */
const RUN_DEPTH = 64;

/**
 * Every capture of `query` under `root`, as one `query.captures(root)` gives them, in time linear in
 * the tree's depth: each run starts patterns at most RUN_DEPTH levels below its root, and the nodes
 * one level further down are the roots of the next runs (an explicit work list, no recursion).
 */
export function allCaptures(query: Query, root: Node, runDepth = RUN_DEPTH): QueryCapture[] {
  const runs: QueryCapture[][] = [];
  const roots = [root];
  for (let top = roots.pop(); top; top = roots.pop()) {
    runs.push(query.captures(top, { maxStartDepth: runDepth }));
    nodesAtDepth(top, runDepth + 1, roots);
  }
  if (runs.length === 1) return runs[0];
  // The query's own order: by start, the enclosing node first (for one span, the node a run met
  // first: runs come before the runs below them), one node's captures by pattern.
  const all = runs.flat();
  const met = new Map<number, number>();
  for (const capture of all) if (!met.has(capture.node.id)) met.set(capture.node.id, met.size);
  return all.sort(
    (a, b) =>
      a.node.startIndex - b.node.startIndex ||
      b.node.endIndex - a.node.endIndex ||
      met.get(a.node.id)! - met.get(b.node.id)! ||
      a.patternIndex - b.patternIndex,
  );
}

/** The nodes `depth` levels below `top` (the first `limit`), skipping every subtree with too few nodes to reach that far. */
function nodesAtDepth(top: Node, depth: number, out: Node[], limit = Infinity): void {
  const cursor = top.walk();
  let d = 0;
  for (;;) {
    // A subtree reaching `depth - d` levels further down holds at least that many nodes besides its root.
    if (d < depth && cursor.currentNode.descendantCount > depth - d && cursor.gotoFirstChild()) {
      d++;
      continue;
    }
    if (d === depth) out.push(cursor.currentNode);
    for (;;) {
      if (d === 0 || out.length >= limit) {
        cursor.delete();
        return;
      }
      if (cursor.gotoNextSibling()) break;
      cursor.gotoParent();
      d--;
    }
  }
}

/**
 * Parents in time independent of depth. `Node.parent` walks down from the root (tree-sitter keeps no
 * parent links), so asking it for every node of a deep tree costs the square of the depth: past
 * RUN_DEPTH levels, one cursor walk records every node's parent instead.
 */
export class Parents {
  private readonly deep: boolean;
  private map: Map<number, Node> | undefined;

  constructor(readonly root: Node) {
    const below: Node[] = [];
    nodesAtDepth(root, RUN_DEPTH + 1, below, 1);
    this.deep = below.length > 0;
  }

  of(node: Node): Node | null {
    if (!this.deep) return node.parent;
    this.map ??= parentMap(this.root);
    return this.map.get(node.id) ?? null;
  }

  /** `node.previousSibling`, which asks for the parent too. */
  previousSibling(node: Node): Node | null {
    if (!this.deep) return node.previousSibling;
    const siblings = this.of(node)?.children ?? [];
    const index = siblings.findIndex((sibling) => sibling?.id === node.id);
    return index > 0 ? siblings[index - 1] : null;
  }
}

function parentMap(root: Node): Map<number, Node> {
  const parents = new Map<number, Node>();
  const cursor = root.walk();
  const path: Node[] = [root];
  const enter = () => {
    const node = cursor.currentNode;
    parents.set(node.id, path[path.length - 1]);
    path.push(node);
  };
  for (;;) {
    if (cursor.gotoFirstChild()) {
      enter();
      continue;
    }
    for (;;) {
      path.pop();
      if (path.length === 0) {
        cursor.delete();
        return parents;
      }
      if (cursor.gotoNextSibling()) {
        enter();
        break;
      }
      cursor.gotoParent();
    }
  }
}

/** References kept once per (scope, kind, chain, line): completion context and its benchmark ask what one line uses. */
export class ReferenceList {
  readonly refs: Reference[] = [];
  private readonly seen = new Set<string>();

  add(from: string | null, kind: ReferenceKind, chain: string[], line: number, relation?: 'extends' | 'implements'): void {
    const key = `${from}\u0000${kind}\u0000${chain.join('.')}\u0000${line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const ref: Reference = { from, kind, chain, line };
    if (relation) ref.relation = relation;
    this.refs.push(ref);
  }
}
