// The contributed commands. Each returns what it showed, so tests (and other extensions) can use it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { NodeDescription } from '../core/graph/describe';
import type { CommandHost } from './commandHost';
import { registerFindCommand } from './findCommand';
import { guard, log } from './log';
import { indexStateText } from './statusText';
import { symbolRows } from './symbolRows';
import type { WorkspaceIndex } from './workspaceIndex';

export const STATUS_SCHEME = 'cartograph-status';

export function registerCommands(host: CommandHost): vscode.Disposable {
  const status = new StatusDocuments();
  const disposables: vscode.Disposable[] = [
    vscode.workspace.registerTextDocumentContentProvider(STATUS_SCHEME, status),
    vscode.commands.registerCommand('cartograph.reindex', () => guard('Reindex Workspace', () => host.reindexAll())),
    vscode.commands.registerCommand('cartograph.showLog', () => log().show(true)),
    vscode.commands.registerCommand('cartograph.showStatus', () => guard('Show Index Status', () => showStatus(host, status))),
    vscode.commands.registerCommand('cartograph.showSymbolGraph', () => guard('Show Symbol Graph', () => showSymbolGraph(host))),
    registerFindCommand(host),
  ];
  return vscode.Disposable.from(...disposables);
}

class StatusDocuments implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  text = '';
  readonly uri = vscode.Uri.from({ scheme: STATUS_SCHEME, path: '/Cartograph Index Status.md' });
  set(text: string): void {
    this.text = text;
    this.emitter.fire(this.uri);
  }
  provideTextDocumentContent(): string {
    return this.text;
  }
}

export async function statusMarkdown(indexes: readonly WorkspaceIndex[]): Promise<string> {
  const out: string[] = ['# Cartograph index status', ''];
  if (indexes.length === 0) out.push('No workspace folder is open.');
  for (const index of indexes) {
    out.push(`## ${index.folder.name}`, '', `- Folder: \`${index.root}\``, `- State: ${indexStateText(index.state)}`);
    const repository = index.repository;
    if (!repository) {
      out.push('- The index is not open yet.', '');
      continue;
    }
    const stats = await repository.stats();
    const size = await repository.storeSize().catch(() => 0);
    const saved = stats.store.status === 'unavailable' || !stats.store.dir
      ? `kept in memory only${stats.store.error ? ` (${stats.store.error})` : ''}; run **Cartograph: Reindex Workspace** to try saving again`
      : `saved on disk (${(size / 1048576).toFixed(1)} MB), so the next window opens without re-indexing`;
    out.push(
      `- Files: ${stats.files} (${stats.lines} lines${stats.syntaxErrorFiles ? `, ${stats.syntaxErrorFiles} with syntax errors` : ''}${stats.generatedFiles.length ? `, ${stats.generatedFiles.length} generated` : ''})`,
      `- Index: ${saved}`,
      `- Search: ${await repository.modelStatus()}`,
      `- Imports between your files understood: ${stats.imports.resolved} of ${stats.imports.internal} (${(stats.imports.rate * 100).toFixed(1)}%)`,
      '',
      '| Node kind | Count |',
      '|---|---:|',
      ...Object.entries(stats.nodes).filter(([, n]) => n).map(([k, n]) => `| ${k} | ${n} |`),
      '',
      '| Edge kind | Count |',
      '|---|---:|',
      ...Object.entries(stats.edges).filter(([, n]) => n).map(([k, n]) => `| ${k} | ${n} |`),
      '',
    );
    const r = index.lastReport;
    if (r) out.push(`Last index: ${r.parsed} files parsed, ${r.reused} unchanged${r.timings.total !== undefined ? `, in ${(r.timings.total / 1000).toFixed(1)} s` : ''}.`, '');
    if (stats.generatedFiles.length) {
      out.push(`### Generated files (${stats.generatedFiles.length}): indexed, not code anyone should edit`, '');
      for (const p of stats.generatedFiles.slice(0, 200)) out.push(`  - \`${p}\``);
      if (stats.generatedFiles.length > 200) out.push(`  - … ${stats.generatedFiles.length - 200} more`);
      out.push('');
    }
    out.push(`### Skipped files (${stats.skipped.length})`, '');
    const byReason = new Map<string, number>();
    for (const s of stats.skipped) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
    for (const [reason, n] of byReason) out.push(`- ${reason}: ${n}`);
    for (const s of stats.skipped.slice(0, 200)) out.push(`  - \`${s.path}\` — ${s.reason}${s.detail ? `: ${s.detail}` : ''}`);
    if (stats.skipped.length > 200) out.push(`  - … ${stats.skipped.length - 200} more`);
    out.push('');
  }
  return out.join('\n');
}

