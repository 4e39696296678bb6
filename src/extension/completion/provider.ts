// The inline completion provider: debounce, an LRU cache of recent answers, cancellation that aborts
// the HTTP request when the user types on, and a status-bar item (busy while a request runs; one
// quiet warning while the endpoint is failing — never a popup).
import * as path from 'node:path';
import { LRUCache } from 'lru-cache';
import * as vscode from 'vscode';
import type { CompletionService } from '../../core/completion/service';
import type { Language } from '../../core/graph/schema';
import type { ContextSource, Repository } from '../../core/service/repository';
import { errorText, log } from '../log';
import { readCompletionSettings } from './settings';

export const LANGUAGES: Record<string, Language> = {
  python: 'python',
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
};

/** Characters of prefix and suffix that make two requests the same for the cache. */
const CACHE_PREFIX = 2000;
const CACHE_SUFFIX = 500;

export class GraphCompletionProvider implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  private readonly contexts = new WeakMap<Repository, ContextSource>();
  private readonly cache = new LRUCache<string, string>({ max: 200 });
  private readonly status = vscode.window.createStatusBarItem('cartograph.completion', vscode.StatusBarAlignment.Right, 100);
  private running = 0;
  private warned = false;
  private warning = '';

  constructor(
    private readonly service: CompletionService,
    private readonly repositoryFor: (uri: vscode.Uri) => Repository | undefined,
    private readonly apiKey: () => Thenable<string | undefined>,
  ) {
    this.status.name = 'Cartograph completion';
    this.status.command = 'cartograph.showLastCompletion';
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    _context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    try {
      return await this.provide(document, position, token);
    } catch (err) {
      log().error(`inline completion failed: ${errorText(err)}`);
      return undefined;
    }
  }

  private async provide(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    const language = LANGUAGES[document.languageId];
    const settings = readCompletionSettings(document);
    if (!language || !settings.enabled || !settings.endpoint.endpoint) return undefined;
    const repository = this.repositoryFor(document.uri);
    if (!repository) return undefined;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const query = {
      path: path.relative(repository.root, document.uri.fsPath).split(path.sep).join('/'),
      language,
      prefix: text.slice(0, offset),
      suffix: text.slice(offset),
    };
    const key = `${document.uri.toString()}\u0000${query.prefix.slice(-CACHE_PREFIX)}\u0000${query.suffix.slice(0, CACHE_SUFFIX)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return [new vscode.InlineCompletionItem(cached, new vscode.Range(position, position))];

    if (settings.debounceMs > 0) await new Promise((resolve) => setTimeout(resolve, settings.debounceMs));
    if (token.isCancellationRequested) return undefined;
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    let assembler = this.contexts.get(repository);
    if (!assembler) {
      assembler = { assemble: (q, options) => repository.assembleContext(q, options) };
      this.contexts.set(repository, assembler);
    }
    this.busy(+1);
    try {
      const result = await this.service.complete(assembler, query, { ...settings.endpoint, apiKey: await this.apiKey() }, settings.assemble, controller.signal);
      if (result.outcome === 'failed' || result.outcome === 'backing-off') this.warn(settings.endpoint.endpoint, result.record?.error);
      else if (result.outcome !== 'cancelled') this.recovered();
      if (result.text === undefined || token.isCancellationRequested) return undefined;
      this.cache.set(key, result.text);
      return [new vscode.InlineCompletionItem(result.text, new vscode.Range(position, position))];
    } finally {
      cancel.dispose();
      this.busy(-1);
    }
  }

  private busy(delta: number): void {
    this.running += delta;
    if (this.running > 0) {
      this.status.text = '$(loading~spin) Cartograph';
      this.status.tooltip = 'Cartograph: asking the model for a completion';
      this.status.backgroundColor = undefined;
      this.status.show();
    } else if (!this.warned) this.status.hide();
    else this.showWarning();
  }

  /** Once per outage: a status-bar warning and one log line. */
  private warn(endpoint: string, error: string | undefined): void {
    if (this.warned) return;
    this.warned = true;
    this.warning = `Cartograph: no completions, ${endpoint} is not answering${error ? ` (${error})` : ''}; retrying with back-off`;
    log().warn(this.warning);
    this.showWarning();
  }
  private showWarning(): void {
    this.status.text = '$(warning) Cartograph LLM';
    this.status.tooltip = `${this.warning}\nClick to see the last request`;
    this.status.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.status.show();
  }

  private recovered(): void {
    if (!this.warned) return;
    this.warned = false;
    log().info('completion endpoint answers again');
    if (this.running === 0) this.status.hide();
  }

  dispose(): void {
    this.status.dispose();
  }
}
