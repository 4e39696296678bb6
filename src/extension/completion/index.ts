// Completion in the editor: the inline provider for the indexed languages, the endpoint's API key in
// secret storage (`cartograph.setApiKey`, kept for the endpoint's origin: secrets.ts), switching
// completions on and off (`cartograph.toggleCompletions`) and the transparency command
// (`cartograph.showLastCompletion`), which shows the completion the user last accepted — or, before
// any was, the last request — in a read-only virtual document. Setting up the server: setup.ts.
import * as vscode from 'vscode';
import { CompletionService } from '../../core/completion/service';
import type { Repository } from '../../core/service/repository';
import { guard } from '../log';
import type { ApiKeys } from '../secrets';
import type { CompletionStatus } from '../statusText';
import { GraphCompletionProvider, LANGUAGES } from './provider';
import { readCompletionSettings } from './settings';
import { completionSettingsFrom } from './settingsValues';
import { registerSetupCommands } from './setup';
import { transparencyText } from './transparencyView';

export const COMPLETION_SCHEME = 'cartograph-completion';

/** The transparency document: read-only (a content provider's), never dirty, refreshed in place. */
class CompletionDocuments implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  readonly uri = vscode.Uri.from({ scheme: COMPLETION_SCHEME, path: '/Last Completion Request.md' });
  private text = '';
  set(text: string): void {
    this.text = text;
    this.emitter.fire(this.uri);
  }
  provideTextDocumentContent(): string {
    return this.text;
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export function registerCompletion(
  keys: ApiKeys,
  repositoryFor: (uri: vscode.Uri) => Repository | undefined,
  report: (status: CompletionStatus) => void,
): vscode.Disposable {
  const service = new CompletionService();
  const provider = new GraphCompletionProvider(service, repositoryFor, (endpoint) => keys.get('completion', endpoint), report);
  const documents = new CompletionDocuments();
  const selector = Object.keys(LANGUAGES).map((language) => ({ language, scheme: 'file' }));
  return vscode.Disposable.from(
    provider,
    documents,
    vscode.languages.registerInlineCompletionItemProvider(selector, provider),
    vscode.workspace.registerTextDocumentContentProvider(COMPLETION_SCHEME, documents),
    keys.onDidChange('completion', () => provider.settingsChanged()),
    registerSetupCommands(keys),
    // An open transparency document follows the user's acceptances.
    provider.onDidAccept(() => {
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === documents.uri.toString());
      if (open && provider.accepted) documents.set(transparencyText(provider.accepted, true, provider.recent));
    }),
    vscode.commands.registerCommand('cartograph.setApiKey', () =>
      guard('Set API Key', async () => {
        // The endpoint the active editor's completions go to (the setting may differ per language).
        const document = vscode.window.activeTextEditor?.document;
        const settings = document ? readCompletionSettings(document) : completionSettingsFrom(vscode.workspace.getConfiguration('cartograph'));
        const outcome = await keys.ask('completion', settings.endpoint.endpoint);
        if (!outcome) return;
        vscode.window.setStatusBarMessage(`Cartograph: API key ${outcome}`, 3000);
      }),
    ),
    vscode.commands.registerCommand('cartograph.toggleCompletions', () =>
      guard('Toggle Completions', async () => {
        const config = vscode.workspace.getConfiguration('cartograph');
        const on = !config.get<boolean>('completion.enabled', true);
        await config.update('completion.enabled', on, vscode.ConfigurationTarget.Global);
        vscode.window.setStatusBarMessage(`Cartograph: completions ${on ? 'on' : 'off'}`, 3000);
        return on;
      }),
    ),
    vscode.commands.registerCommand('cartograph.showLastCompletion', () =>
      guard('Show Last Completion', async () => {
        const record = provider.accepted ?? provider.recent[0];
        if (!record) {
          void vscode.window.showInformationMessage('Cartograph has not sent a completion request yet (is cartograph.completion.endpoint set?).');
          return undefined;
        }
        documents.set(transparencyText(record, record === provider.accepted, provider.recent));
        const document = await vscode.workspace.openTextDocument(documents.uri);
        await vscode.window.showTextDocument(document, { preview: true });
        return record;
      }),
    ),
  );
}