/** Rendered (the Markdown preview of a read-only virtual document); the source view only where no preview exists. */
async function showStatus(host: CommandHost, docs: StatusDocuments): Promise<string> {
  const text = await statusMarkdown(host.indexes());
  log().info(`index status:\n${text}`);
  docs.set(text);
  try {
    await vscode.commands.executeCommand('markdown.showPreview', docs.uri);
  } catch {
    const document = await vscode.workspace.openTextDocument(docs.uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }
  return text;
}

interface EdgeItem extends vscode.QuickPickItem {
  target?: { file: string; line: number };
}

async function showSymbolGraph(host: CommandHost): Promise<NodeDescription | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Cartograph: open a source file and place the cursor on a symbol.');
    return undefined;
  }
  const index = host.indexFor(editor.document.uri);
  const repository = index?.repository;
  if (!index || !repository) {
    void vscode.window.showInformationMessage('Cartograph: this file is not in an indexed workspace folder.');
    return undefined;
  }
  const rel = path.relative(index.root, editor.document.uri.fsPath).split(path.sep).join('/');
  const pos = editor.selection.active;
  const description = await repository.describeAt(rel, pos.line, pos.character);
  if (!description) {
    void vscode.window.showInformationMessage(`Cartograph: ${rel} is not in the graph (not indexed yet, skipped or excluded).`);
    return undefined;
  }
  const where = (location: string): EdgeItem['target'] => {
    const m = location.match(/^(.*):(\d+)$/);
    const file = m ? m[1] : location;
    if (file === '(external)') return undefined;
    return { file: path.join(index.root, file), line: m ? Number(m[2]) - 1 : 0 };
  };
  const n = description.node;
  const items: EdgeItem[] = [
    {
      label: `$(symbol-${icon(n.kind)}) ${n.qname}`,
      description: n.kind,
      detail: [n.signature, n.doc].filter(Boolean).join(' — ') || undefined,
      target: n.path ? { file: path.join(index.root, n.path), line: n.range?.startLine ?? 0 } : undefined,
    },
    { label: `Outgoing (${description.outgoing.length})`, kind: vscode.QuickPickItemKind.Separator },
    ...symbolRows(description.outgoing).map((row): EdgeItem =>
      'edge' in row
        ? { label: `$(arrow-right) ${row.edge.kind} ${row.edge.qname}`, description: row.edge.location, target: where(row.edge.location) }
        : { label: `$(fold) ${row.label}`, description: '(external)' },
    ),
    { label: `Incoming (${description.incoming.length})`, kind: vscode.QuickPickItemKind.Separator },
    ...description.incoming.map((e) => ({ label: `$(arrow-left) ${e.kind} ${e.qname}`, description: e.location, target: where(e.location) })),
  ];
  const pick = vscode.window.createQuickPick<EdgeItem>();
  pick.title = `Cartograph: ${n.kind} ${n.qname}`;
  pick.placeholder = 'Edges of the node under the cursor; pick one to go to its location';
  pick.items = items;
  pick.matchOnDescription = true;
  pick.onDidAccept(() => {
    const target = pick.selectedItems[0]?.target;
    pick.hide();
    if (!target) return;
    void guard('reveal', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target.file));
      const at = new vscode.Position(target.line, 0);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at) });
    });
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
  return description;
}

function icon(kind: string): string {
  switch (kind) {
    case 'Class': return 'class';
    case 'Interface': return 'interface';
    case 'Enum': return 'enum';
    case 'Function': return 'function';
    case 'Method': return 'method';
    case 'Field': return 'field';
    case 'GlobalVariable': return 'variable';
    case 'TypeAlias': return 'parameter';
    default: return 'file';
  }
}
