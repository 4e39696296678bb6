// Completion in the editor: the inline provider for the indexed languages, the API key in secret
// storage (`cartograph.setApiKey`) and the transparency command (`cartograph.showLastCompletion`).
import * as vscode from 'vscode';
import { CompletionService } from '../../core/completion/service';
import { describeRecord } from '../../core/completion/transparency';
import type { Repository } from '../../core/service/repository';
import { guard } from '../log';
import { askForSecret } from '../secrets';
import { GraphCompletionProvider, LANGUAGES } from './provider';

/** The secret-storage key of the endpoint's API key (completion and lifting use the same endpoint). */
export const API_KEY = 'cartograph.llm.apiKey';

export function registerCompletion(context: vscode.ExtensionContext, repositoryFor: (uri: vscode.Uri) => Repository | undefined): vscode.Disposable {
  const service = new CompletionService();
  const provider = new GraphCompletionProvider(service, repositoryFor, () => context.secrets.get(API_KEY));
  const selector = Object.keys(LANGUAGES).map((language) => ({ language, scheme: 'file' }));
  return vscode.Disposable.from(
    provider,
    vscode.languages.registerInlineCompletionItemProvider(selector, provider),
    vscode.commands.registerCommand('cartograph.setApiKey', () =>
      guard('Set API Key', async () => {
        const outcome = await askForSecret(context.secrets, API_KEY, 'Cartograph: API key for the completion endpoint', 'Stored in VS Code secret storage, sent only to cartograph.llm.endpoint. Leave empty to remove the key.');
        if (!outcome) return;
        vscode.window.setStatusBarMessage(`Cartograph: API key ${outcome}`, 3000);
      }),
    ),
    vscode.commands.registerCommand('cartograph.showLastCompletion', () =>
      guard('Show Last Completion', async () => {
        const record = service.last;
        if (!record) {
          void vscode.window.showInformationMessage('Cartograph has not sent a completion request yet (is cartograph.llm.endpoint set?).');
          return undefined;
        }
        const document = await vscode.workspace.openTextDocument({ content: describeRecord(record), language: 'markdown' });
        await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
        return record;
      }),
    ),
  );
}
