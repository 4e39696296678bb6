// The `cartograph.*` settings and `files.exclude`, turned into what the engine takes.
import * as vscode from 'vscode';
import { filesExcludeToGitignore } from './excludes';
import { readRenamed } from './settingNames';

export interface CartographSettings {
  exclude: string[];
  maxFileSize: number;
  /** Index minified and vendored JavaScript too (cartograph.indexMinified, off by default). */
  indexMinified: boolean;
  /** Index and read files through symlinks out of the folder too (cartograph.followSymlinks, off by default). */
  followSymlinks: boolean;
  /** How long changes outside the editor are collected into one batch (cartograph.watcherDelay). */
  watcherDelay: number;
  /** The engine and its graph in a worker thread instead of the extension host's (cartograph.engineWorker, on by default). */
  engineWorker: boolean;
  /** Keep the index in the folder's `.cartograph` and serve it to the CLI and agents (cartograph.shareIndex, on by default; needs engineWorker). */
  shareIndex: boolean;
}

export const DEFAULT_MAX_FILE_SIZE = 1048576;
export const DEFAULT_WATCHER_DELAY_MS = 300;

export function readSettings(folder?: vscode.WorkspaceFolder): CartographSettings {
  const config = vscode.workspace.getConfiguration('cartograph', folder?.uri);
  const own = config.get<string[]>('exclude', []).filter((p) => typeof p === 'string' && p.trim() !== '');
  const filesExclude = vscode.workspace.getConfiguration('files', folder?.uri).get<Record<string, unknown>>('exclude', {});
  return {
    exclude: [...filesExcludeToGitignore(filesExclude), ...own],
    maxFileSize: positive(config.get<number>('maxFileSize'), DEFAULT_MAX_FILE_SIZE),
    indexMinified: config.get<boolean>('indexMinified', false) === true,
    followSymlinks: config.get<boolean>('followSymlinks', false) === true,
    watcherDelay: Math.max(0, readRenamed(config, 'watcherDelay', DEFAULT_WATCHER_DELAY_MS)),
    engineWorker: config.get<boolean>('engineWorker', true) !== false,
    shareIndex: config.get<boolean>('shareIndex', true) !== false,
  };
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Settings whose change means the set of indexed files may differ, or the engine runs elsewhere: re-open and re-index. */
export function affectsIndex(e: vscode.ConfigurationChangeEvent): boolean {
  return ['cartograph.exclude', 'cartograph.maxFileSize', 'cartograph.indexMinified', 'cartograph.followSymlinks', 'files.exclude', 'cartograph.engineWorker', 'cartograph.shareIndex'].some((s) => e.affectsConfiguration(s));
}
