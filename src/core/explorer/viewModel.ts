// The explorer's level of detail: which part of the repository graph the webview sees. Nodes are
// visible when every ancestor in the containment tree is expanded; every graph edge is drawn between
// the nearest visible ancestors of its ends, aggregated per kind with a weight, so a collapsed folder
// still shows that it imports another. An opened node shows its most connected children a page at a
// time (Flask's 109 members would be 109 unlabelled dots): the rest stand together as one "+N more"
// node, which opens the next page. The visible set never exceeds `cap` nodes: an expansion that
// would pass it is refused. Every change (expand, collapse, focus, a graph update) recomputes the
// view and returns only its difference from the one the webview already holds.
import type { GraphDiff } from '../graph/repositoryGraph';
import type { GraphNode } from '../model/schema';
import { Containment, type AreaTree, type Graph } from './containment';
import { EXTERNALS_GROUP, MORE_PREFIX, type ViewDiff, type ViewEdge, type ViewGraph, type ViewNode, type ViewStats } from './protocol';

export interface ViewOptions {
  /** Hard ceiling on the nodes the view holds (and so ever sends). */
  cap?: number;
  /** Folders are opened on the first view, biggest first, while the visible nodes stay under this. */
  initialBudget?: number;
  /** Children an opened node shows at a time; the rest stand together as one "+N more" node. */
  page?: number;
}

export const DEFAULT_CAP = 2000;
/** Enough to show a repository's shape, few enough that every node can carry a readable label. */
const DEFAULT_INITIAL_BUDGET = 60;
/** About as many names as fit, labelled, around a node the explorer has zoomed in on. */
export const DEFAULT_PAGE = 20;
const MAX_DOC = 400;
const MAX_SIGNATURE = 240;

export class ExplorerView {
  readonly cap: number;
  private readonly initialBudget: number;
  private readonly page: number;
  private tree: Containment;
  private readonly expanded = new Set<string>();
  /** Pages of children shown under an opened node, when more than one. */
  private readonly pages = new Map<string, number>();
  /** Nodes shown whatever their parent's page (focused, found): a search never lands on a "+N more". */
  private readonly pinned = new Set<string>();
  /** Children left out of their parent's pages, by the "+N more" node that stands for them. */
  private paged = new Map<string, string>();
  private nodes = new Map<string, ViewNode>();
  private edges = new Map<string, ViewEdge>();
  private capped: string | undefined;

  /** `byAreas`: the functional hierarchy takes the folders' place (the same object, kept current by its owner). */
  constructor(private readonly graph: Graph, options: ViewOptions = {}, private readonly byAreas?: AreaTree) {
    this.cap = Math.max(1, options.cap ?? DEFAULT_CAP);
    this.initialBudget = Math.min(this.cap, options.initialBudget ?? DEFAULT_INITIAL_BUDGET);
    this.page = Math.max(1, options.page ?? DEFAULT_PAGE);
    this.tree = new Containment(graph, byAreas);
    this.openFolders();
    this.recompute();
  }

  /** The whole current view, for a first render or a fresh webview. */
  snapshot(): ViewGraph {
    return { nodes: [...this.nodes.values()], edges: [...this.edges.values()] };
  }

  stats(): ViewStats {
    return { graphNodes: this.graph.order, graphEdges: this.graph.size, cap: this.cap, ...(this.capped ? { capped: this.capped } : {}) };
  }

  isVisible(id: string): boolean {
    return this.nodes.has(id);
  }

  /** Opens a node; opening a "+N more" node shows its parent's next page. */
  expand(id: string): ViewDiff {
    const more = this.nodes.get(id);
    if (more?.kind === 'More' && more.parent) {
      const parent = more.parent;
      return this.change(() => this.pages.set(parent, (this.pages.get(parent) ?? 1) + 1));
    }
    if (!this.nodes.has(id) || this.tree.children(id).length === 0) return this.change(() => undefined);
    return this.change(() => this.expanded.add(id));
  }

  /** Closes a node; opened again, it starts from its first page. */
  collapse(id: string): ViewDiff {
    return this.change(() => {
      this.expanded.delete(id);
      this.pages.delete(id);
      for (const child of this.tree.children(id)) this.pinned.delete(child);
    });
  }

  /** Expands every ancestor of the nodes so they become visible (unless the cap forbids it). */
  focus(...ids: string[]): ViewDiff {
    return this.change(() => {
      for (const id of ids) {
        for (const a of this.tree.ancestors(id)) {
          this.expanded.add(a);
          this.pinned.add(a);
        }
        this.pinned.add(id);
      }
    });
  }

  /** The visible node that stands for `id`: itself, or its nearest visible ancestor. */
  representativeOf(id: string): string | undefined {
    return this.representative(id, this.tree);
  }

