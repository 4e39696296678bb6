// The graph explorer's front end: holds the visible part of the repository graph (what the host's
// ExplorerView sends), draws it with sigma.js, and turns clicks, keys and the search box into
// protocol messages. All knowledge of the full graph stays in the host.
import { MultiDirectedGraph } from 'graphology';
import Sigma from 'sigma';
import { FILTERABLE_NODE_KINDS } from '../../src/core/explorer/page';
import { EDGE_KINDS, type EdgeKind } from '../../src/core/model/schema';
import type { ExplorerState, HostMessage, SearchHit, ViewDiff, ViewEdge, ViewGraph, ViewNode, ViewNodeKind, ViewStats, WebviewMessage } from '../../src/core/explorer/protocol';
import { BurstLayout, coreBox } from './layout';
import { LabelPlacer, type Disc } from './labels';
import { drawThemedHover, paintLegend, readPalette, watchTheme, type Palette } from './theme';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void; setState(state: ExplorerState): void };

const host = acquireVsCodeApi();
const post = (m: WebviewMessage) => host.postMessage(m);
/** Kept by VS Code across a window reload and handed to the panel's serializer, which reopens the panel as it was. */
const state: ExplorerState = { follow: false };
const remember = (change: Partial<ExplorerState>) => host.setState(Object.assign(state, change));
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const graph = new MultiDirectedGraph();
const layout = new BurstLayout(graph);
let palette: Palette = readPalette();
const hiddenNodeKinds = new Set<string>();
const hiddenEdgeKinds = new Set<string>();
let selected: string | undefined;
/** The node whose source lines the details show (a click's preview). */
let sourceOf: string | undefined;
let hovered: string | undefined;
let flashing = new Set<string>();
/** The last find-where hit and the path that found it (visible nodes). */
let foundPath = new Set<string>();
let flashTimer: ReturnType<typeof setTimeout> | undefined;
let stats: ViewStats | undefined;
// every drawn disc is an obstacle for the labels (a label never runs across another node)
const labels: LabelPlacer = new LabelPlacer((): Disc[] =>
  graph.filterNodes((_, a) => !hiddenNodeKinds.has((a.view as ViewNode).kind)).flatMap((key): Disc[] => {
    const d = renderer.getNodeDisplayData(key);
    if (!d || d.hidden) return [];
    const p = renderer.framedGraphToViewport(d);
    return [{ key, x: p.x, y: p.y, r: renderer.scaleSize(d.size) }];
  }),
);
/** Labels two visible nodes share (zod's three `classic` folders): those are shown with their parent's. */
let sameNames = new Set<string>();

function findSameNames(): void {
  const seen = new Set<string>();
  sameNames = new Set();
  graph.forEachNode((_, a) => {
    const label = (a.view as ViewNode).label;
    if (seen.has(label)) sameNames.add(label);
    seen.add(label);
  });
}

const renderer = new Sigma(graph, $('graph'), {
  defaultEdgeType: 'arrow',
  labelColor: { attribute: 'labelColor' },
  labelFont: getComputedStyle(document.body).fontFamily || 'sans-serif',
  labelSize: 13,
  // every node is a label candidate, biggest first (one grid cell holds them all, sorted by size);
  // drawLabelWithoutOverlap then skips any label that would cross one already drawn
  labelGridCellSize: 4000,
  labelDensity: 1000,
  // leaves too (3 px at the fitted zoom): collision avoidance, not size, decides which labels fit
  labelRenderedSizeThreshold: 0,
  // room for the labels of the nodes at the edges of a fitted view
  stagePadding: 48,
  zIndex: true,
  defaultDrawNodeLabel: labels.draw,
  defaultDrawNodeHover: drawThemedHover(() => palette),
  nodeReducer: (id, data) => {
    const view = data.view as ViewNode;
    if (hiddenNodeKinds.has(view.kind)) return { ...data, hidden: true };
    const focus = hovered ?? selected;
    const onPath = foundPath.has(id);
    const near = !focus || id === focus || onPath || graph.areNeighbors(id, focus);
    const name = sameNames.has(view.label) && view.parent && graph.hasNode(view.parent) ? `${(graph.getNodeAttribute(view.parent, 'view') as ViewNode).label}/${view.label}` : view.label;
    const label = view.children > 0 && !view.expanded && view.kind !== 'More' ? `${name} (+${view.descendants})` : name;
    return {
      ...data,
      label,
      labelColor: near ? palette.label : palette.dimLabel,
      color: near ? palette.node(view.kind) : palette.dimNode(view.kind),
      highlighted: id === selected || flashing.has(id) || onPath,
      forceLabel: id === focus || id === selected || onPath,
      zIndex: id === focus ? 2 : near ? 1 : 0,
    };
  },
  edgeReducer: (id, data) => {
    const edge = data.view as ViewEdge;
    if (hiddenEdgeKinds.has(edge.kind)) return { ...data, hidden: true };
    const focus = hovered ?? selected;
    if (foundPath.has(edge.source) && foundPath.has(edge.target)) return { ...data, color: palette.highlight, size: Math.max(3, data.size ?? 1), zIndex: 2 };
    if (!focus) return { ...data, color: palette.softEdge(edge.kind) };
    const near = graph.hasExtremity(id, focus);
    return { ...data, color: near ? palette.edge(edge.kind) : palette.dimEdge(edge.kind), zIndex: near ? 1 : 0 };
  },
});
renderer.on('beforeRender', () => labels.clear());

