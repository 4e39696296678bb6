// Cartograph: Find Where Implemented… — a QuickPick that searches as you type across every indexed
// folder (names, structural questions, plain English), previews the active result and reveals it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { filesQuery } from '../core/search/fileRanking';
import type { SearchResult } from '../core/search/types';
import type { CommandHost } from './commands';
import { findFiles } from './findFiles';
import { log } from './log';
import { requestSearchModels } from './models';

export interface FoundItem extends vscode.QuickPickItem {
  id: string;
  score: number;
  file?: vscode.Uri;
  line?: number;
  /** The folder whose graph holds the node, and the node ids that led to it (structural and MCTS hits). */
  root?: string;
  path?: string[];
}

/** A result the user picked, for the graph explorer to highlight with the path that found it. */
export interface FoundResult {
  root: string;
  id: string;
  path: string[];
}
const didFind = new vscode.EventEmitter<FoundResult>();
export const onDidFind = didFind.event;


/** One ranked list over all folders; the route and its reason are in the results for tests and the UI. */
export async function findWhereImplemented(host: CommandHost, query: string, limit = 30): Promise<{ results: SearchResult[]; items: FoundItem[] }> {
  const question = filesQuery(query);
  if (question !== undefined) return findFiles(host, question, limit);
  const results: SearchResult[] = [];
  const items: FoundItem[] = [];
  // The first search starts loading the search models; it never waits for them.
  requestSearchModels();
  for (const index of host.indexes()) {
    const repository = index.repository;
    if (!repository) continue;
    // From the active editor when it is in this folder: shared names resolve near the code being read.
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromPath = active?.scheme === 'file' && index.contains(active.fsPath) ? path.relative(index.root, active.fsPath).split(path.sep).join('/') : undefined;
    const { result, nodes } = await repository.search(query, limit, { fromPath });
    results.push(result);
    for (const [i, hit] of result.hits.entries()) {
      const node = nodes[i];
      const file = node.path ? vscode.Uri.file(path.join(index.root, node.path)) : undefined;
      const line = node.range?.startLine;
      items.push({
        id: hit.id,
        score: hit.score,
        file,
        line,
        root: index.root,
        path: hit.path,
        label: `${kindIcon(node.kind)} ${node.name}`,
        description: `${node.kind} · ${node.path ? `${node.path}${line !== undefined ? `:${line + 1}` : ''}` : 'outside the repository'} · ${hit.via}`,
        detail: node.signature || node.qname,
        alwaysShow: true,
      });
    }
  }
  items.sort((a, b) => b.score - a.score);
  return { results, items: items.slice(0, limit) };
}

export function registerFindCommand(host: CommandHost): vscode.Disposable {
  return vscode.commands.registerCommand('cartograph.findWhereImplemented', async (initial?: string) => {
    const pick = vscode.window.createQuickPick<FoundItem>();
    pick.placeholder = 'A name (Calculator.add), a question (callers of add) or plain English (where do we parse dates?)';
    pick.matchOnDescription = false;
    pick.matchOnDetail = false;
    let generation = 0;
    const update = async (value: string) => {
      const mine = ++generation;
      if (!value.trim()) {
        pick.items = [];
        return;
      }
      pick.busy = true;
      let found: Awaited<ReturnType<typeof findWhereImplemented>>;
      try {
        found = await findWhereImplemented(host, value);
      } catch (error) {
        log().error(`Find Where Implemented failed for "${value}": ${error instanceof Error ? error.message : String(error)}`);
        pick.busy = false;
        return;
      }
      if (mine !== generation) return;
      const { results, items } = found;
      pick.busy = false;
      pick.title = results[0] ? `Cartograph · ${results[0].route}: ${results[0].reason}` : 'Cartograph: nothing is indexed yet';
      pick.items = items;
    };
    pick.onDidChangeValue((value) => void update(value));
    let previewed: FoundItem | undefined;
    pick.onDidChangeActive(([item]) => {
      // Preview without taking focus from the QuickPick (once per item: the list refreshes as you type).
      if (!item?.file || item === previewed) return;
      previewed = item;
      void reveal(item, true);
    });
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      pick.hide();
      if (item?.root) didFind.fire({ root: item.root, id: item.id, path: item.path ?? [] });
      if (item?.file) void reveal(item, false);
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
    // The first query of a session would wait for the search indexes (1-2 s on Django): build them
    // while the user types.
    for (const index of host.indexes()) {
      index.repository?.prepareSearch().catch((error: unknown) => log().warn(`preparing search for ${index.folder.name}: ${error instanceof Error ? error.message : String(error)}`));
    }
    if (initial) {
      pick.value = initial;
      await update(initial);
    }
    return pick;
  });
}

/** Opens the item's file at its line; a preview superseded by the next one is not an error worth showing. */
export async function reveal(item: FoundItem, preview: boolean): Promise<vscode.TextEditor | undefined> {
  const position = new vscode.Position(item.line ?? 0, 0);
  try {
    return await vscode.window.showTextDocument(item.file!, { preview: true, preserveFocus: preview, selection: new vscode.Range(position, position) });
  } catch (error) {
    log().debug(`could not open ${item.file?.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function kindIcon(kind: string): string {
  const icons: Record<string, string> = {
    Class: '$(symbol-class)', Interface: '$(symbol-interface)', Enum: '$(symbol-enum)', TypeAlias: '$(symbol-type-parameter)',
    Function: '$(symbol-function)', Method: '$(symbol-method)', Field: '$(symbol-field)', GlobalVariable: '$(symbol-variable)',
    Module: '$(symbol-file)', External: '$(link-external)',
  };
  return icons[kind] ?? '$(symbol-misc)';
}
