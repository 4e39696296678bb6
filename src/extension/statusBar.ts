// One status-bar item for all workspace folders: indexing n/N → ready with counts → error.
import * as vscode from 'vscode';
import type { WorkspaceIndex } from './workspaceIndex';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cartograph.status', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Cartograph';
    this.item.command = 'cartograph.showLog';
    this.item.text = '$(sync~spin) Cartograph';
    this.item.show();
  }

  update(indexes: readonly WorkspaceIndex[]): void {
    const states = indexes.map((i) => i.state);
    const problems = indexes.filter((i) => i.storeProblem).map((i) => `${i.folder.name}: store unavailable (${i.storeProblem}), in memory only — run Reindex`);
    const errors = indexes.filter((i) => i.state.kind === 'error');
    const lines: string[] = [];
    for (const i of indexes) lines.push(`${i.folder.name}: ${describe(i)}`);
    if (indexes.length === 0) {
      this.item.text = '$(circle-slash) Cartograph';
      lines.push('No workspace folder open');
    } else if (states.some((s) => s.kind === 'opening' || s.kind === 'indexing')) {
      let done = 0;
      let total = 0;
      for (const s of states) if (s.kind === 'indexing') ((done += s.done), (total += s.total));
      this.item.text = total > 0 ? `$(sync~spin) Cartograph ${done}/${total}` : '$(sync~spin) Cartograph';
    } else if (errors.length > 0) {
      this.item.text = '$(error) Cartograph';
    } else {
      let nodes = 0;
      for (const s of states) if (s.kind === 'ready') nodes += s.nodes;
      this.item.text = `${problems.length ? '$(warning)' : '$(graph)'} Cartograph: ${compact(nodes)} nodes`;
    }
    this.item.backgroundColor = errors.length || problems.length ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = [...lines, ...problems, '', 'Click to show the Cartograph log'].join('\n');
  }

  dispose(): void {
    this.item.dispose();
  }
}

function describe(i: WorkspaceIndex): string {
  const s = i.state;
  switch (s.kind) {
    case 'opening':
      return 'opening';
    case 'indexing':
      return `indexing (${s.phase} ${s.done}/${s.total})`;
    case 'ready':
      return `${s.files} files, ${s.nodes} nodes, ${s.edges} edges`;
    case 'error':
      return `error: ${s.message}`;
  }
}

export function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(n / 1000)}k`;
}
