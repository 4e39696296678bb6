// The graph explorer's webview panel: VS Code glue around the folder repository's ExplorerSession
// (src/core/explorer, which hears of saves and watcher batches next to the graph). It picks the
// workspace folder, forwards the webview's messages, reveals sources on request, follows the cursor
// when asked to, and serves the webview under a strict CSP.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { explorerPage } from '../../core/explorer/page';
import type { ExplorerState, HostMessage, ViewBy, WebviewMessage } from '../../core/explorer/protocol';
import type { Repository } from '../../core/service/repository';
import type { FoundResult } from '../findCommand';
import { errorText, log } from '../log';
import type { WorkspaceIndex } from '../workspaceIndex';

export interface ExplorerHost {
  indexes(): readonly WorkspaceIndex[];
  indexFor(uri: vscode.Uri): WorkspaceIndex | undefined;
}

const FOLLOW_DELAY_MS = 250;
/** Lines of a definition a click shows in the panel's details. */
const SOURCE_PREVIEW_LINES = 20;
export const EXPLORER_VIEW_TYPE = 'cartograph.explorer';

export class ExplorerPanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private folderEvents: vscode.Disposable[] = [];
  private index: WorkspaceIndex | undefined;
  /** The repository whose explorer session talks to this webview (undefined until the folder is ready). */
  private session: Repository | undefined;
  /** Webview messages are handled one after another: each may wait on the repository. */
  private handling: Promise<void> = Promise.resolve();
  /** The folder's state was 'ready' at the last refresh: a new 'ready' after anything else means a fresh index. */
  private wasReady = false;
  private follow = false;
  /** Messages wait for the webview's `ready`: anything posted before its script runs may be lost. */
  private webviewReady = false;
  private disposed = false;
  private lastFound: FoundResult | undefined;
  /** A node to select once the view is shown (the selection before a reload). */
  private pendingSelection: string | undefined;
  /**
   * What the first view is by: the functional areas (RPG-Encoder's view above folders; folders are one
   * toggle away), or what the panel showed before a reload or its predecessor was last left on.
   */
  private openBy: ViewBy;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<Extract<WebviewMessage, { type: 'rendered' }>>();
  /** The webview drew a graph or a diff (tests wait on this). */
  readonly onDidRender = this.renderedEmitter.event;
  /** The node the host last asked the webview to select (search pick or followed cursor). */
  selectedNode: string | undefined;
  /** The find-where path the webview was last asked to highlight. */
  foundPath: string[] = [];
  /** What the webview was last sent a whole view by. */
  viewBy: ViewBy | undefined;
  /** The source lines last shown in the webview's details (a click's preview). */
  previewedSource: Extract<HostMessage, { type: 'source' }> | undefined;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  /** `restored`: a panel VS Code brings back after a window reload (see the serializer in register.ts). */
  constructor(private readonly host: ExplorerHost, extensionUri: vscode.Uri, restored?: vscode.WebviewPanel, openBy: ViewBy = 'areas') {
    this.openBy = openBy;
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const options = { enableScripts: true, localResourceRoots: [assets, vscode.Uri.joinPath(extensionUri, 'media')] };
    this.panel = restored ?? vscode.window.createWebviewPanel(EXPLORER_VIEW_TYPE, 'Cartograph Graph', vscode.ViewColumn.Beside, { ...options, retainContextWhenHidden: true });
    const webview = this.panel.webview;
    webview.options = options;
    webview.html = explorerPage({
      nonce: crypto.randomBytes(16).toString('base64'),
      cspSource: webview.cspSource,
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'explorer-style.css')).toString(),
      scriptUris: [webview.asWebviewUri(vscode.Uri.joinPath(assets, 'explorer.js')).toString()],
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: WebviewMessage) => this.handle(m)),
      this.panel.onDidDispose(() => this.dispose()),
      vscode.window.onDidChangeTextEditorSelection((e) => this.cursorMoved(e.textEditor)),
      this.renderedEmitter,
    );
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  /** Whether the graph's tab is the active one (it holds the keyboard), and whether it is in view at all. */
  get active(): boolean {
    return this.panel.active;
  }

  get visible(): boolean {
    return this.panel.visible;
  }

  get viewColumn(): vscode.ViewColumn | undefined {
    return this.panel.viewColumn;
  }

  get following(): boolean {
    return this.follow;
  }

  /** Picks up where the panel was before a window reload: its folder, Follow cursor, the selection. */
  restore(state: ExplorerState | undefined): void {
    this.follow = state?.follow === true;
    this.pendingSelection = typeof state?.selected === 'string' ? state.selected : undefined;
    if (state?.viewBy) this.openBy = state.viewBy;
    const index = this.host.indexes().find((i) => i.folder.uri.toString() === state?.folder) ?? this.host.indexes()[0];
    if (index) this.open(index);
  }

  /** Every message from the webview lands here (public so tests can play the webview's part). */
  handle(message: WebviewMessage): Promise<void> {
    this.handling = this.handling.then(() => this.handleNow(message));
    return this.handling;
  }

  private async handleNow(message: WebviewMessage): Promise<void> {
    try {
      if (message.type === 'ready') {
        this.webviewReady = true;
        this.sendFolders();
      }
      if (this.session && (await this.session.explorerMessage(message))) {
        if (message.type === 'ready') {
          await this.applyFound();
          await this.applySelection();
        }
        return;
      }
      switch (message.type) {
        case 'ready':
          this.post({ type: 'status', text: 'Waiting for the index…' });
          break;
        case 'rendered':
          this.renderedEmitter.fire(message);
          break;
        case 'reveal':
          void this.revealSource(message.id, message.path, message.line, message.preview ?? false);
          break;
        case 'setFollow':
          this.follow = message.on;
          if (this.follow && vscode.window.activeTextEditor) this.cursorMoved(vscode.window.activeTextEditor);
          break;
        case 'selectFolder': {
          const index = this.host.indexes().find((i) => i.folder.uri.toString() === message.key);
          if (index) this.open(index);
          break;
        }
      }
    } catch (err) {
      log().error(`graph explorer: ${message.type} failed: ${errorText(err)}`);
    }
  }

  /** Shows `index`'s graph (now, or once it is ready). */
  open(index: WorkspaceIndex): void {
    if (this.index === index && this.session) return;
    this.index = index;
    this.closeSession();
    this.wasReady = false;
    for (const d of this.folderEvents) d.dispose();
    this.folderEvents = [index.onDidChangeState(() => this.refresh())];
    this.sendFolders();
    this.refresh();
  }

  /**
   * After a state change: becoming ready (first index, re-index, re-open) starts the view over. It
   * waits its turn with the webview's messages, so the first view goes out once: with the webview's
   * `ready` when the session is opened first, else right after the session opens.
   */
  private refresh(): void {
    this.handling = this.handling.then(() => this.refreshNow());
  }

  private async refreshNow(): Promise<void> {
    const index = this.index;
    if (!index) return;
    const repository = index.repository;
    if (index.state.kind !== 'ready' || !repository) {
      this.wasReady = false;
      this.post({ type: 'status', text: index.state.kind === 'indexing' ? `Indexing ${index.folder.name}…` : `${index.folder.name}: ${index.state.kind}` });
      return;
    }
    if (this.session && this.wasReady) return;
    this.wasReady = true;
    this.session = repository;
    try {
      // A session left behind in another folder's repository no longer reaches this webview.
      // a view started over (a re-index, another folder) stays by what the user last chose
      const by = this.viewBy ?? this.openBy;
      if (by === 'areas') this.post({ type: 'status', text: 'Grouping the code into functional areas…' });
      await repository.openExplorer(index.folder.name, (m) => this.index === index && this.post(m), by);
      if (this.webviewReady) await repository.explorerMessage({ type: 'ready' });
      await this.applyFound();
      await this.applySelection();
    } catch (err) {
      log().error(`graph explorer: showing ${index.folder.name} failed: ${errorText(err)}`);
    }
  }

  /** Highlights a "Find Where Implemented" pick (switching to its folder), now or once the graph is shown. */
  showFound(found: FoundResult): void {
    this.lastFound = found;
    const index = this.host.indexes().find((i) => i.root === found.root);
    if (!index) return;
    if (index !== this.index) this.open(index);
    else void this.applyFound().catch((err) => log().warn(`graph explorer: ${errorText(err)}`));
  }

  private async applyFound(): Promise<void> {
    const found = this.lastFound;
    if (found && this.session && this.index?.root === found.root) await this.session.explorerFound(found.id, found.path);
  }

  private async applySelection(): Promise<void> {
    const id = this.pendingSelection;
    if (!id || !this.session || !this.webviewReady) return;
    this.pendingSelection = undefined;
    await this.session.explorerFocus(id, 'search');
  }

  private sendFolders(): void {
    const folders = this.host.indexes().map((i) => ({ key: i.folder.uri.toString(), name: i.folder.name }));
    this.post({ type: 'folders', folders, current: this.index?.folder.uri.toString() });
    this.post({ type: 'follow', on: this.follow });
  }

  /**
   * Opens the source in an editor group other than the graph's, so the graph tab stays in view; a
   * preview (a click) shows its first lines in the panel's details instead.
   */
  private async revealSource(id: string, relPath: string, line: number, preview: boolean): Promise<void> {
    const index = this.index;
    if (!index) return;
    const file = path.resolve(index.root, relPath);
    if (!index.contains(file)) {
      log().warn(`graph explorer: refusing to open ${relPath}, outside ${index.root}`);
      return;
    }
    if (preview) {
      // A click shows the lines in the panel: opening an editor would change the layout the user chose
      // (a maximised graph's hidden groups come back, a lone graph is split), and VS Code cannot say which.
      const text = await fs.promises.readFile(file, 'utf8').catch((err: unknown) => log().warn(`graph explorer: cannot read ${relPath}: ${errorText(err)}`));
      if (text !== undefined) this.post({ type: 'source', id, line, lines: text.split(/\r?\n/).slice(line, line + SOURCE_PREVIEW_LINES) });
      return;
    }
    const position = new vscode.Position(Math.max(0, line), 0);
    const graphColumn = this.panel.viewColumn;
    const other = graphColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    const column = vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== graphColumn)?.viewColumn ?? other;
    await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: column, selection: new vscode.Range(position, position) });
  }

  /** With "follow cursor" on: select the definition under the cursor, switching folders if needed. */
  private cursorMoved(editor: vscode.TextEditor): void {
    if (!this.follow || editor.document.uri.scheme !== 'file') return;
    if (this.followTimer) clearTimeout(this.followTimer);
    this.followTimer = setTimeout(async () => {
      const index = this.host.indexFor(editor.document.uri);
      const repository = index?.repository;
      if (!index || !repository) return;
      if (index !== this.index) this.open(index);
      const rel = path.relative(index.root, editor.document.uri.fsPath).split(path.sep).join('/');
      try {
        const id = await repository.nodeAtLine(rel, editor.selection.active.line);
        if (id && this.session === repository) await repository.explorerFocus(id, 'cursor');
      } catch (err) {
        log().warn(`graph explorer: following the cursor: ${errorText(err)}`);
      }
    }, FOLLOW_DELAY_MS);
  }

  /** The folder's repository stops computing views for this webview. */
  private closeSession(): void {
    void this.session?.closeExplorer().catch(() => undefined);
    this.session = undefined;
  }

  private post(message: HostMessage): void {
    if (!this.webviewReady || this.disposed) return;
    if (message.type === 'select') this.selectedNode = message.id;
    if (message.type === 'found') this.foundPath = message.path;
    if (message.type === 'graph') this.viewBy = message.viewBy;
    if (message.type === 'source') this.previewedSource = message;
    void this.panel.webview.postMessage(message).then(undefined, (err) => log().warn(`graph explorer: post failed: ${errorText(err)}`));
  }

  dispose(): void {
    // closing the tab calls this through onDidDispose; disposing from code closes the tab: once is enough
    if (this.disposed) return;
    this.disposed = true;
    this.closeSession();
    if (this.followTimer) clearTimeout(this.followTimer);
    for (const d of [...this.folderEvents, ...this.disposables]) d.dispose();
    this.folderEvents = [];
    this.disposables.length = 0;
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
