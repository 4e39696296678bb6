// One webview's conversation about one repository graph, free of any editor API: the VS Code panel
// and the webview test's fake host both drive this class, so the tests exercise the real host logic.
// Editor-specific messages (reveal, follow, folder choice) are left to the caller.
import type { GraphDiff } from '../graph/repositoryGraph';
import type { AreaTree, Graph } from './containment';
import type { HostMessage, ViewBy, ViewDiff, WebviewMessage } from './protocol';
import { compiledFrom, sourceTwin } from '../search/compiledTwins';
import { searchNodes } from './search';
import { ExplorerView, isEmptyDiff, type ViewOptions } from './viewModel';

export class ExplorerSession {
  private view: ExplorerView;
  /** The functional hierarchy the view is by, when it is by areas. */
  private byAreas: AreaTree | undefined;

  /** `areas`: the view starts by the functional areas of this hierarchy (kept current by the caller), else by folders. */
  constructor(
    readonly folder: string,
    private readonly graph: Graph,
    private readonly send: (message: HostMessage) => void,
    private readonly options: ViewOptions = {},
    areas?: AreaTree,
  ) {
    this.view = this.viewOf(areas);
  }

  get viewBy(): ViewBy {
    return this.byAreas ? 'areas' : 'folders';
  }

  /** Sends the whole current view (the webview just loaded, or the view was started over). */
  sendAll(): void {
    this.send({ type: 'graph', folder: this.folder, graph: this.view.snapshot(), stats: this.view.stats(), viewBy: this.viewBy });
  }

  /** Starts the view over by folders, or by the functional areas of `areas` (kept current by the caller). */
  showBy(areas: AreaTree | undefined): void {
    this.view = this.viewOf(areas);
    this.sendAll();
  }

  /** A new view, by the areas of `areas` or by folders. */
  private viewOf(areas: AreaTree | undefined): ExplorerView {
    this.byAreas = areas;
    return new ExplorerView(this.graph, this.options, areas);
  }

  /** Handles the messages about the view itself; returns false for the ones the caller owns. */
  handle(message: WebviewMessage): boolean {
    switch (message.type) {
      case 'ready':
        this.sendAll();
        return true;
      case 'expand':
        this.sendDiff(this.view.expand(message.id));
        return true;
      case 'collapse':
        this.sendDiff(this.view.collapse(message.id));
        return true;
      case 'focus':
        this.focus(message.id, 'search');
        return true;
      case 'search':
        this.send({ type: 'searchResults', query: message.query, hits: searchNodes(this.graph, message.query) });
        return true;
      default:
        return false;
    }
  }

  /** The engine applied `diff` to the graph: the webview gets what changed in its view, nothing more. */
  graphChanged(diff: GraphDiff): void {
    this.sendDiff(this.view.update(diff));
  }

  /** Makes `id` visible (expanding its ancestors) and selects it in the webview. */
  focus(node: string, reason: 'search' | 'cursor'): void {
    if (!this.graph.hasNode(node)) return;
    const id = this.shownAs(node);
    this.sendDiff(this.view.focus(id));
    if (this.view.isVisible(id)) this.send({ type: 'select', id, reason });
  }

  /** A "Find Where Implemented" result: open up to the hit and its path, mark them, select the hit. */
  found(node: string, path: readonly string[]): void {
    if (!this.graph.hasNode(node)) return;
    const id = this.shownAs(node);
    const chain = [...new Set([...path, id].filter((n) => this.graph.hasNode(n)).map((n) => this.shownAs(n)))];
    this.sendDiff(this.view.focus(...chain));
    const shown = [...new Set(chain.map((n) => this.view.representativeOf(n)).filter((n): n is string => n !== undefined))];
    this.send({ type: 'found', id, path: shown });
    if (this.view.isVisible(id)) this.send({ type: 'select', id, reason: 'found' });
  }

  /** A node of a compiled twin (folded into its source in the view: containment.ts) as its source's; any other as itself. */
  private shownAs(id: string): string {
    return id.includes('#') ? sourceTwin(this.graph, id) : (compiledFrom(this.graph, id) ?? id);
  }

  private sendDiff(diff: ViewDiff): void {
    const stats = this.view.stats();
    if (isEmptyDiff(diff) && !stats.capped) return;
    this.send({ type: 'diff', diff, stats });
  }
}
