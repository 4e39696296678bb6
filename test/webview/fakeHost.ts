// The explorer webview's host, minus VS Code: the real ExplorerSession over a real graph (indexed by
// the engine and shipped into the page as fixture data), behind the same `acquireVsCodeApi` the
// webview uses inside VS Code. Records every message both ways for the tests and the benchmark.
import { MultiDirectedGraph } from 'graphology';
import type { SerializedGraph } from 'graphology-types';
import type { GraphDiff } from '../../src/core/graph/repositoryGraph';
import type { GraphEdge, GraphNode } from '../../src/core/model/schema';
import type { HostMessage, WebviewMessage } from '../../src/core/explorer/protocol';
import type { Area } from '../../src/core/features/hierarchy';
import { ExplorerSession } from '../../src/core/explorer/session';

export interface FixtureData {
  folder: string;
  graph: SerializedGraph<GraphNode, GraphEdge>;
  /** A real edit's graph diff, applied on `applyUpdate()`. */
  update?: GraphDiff;
  /** The functional hierarchy's areas, as the host builds them for the view by areas (none: areas stay empty). */
  areas?: Area[];
  cap?: number;
}

const data = (window as unknown as { fixtureData: FixtureData }).fixtureData;
const graph = new MultiDirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
graph.import(data.graph);
const sent: Array<HostMessage & { at: number }> = [];
const received: Array<WebviewMessage & { at: number }> = [];
const deliver = (message: HostMessage) => {
  sent.push({ ...message, at: performance.now() });
  // VS Code delivers host messages asynchronously, as window message events
  setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data: message })), 0);
};
const session = new ExplorerSession(data.folder, graph, deliver, { cap: data.cap });

/** What the engine does to its graph for a GraphDiff: removals, then upserts. */
function applyToGraph(diff: GraphDiff): void {
  for (const id of diff.edges.remove) if (graph.hasEdge(id)) graph.dropEdge(id);
  for (const id of diff.nodes.remove) if (graph.hasNode(id)) graph.dropNode(id);
  for (const n of diff.nodes.upsert) graph.mergeNode(n.id, n);
  for (const e of diff.edges.upsert) if (!graph.hasEdge(e.id)) graph.addEdgeWithKey(e.id, e.source, e.target, e);
}

let webviewState: unknown;
(window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
  getState: () => webviewState,
  setState: (state: unknown) => {
    webviewState = state;
  },
  postMessage(message: WebviewMessage) {
    received.push({ ...message, at: performance.now() });
    // the view by areas is the repository's to answer (it builds the hierarchy), as LocalRepository does
    if (message.type === 'setViewBy') setTimeout(() => session.showBy(message.viewBy === 'areas' ? { areas: new Map((data.areas ?? []).map((a) => [a.id, a])) } : undefined), 0);
    else setTimeout(() => session.handle(message), 0);
  },
});

(window as unknown as { fakeHost: unknown }).fakeHost = {
  sent,
  received,
  /** What the webview keeps with setState (VS Code hands it to the panel serializer after a reload). */
  state: () => webviewState,
  graphNode: (id: string) => (graph.hasNode(id) ? graph.getNodeAttributes(id) : undefined),
  /** Plays the webview's part (the benchmark expands many nodes without clicking each). */
  act: (message: WebviewMessage) => session.handle(message),
  /** What the panel does with Follow cursor on when the cursor rests in a definition. */
  cursor: (id: string) => session.focus(id, 'cursor'),
  /** What "Find Where Implemented" does when the user picks a hit. */
  found: (id: string, path: string[]) => session.found(id, path),
  applyUpdate() {
    if (!data.update) throw new Error('this fixture has no update');
    applyToGraph(data.update);
    session.graphChanged(data.update);
  },
};
