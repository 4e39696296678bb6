// Code-entity lookups (RANGER's first path): a name, `Class.method`, a qualified name or a node id
// is answered straight from the graph, exact matches first, then case-insensitive, then fuzzy
// matches on the words inside names (`debug flag` → get_debug_flag).
import type { ReadonlyGraph } from '../graph/describe';
import { qnameParts, type GraphNode } from '../model/schema';
import { identifierWords } from './identifiers';
import { SEARCHABLE_KINDS } from './nodeText';
import { forEachSliced } from '../eventLoop';

type Graph = ReadonlyGraph;

/** See {@link EntityIndex.toJSON}. */
export interface EntityTables {
  nodes: number;
  tables: Array<Array<string | number>>;
}

export interface EntityMatch {
  id: string;
  score: number;
}

/** Definitions first, externals last; within a tier, the more referenced node wins. (The explorer's search box ranks by it too.) */
export const KIND_PRIOR: Record<string, number> = {
  Class: 0.03, Interface: 0.03, Function: 0.03, Method: 0.03, Enum: 0.02, TypeAlias: 0.02,
  Module: 0.02, GlobalVariable: 0.01, Field: 0.01, External: -0.05, Folder: -0.1,
};

export class EntityIndex {
  private readonly byName: Map<string, string[]>;
  private readonly byLowerName: Map<string, string[]>;
  /** Every dotted tail of every qualified name (`add`, `Calculator.add`, `base.Calculator.add`). */
  private readonly byTail: Map<string, string[]>;
  private readonly byLowerTail: Map<string, string[]>;
  private readonly words: Map<string, string[]>;

  /**
   * Files every node of the graph in slices of ~8 ms with the event loop free in between: on Django
   * the whole build is ~160 ms of work, too long for an editor's thread to spend at once.
   */
  static async build(graph: Graph, sliceMs = 8): Promise<EntityIndex> {
    const index = new EntityIndex(graph);
    // Nodes removed since the list was taken are skipped (the searcher re-reads what changed meanwhile).
    await forEachSliced(graph.nodes(), (id) => {
      if (graph.hasNode(id)) index.add(id, graph.getNodeAttributes(id));
    }, sliceMs);
    return index;
  }

  private constructor(
    private readonly graph: Graph,
    tables: Map<string, string[]>[] = Array.from({ length: 5 }, () => new Map<string, string[]>()),
  ) {
    [this.byName, this.byLowerName, this.byTail, this.byLowerTail, this.words] = tables;
  }

  /**
   * The lookup tables, nodes named by their position in `graph.nodes()`: each table a flat list of
   * key, count, positions. Read back with {@link EntityIndex.load} against a graph with the same nodes
   * in the same order (the query snapshot's).
   */
  toJSON(): EntityTables {
    const position = new Map<string, number>();
    this.graph.forEachNode((id) => position.set(id, position.size));
    const table = (map: Map<string, string[]>) => {
      const out: Array<string | number> = [];
      for (const [key, ids] of map) {
        out.push(key, ids.length);
        for (const id of ids) out.push(position.get(id)!);
      }
      return out;
    };
    return { nodes: this.graph.order, tables: this.tables().map(table) };
  }

  /**
   * An index from {@link toJSON}'s tables; throws when they do not fit. `ids`: the nodes in the order the
   * tables were made for, when `graph` has changed since (then update the nodes changed meanwhile).
   */
  static load(graph: Graph, data: EntityTables, ids: readonly string[] = graph.nodes()): EntityIndex {
    if (data?.nodes !== ids.length || !Array.isArray(data.tables) || data.tables.length !== 5) throw new Error('entity tables do not fit the graph');
    const index = new EntityIndex(graph, data.tables.map((flat) => new LoadedTable(flat, ids)));
    index.filedKnown = false;
    return index;
  }

  private tables(): Map<string, string[]>[] {
    return [this.byName, this.byLowerName, this.byTail, this.byLowerTail, this.words];
  }

  /** Re-reads the given nodes from the graph (a save touched them). */
  update(ids: Iterable<string>): void {
    for (const id of ids) {
      if (!this.filedKnown) this.refile();
      this.remove(id);
      if (this.graph.hasNode(id)) this.add(id, this.graph.getNodeAttributes(id));
    }
  }

  /** The keys each indexed node is filed under, so an update can take it out again. */
  private readonly filed = new Map<string, Array<[Map<string, string[]>, string]>>();
  /** False for a loaded index until an update needs `filed`: a one-shot query never does. */
  private filedKnown = true;

