// The one message protocol between the graph explorer's host (src/extension/explorer) and its
// webview (webview-ui). Both sides import these types (the webview type-only), so a message that one
// side sends and the other does not understand is a compile error, not a silent no-op.
import type { EdgeKind, NodeKind } from '../model/schema';

/** A group that stands for every External node (they have no folder of their own). */
export const EXTERNALS_GROUP = 'ext:';

/** The id prefix of the node that stands for an opened node's children beyond its pages (`more:<parent id>`). */
export const MORE_PREFIX = 'more:';

/** `Area`: a functional area (RPG-Encoder's feature hierarchy) in the view by areas; `More`: the children beyond a node's pages. */
export type ViewNodeKind = NodeKind | 'Externals' | 'Area' | 'More';

/** What the view's first levels are: the folders, or the functional areas (folders one toggle away). */
export type ViewBy = 'folders' | 'areas';

/** One node as the webview draws it: a graph node, or a collapsed group standing for its subtree. */
export interface ViewNode {
  id: string;
  kind: ViewNodeKind;
  label: string;
  qname: string;
  /** Repository-relative file; '' for folders' own entries, externals and the externals group. */
  path: string;
  /** Zero-based first line of the definition, -1 when there is none. */
  line: number;
  /** The visible node this one hangs under (undefined for the roots). */
  parent?: string;
  /** Direct children in the containment tree (folders, modules, classes, methods…). */
  children: number;
  /** Nodes in the subtree below, itself excluded: what a collapsed node stands for. */
  descendants: number;
  expanded: boolean;
  signature: string;
  doc: string;
}

/** An edge between two visible nodes; `weight` counts the graph edges it aggregates. */
export interface ViewEdge {
  id: string;
  kind: EdgeKind;
  source: string;
  target: string;
  weight: number;
}

export interface ViewGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
}

export interface ViewDiff {
  nodes: { upsert: ViewNode[]; remove: string[] };
  edges: { upsert: ViewEdge[]; remove: string[] };
  /** Visible nodes whose own source or subtree changed in the graph update behind this diff. */
  changed: string[];
}

export interface ViewStats {
  /** Nodes in the whole repository graph. */
  graphNodes: number;
  graphEdges: number;
  /** The most nodes the view will ever send. */
  cap: number;
  /** Set when the last expansion was refused or cut because of the cap. */
  capped?: string;
}

export interface FolderChoice {
  key: string;
  name: string;
}

export interface SearchHit {
  id: string;
  label: string;
  kind: NodeKind;
  qname: string;
  path: string;
}

export type HostMessage =
  | { type: 'graph'; folder: string; graph: ViewGraph; stats: ViewStats; viewBy: ViewBy }
  | { type: 'diff'; diff: ViewDiff; stats: ViewStats }
  | { type: 'folders'; folders: FolderChoice[]; current: string | undefined }
  | { type: 'searchResults'; query: string; hits: SearchHit[] }
  /** Centre on and select a node (a search pick, the symbol under the cursor, a find-where result). */
  | { type: 'select'; id: string; reason: 'search' | 'cursor' | 'found' }
  /** The last "Find Where Implemented" pick and the path that found it, as visible nodes (start first). */
  | { type: 'found'; id: string; path: string[] }
  | { type: 'status'; text: string }
  | { type: 'follow'; on: boolean }
  /** A node's first source lines, shown in the details: a click's preview (an editor would change the layout). */
  | { type: 'source'; id: string; line: number; lines: string[] };

export type WebviewMessage =
  | { type: 'ready' }
  /** Sent after a `graph` or `diff` message is on screen (`of` says which): how many nodes and edges sigma holds. */
  | { type: 'rendered'; of: 'graph' | 'diff'; nodes: number; edges: number; ms: number }
  | { type: 'expand'; id: string }
  | { type: 'collapse'; id: string }
  /** Open a node's source beside the graph; `preview` (a click): show its first lines in the panel instead. */
  | { type: 'reveal'; id: string; path: string; line: number; preview?: boolean }
  | { type: 'search'; query: string }
  /** Make a node visible (expanding its ancestors) and select it. */
  | { type: 'focus'; id: string }
  | { type: 'setFollow'; on: boolean }
  /** Start the view over by folders or by functional areas (the host builds the areas if need be). */
  | { type: 'setViewBy'; viewBy: ViewBy }
  | { type: 'selectFolder'; key: string };

/** What the webview keeps with `setState`: after a window reload the panel reopens on it. */
export interface ExplorerState {
  /** The workspace folder's URI, as in `FolderChoice.key`. */
  folder?: string;
  follow: boolean;
  /** The selected node, made visible again. */
  selected?: string;
  /** The view by areas is opened again by areas. */
  viewBy?: ViewBy;
}
