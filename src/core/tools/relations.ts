// The relations of a node as an agent reads them: one line per edge kind, and, for "who calls/uses
// this", the references the graph could not resolve that carry the same name, so that "0 callers"
// is never stated as a fact when dynamic dispatch or an unresolved import may hide some.
import type { ReadonlyGraph } from '../graph/describe';
import { unresolvedByName, type UnresolvedLookup } from '../graph/unresolvedRefs';
import { type EdgeKind, type GraphEdge, type GraphNode } from '../model/schema';
import { location, type ToolGraph } from './context';

export interface EdgeRow {
  kind: EdgeKind;
  direction: 'in' | 'out';
  id: string;
  qname: string;
  /** The site for incoming edges (where the other node refers to this one), the definition for outgoing. */
  location: string;
  external: boolean;
}

export interface Unresolved {
  /** Definitions (or modules) with a reference of this name that resolved to nothing. */
  sources: Array<{ id: string; location: string }>;
}

export const STRUCTURE: ReadonlySet<string> = new Set(['CONTAINS', 'HAS_METHOD', 'HAS_FIELD']);

/**
 * The edges of one definition, or of every definition of one function (`ids`: an overloaded function's
 * signatures and body); each other node once per kind and direction, none among `ids` themselves.
 */
export function edgeRows(graph: ReadonlyGraph, ids: string | readonly string[], direction: 'in' | 'out', kinds?: readonly string[]): EdgeRow[] {
  const own = new Set(typeof ids === 'string' ? [ids] : ids);
  const rows: EdgeRow[] = [];
  const seen = new Set<string>();
  const visit = (edge: GraphEdge, other: string) => {
    if (kinds && !kinds.includes(edge.kind)) return;
    if (own.size > 1 && (own.has(other) || seen.has(`${edge.kind} ${other}`))) return;
    seen.add(`${edge.kind} ${other}`);
    const n = graph.getNodeAttributes(other);
    // An incoming edge is shown at its site in the other node's file; an outgoing one at its target's definition.
    const site = direction === 'in' && edge.line >= 0 && n.path ? `${n.path}:${edge.line + 1}` : undefined;
    rows.push({ kind: edge.kind, direction, id: other, qname: n.qname, external: n.kind === 'External', location: site ?? location(n) });
  };
  for (const id of own) {
    if (direction === 'in') graph.forEachInEdge(id, (_, e, source) => visit(e, source));
    else graph.forEachOutEdge(id, (_, e, _s, target) => visit(e, target));
  }
  // Members and containers first, then dependencies; the repository's own code before externals. Ties
  // by kind and site: the answer does not depend on the order a graph keeps edges in (a snapshot's differs).
  return rows.sort((a, b) => order(a) - order(b) || a.qname.localeCompare(b.qname) || a.kind.localeCompare(b.kind) || a.location.localeCompare(b.location));
}

function order(row: EdgeRow): number {
  return (STRUCTURE.has(row.kind) ? 0 : 2) + (row.external ? 1 : 0);
}

/** `CALLS 7: a, b, c, d, e (+2)` per kind and direction. */
export function summarize(rows: EdgeRow[], shown = 5): string[] {
  const byKind = new Map<string, EdgeRow[]>();
  for (const r of rows) {
    const key = `${r.direction === 'out' ? '→' : '←'} ${r.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), r]);
  }
  return [...byKind].map(([key, list]) => {
    const names = list.slice(0, shown).map((r) => r.qname.split('.').slice(-2).join('.'));
    return `${key} ${list.length}: ${names.join(', ')}${list.length > shown ? ` (+${list.length - shown})` : ''}`;
  });
}

/**
 * Unresolved references by their last name part, per graph version: built on first use (one pass over
 * every file's references) and dropped when the graph changes; or, for a graph read from a query
 * snapshot (which keeps no per-file graphs and never changes), as the snapshot saved them.
 */
export class UnresolvedIndex {
  private built: { version: number; byName: UnresolvedLookup } | undefined;

  constructor(
    private readonly repo: ToolGraph,
    private readonly saved?: () => UnresolvedLookup,
  ) {}

  /** Unresolved CALLS (callers) or any reference (users) named like `node`, from outside the node itself (and its other definitions, `members`). */
  possible(node: GraphNode, kinds: readonly string[], members: readonly string[] = [node.id]): Unresolved {
    const refs = this.index().get(node.name) ?? [];
    const seen = new Set<string>();
    const sources = [];
    for (const r of refs) {
      if (!kinds.includes(r.kind) || r.id === node.id || members.includes(r.id) || seen.has(r.id)) continue;
      seen.add(r.id);
      sources.push({ id: r.id, location: r.location });
    }
    return { sources };
  }

  private index(): UnresolvedLookup {
    const repo = this.repo;
    if (this.built?.version === repo.version) return this.built.byName;
    this.built = { version: repo.version, byName: this.saved ? this.saved() : unresolvedByName(repo) };
    return this.built.byName;
  }
}
