// `Cartograph: Open Graph Explorer`, from the command palette or the status bar: one panel at a time,
// brought forward if already open, showing the folder of the active editor (else the first folder).
import * as vscode from 'vscode';
import { onDidFind, type FoundResult } from '../findCommand';
import { guard } from '../log';
import type { ExplorerState, ViewBy } from '../../core/explorer/protocol';
import { EXPLORER_VIEW_TYPE, ExplorerPanel, type ExplorerHost } from './explorerPanel';

export const OPEN_EXPLORER = 'cartograph.openGraphExplorer';

export interface ExplorerHandle extends vscode.Disposable {
  /** Opens (or brings forward) the panel; returns it so tests can watch it. */
  open(): ExplorerPanel | undefined;
  current(): ExplorerPanel | undefined;
  /** Brings the panel back after a window reload (registered with VS Code; tests call it directly). */
  serializer: vscode.WebviewPanelSerializer<ExplorerState>;
}

export function registerExplorer(host: ExplorerHost, extensionUri: vscode.Uri): ExplorerHandle {
  let panel: ExplorerPanel | undefined;
  let lastFound: FoundResult | undefined;
  /** A panel opened again starts by what the last one was left on (by areas at first). */
  let lastViewBy: ViewBy | undefined;
  const adopt = (created: ExplorerPanel) => {
    panel?.dispose();
    created.onDidDispose(() => {
      lastViewBy = created.viewBy ?? lastViewBy;
      if (panel === created) panel = undefined;
    });
    panel = created;
    return created;
  };
  const open = () => {
    if (!panel) adopt(new ExplorerPanel(host, extensionUri, undefined, lastViewBy));
    else panel.reveal();
    const active = vscode.window.activeTextEditor?.document.uri;
    const index = (active && host.indexFor(active)) ?? host.indexes()[0];
    if (index) panel!.open(index);
    // the last Find pick is marked when it is in the folder shown: an older pick elsewhere does not take the panel away from the code being read
    if (lastFound && lastFound.root === index?.root) panel!.showFound(lastFound);
    return panel;
  };
  const serializer: vscode.WebviewPanelSerializer<ExplorerState> = {
    async deserializeWebviewPanel(restored, state) {
      await guard('Restore Graph Explorer', () => adopt(new ExplorerPanel(host, extensionUri, restored)).restore(state));
    },
  };
  // No status-bar item of its own: the Cartograph item's menu opens the explorer (one item, as Copilot's).
  const command = vscode.commands.registerCommand(OPEN_EXPLORER, () => guard('Open Graph Explorer', open));
  const restoring = vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, serializer);
  const found = onDidFind((result) => {
    lastFound = result;
    panel?.showFound(result);
  });
  return {
    open,
    current: () => panel,
    serializer,
    dispose: () => {
      panel?.dispose();
      command.dispose();
      restoring.dispose();
      found.dispose();
    },
  };
}
