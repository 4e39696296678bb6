// Code-entity lookups (RANGER's first path): a name, `Class.method`, a qualified name or a node id
// is answered straight from the graph, exact matches first, then case-insensitive, then fuzzy
// matches on the words inside names (`debug flag` → get_debug_flag).
import type { ReadonlyGraph } from '../graph/describe';
import { qnameParts, type GraphNode } from '../model/schema';
import { identifierWords } from './identifiers';
import { SEARCHABLE_KINDS } from './nodeText';
import { forEachSliced } from '../eventLoop';
import { PackedColumn, aligned, packColumns } from '../graph/packedStrings';

type Graph = ReadonlyGraph;

/** The nodes an index's saved tables name by position, in that order: an array, or a graph read in place. */
export interface NodeOrder {
  readonly length: number;
  at(position: number): string | undefined;
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
   * The lookup tables, nodes named by their position in `graph.nodes()`, packed to be read where they lie
   * ({@link packTables}). Read back with {@link EntityIndex.load} against a graph with the same nodes in
   * the same order (the query snapshot's).
   */
  pack(): Buffer {
    const position = new Map<string, number>();
    this.graph.forEachNode((id) => position.set(id, position.size));
    return packTables(this.graph.order, this.tables(), position);
  }

  /**
   * An index from {@link pack}'s tables; throws when they do not fit. `ids`: the nodes in the order the
   * tables were made for, when `graph` has changed since (then update the nodes changed meanwhile).
   */
  static load(graph: Graph, packed: Buffer, ids: NodeOrder = graph.nodes()): EntityIndex {
    const index = new EntityIndex(graph, readTables(packed, ids));
    index.filedKnown = false;
    return index;
  }

  private tables(): Map<string, string[]>[] {
    return [this.byName, this.byLowerName, this.byTail, this.byLowerTail, this.words];
  }

  /** Re-reads the given nodes from the graph (a save touched them). */
  update(ids: Iterable<string>): void {
    for (const id of ids) {
      if (!this.filedKnown) {
        this.filed.clear(); // what prepareUpdates filed so far: filed again whole
        this.refile();
      }
      this.remove(id);
      if (this.graph.hasNode(id)) this.add(id, this.graph.getNodeAttributes(id));
    }
  }

  /** The keys each indexed node is filed under, so an update can take it out again. */
  private readonly filed = new Map<string, Array<[Map<string, string[]>, string]>>();
  /** False for a loaded index until an update needs `filed`: a one-shot query never does. */
  private filedKnown = true;
  private preparing: Promise<void> | undefined;

  private refile(): void {
    for (const map of this.tables()) for (const [key, ids] of map) this.file(map, key, ids);
    this.filedKnown = true;
  }

  private file(map: Map<string, string[]>, key: string, ids: string[]): void {
    for (const id of ids) {
      const keys = this.filed.get(id);
      if (keys) keys.push([map, key]);
      else this.filed.set(id, [[map, key]]);
    }
  }

  /**
   * Makes what an update needs of a loaded index (`filed`) in slices with the event loop free between
   * them, for a process that keeps the index: the first save after a warm start otherwise stops for
   * it (~0.3 s on Django). An update meanwhile does the rest at once, and this stops.
   */
  prepareUpdates(sliceMs = 8): Promise<void> {
    if (this.filedKnown) return Promise.resolve();
    // Asked again meanwhile (the Find box opened twice): the same pass.
    this.preparing ??= (async () => {
      const entries = this.tables().flatMap((map) => [...map].map(([key, ids]) => ({ map, key, ids })));
      let done = 0;
      await forEachSliced(entries, ({ map, key, ids }) => {
        if (this.filedKnown) return;
        this.file(map, key, ids);
        done++;
      }, sliceMs);
      if (!this.filedKnown && done === entries.length) this.filedKnown = true;
    })();
    return this.preparing;
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

const TABLES = 5;

/**
 * The tables for the query snapshot: [nodes, tables, bytes of the keys] (Int32, the machine's order), the
 * keys as packed columns with a hash index (graph/packedStrings.ts), then per table the start of each key's
 * positions and the positions ([count, starts (keys + 1), positions]).
 */
function packTables(nodes: number, tables: Map<string, string[]>[], position: Map<string, number>): Buffer {
  const keys = packColumns(tables.map((table) => ({ values: [...table.keys()], indexed: true })));
  const postings = tables.map((table) => {
    const starts = new Int32Array(table.size + 1);
    const positions: number[] = [];
    let k = 0;
    for (const ids of table.values()) {
      for (const id of ids) positions.push(position.get(id)!);
      starts[++k] = positions.length;
    }
    return [Int32Array.of(positions.length), starts, Int32Array.from(positions)];
  });
  return Buffer.concat([Int32Array.of(nodes, TABLES, keys.length), keys, ...postings.flat()].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));
}

/** The tables of {@link packTables}, each read as it lies until it is iterated or changed; throws when they do not fit `ids`. */
function readTables(saved: Buffer, ids: NodeOrder): LoadedTable[] {
  if (saved.length < 12 || saved.length % 4 !== 0) throw new Error('entity tables are damaged');
  const packed = aligned(saved);
  const ints = (from: number, count: number) => new Int32Array(packed.buffer, packed.byteOffset + from * 4, count);
  const [nodes, tables, keyBytes] = ints(0, 3);
  if (nodes !== ids.length || tables !== TABLES || keyBytes < 0 || keyBytes % 4 !== 0 || 12 + keyBytes > packed.length) throw new Error('entity tables do not fit the graph');
  const keys = PackedColumn.read(packed.subarray(12, 12 + keyBytes));
  if (keys.length !== TABLES) throw new Error('entity tables are damaged');
  let at = (12 + keyBytes) / 4;
  const words = packed.length / 4;
  return keys.map((column) => {
    if (at >= words) throw new Error('entity tables are damaged');
    const count = ints(at, 1)[0];
    if (count < 0 || at + 1 + column.length + 1 + count > words) throw new Error('entity tables are damaged');
    const starts = ints(at + 1, column.length + 1);
    const positions = ints(at + 2 + column.length, count);
    at += 2 + column.length + count;
    if (starts[0] !== 0 || starts[column.length] !== count) throw new Error('entity tables are damaged');
    for (let i = 0; i < column.length; i++) if (starts[i] > starts[i + 1]) throw new Error('entity tables are damaged');
    for (const p of positions) if (p < 0 || p >= nodes) throw new Error('entity tables are damaged');
    return new LoadedTable(column, starts, positions, ids);
  });
}

/**
 * A table read back from {@link packTables}: until it is iterated or changed it answers `get` from the
 * packed keys' hash index. A one-shot query (the CLI) looks up a handful of keys, and decoding the five
 * tables of a million lines (2M keys and positions) was most of a name lookup.
 */
class LoadedTable extends Map<string, string[]> {
  private packed: PackedColumn | undefined;

  constructor(
    keys: PackedColumn,
    private readonly starts: Int32Array,
    private readonly positions: Int32Array,
    private readonly ids: NodeOrder,
  ) {
    super();
    this.packed = keys;
  }

  override get(key: string): string[] | undefined {
    if (!this.packed) return super.get(key);
    const at = this.packed.indexOf(key);
    return at < 0 ? undefined : this.list(at);
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
    return this.packed ? this.packed.length : super.size;
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

  private fill(): void {
    const keys = this.packed;
    if (!keys) return;
    this.packed = undefined;
    for (let i = 0; i < keys.length; i++) super.set(keys.at(i), this.list(i));
  }

  private list(at: number): string[] {
    const list: string[] = [];
    for (let j = this.starts[at]; j < this.starts[at + 1]; j++) list.push(this.ids.at(this.positions[j])!);
    return list;
  }
}
