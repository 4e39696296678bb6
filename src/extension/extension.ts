// Activation: one WorkspaceIndex per workspace folder, a status-bar item, the log channel, watchers and
// commands. The object `activate` returns is the extension point later features (search, completion,
// the graph explorer) and tests build on.
import * as vscode from 'vscode';
import type { Repository } from '../core/service/repository';
import { registerAgentTools } from './agentTools';
import { registerCommands } from './commands';
import { registerCompletion } from './completion';
import { registerExplorer, type ExplorerHandle } from './explorer/register';
import { onDidClosePicker, onDidShowAnswer, type FoundItem, type ShownAnswer } from './findCommand';
import { Lifting } from './lifting';
import { SearchModelService } from './models';
import { createLog, errorText, guard, log } from './log';
import { registerHierarchies } from './hierarchy';
import { migrateRenamedSettings, type MovedSetting } from './renamedSettings';
import { registerResults } from './results/register';
import type { ResultsTree } from './results/resultsTree';
import { ApiKeys } from './secrets';
import { affectsIndex } from './settings';
import { StatusBar } from './statusBar';
import { watchWorkspace } from './watchers';
import { WorkspaceIndex } from './workspaceIndex';

export interface CartographApi {
  /** The repository (engine, graph, search) of the workspace folder holding `uri` (undefined while it opens, or outside any folder). */
  repositoryFor(uri: vscode.Uri): Repository | undefined;
  /** The per-folder index holding `uri`. */
  indexFor(uri: vscode.Uri): WorkspaceIndex | undefined;
  indexes(): readonly WorkspaceIndex[];
  /** Resolves once every folder finished its current work (index, saves, watcher batches), and every removed folder's index has closed. */
  whenIdle(): Promise<void>;
  /** Fires when a folder changes state (opening, indexing, ready, error). */
  onDidChangeState: vscode.Event<WorkspaceIndex>;
  /** Fires after a save or a watcher batch reached a folder's graph. */
  onDidUpdate: vscode.Event<WorkspaceIndex>;
  reindex(): Promise<void>;
  /** The graph explorer panel (open it, watch it). */
  explorer: ExplorerHandle;
  /** What the Cartograph status-bar item shows now (an item cannot be read back through VS Code's API). */
  statusBar(): { text: string; tooltip: string };
  /** Fires when Find Where Implemented puts an answer on screen, with the query it answers. */
  onDidShowFindAnswer: vscode.Event<ShownAnswer>;
  /** Fires when a Find Where Implemented picker has closed and is done with the editor (after Escape, the user's editor is back), with that picker (the command's result). */
  onDidCloseFind: vscode.Event<vscode.QuickPick<FoundItem>>;
  /** The results view's tree: the answers it keeps, newest first (`kept`), and their rows. */
  results: ResultsTree;
  /** The move of renamed settings' values that activation ran (`renamedSettings.ts`); run again, it moves what was set since. */
  settingsMigrated: Promise<MovedSetting[]>;
  migrateSettings(): Promise<MovedSetting[]>;
}

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): CartographApi {
  const channel = createLog();
  context.subscriptions.push(channel);
  const settingsMigrated = migrateRenamedSettings().catch((err: unknown) => {
    log().error(`moving renamed settings: ${errorText(err)}`);
    return [];
  });
  const indexes = new Map<string, WorkspaceIndex>();
  const status = new StatusBar();
  const stateEmitter = new vscode.EventEmitter<WorkspaceIndex>();
  const updateEmitter = new vscode.EventEmitter<WorkspaceIndex>();
  context.subscriptions.push(status, stateEmitter, updateEmitter);
  const refresh = () => status.update([...indexes.values()]);
  const keys = new ApiKeys(context.secrets);
  const lifting = new Lifting((endpoint) => keys.get('completion', endpoint), context.workspaceState);
  context.subscriptions.push(lifting);

  const indexFor = (uri: vscode.Uri): WorkspaceIndex | undefined => {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? indexes.get(folder.uri.toString()) : undefined;
  };
  const add = (folder: vscode.WorkspaceFolder) => {
    if (folder.uri.scheme !== 'file' || indexes.has(folder.uri.toString())) return;
    const index = new WorkspaceIndex(folder, context.storageUri);
    indexes.set(folder.uri.toString(), index);
    index.onDidChangeState((i) => {
      refresh();
      stateEmitter.fire(i);
      if (i.state.kind === 'ready') lifting.schedule(i, 2_000);
    });
    index.onDidUpdate((i) => {
      updateEmitter.fire(i);
      lifting.schedule(i);
    });
    void index.start();
  };
  /** Folders removed from the workspace whose index is still closing. */
  const closing = new Set<Promise<void>>();
  const remove = async (folder: vscode.WorkspaceFolder) => {
    const index = indexes.get(folder.uri.toString());
    if (!index) return;
    indexes.delete(folder.uri.toString());
    lifting.forget(index);
    refresh();
    // Out of the list at once; still writing its store as it closes, which whenIdle waits for.
    const closed = index.dispose();
    closing.add(closed);
    await closed.finally(() => closing.delete(closed));
  };
  const reindexAll = async () => {
    log().info('reindexing every workspace folder');
    await Promise.all([...indexes.values()].map((i) => i.start({ reopen: true })));
  };
  const whenIdle = async () => {
    await Promise.all([...indexes.values()].map((i) => i.idle()));
    await Promise.allSettled([...closing]);
  };

  const explorer = registerExplorer({ indexes: () => [...indexes.values()], indexFor }, context.extensionUri);
  const host = { indexes: () => [...indexes.values()], indexFor, reindexAll };
  const results = registerResults(host);
  context.subscriptions.push(
    explorer,
    results.disposable,
    registerHierarchies(host, results.tree),
    registerCommands(host),
    watchWorkspace(indexFor),
    registerCompletion(keys, (uri) => indexFor(uri)?.repository, (s) => status.setCompletion(s)),
    registerAgentTools(() => [...indexes.values()]),
    vscode.workspace.onDidChangeWorkspaceFolders((e) =>
      guard('workspace folders change', async () => {
        for (const f of e.removed) await remove(f);
        for (const f of e.added) add(f);
        refresh();
      }),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      for (const i of indexes.values()) {
        if (['cartograph.lifting', 'cartograph.completion', 'cartograph.llm'].some((key) => e.affectsConfiguration(key, i.folder.uri))) lifting.settingsChanged(i);
      }
      const affected = [...indexes.values()].filter((i) => affectsIndex(e) && (e.affectsConfiguration('cartograph', i.folder.uri) || e.affectsConfiguration('files.exclude', i.folder.uri)));
      for (const i of affected) {
        log().info(`[${i.folder.name}] index settings changed: reindexing`);
        void i.start({ reopen: true });
      }
    }),
  );

  // Embeddings and rerankers for search: loaded on first need, nodes embedded once each folder is indexed.
  context.subscriptions.push(new SearchModelService(context, keys, { indexes: () => [...indexes.values()], onDidChangeState: stateEmitter.event, onDidUpdate: updateEmitter.event }));
  for (const folder of vscode.workspace.workspaceFolders ?? []) add(folder);
  refresh();
  if (!context.storageUri) log().info('no workspace storage: the index lives in memory only');

  shutdown = async () => {
    const all = [...indexes.values()];
    indexes.clear();
    await Promise.all(all.map((i) => i.dispose()));
  };

  return {
    repositoryFor: (uri) => indexFor(uri)?.repository,
    indexFor,
    indexes: () => [...indexes.values()],
    whenIdle,
    onDidChangeState: stateEmitter.event,
    onDidUpdate: updateEmitter.event,
    reindex: reindexAll,
    explorer,
    statusBar: () => status.shown,
    onDidShowFindAnswer: onDidShowAnswer,
    onDidCloseFind: onDidClosePicker,
    results: results.tree,
    settingsMigrated,
    migrateSettings: migrateRenamedSettings,
  };
}

export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.().catch((err) => log().error(`deactivate: ${errorText(err)}`));
}
