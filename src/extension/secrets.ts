// API keys live in VS Code's secret storage only: asked for in a password box, never written to
// settings or logs.
import * as vscode from 'vscode';

/** Asks for a key and stores it under `key` (empty removes it); undefined when the user cancelled. */
export async function askForSecret(secrets: vscode.SecretStorage, key: string, title: string, prompt: string): Promise<'stored' | 'removed' | undefined> {
  const value = await vscode.window.showInputBox({ title, prompt, password: true, ignoreFocusOut: true });
  if (value === undefined) return undefined;
  if (value.trim() === '') {
    await secrets.delete(key);
    return 'removed';
  }
  await secrets.store(key, value.trim());
  return 'stored';
}
