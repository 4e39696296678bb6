// API keys live in VS Code's secret storage only, each under the origin of the endpoint it was set
// for (endpointKeys.ts): asked for in a password box that names that origin, sent only there, never
// written to settings or logs.
import * as vscode from 'vscode';
import { endpointOrigin, isKeyName, keyFor, migrateLegacyKey, secretName, type KeyUse, type Migration } from './endpointKeys';
import { errorText, log } from './log';
import { RENAMED_SETTINGS } from './settingNames';

/** Each use's endpoint setting and the command that sets its key. */
export const KEY_USES: Readonly<Record<KeyUse, { setting: string; command: string }>> = {
  completion: { setting: 'cartograph.completion.endpoint', command: 'cartograph.setApiKey' },
  embedding: { setting: 'cartograph.embedding.endpoint', command: 'cartograph.setEmbeddingApiKey' },
};

export class ApiKeys {
  /** The legacy keys' move, started at activation: lookups wait for it so the first request after an upgrade has its key. */
  private readonly migrated: Promise<void>;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.migrated = Promise.all((Object.keys(KEY_USES) as KeyUse[]).map((use) => this.migrate(use))).then(() => undefined);
  }

  /** The key to send to `endpoint`: the one set for its origin, else none. */
  async get(use: KeyUse, endpoint: string): Promise<string | undefined> {
    await this.migrated;
    return keyFor(this.secrets, use, endpoint);
  }

  /** Fires when one of `use`'s keys is set or removed. */
  onDidChange(use: KeyUse, listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => isKeyName(use, e.key) && listener());
  }

  /** Asks for the key of `endpoint`'s origin and stores it there (empty removes it); undefined when nothing changed. */
  async ask(use: KeyUse, endpoint: string): Promise<'stored' | 'removed' | undefined> {
    const { setting } = KEY_USES[use];
    const origin = endpointOrigin(endpoint);
    if (!origin) {
      const choice = await vscode.window.showWarningMessage(`Cartograph: set ${setting} first: an API key is kept for the server it names and sent only there.`, 'Open Settings');
      if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', setting);
      return undefined;
    }
    await this.migrated;
    const value = await vscode.window.showInputBox({
      title: `Cartograph: API key for ${origin}`,
      prompt: `Sent only to ${origin} (${setting}); kept in VS Code's secret storage. Leave empty to remove it.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    const name = secretName(use, origin);
    if (value.trim() === '') {
      await this.secrets.delete(name);
      return 'removed';
    }
    await this.secrets.store(name, value.trim());
    return 'stored';
  }

  private async migrate(use: KeyUse): Promise<void> {
    const { setting, command } = KEY_USES[use];
    let outcome: Migration;
    try {
      outcome = await migrateLegacyKey(this.secrets, use, userEndpoint(setting));
    } catch (err) {
      log().error(`moving the ${use} API key to its endpoint: ${errorText(err)}`);
      return;
    }
    if (outcome.kind === 'bound' || outcome.kind === 'kept') log().info(`${use} API key: now kept for ${outcome.origin} only`);
    if (outcome.kind !== 'dropped') return;
    const choice = await vscode.window.showWarningMessage(
      `Cartograph: API keys are now kept per server. The ${use} API key set before this update was removed: no ${setting} was set in your user settings to tie it to. Set it again for the endpoint you use.`,
      'Set API Key',
    );
    if (choice === 'Set API Key') void vscode.commands.executeCommand(command);
  }
}

/**
 * The endpoint in the user's own settings (or under the setting's old name, whose value may not
 * have moved yet). Workspace values are left out: a repository's settings must not choose where an
 * existing key goes.
 */
function userEndpoint(setting: string): string | undefined {
  const key = setting.replace(/^cartograph\./, '');
  const config = vscode.workspace.getConfiguration('cartograph');
  for (const name of [key, ...RENAMED_SETTINGS.filter((r) => r.to === key).map((r) => r.from)]) {
    const value = config.inspect<string>(name)?.globalValue;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}
