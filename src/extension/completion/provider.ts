// The inline completion provider: debounce, an LRU cache of recent answers (keyed by endpoint, model
// and prompt settings as well as the text, so a switched model never answers with the old one's
// text), cancellation that aborts the HTTP request when the user types on, and what the one
// Cartograph status-bar item says about completion: busy while a request runs, a quiet warning while
// the endpoint is failing (requests back off), and — once per setting — a notification with the one
// action that fixes it when the key is refused (401/403) or the endpoint cannot work as written.
import * as path from 'node:path';
import { LRUCache } from 'lru-cache';
import * as vscode from 'vscode';
import type { CompletionRecord, CompletionService } from '../../core/completion/service';
import type { Language } from '../../core/model/schema';
import { endpointProblem } from '../../core/llm/endpoint';
import type { ContextSource, Repository } from '../../core/service/repository';
import { endpointOrigin } from '../endpointKeys';
import { errorText, log } from '../log';
import { readRenamed } from '../settingNames';
import { completionProblem, type CompletionStatus } from '../statusText';
import { cacheKey } from './cacheKey';
import { readCompletionSettings } from './settings';

export const LANGUAGES: Record<string, Language> = {
  python: 'python',
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  go: 'go',
  java: 'java',
  rust: 'rust',
};

/** Runs when the user accepts an inline completion (VS Code executes the item's command). */
export const ACCEPTED_COMMAND = 'cartograph.completionAccepted';
/** Requests kept for Show Last Completion Request. */
const RECENT = 8;

interface Cached {
  text: string;
  record: CompletionRecord | undefined;
}

export class GraphCompletionProvider implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  private readonly contexts = new WeakMap<Repository, ContextSource>();
  private readonly cache = new LRUCache<string, Cached>({ max: 200 });
  private running = 0;
  private problem: CompletionStatus | undefined;
  /** Problems already notified for the current settings (one notification each, not one per keystroke). */
  private readonly notified = new Set<string>();
  /** The last requests, newest first, and the last completion the user accepted. */
  readonly recent: CompletionRecord[] = [];
  accepted: CompletionRecord | undefined;
  private readonly acceptEmitter = new vscode.EventEmitter<CompletionRecord>();
  readonly onDidAccept = this.acceptEmitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly service: CompletionService,
    private readonly repositoryFor: (uri: vscode.Uri) => Repository | undefined,
    /** The key kept for the endpoint's origin, if any. */
    private readonly apiKey: (endpoint: string) => PromiseLike<string | undefined>,
    private readonly report: (status: CompletionStatus) => void,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cartograph.llm') || e.affectsConfiguration('cartograph.completion')) this.settingsChanged();
      }),
      vscode.commands.registerCommand(ACCEPTED_COMMAND, (record: CompletionRecord | undefined) => {
        if (!record) return;
        this.accepted = record;
        this.acceptEmitter.fire(record);
      }),
    ];
    this.publish();
  }

  /** New settings or a new key: the old warning, back-off and cached answers no longer apply. */
  settingsChanged(): void {
    this.problem = undefined;
    this.notified.clear();
    this.cache.clear();
    this.service.settingsChanged();
    this.publish();
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
    const invalid = endpointProblem(settings.endpoint.endpoint);
    if (invalid) {
      this.fail({ kind: 'misconfigured', message: `cartograph.completion.endpoint: ${invalid}` });
      return undefined;
    }
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
    const key = cacheKey(document.uri.toString(), settings, query.prefix, query.suffix);
    const cached = this.cache.get(key);
    if (cached !== undefined) return [this.item(cached, position)];

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
      const apiKey = await this.apiKey(settings.endpoint.endpoint);
      const result = await this.service.complete(assembler, query, { ...settings.endpoint, apiKey }, settings.assemble, controller.signal);
      if (result.record && result.outcome !== 'cancelled') this.remember(result.record);
      if (result.outcome === 'failed') {
        const keyless = apiKey ? undefined : endpointOrigin(settings.endpoint.endpoint);
        this.fail(completionProblem(settings.endpoint.endpoint, result.record?.httpStatus, result.record?.error, keyless));
      }
      else if (result.outcome !== 'cancelled' && result.outcome !== 'backing-off') this.recovered();
      if (result.text === undefined || token.isCancellationRequested) return undefined;
      const answer = { text: result.text, record: result.record };
      this.cache.set(key, answer);
      return [this.item(answer, position)];
    } finally {
      cancel.dispose();
      this.busy(-1);
    }
  }

  private item(answer: Cached, position: vscode.Position): vscode.InlineCompletionItem {
    const item = new vscode.InlineCompletionItem(answer.text, new vscode.Range(position, position));
    item.command = { command: ACCEPTED_COMMAND, title: 'Completion accepted', arguments: [answer.record] };
    return item;
  }

  private remember(record: CompletionRecord): void {
    this.recent.unshift(record);
    this.recent.length = Math.min(this.recent.length, RECENT);
  }

  private busy(delta: number): void {
    this.running += delta;
    this.publish();
  }

  private publish(): void {
    const config = vscode.workspace.getConfiguration('cartograph');
    if (this.running > 0) this.report({ kind: 'busy' });
    else if (this.problem) this.report(this.problem);
    else if (!config.get<boolean>('completion.enabled', true)) this.report({ kind: 'off', why: 'switched off' });
    else if (!readRenamed(config, 'completion.endpoint', '').trim()) this.report({ kind: 'off', why: 'no endpoint' });
    else this.report({ kind: 'idle' });
  }

  /** A problem: logged and shown in the status bar; the ones the user must fix also get one notification with the fix. */
  private fail(problem: CompletionStatus): void {
    if (problem.kind !== 'unauthorized' && problem.kind !== 'misconfigured' && problem.kind !== 'failing') return;
    const first = this.problem?.kind !== problem.kind || this.problem.message !== problem.message;
    this.problem = problem;
    this.publish();
    if (!first) return;
    if (problem.kind === 'failing') log().warn(`completion: ${problem.message}`);
    else log().error(`completion: ${problem.message}`);
    if (problem.kind === 'failing' || this.notified.has(problem.message)) return;
    this.notified.add(problem.message);
    const actions = problem.kind === 'unauthorized' ? ['Set API Key', 'Open Settings'] : ['Open Settings'];
    void vscode.window.showWarningMessage(`Cartograph completion: ${problem.message}.`, ...actions).then((choice) => {
      if (choice === 'Set API Key') void vscode.commands.executeCommand('cartograph.setApiKey');
      else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'cartograph.llm');
    });
  }

  private recovered(): void {
    if (!this.problem) return;
    this.problem = undefined;
    log().info('completion endpoint answers again');
    this.publish();
  }

  dispose(): void {
    this.acceptEmitter.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