  /** The graph changed under the view (the engine applied `diff`): the view follows. */
  update(diff: GraphDiff): ViewDiff {
    const before = this.tree;
    const touched = [...diff.nodes.upsert.map((n) => n.id), ...diff.edges.upsert.map((e) => e.source)];
    const gone = [...diff.nodes.remove, ...diff.edges.remove.map((id) => id.split('|')[1] ?? '')];
    this.tree = new Containment(this.graph, this.byAreas);
    for (const id of this.expanded) if (!this.tree.has(id)) this.expanded.delete(id);
    for (const id of this.pages.keys()) if (!this.expanded.has(id)) this.pages.delete(id);
    for (const id of this.pinned) if (!this.tree.has(id)) this.pinned.delete(id);
    const result = this.change(() => undefined);
    const changed = new Set<string>();
    for (const id of touched) {
      const rep = this.representative(id, this.tree);
      if (rep) changed.add(rep);
    }
    for (const id of gone) {
      // a removed node has no place in the new tree: its old ancestors say where it was
      const rep = this.representative(id, this.tree) ?? before.ancestors(id).reverse().find((a) => this.nodes.has(a));
      if (rep) changed.add(rep);
    }
    result.changed = [...changed];
    return result;
  }

  private change(mutate: () => unknown): ViewDiff {
    const oldNodes = this.nodes;
    const oldEdges = this.edges;
    this.capped = undefined;
    mutate();
    this.recompute();
    return diffViews(oldNodes, this.nodes, oldEdges, this.edges);
  }

  /**
   * The first view: the roots, then the folder that stands for the most code is opened, again and
   * again, while the budget allows. A repository's big packages show their parts; its small corners
   * stay one node each.
   */
  private openFolders(): void {
    let visible = this.tree.roots.length;
    const candidates = this.tree.roots.filter((r) => r !== EXTERNALS_GROUP);
    while (candidates.length > 0) {
      let best = 0;
      for (let i = 1; i < candidates.length; i++) if (this.tree.descendants(candidates[i]) > this.tree.descendants(candidates[best])) best = i;
      const [id] = candidates.splice(best, 1);
      const { shown, rest } = this.pageOf(id);
      const opened = shown.length + (rest.length > 0 ? 1 : 0);
      if (opened === 0 || visible + opened > this.initialBudget) continue;
      this.expanded.add(id);
      visible += opened;
      for (const k of shown) if (this.tree.area(k) || (this.graph.hasNode(k) && this.graph.getNodeAttributes(k).kind === 'Folder')) candidates.push(k);
    }
  }

  /**
   * The children an opened node shows: its pages of the most connected ones (what a reader looks
   * for first), plus any pinned; the rest are left to a "+N more" node.
   */
  private pageOf(id: string): { shown: string[]; rest: string[] } {
    const kids = this.tree.children(id);
    const limit = this.page * (this.pages.get(id) ?? 1);
    if (kids.length <= limit + 1) return { shown: [...kids], rest: [] };
    const weight = (k: string) => this.tree.descendants(k) + (this.graph.hasNode(k) ? this.graph.degree(k) : 0);
    const ranked = kids.map((k, i) => ({ k, i, w: weight(k) })).sort((a, b) => b.w - a.w || a.i - b.i);
    const chosen = new Set(ranked.slice(0, limit).map((r) => r.k));
    for (const k of kids) if (this.pinned.has(k)) chosen.add(k);
    // shown in the tree's own order (folders, modules, types, functions, members; by name)
    return { shown: kids.filter((k) => chosen.has(k)), rest: ranked.filter((r) => !chosen.has(r.k)).map((r) => r.k) };
  }

