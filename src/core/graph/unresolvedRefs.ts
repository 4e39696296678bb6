// The references a graph could not resolve, by the name they end in: what the agent tools list as
// possible callers and users (tools/relations.ts), and what a query snapshot keeps of them, since it
// keeps no per-file graphs to find them in.
import type { FileGraph } from '../parse/fileGraph';
import { symbolId } from '../model/schema';
import type { ReadonlyGraph } from './describe';

/** Unresolved references by their last name part: the referring definition (or module) and the kind of reference. */
export type UnresolvedByName = Map<string, Array<{ id: string; location: string; kind: string }>>;

/** One pass over every file's references: those the graph did not resolve, by their last name part. */
export function unresolvedByName(repo: { graph: ReadonlyGraph; filePaths(): string[]; fileGraph(path: string): FileGraph | undefined }): UnresolvedByName {
  const graph = repo.graph;
  const byName: UnresolvedByName = new Map();
  for (const path of repo.filePaths()) {
    const file = repo.fileGraph(path);
    if (!file) continue;
    // Calls on values of unknown type (`obj.save()`) have no chain to resolve: each is a possible caller by its name.
    const untyped = (file.untypedCalls ?? []).map((c) => ({ from: c.from, kind: 'CALLS', chain: [c.name], line: c.line }));
    for (const ref of [...file.refs, ...untyped]) {
      if (ref.kind === 'INHERITS') continue;
      const name = ref.chain.at(-1);
      if (!name || name === 'self' || name === 'this') continue;
      const source = ref.from === null ? path : symbolId(path, ref.from);
      if (!graph.hasNode(source)) continue;
      // Resolved when the source already has an edge to something of that name.
      let resolved = false;
      graph.forEachOutEdge(source, (_, _e, _s, target) => {
        if (!resolved && graph.getNodeAttribute(target, 'name') === name) resolved = true;
      });
      if (resolved) continue;
      const list = byName.get(name) ?? [];
      list.push({ id: source, location: `${path}:${ref.line + 1}`, kind: ref.kind });
      byName.set(name, list);
    }
  }
  return byName;
}

/**
 * The index as a query snapshot keeps it: JSON of name → [id, line, kind, id, line, kind, …]. A
 * location is the referring node's file and a line, so only the line is kept.
 */
export function packUnresolved(byName: UnresolvedByName): Buffer {
  // No prototype: a reference may end in `__proto__`.
  const packed = Object.create(null) as Record<string, Array<string | number>>;
  for (const [name, refs] of byName) packed[name] = refs.flatMap((r) => [r.id, Number(r.location.slice(r.location.lastIndexOf(':') + 1)), r.kind]);
  return Buffer.from(JSON.stringify(packed));
}

export function unpackUnresolved(graph: ReadonlyGraph, bytes: Buffer): UnresolvedByName {
  const byName: UnresolvedByName = new Map();
  for (const [name, flat] of Object.entries(JSON.parse(bytes.toString('utf8')) as Record<string, Array<string | number>>)) {
    const refs = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const id = String(flat[i]);
      refs.push({ id, location: `${graph.getNodeAttribute(id, 'path')}:${flat[i + 1]}`, kind: String(flat[i + 2]) });
    }
    byName.set(name, refs);
  }
  return byName;
}
