// The one Cartograph status-bar item, as Copilot and Continue have one: the index's progress (one
// growing percentage) or its size, completion's state (busy, or a problem that needs the user), and a
// click that opens a menu of what a user does next (status, toggle completions, key, settings, reindex).
import * as vscode from 'vscode';
import { indexPercent, indexStateText, offLine, type CompletionStatus } from './statusText';
import type { WorkspaceIndex } from './workspaceIndex';

export const STATUS_MENU = 'cartograph.statusMenu';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cartograph.status', vscode.StatusBarAlignment.Right, 100);
  private indexes: readonly WorkspaceIndex[] = [];
  private completion: CompletionStatus = { kind: 'off' };
  private readonly menu = vscode.commands.registerCommand(STATUS_MENU, () => showMenu(this.completion));

  constructor() {
    this.item.name = 'Cartograph';
    this.item.command = STATUS_MENU;
    this.item.text = '$(sync~spin) Cartograph';
    this.item.show();
  }

  update(indexes: readonly WorkspaceIndex[]): void {
    this.indexes = indexes;
    this.render();
  }

  setCompletion(status: CompletionStatus): void {
    this.completion = status;
    this.render();
  }

  /** What the item shows now (tests read it; the item itself cannot be read back). */
  get shown(): { text: string; tooltip: string } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? '') };
  }

  private render(): void {
    const indexes = this.indexes;
    const states = indexes.map((i) => i.state);
    const problems = indexes.filter((i) => i.storeProblem).map((i) => `${i.folder.name}: store unavailable (${i.storeProblem}), in memory only — run Reindex`);
    const errors = indexes.filter((i) => i.state.kind === 'error');
    const lines = indexes.map((i) => `${i.folder.name}: ${indexStateText(i.state)}`);
    const percent = indexPercent(states);
    let text: string;
    if (indexes.length === 0) {
      text = '$(circle-slash) Cartograph';
      lines.push('No workspace folder open');
    } else if (percent !== undefined) text = `$(sync~spin) Cartograph ${percent}%`;
    else if (errors.length > 0) text = '$(error) Cartograph';
    else {
      let nodes = 0;
      for (const s of states) if (s.kind === 'ready') nodes += s.nodes;
      text = `${problems.length ? '$(warning)' : '$(graph)'} Cartograph: ${compact(nodes)} nodes`;
    }
    const c = this.completion;
    if (c.kind === 'busy' && percent === undefined) text = `$(loading~spin)${text.replace(/^\$\([^)]*\)/, '')}`;
    if (c.kind === 'unauthorized' || c.kind === 'misconfigured' || c.kind === 'failing') text += ` $(warning) ${c.kind === 'failing' ? 'no completions' : c.kind}`;
    const completionLine =
      c.kind === 'off' ? offLine(c.why)
      : c.kind === 'idle' ? 'Completion: ready'
      : c.kind === 'busy' ? 'Completion: asking the model'
      : `Completion: ${c.message}`;
    this.item.text = text;
    const warn = errors.length > 0 || problems.length > 0 || c.kind === 'unauthorized' || c.kind === 'misconfigured' || c.kind === 'failing';
    this.item.backgroundColor = warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = [...lines, ...problems, completionLine, '', 'Click for the Cartograph menu'].join('\n');
  }

  dispose(): void {
    this.menu.dispose();
    this.item.dispose();
  }
}

interface MenuItem extends vscode.QuickPickItem {
  run?: () => Thenable<unknown>;
}

/** The status-bar menu. Returns the QuickPick so tests can read and pick its items. */
function showMenu(completion: CompletionStatus): vscode.QuickPick<MenuItem> {
  const enabled = vscode.workspace.getConfiguration('cartograph').get<boolean>('completion.enabled', true);
  const command = (id: string, ...args: unknown[]) => () => vscode.commands.executeCommand(id, ...args);
  const items: MenuItem[] = [
    { label: '$(info) Show Index Status', run: command('cartograph.showStatus') },
    { label: '$(search) Find Where Implemented…', run: command('cartograph.findWhereImplemented') },
    { label: '$(type-hierarchy) Open Graph Explorer', run: command('cartograph.openGraphExplorer') },
    { label: 'Completion', kind: vscode.QuickPickItemKind.Separator },
    { label: enabled ? '$(circle-slash) Turn Completions Off' : '$(check) Turn Completions On', description: 'in every window', run: command('cartograph.toggleCompletions') },
    { label: '$(key) Set API Key…', description: completion.kind === 'unauthorized' ? completion.message : undefined, run: command('cartograph.setApiKey') },
    { label: '$(output) Show Last Completion Request', run: command('cartograph.showLastCompletion') },
    { label: 'Cartograph', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(gear) Open Settings', run: command('workbench.action.openSettings', '@ext:cartograph.cartograph') },
    { label: '$(refresh) Reindex Workspace', run: command('cartograph.reindex') },
    { label: '$(list-flat) Show Log', run: command('cartograph.showLog') },
  ];
  const pick = vscode.window.createQuickPick<MenuItem>();
  pick.title = 'Cartograph';
  pick.placeholder = 'What would you like to do?';
  pick.items = items;
  pick.onDidAccept(() => {
    const run = pick.selectedItems[0]?.run;
    pick.hide();
    void run?.();
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
  return pick;
}

export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(n / 1000)}k`;
}