  private refile(): void {
    for (const map of this.tables()) {
      for (const [key, ids] of map) {
        for (const id of ids) {
          const keys = this.filed.get(id);
          if (keys) keys.push([map, key]);
          else this.filed.set(id, [[map, key]]);
        }
      }
    }
    this.filedKnown = true;
  }

  private add(id: string, node: GraphNode): void {
    if (!SEARCHABLE_KINDS.has(node.kind) && node.kind !== 'External') return;
    const keys: Array<[Map<string, string[]>, string]> = [
      [this.byName, node.name],
      [this.byLowerName, node.name.toLowerCase()],
    ];
    const parts = qnameParts(node.qname);
    // Rust names paths with `::` (`Runtime::new`); `Runtime.new` finds it too.
    const separators = node.qname.includes('::') ? ['.', '::'] : ['.'];
    for (let i = Math.max(0, parts.length - 4); i < parts.length - 1; i++) {
      for (const separator of separators) {
        const tail = parts.slice(i).join(separator);
        keys.push([this.byTail, tail], [this.byLowerTail, tail.toLowerCase()]);
      }
    }
    if (node.kind !== 'External') keys.push([this.words, identifierWords(node.name).join(' ')]);
    for (const [map, key] of keys) push(map, key, id);
    this.filed.set(id, keys);
  }

  private remove(id: string): void {
    for (const [map, key] of this.filed.get(id) ?? []) {
      const rest = map.get(key)?.filter((other) => other !== id);
      if (rest?.length) map.set(key, rest);
      else map.delete(key);
    }
    this.filed.delete(id);
  }