/** A node's first position: beside its parent (new children fan out around it), else on a ring. */
function seedPosition(node: ViewNode, index: number): { x: number; y: number } {
  const angle = index * 2.399963; // golden angle: successive siblings never stack
  const parent = node.parent && graph.hasNode(node.parent) ? graph.getNodeAttributes(node.parent) : undefined;
  const r = parent ? 2 + Math.sqrt(index) : 10 + Math.sqrt(index) * 4;
  return { x: (parent?.x ?? 0) + r * Math.cos(angle), y: (parent?.y ?? 0) + r * Math.sin(angle) };
}

/** Area grows with what a node stands for: a folder of 500 definitions is clearly bigger than one of 5. A "+N more" grows with its N. */
function nodeSize(view: ViewNode): number {
  return Math.min(20, 3 + 1.5 * Math.log2(1 + (view.kind === 'More' ? view.children : view.descendants)));
}

function upsertNode(view: ViewNode, index: number): boolean {
  if (graph.hasNode(view.id)) {
    graph.mergeNodeAttributes(view.id, { view, size: nodeSize(view) });
    return false;
  }
  graph.addNode(view.id, { view, size: nodeSize(view), ...seedPosition(view, index) });
  return true;
}

function upsertEdge(view: ViewEdge): void {
  const size = Math.min(2, 0.5 + 0.3 * Math.log2(view.weight));
  if (graph.hasEdge(view.id)) graph.mergeEdgeAttributes(view.id, { view, size });
  else if (graph.hasNode(view.source) && graph.hasNode(view.target)) graph.addEdgeWithKey(view.id, view.source, view.target, { view, size });
}

function showGraph(view: ViewGraph): void {
  layout.stop();
  graph.clear();
  selected = undefined;
  $('details').hidden = true;
  foundPath = new Set();
  view.nodes.forEach(upsertNode);
  view.edges.forEach(upsertEdge);
  findSameNames();
  // converged before the first frame, from the same seeds every time: the first view is the final one
  layout.converge();
  fit(false);
}

/** Frames the bulk of the graph (2nd to 98th percentile on each axis): one far-off node cannot shrink the rest. */
function fit(animate: boolean): void {
  const box = coreBox(graph.mapNodes((_, a) => (hiddenNodeKinds.has((a.view as ViewNode).kind) ? undefined : [a.x as number, a.y as number])).filter((p): p is [number, number] => !!p));
  renderer.setCustomBBox(box ?? null);
  renderer.refresh();
  const home = { x: 0.5, y: 0.5, ratio: 1, angle: 0 };
  if (animate) void renderer.getCamera().animate(home, { duration: 300 });
  else renderer.getCamera().setState(home);
}

function applyDiff(diff: ViewDiff): void {
  layout.stop();
  for (const id of diff.edges.remove) if (graph.hasEdge(id)) graph.dropEdge(id);
  for (const id of diff.nodes.remove) if (graph.hasNode(id)) graph.dropNode(id);
  if (selected && !graph.hasNode(selected)) selected = undefined;
  if (hovered && !graph.hasNode(hovered)) {
    // sigma sends no leaveNode for a node dropped under the mouse
    hovered = undefined;
    $('tooltip').hidden = true;
  }
  const added = new Set<string>();
  // parents before children, so a new child is seeded next to its (possibly new) parent
  diff.nodes.upsert.forEach((n, i) => upsertNode(n, i) && added.add(n.id));
  diff.edges.upsert.forEach(upsertEdge);
  findSameNames();
  flash(diff.changed);
  layout.only(added);
}

