// Completion in the editor: the inline provider for the indexed languages, the API key in secret
// storage (`cartograph.setApiKey`), switching completions on and off (`cartograph.toggleCompletions`)
// and the transparency command (`cartograph.showLastCompletion`), which shows the completion the user
// last accepted — or, before any was, the last request — in a read-only virtual document.
import * as vscode from 'vscode';
import { CompletionService } from '../../core/completion/service';
import type { Repository } from '../../core/service/repository';
import { guard } from '../log';
import { askForSecret } from '../secrets';
import type { CompletionStatus } from '../statusText';
import { GraphCompletionProvider, LANGUAGES } from './provider';
import { transparencyText } from './transparencyView';

/** The secret-storage key of the endpoint's API key (completion and lifting use the same endpoint). */
export const API_KEY = 'cartograph.llm.apiKey';
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
  context: vscode.ExtensionContext,
  repositoryFor: (uri: vscode.Uri) => Repository | undefined,
  report: (status: CompletionStatus) => void,
): vscode.Disposable {
  const service = new CompletionService();
  const provider = new GraphCompletionProvider(service, repositoryFor, () => context.secrets.get(API_KEY), report);
  const documents = new CompletionDocuments();
  const selector = Object.keys(LANGUAGES).map((language) => ({ language, scheme: 'file' }));
  return vscode.Disposable.from(
    provider,
    documents,
    vscode.languages.registerInlineCompletionItemProvider(selector, provider),
    vscode.workspace.registerTextDocumentContentProvider(COMPLETION_SCHEME, documents),
    context.secrets.onDidChange((e) => e.key === API_KEY && provider.settingsChanged()),
    // An open transparency document follows the user's acceptances.
    provider.onDidAccept(() => {
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === documents.uri.toString());
      if (open && provider.accepted) documents.set(transparencyText(provider.accepted, true, provider.recent));
    }),
    vscode.commands.registerCommand('cartograph.setApiKey', () =>
      guard('Set API Key', async () => {
        const outcome = await askForSecret(context.secrets, API_KEY, 'Cartograph: API key for the completion endpoint', 'Stored in VS Code secret storage, sent only to cartograph.completion.endpoint. Leave empty to remove the key.');
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
