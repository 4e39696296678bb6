// Dynamic dispatch as the graph can see it. A call is resolved statically, to the method the
// receiver's declared class has (`self.process()` in Compiler is Compiler.process); at run time the
// receiver may be a subclass, and the call runs its override. So every call to a method a subclass
// overrides is a *possible* call to the override: impact of a change to an override reaches the
// callers of the base method, and "callers" lists them, marked as such, never as resolved calls.
import type { ReadonlyGraph } from './describe';

type Graph = ReadonlyGraph;

export interface DispatchCaller {
  /** The definition whose call may dispatch to the override. */
  id: string;
  /** Zero-based line of the call, in the caller's file. */
  line: number;
  /** The base method the call is resolved to. */
  overridden: string;
}

/** The class or interface a method is a member of. */
function ownerOf(graph: Graph, id: string): string | undefined {
  let owner: string | undefined;
  graph.forEachInEdge(id, (_, e, source) => {
    if (e.kind === 'HAS_METHOD') owner = source;
  });
  return owner;
}

/** Every class `cls` inherits from, directly or not, in the repository. */
function ancestors(graph: Graph, cls: string): Set<string> {
  const found = new Set<string>();
  const stack = [cls];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    graph.forEachOutEdge(at, (_, e, _s, base) => {
      if (e.kind !== 'INHERITS' || found.has(base) || graph.getNodeAttribute(base, 'kind') === 'External') return;
      found.add(base);
      stack.push(base);
    });
  }
  return found;
}

/** The class whose code a definition is (a method, a function nested in one); undefined for module-level code. */
function enclosingClass(graph: Graph, id: string): string | undefined {
  for (let at: string | undefined = id, hops = 0; at !== undefined && hops < 16; hops++) {
    const kind = graph.getNodeAttribute(at, 'kind');
    if (kind === 'Class' || kind === 'Interface') return at;
    let parent: string | undefined;
    graph.forEachInEdge(at, (_, e, source) => {
      if (e.kind === 'HAS_METHOD' || e.kind === 'CONTAINS') parent = source;
    });
    at = parent;
  }
  return undefined;
}

/** The methods of `method`'s base classes (at any distance) that it overrides: the same name. */
export function overriddenMethods(graph: Graph, method: string): string[] {
  if (!graph.hasNode(method) || graph.getNodeAttribute(method, 'kind') !== 'Method') return [];
  const owner = ownerOf(graph, method);
  if (!owner) return [];
  const name = graph.getNodeAttribute(method, 'name');
  const found: string[] = [];
  for (const base of ancestors(graph, owner)) {
    graph.forEachOutEdge(base, (_, e, _s, member) => {
      if (e.kind === 'HAS_METHOD' && graph.getNodeAttribute(member, 'name') === name) found.push(member);
    });
  }
  return found;
}

/**
 * Calls resolved to a method `method` overrides, which may run `method` instead. Left out: the
 * override's own calls of what it overrides (`super().process()`), and calls from the code of a class
 * that inherits the base method but is no relative of the override's class (a sibling's
 * `self.process()` runs on a sibling, never on this class).
 */
export function dispatchCallers(graph: Graph, method: string, members: readonly string[] = [method]): DispatchCaller[] {
  const overridden = overriddenMethods(graph, method);
  if (overridden.length === 0) return [];
  const owner = ownerOf(graph, method)!;
  const ownerAncestors = ancestors(graph, owner);
  const callers: DispatchCaller[] = [];
  const seen = new Set(members);
  for (const base of overridden) {
    const baseOwner = ownerOf(graph, base);
    graph.forEachInEdge(base, (_, e, source) => {
      if (e.kind !== 'CALLS' || seen.has(source)) return;
      const cls = enclosingClass(graph, source);
      if (cls !== undefined && cls !== owner && !ownerAncestors.has(cls)) {
        const clsAncestors = ancestors(graph, cls);
        if (baseOwner !== undefined && clsAncestors.has(baseOwner) && !clsAncestors.has(owner)) return;
      }
      seen.add(source);
      callers.push({ id: source, line: e.line, overridden: base });
    });
  }
  return callers;
}
