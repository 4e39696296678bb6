// Completion settings, read per language (VS Code's `"[python]": {...}` overrides) and per folder.
import * as vscode from 'vscode';
import { completionSettingsFrom, type CompletionSettings } from './settingsValues';

export type { CompletionSettings } from './settingsValues';

export function readCompletionSettings(document: vscode.TextDocument): CompletionSettings {
  return completionSettingsFrom(vscode.workspace.getConfiguration('cartograph', { uri: document.uri, languageId: document.languageId }));
}