function flash(ids: string[]): void {
  if (ids.length === 0) return;
  flashing = new Set(ids);
  if (flashTimer) clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    flashing = new Set();
    renderer.refresh({ skipIndexation: true });
  }, 2000);
}

function afterNextRender(of: 'graph' | 'diff', started: number): void {
  renderer.once('afterRender', () => post({ type: 'rendered', of, nodes: graph.order, edges: graph.size, ms: performance.now() - started }));
  renderer.refresh();
}

// ---- selection, details, reveal -----------------------------------------------------------------

function select(id: string | undefined, centre = false): void {
  selected = id && graph.hasNode(id) ? id : undefined;
  remember({ selected });
  // a Find Where Implemented path is about its own hit: selecting anything off it (or nothing) ends it
  if (!selected || !foundPath.has(selected)) foundPath = new Set();
  const details = $('details');
  // a preview's source lines belong to the node they were read for
  if (selected !== sourceOf) $('details-source').hidden = true;
  if (!selected) {
    details.hidden = true;
    renderer.refresh({ skipIndexation: true });
    return;
  }
  const view = graph.getNodeAttribute(selected, 'view') as ViewNode;
  details.hidden = false;
  $('details-title').textContent = view.label;
  $('details-kind').textContent = `${view.kind}${view.path ? ` · ${view.path}${view.line >= 0 ? `:${view.line + 1}` : ''}` : ''}`;
  $('details-signature').textContent = view.signature;
  $('details-doc').textContent = view.doc;
  const toggle = $<HTMLButtonElement>('toggle');
  toggle.hidden = view.children === 0;
  toggle.textContent = view.kind === 'More' ? 'Show More' : view.expanded ? 'Collapse' : 'Expand';
  $<HTMLButtonElement>('reveal').hidden = !view.path;
  if (centre) {
    // a node that just appeared is still finding its place: centre on where it ends up
    const id = selected;
    layout.whenSettled(() => {
      const at = id === selected ? renderer.getNodeDisplayData(id) : undefined;
      if (at) void renderer.getCamera().animate({ x: at.x, y: at.y, ratio: Math.min(renderer.getCamera().ratio, 0.5) }, { duration: 300 });
    });
  }
  renderer.refresh({ skipIndexation: true });
}

function showSource(id: string, line: number, lines: string[]): void {
  if (id !== selected) return;
  sourceOf = id;
  const width = String(line + lines.length).length;
  const source = $('details-source');
  source.textContent = lines.map((text, i) => `${String(line + i + 1).padStart(width)}  ${text}`).join('\n');
  source.hidden = false;
}

/** A click previews the source (its first lines, in the details) and leaves the keyboard in the graph; Enter and Reveal open it and move there. */
function reveal(id: string | undefined, preview = false): void {
  if (!id || !graph.hasNode(id)) return;
  const view = graph.getNodeAttribute(id, 'view') as ViewNode;
  if (view.path) post({ type: 'reveal', id, path: view.path, line: Math.max(0, view.line), preview });
}

/** The node the user just opened: its children are framed once they arrive and settle. */
let opening: string | undefined;

function toggle(id: string | undefined, open?: boolean): void {
  if (!id || !graph.hasNode(id)) return;
  const view = graph.getNodeAttribute(id, 'view') as ViewNode;
  // "-" on a "+N more" closes what it belongs to
  if (view.kind === 'More' && open === false) return toggle(view.parent, false);
  if (view.children === 0) return;
  const expand = open ?? !view.expanded;
  if (expand === view.expanded) return;
  // a "+N more" opens its parent's next page: the parent and all its shown children are framed
  opening = !expand ? undefined : view.kind === 'More' ? view.parent : id;
  post({ type: expand ? 'expand' : 'collapse', id });
}

/**
 * After the user opens a node, once its children have settled: zoom in (never out) until the node and
 * its children fill most of the view, so a class's dozens of members are read as names, not dots.
 */
function frameOpened(id: string): void {
  layout.whenSettled(() => {
    if (!graph.hasNode(id)) return;
    const points = [id, ...graph.filterNodes((_, a) => (a.view as ViewNode).parent === id)]
      .map((n) => renderer.getNodeDisplayData(n))
      .filter((d): d is NonNullable<typeof d> => d !== undefined && !d.hidden);
    if (points.length < 2) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const camera = renderer.getCamera();
    const ratio = Math.max(0.05, 1.25 * Math.max(x1 - x0, y1 - y0));
    if (ratio < camera.ratio) void camera.animate({ x: (x0 + x1) / 2, y: (y0 + y1) / 2, ratio }, { duration: 300 });
  });
}

