// The references a graph could not resolve, by the name they end in: what the agent tools list as
// possible callers and users (tools/relations.ts), and what a query snapshot keeps of them, since it
// keeps no per-file graphs to find them in.
import type { FileGraph } from '../parse/fileGraph';
import { symbolId } from '../model/schema';
import { PackedColumn, packColumns } from './packedStrings';
import type { ReadonlyGraph } from './describe';

/** An unresolved reference: the referring definition (or module), where, and the kind of reference. */
export interface UnresolvedRef {
  id: string;
  location: string;
  kind: string;
}

/** Unresolved references by their last name part. */
export type UnresolvedByName = Map<string, UnresolvedRef[]>;

/** What the tools read of them: one name's references at a time. */
export interface UnresolvedLookup {
  get(name: string): UnresolvedRef[] | undefined;
}

/** One pass over every file's references: those the graph did not resolve, by their last name part. */
export function unresolvedByName(repo: { graph: ReadonlyGraph; filePaths(): string[]; fileGraph(path: string): FileGraph | undefined }): UnresolvedByName {
  const graph = repo.graph;
  const byName: UnresolvedByName = new Map();
  for (const path of repo.filePaths()) {
    const file = repo.fileGraph(path);
    if (!file) continue;
    // A file's references come from its own definitions: their reached names are kept for this file only.
    const targetNames = new Map<string, Set<string>>();
    // Calls on values of unknown type (`obj.save()`) have no chain to resolve: each is a possible caller by its name.
    const untyped = (file.untypedCalls ?? []).map((c) => ({ from: c.from, kind: 'CALLS', chain: [c.name], line: c.line }));
    for (const ref of [...file.refs, ...untyped]) {
      if (ref.kind === 'INHERITS') continue;
      const name = ref.chain.at(-1);
      if (!name || name === 'self' || name === 'this') continue;
      const source = ref.from === null ? path : symbolId(path, ref.from);
      // Resolved when the source already has an edge to something of that name.
      const reached = reachedNames(graph, source, targetNames);
      if (!reached || reached.has(name)) continue;
      const list = byName.get(name) ?? [];
      list.push({ id: source, location: `${path}:${ref.line + 1}`, kind: ref.kind });
      byName.set(name, list);
    }
  }
  return byName;
}

/**
 * The names of what `source` has edges to (undefined when it is not in the graph), collected once per
 * source: a module with thousands of top-level references walked its out-edges once per reference
 * (12.7 s of a 1M-line snapshot save).
 */
function reachedNames(graph: ReadonlyGraph, source: string, known: Map<string, Set<string>>): Set<string> | undefined {
  const seen = known.get(source);
  if (seen) return seen;
  if (!graph.hasNode(source)) return undefined;
  const reached = new Set<string>();
  graph.forEachOutEdge(source, (_, _e, _s, target) => reached.add(graph.getNodeAttribute(target, 'name')));
  known.set(source, reached);
  return reached;
}

/**
 * The index as a query snapshot keeps it: the names, with a table to find one by (packedStrings.ts),
 * and per name JSON of [id, line, kind, id, line, kind, …] (a location is the referring node's file
 * and a line, so only the line is kept). An answer reads one name's entry: parsing them all was 50 ms
 * of a fresh service's first fetch_node on Django.
 */
export function packUnresolved(byName: UnresolvedByName): Buffer {
  const names = [...byName.keys()];
  const entries = names.map((name) => JSON.stringify(byName.get(name)!.flatMap((r) => [r.id, Number(r.location.slice(r.location.lastIndexOf(':') + 1)), r.kind])));
  return packColumns([{ values: names, indexed: true }, { values: entries }]);
}

/** The saved index; throws when the section is damaged. */
export function unpackUnresolved(graph: ReadonlyGraph, bytes: Buffer): UnresolvedLookup {
  const columns = PackedColumn.read(bytes);
  if (columns.length !== 2 || columns[0].length !== columns[1].length) throw new Error('unresolved references are damaged');
  const [names, entries] = columns;
  const made = new Map<string, UnresolvedRef[]>();
  return {
    get(name: string): UnresolvedRef[] | undefined {
      let refs = made.get(name);
      if (refs) return refs;
      const at = names.indexOf(name);
      if (at < 0) return undefined;
      const flat = JSON.parse(entries.at(at)) as Array<string | number>;
      refs = [];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const id = String(flat[i]);
        refs.push({ id, location: `${graph.getNodeAttribute(id, 'path')}:${flat[i + 1]}`, kind: String(flat[i + 2]) });
      }
      made.set(name, refs);
      return refs;
    },
  };
}
