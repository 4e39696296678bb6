// What the commands need of the extension: its workspace folders' indexes. In its own module so that
// the commands (commands.ts, findCommand.ts, findFiles.ts) depend on it and not on one another.
import type * as vscode from 'vscode';
import type { WorkspaceIndex } from './workspaceIndex';

export interface CommandHost {
  indexes(): readonly WorkspaceIndex[];
  indexFor(uri: vscode.Uri): WorkspaceIndex | undefined;
  reindexAll(): Promise<void>;
}