renderer.on('clickNode', ({ node }) => {
  select(node);
  reveal(node, true);
});
renderer.on('doubleClickNode', ({ node, event }) => {
  event.preventSigmaDefault();
  toggle(node);
});
renderer.on('clickStage', () => select(undefined));
renderer.on('enterNode', ({ node, event }) => {
  hovered = node;
  showTooltip(graph.getNodeAttribute(node, 'view') as ViewNode, event.x, event.y);
  renderer.refresh({ skipIndexation: true });
});
renderer.on('leaveNode', () => {
  hovered = undefined;
  $('tooltip').hidden = true;
  renderer.refresh({ skipIndexation: true });
});

function showTooltip(view: ViewNode, x: number, y: number): void {
  const tip = $('tooltip');
  tip.replaceChildren();
  const title = document.createElement('pre');
  title.textContent = view.signature || `${view.kind} ${view.qname}`;
  tip.append(title);
  if (view.doc) {
    const doc = document.createElement('p');
    doc.textContent = view.doc;
    tip.append(doc);
  }
  const box = $('graph').getBoundingClientRect();
  tip.style.left = `${box.left + x + 12}px`;
  tip.style.top = `${box.top + y + 12}px`;
  tip.hidden = false;
}

$('reveal').addEventListener('click', () => reveal(selected));
$('toggle').addEventListener('click', () => toggle(selected));
$('fit').addEventListener('click', () => fit(true));
$('graph').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') reveal(selected);
  else if (e.key === '+' || e.key === '=') toggle(selected, true);
  else if (e.key === '-') toggle(selected, false);
  else if (e.key === 'Escape') select(undefined);
  else if (e.key === '0') fit(true);
  else return;
  e.preventDefault();
});
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement !== $('search')) {
    e.preventDefault();
    $('search').focus();
  }
});

// ---- filters, follow, folders --------------------------------------------------------------------

document.querySelectorAll<HTMLInputElement>('input[data-node-kind]').forEach((box) => {
  const apply = () => (box.checked ? hiddenNodeKinds.delete(box.dataset.nodeKind!) : hiddenNodeKinds.add(box.dataset.nodeKind!));
  apply();
  box.addEventListener('change', () => {
    apply();
    showStatus();
    renderer.refresh({ skipIndexation: true });
  });
});
document.querySelectorAll<HTMLInputElement>('input[data-edge-kind]').forEach((box) => {
  const apply = () => (box.checked ? hiddenEdgeKinds.delete(box.dataset.edgeKind!) : hiddenEdgeKinds.add(box.dataset.edgeKind!));
  apply();
  box.addEventListener('change', () => {
    apply();
    renderer.refresh({ skipIndexation: true });
  });
});
$<HTMLInputElement>('follow').addEventListener('change', (e) => {
  const on = (e.target as HTMLInputElement).checked;
  remember({ follow: on });
  post({ type: 'setFollow', on });
});
$<HTMLInputElement>('by-areas').addEventListener('change', (e) => {
  const byAreas = (e.target as HTMLInputElement).checked;
  showStatus(byAreas ? 'Grouping the code into functional areas…' : undefined);
  post({ type: 'setViewBy', viewBy: byAreas ? 'areas' : 'folders' });
});
$<HTMLSelectElement>('folder').addEventListener('change', (e) => post({ type: 'selectFolder', key: (e.target as HTMLSelectElement).value }));

// ---- search ---------------------------------------------------------------------------------------

const searchBox = $<HTMLInputElement>('search');
const results = $<HTMLUListElement>('results');
let hits: SearchHit[] = [];
let active = -1;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

searchBox.addEventListener('input', () => {
  if (searchTimer) clearTimeout(searchTimer);
  searchTimer = setTimeout(() => post({ type: 'search', query: searchBox.value }), 120);
});
searchBox.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    if (hits.length === 0) return;
    active = (active + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length;
    showHits();
  } else if (e.key === 'Enter') {
    choose(hits[Math.max(0, active)]);
  } else if (e.key === 'Escape') {
    results.hidden = true;
  } else return;
  e.preventDefault();
});

