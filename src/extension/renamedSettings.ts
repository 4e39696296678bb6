// Settings renamed so that the Settings UI titles read well: VS Code titles a setting from its key,
// so `cartograph.llm.endpoint` showed as "Llm: Endpoint" and `completion.mmrLambda` as "Mmr Lambda".
// On activation, values under an old key (user, workspace and folder settings) move
// to the new key, once: the old key is emptied. The old keys stay declared, deprecated, for one
// release, and are still read where a value could not be moved (settingNames.ts).
import * as vscode from 'vscode';
import { log } from './log';
import { RENAMED_SETTINGS } from './settingNames';

type Inspected = NonNullable<ReturnType<vscode.WorkspaceConfiguration['inspect']>>;

/** One value that moved, for the log and for tests. */
export interface MovedSetting {
  from: string;
  to: string;
  /** Where it was set: 'user', 'workspace' or 'folder NAME'. */
  where: string;
}

/** The places a value can be set, and how each is read and written. */
function places(): { where: string; uri?: vscode.Uri; target: vscode.ConfigurationTarget; read: (i: Inspected) => unknown }[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return [
    { where: 'user', target: vscode.ConfigurationTarget.Global, read: (i) => i.globalValue },
    ...(folders.length > 0 ? [{ where: 'workspace', target: vscode.ConfigurationTarget.Workspace, read: (i: Inspected) => i.workspaceValue }] : []),
    // A single-folder window's folder settings are its workspace settings. (VS Code reads a folder's
    // value only for resource-scoped settings; the others have none there to move.)
    ...(vscode.workspace.workspaceFile
      ? folders.map((f) => ({ where: `folder ${f.name}`, uri: f.uri, target: vscode.ConfigurationTarget.WorkspaceFolder, read: (i: Inspected) => i.workspaceFolderValue }))
      : []),
  ];
}

/**
 * Moves every value set under an old key to its new key, and empties the old key. A value already
 * set under the new key in the same place wins (the old one is only removed). Running it again
 * moves nothing: it acts once per value. A place that cannot be written is logged and left alone.
 */
export async function migrateRenamedSettings(): Promise<MovedSetting[]> {
  const moved: MovedSetting[] = [];
  for (const { from, to } of RENAMED_SETTINGS) {
    for (const place of places()) {
      const config = vscode.workspace.getConfiguration('cartograph', place.uri);
      const oldInfo = config.inspect(from);
      const value = oldInfo && place.read(oldInfo);
      if (value === undefined) continue;
      const newInfo = config.inspect(to);
      try {
        if (!newInfo || place.read(newInfo) === undefined) await config.update(to, value, place.target);
        await config.update(from, undefined, place.target);
        moved.push({ from: `cartograph.${from}`, to: `cartograph.${to}`, where: place.where });
      } catch (error) {
        log().warn(`could not move the setting cartograph.${from} to cartograph.${to} (${place.where}): ${error instanceof Error ? error.message : String(error)}; the old key is still read`);
      }
    }
  }
  if (moved.length > 0) log().info(`Settings renamed, values moved once: ${moved.map((m) => `${m.from} → ${m.to} (${m.where})`).join('; ')}`);
  return moved;
}
