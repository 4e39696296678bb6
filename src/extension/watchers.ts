// Saves go straight to the engine; files created, changed or deleted outside the editor (git checkout,
// generators) arrive through a FileSystemWatcher and are debounced into one batch per folder.
import * as vscode from 'vscode';
import { SOURCE_EXTENSIONS } from '../core/parse/languages';
import { COMPILED_MODULE_EXTENSIONS, PROJECT_FILE_NAMES, isGraphInput } from '../core/workspace/projectConfig';
import { readSettings } from './settings';
import type { WorkspaceIndex } from './workspaceIndex';

/** Churn no graph cares about: git's object store during a checkout, installed packages. */
const TOOL_FOLDERS = /\/(\.git|node_modules)(\/|$)/;

/** Files of every language the engine reads (languages.ts), so a new language is watched as soon as it is parsed. */
export const WATCHED_GLOB = `**/*.{${SOURCE_EXTENSIONS.join(',')}}`;
/** tsconfig/jsconfig, package.json, go.mod, Cargo.toml: an edit changes how the files resolve. */
const PROJECT_FILES_GLOB = `**/{${[...PROJECT_FILE_NAMES, ...COMPILED_MODULE_EXTENSIONS.map((e) => `*.${e}`)].join(',')}}`;

export function watchWorkspace(indexFor: (uri: vscode.Uri) => WorkspaceIndex | undefined): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  const pending = new Map<WorkspaceIndex, Set<string>>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    const batches = [...pending];
    pending.clear();
    for (const [index, paths] of batches) index.syncPaths([...paths]);
  };
  const onFsEvent = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file') return;
    const index = indexFor(uri);
    if (!index) return;
    let set = pending.get(index);
    if (!set) pending.set(index, (set = new Set()));
    set.add(uri.fsPath);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, readSettings(index.folder).watcherDelay);
  };

  const watchFiles = (glob: string, onEvent: (uri: vscode.Uri) => void) => {
    const watcher = vscode.workspace.createFileSystemWatcher(glob);
    disposables.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
  };
  watchFiles(WATCHED_GLOB, onFsEvent);
  // The project files and compiled Python modules (projectConfig.ts). package.json files churn under
  // node_modules during every install; only the repository's own count.
  watchFiles(PROJECT_FILES_GLOB, (uri) => {
    if (!TOOL_FOLDERS.test(uri.path)) onFsEvent(uri);
  });
  // Folders created, moved or deleted as a whole may be reported as the folder alone, and a folder's
  // name may have a dot (`v1.2`): every other path goes to the index, which looks at the disk (a
  // folder is listed, a vanished path drops the files the graph had under it, a plain file is ignored).
  const folders = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  const onFolderEvent = (uri: vscode.Uri) => {
    if (!isGraphInput(uri.path) && !TOOL_FOLDERS.test(uri.path)) onFsEvent(uri);
  };
  disposables.push(folders, folders.onDidCreate(onFolderEvent), folders.onDidDelete(onFolderEvent));
  disposables.push(
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (document.uri.scheme !== 'file') return;
      indexFor(document.uri)?.onSaved(document);
    }),
  );
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    for (const d of disposables) d.dispose();
  });
}