function showHits(): void {
  results.replaceChildren(
    ...hits.map((h, i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === active));
      li.dataset.id = h.id;
      li.textContent = h.label;
      const where = document.createElement('small');
      where.textContent = `${h.kind} · ${h.qname}`;
      li.append(where);
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        choose(h);
      });
      return li;
    }),
  );
  results.hidden = hits.length === 0;
}

function choose(hit: SearchHit | undefined): void {
  if (!hit) return;
  results.hidden = true;
  // the user picked a hit: the graph takes the keyboard, so +, - and Enter act on it
  $('graph').focus();
  post({ type: 'focus', id: hit.id });
}

// ---- host messages --------------------------------------------------------------------------------

let statusText: string | undefined;

/** The counter counts what is drawn: nodes of a kind the filters hide are not "shown". */
function showStatus(text?: string): void {
  if (text !== undefined) statusText = text;
  const s = stats;
  const drawn = graph.filterNodes((_, a) => !hiddenNodeKinds.has((a.view as ViewNode).kind)).length;
  const summary = s ? `${drawn} of ${s.graphNodes} nodes shown` : '';
  $('status').textContent = [statusText ?? s?.capped, summary].filter(Boolean).join(' · ');
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  const started = performance.now();
  switch (m.type) {
    case 'graph':
      stats = m.stats;
      statusText = undefined;
      $<HTMLInputElement>('by-areas').checked = m.viewBy === 'areas';
      remember({ viewBy: m.viewBy });
      showGraph(m.graph);
      showStatus();
      afterNextRender('graph', started);
      break;
    case 'diff':
      stats = m.stats;
      statusText = undefined;
      applyDiff(m.diff);
      if (opening && m.diff.nodes.upsert.some((n) => n.parent === opening)) {
        frameOpened(opening);
        opening = undefined;
      }
      if (selected) select(selected);
      showStatus();
      afterNextRender('diff', started);
      break;
    case 'select':
      // never focus(): a host message is not the user's input, and the editor they type in keeps focus
      select(m.id, true);
      break;
    case 'found':
      foundPath = new Set(m.path);
      renderer.refresh({ skipIndexation: true });
      break;
    case 'searchResults':
      if (m.query !== searchBox.value) return;
      hits = m.hits;
      active = hits.length > 0 ? 0 : -1;
      showHits();
      break;
    case 'folders': {
      remember({ folder: m.current });
      const picker = $<HTMLSelectElement>('folder');
      picker.replaceChildren(...m.folders.map((f) => new Option(f.name, f.key, false, f.key === m.current)));
      picker.hidden = m.folders.length < 2;
      break;
    }
    case 'status':
      showStatus(m.text);
      break;
    case 'follow':
      remember({ follow: m.on });
      $<HTMLInputElement>('follow').checked = m.on;
      break;
    case 'source':
      showSource(m.id, m.line, m.lines);
      break;
  }
});


watchTheme(() => {
  palette = readPalette();
  paintLegend(palette);
  renderer.refresh({ skipIndexation: true });
});
paintLegend(palette);

/** Read-only handle for the webview tests and the benchmark (what is drawn, where). */
(window as unknown as { cartographExplorer: unknown }).cartographExplorer = {
  graph,
  renderer,
  layoutRunning: () => layout.running,
  selected: () => selected,
  foundPath: () => [...foundPath],
  isShown: (id: string) => graph.hasNode(id) && !renderer.getNodeDisplayData(id)?.hidden,
  isEdgeShown: (id: string) => graph.hasEdge(id) && !renderer.getEdgeDisplayData(id)?.hidden,
  /** Where a node is drawn, in page coordinates (what a mouse click needs). */
  pagePosition: (id: string) => {
    const d = renderer.getNodeDisplayData(id);
    if (!d) return undefined;
    const p = renderer.framedGraphToViewport(d);
    const box = $('graph').getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  },
  /** The colours in use, by kind, and the background they sit on. */
  palette: () => ({
    nodes: Object.fromEntries(FILTERABLE_NODE_KINDS.map((k) => [k, palette.node(k)])),
    edges: Object.fromEntries(EDGE_KINDS.map((k) => [k, palette.edge(k)])),
    background: palette.background,
  }),
  /** The labels drawn in the last frame, with their boxes in viewport pixels. */
  drawnLabels: () => labels.drawn(),
  edgeKinds: (): EdgeKind[] => [...new Set(graph.mapEdges((_, a) => (a.view as ViewEdge).kind))],
  nodeKinds: (): ViewNodeKind[] => [...new Set(graph.mapNodes((_, a) => (a.view as ViewNode).kind))],
};

post({ type: 'ready' });