  private recompute(): void {
    const nodes = new Map<string, ViewNode>();
    const paged = new Map<string, string>();
    const add = (id: string, parent: string | undefined) => nodes.set(id, this.viewNode(id, parent));
    const queue: string[] = [];
    for (const r of this.tree.roots) {
      if (nodes.size >= this.cap) break;
      add(r, undefined);
      queue.push(r);
    }
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i];
      if (!this.expanded.has(id)) continue;
      const { shown, rest } = this.pageOf(id);
      const opened = shown.length + (rest.length > 0 ? 1 : 0);
      if (nodes.size + opened > this.cap) {
        this.expanded.delete(id);
        this.pages.delete(id);
        this.capped = `${this.label(id)} has ${this.tree.children(id).length} children: opening it would show more than ${this.cap} nodes`;
        continue;
      }
      for (const k of shown) {
        add(k, id);
        queue.push(k);
      }
      if (rest.length > 0) {
        const more = MORE_PREFIX + id;
        nodes.set(more, this.moreNode(more, id, rest));
        for (const k of rest) paged.set(k, more);
      }
    }
    for (const node of nodes.values()) node.expanded = this.expanded.has(node.id) && this.tree.children(node.id).length > 0;
    this.nodes = nodes;
    this.paged = paged;
    this.edges = this.aggregateEdges();
  }

  /** Every graph edge lifted to the nearest visible ends; edges inside one collapsed node vanish. */
  private aggregateEdges(): Map<string, ViewEdge> {
    const reps = new Map<string, string | undefined>();
    const rep = (id: string) => {
      if (!reps.has(id)) reps.set(id, this.representative(id, this.tree));
      return reps.get(id);
    };
    const edges = new Map<string, ViewEdge>();
    this.graph.forEachEdge((_, edge, s, t) => {
      const source = rep(s);
      const target = rep(t);
      if (source === undefined || target === undefined || source === target) return;
      const id = `${edge.kind}|${source}|${target}`;
      const existing = edges.get(id);
      if (existing) existing.weight++;
      else edges.set(id, { id, kind: edge.kind, source, target, weight: 1 });
    });
    // An area holds its sub-areas and files as a folder does, though no graph edge says so: drawn (and
    // laid out) as containment all the same, so an opened area's parts gather around it.
    for (const node of this.nodes.values()) {
      if (!node.parent || !this.tree.area(node.parent)) continue;
      const id = `CONTAINS|${node.parent}|${node.id}`;
      edges.set(id, { id, kind: 'CONTAINS', source: node.parent, target: node.id, weight: 1 });
    }
    return edges;
  }

  /** The node itself when visible, else the nearest visible node that stands for it: a "+N more" or an ancestor. */
  private representative(id: string, tree: Containment): string | undefined {
    if (this.nodes.has(id)) return id;
    if (!tree.has(id)) return undefined;
    for (const at of [id, ...tree.ancestors(id).reverse()]) {
      if (this.nodes.has(at)) return at;
      const more = this.paged.get(at);
      if (more) return more;
    }
    return undefined;
  }

  private label(id: string): string {
    return id === EXTERNALS_GROUP ? 'External' : this.graph.hasNode(id) ? this.graph.getNodeAttributes(id).name : this.tree.area(id)?.name ?? id;
  }

  /** The children of `parent` left out of its pages, as one node; opening it shows the next page. */
  private moreNode(id: string, parent: string, rest: readonly string[]): ViewNode {
    let descendants = 0;
    for (const k of rest) descendants += 1 + this.tree.descendants(k);
    const next = rest.slice(0, this.page).map((k) => this.label(k));
    return {
      id, kind: 'More', label: `+${rest.length} more`, qname: `${rest.length} more in ${this.label(parent)}`, path: '', line: -1, parent,
      children: rest.length, descendants, expanded: false,
      signature: `${rest.length} more in ${this.label(parent)}, the least connected`,
      doc: `Opening shows ${next.length === rest.length ? 'them' : `the next ${next.length}`}: ${next.join(', ')}${next.length < rest.length ? ', …' : ''}`,
    };
  }

  private viewNode(id: string, parent: string | undefined): ViewNode {
    const common = { parent, children: this.tree.children(id).length, descendants: this.tree.descendants(id), expanded: false };
    if (id === EXTERNALS_GROUP) {
      return { id, kind: 'Externals', label: 'External', qname: 'external symbols', path: '', line: -1, signature: '', doc: '', ...common };
    }
    const area = this.tree.area(id);
    if (area) {
      const folders = area.scopes.map((s) => (s === '' ? './' : `${s}/`)).join(', ');
      return { id, kind: 'Area', label: area.name, qname: `area ${area.id}`, path: '', line: -1, signature: `${area.name}  in ${folders}`, doc: `key terms: ${area.terms.join(', ')}`, ...common };
    }
    const n: GraphNode = this.graph.getNodeAttributes(id);
    const doc = n.doc.length > MAX_DOC ? `${n.doc.slice(0, MAX_DOC)}…` : n.doc;
    // The folded compiled twins are named where the details and the hover show the docstring.
    const twins = this.tree.compiledTo(id);
    return {
      id,
      kind: n.kind,
      label: n.name,
      qname: n.qname,
      path: n.kind === 'External' ? '' : n.path,
      line: n.range ? n.range.startLine : -1,
      signature: n.signature.slice(0, MAX_SIGNATURE),
      doc: twins.length > 0 ? `${doc}${doc ? '\n' : ''}Also compiled to ${twins.join(', ')}` : doc,
      ...common,
    };
  }
}

export function diffViews(
  oldNodes: ReadonlyMap<string, ViewNode>, newNodes: ReadonlyMap<string, ViewNode>,
  oldEdges: ReadonlyMap<string, ViewEdge>, newEdges: ReadonlyMap<string, ViewEdge>,
): ViewDiff {
  const diff: ViewDiff = { nodes: { upsert: [], remove: [] }, edges: { upsert: [], remove: [] }, changed: [] };
  for (const [id, node] of newNodes) {
    const old = oldNodes.get(id);
    if (!old || JSON.stringify(old) !== JSON.stringify(node)) diff.nodes.upsert.push(node);
  }
  for (const id of oldNodes.keys()) if (!newNodes.has(id)) diff.nodes.remove.push(id);
  for (const [id, edge] of newEdges) {
    const old = oldEdges.get(id);
    if (!old || old.weight !== edge.weight) diff.edges.upsert.push(edge);
  }
  for (const id of oldEdges.keys()) if (!newEdges.has(id)) diff.edges.remove.push(id);
  return diff;
}

export function isEmptyDiff(diff: ViewDiff): boolean {
  return diff.nodes.upsert.length + diff.nodes.remove.length + diff.edges.upsert.length + diff.edges.remove.length + diff.changed.length === 0;
}