  /**
   * Ranked matches for an identifier-like query; empty when nothing in the graph is named like it.
   * `nearby` (see {@link nearness}) breaks ties between equally named definitions in favour of the
   * code the user is looking at.
   */
  lookup(query: string, limit = 20, nearby?: Nearness): EntityMatch[] {
    const q = query.trim().replace(/\(\)$/, '');
    const scored = new Map<string, number>();
    const add = (ids: string[] | undefined, score: number) => {
      for (const id of ids ?? []) scored.set(id, Math.max(scored.get(id) ?? 0, score));
    };
    if (this.graph.hasNode(q)) add([q], 1);
    add(this.byTail.get(q), 0.97);
    add(this.byName.get(q), 0.95);
    const lower = q.toLowerCase();
    add(this.byLowerTail.get(lower), 0.86);
    add(this.byLowerName.get(lower), 0.85);
    if (scored.size === 0) {
      // Fuzzy: every word of the query inside the name's words (`debugflag`, `debug_flag`, `DebugFlag`).
      const queryWords = identifierWords(q);
      const joined = queryWords.join('');
      if (queryWords.length > 0) {
        for (const [nameWords, ids] of this.words) {
          const words = nameWords.split(' ');
          const all = queryWords.every((w) => words.includes(w));
          if (all) add(ids, 0.6 + 0.2 * (queryWords.length / words.length));
          else if (joined.length >= 4 && words.join('') === joined) add(ids, 0.8);
        }
      }
    }
    return [...scored]
      .map(([id, score]) => ({ id, score: score + this.prior(id) + (nearby?.(this.graph.getNodeAttribute(id, 'path')) ?? 0) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }

  /**
   * Between equally named definitions, the one a user means by the bare name: a definition the rest
   * of the code uses more, the base method rather than an override of it, public API rather than a
   * private module's or class's, code rather than a declaration of it (a type stub, an interface's
   * member), and a top-level definition rather than a helper nested in a function body. Each nudge is
   * smaller than the gap between two kinds of match.
   */
  private prior(id: string): number {
    const node = this.graph.getNodeAttributes(id);
    let prior = (KIND_PRIOR[node.kind] ?? 0) + 0.002 * Math.log1p(this.graph.inDegree(id));
    const parent = this.parentOf(id);
    if (STUB_FILE.test(node.path) || parent?.kind === 'Interface') prior -= 0.005;
    if (parent && (parent.kind === 'Function' || parent.kind === 'Method')) prior -= 0.005;
    if (parent?.kind === 'Class' && node.kind === 'Method' && this.overridesBase(parent.id, node.name)) prior -= 0.003;
    if (isPrivatePlace(node.path, node.qname)) prior -= 0.002;
    return prior;
  }

  /** The definition (class, function, method) whose body holds this one, if it is not a module's. */
  private parentOf(id: string): { id: string; kind: string } | undefined {
    let parent: { id: string; kind: string } | undefined;
    this.graph.forEachInEdge(id, (_e, edge, source) => {
      if (!parent && (edge.kind === 'HAS_METHOD' || edge.kind === 'CONTAINS')) parent = { id: source, kind: this.graph.getNodeAttribute(source, 'kind') };
    });
    return parent;
  }

  /** Whether a class this one inherits from (at any depth in the repository) has a method of that name: this one overrides it. */
  private overridesBase(classId: string, name: string): boolean {
    const seen = new Set([classId]);
    const todo = [classId];
    while (todo.length > 0) {
      const current = todo.pop()!;
      let overrides = false;
      this.graph.forEachOutEdge(current, (_e, edge, _s, base) => {
        if (overrides || edge.kind !== 'INHERITS' || seen.has(base)) return;
        // An interface's member is a declaration: implementing it is not overriding code.
        if (this.graph.getNodeAttribute(base, 'kind') !== 'Interface' && this.graph.hasNode(`${base}.${name}`)) overrides = true;
        seen.add(base);
        todo.push(base);
      });
      if (overrides) return true;
    }
    return false;
  }
}

/** Type declarations without the code: `.pyi` stubs, `.d.ts` files. */
const STUB_FILE = /\.(pyi|d\.ts)$/;

/**
 * Whether the definition lives in a private module or inside a private class (`_compat.py`,
 * `_AtomicFile.close`); its own name is what the user typed, so it does not count. Dunders are public.
 */
function isPrivatePlace(path: string, qname: string): boolean {
  const places = [...path.split('/'), ...qnameParts(qname).slice(0, -1)];
  return places.some((part) => part.startsWith('_') && !part.startsWith('__'));
}

/** How near a file is to the code the user is looking at: a bonus added to a match's score. */
export type Nearness = (path: string) => number;

/**
 * Definitions near `fromPath` first: the file itself, then the files it imports from, then its folder.
 * Small enough never to lift a weaker kind of match (case-insensitive, fuzzy) above an exact one;
 * large enough to decide between two exact matches of a shared name (`get`, `__init__`).
 */
export function nearness(graph: Graph, fromPath: string): Nearness {
  const imported = new Set<string>();
  if (graph.hasNode(fromPath)) {
    graph.forEachOutEdge(fromPath, (_e, edge, _s, target) => {
      if (edge.kind === 'IMPORTS') imported.add(graph.getNodeAttribute(target, 'path'));
    });
  }
  const dir = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
  return (path) => {
    if (path === fromPath) return 0.015;
    if (imported.has(path)) return 0.01;
    return path.startsWith(dir) && !path.includes('/', dir.length) ? 0.005 : 0;
  };
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

/**
 * A table read back from {@link EntityTables}: until it is iterated, changed or has answered 32
 * lookups it answers `get` by scanning its flat list (~1 ms on Django's largest). A one-shot query
 * (the CLI) looks up a handful of keys, and filling the five maps of Django's ~110k keys took ~150 ms.
 */
class LoadedTable extends Map<string, string[]> {
  private flat: Array<string | number> | undefined;
  private scans = 0;

  constructor(
    flat: Array<string | number>,
    private readonly ids: readonly string[],
  ) {
    super();
    this.flat = flat;
  }

  override get(key: string): string[] | undefined {
    if (this.flat && ++this.scans <= 32) return this.scan(key);
    this.fill();
    return super.get(key);
  }

  override has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  override set(key: string, value: string[]): this {
    this.fill();
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.fill();
    return super.delete(key);
  }

  override get size(): number {
    this.fill();
    return super.size;
  }

  override entries(): MapIterator<[string, string[]]> {
    this.fill();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.fill();
    return super.keys();
  }

  override values(): MapIterator<string[]> {
    this.fill();
    return super.values();
  }

  override forEach(each: (value: string[], key: string, map: Map<string, string[]>) => void, thisArg?: unknown): void {
    this.fill();
    super.forEach(each, thisArg);
  }

  override [Symbol.iterator](): MapIterator<[string, string[]]> {
    return this.entries();
  }

  private scan(key: string): string[] | undefined {
    const flat = this.flat!;
    for (let i = 0; i < flat.length; i += 2 + (flat[i + 1] as number)) {
      if (flat[i] === key) return this.list(flat, i);
    }
    return undefined;
  }

  private fill(): void {
    const flat = this.flat;
    if (!flat) return;
    this.flat = undefined;
    for (let i = 0; i < flat.length; i += 2 + (flat[i + 1] as number)) super.set(flat[i] as string, this.list(flat, i));
  }

  private list(flat: Array<string | number>, at: number): string[] {
    const count = flat[at + 1];
    if (typeof flat[at] !== 'string' || typeof count !== 'number') throw new Error('entity tables are damaged');
    const list: string[] = [];
    for (let j = at + 2; j < at + 2 + count; j++) {
      const id = this.ids[flat[j] as number];
      if (id === undefined) throw new Error('entity tables are damaged');
      list.push(id);
    }
    return list;
  }
}
