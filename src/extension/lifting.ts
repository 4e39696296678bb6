// Semantic lifting in the editor: when `cartograph.lifting.enabled` is on, each folder's functions and
// classes are described in the background once it is ready, and again (only what changed) a while
// after saves. The model is the completion endpoint's, or (`cartograph.lifting.provider`: vscode) the
// user's chat model in VS Code, used only after the user agreed to what the run sends, with its token
// cost written to the log after each run. Off by default: it sends code to a model.
import * as vscode from 'vscode';
import { areasNamed } from '../core/features/areaNames';
import { chatDescriber } from '../core/lifting/chatDescriber';
import type { Describer, LiftReport } from '../core/lifting/lifter';
import { newTokenUsage, streamDescriber, type TokenUsage } from '../core/lifting/streamDescriber';
import type { Repository } from '../core/service/repository';
import { chooseChatModel, streamingChatModel } from './chatModel';
import { endpointOrigin, missingKeyText } from './endpointKeys';
import { errorText, log } from './log';
import { readRenamed } from './settingNames';
import type { WorkspaceIndex } from './workspaceIndex';

/** Saves come in bursts: describe what changed once the folder has been quiet this long. */
const AFTER_SAVES_MS = 30_000;
/** workspaceState key (per folder and model) of the user's yes to describing code with a VS Code chat model. */
const CONSENT_KEY = 'cartograph.lifting.consented';
/** Characters per token, for the estimate shown before the first run (the model counts exactly afterwards). */
const CHARS_PER_TOKEN = 4;

interface LiftingSettings {
  enabled: boolean;
  provider: 'endpoint' | 'vscode';
  endpoint: string;
  model: string;
  /** The VS Code chat model's family or id; empty: the first VS Code offers. */
  chatModel: string;
}

/** What to describe with, or why nothing runs. */
type Model = { describer: Describer; usage?: TokenUsage; name: string; apiKey?: string } | { none: string };

export class Lifting implements vscode.Disposable {
  private readonly timers = new Map<WorkspaceIndex, NodeJS.Timeout>();
  private readonly running = new Map<WorkspaceIndex, AbortController>();
  /** Endpoint problems are logged once per folder until a run succeeds. */
  private readonly warned = new Set<WorkspaceIndex>();
  /** Folders whose "describe with this model?" got no yes in this window: not asked again until settings change. */
  private readonly declined = new Set<string>();

  /** `apiKey`: the key kept for the endpoint's origin, if any; `consents`: where a yes to a VS Code chat model is kept. */
  constructor(
    private readonly apiKey: (endpoint: string) => PromiseLike<string | undefined>,
    private readonly consents: vscode.Memento,
  ) {}

  /** Describe the folder's code after `delayMs` (a later call restarts the wait). */
  schedule(index: WorkspaceIndex, delayMs = AFTER_SAVES_MS): void {
    if (!settings(index).enabled) return;
    clearTimeout(this.timers.get(index));
    this.timers.set(index, setTimeout(() => void this.run(index), delayMs));
  }

  /** The lifting settings changed: a model the user declined may be asked about again. */
  settingsChanged(index: WorkspaceIndex): void {
    this.declined.clear();
    this.schedule(index, 2_000);
  }

  forget(index: WorkspaceIndex): void {
    clearTimeout(this.timers.get(index));
    this.timers.delete(index);
    this.running.get(index)?.abort();
  }

  dispose(): void {
    for (const index of [...this.timers.keys(), ...this.running.keys()]) this.forget(index);
  }

  private async run(index: WorkspaceIndex): Promise<void> {
    const repository = index.repository;
    if (!settings(index).enabled || !repository || this.running.has(index)) return;
    const controller = new AbortController();
    this.running.set(index, controller);
    try {
      const model = await this.model(index, repository);
      if ('none' in model) {
        if (model.none && !this.warned.has(index)) log().warn(`[${index.folder.name}] descriptions: ${model.none}`);
        if (model.none) this.warned.add(index);
        return;
      }
      const report = await repository.lift(model.describer, controller.signal);
      this.reported(index, report, model);
    } catch (err) {
      log().warn(`[${index.folder.name}] describing code failed: ${errorText(err)}`);
    } finally {
      this.running.delete(index);
    }
  }

  private async model(index: WorkspaceIndex, repository: Repository): Promise<Model> {
    const s = settings(index);
    if (s.provider === 'endpoint') {
      if (!s.endpoint) return { none: '' };
      // The key stays in this thread: an engine in a worker asks here for each description.
      const apiKey = await this.apiKey(s.endpoint);
      return { describer: chatDescriber({ baseURL: s.endpoint, model: s.model, apiKey }), name: s.endpoint, apiKey };
    }
    const chat = await chooseChatModel(s.chatModel);
    if (!chat) return { none: `no chat model in VS Code${s.chatModel ? ` of family "${s.chatModel}"` : ''} (a provider such as GitHub Copilot offers one; or set cartograph.lifting.provider to "endpoint")` };
    const consentKey = `${CONSENT_KEY}:${index.folder.uri.toString()}:${chat.id}`;
    if (!this.consents.get<boolean>(consentKey)) {
      if (this.declined.has(consentKey)) return { none: '' };
      const cost = await repository.liftingCost();
      if (cost.entities === 0) return { none: '' };
      const tokens = Math.ceil(cost.characters / CHARS_PER_TOKEN);
      const choice = await vscode.window.showInformationMessage(
        `Describe ${cost.entities.toLocaleString()} functions and classes of ${index.folder.name} with ${chat.name} (${chat.vendor})? This sends their code to the model: about ${tokens.toLocaleString()} input tokens now, then only what changes. Search and the functional view use the descriptions.`,
        'Describe',
        'Not now',
      );
      if (choice !== 'Describe') {
        this.declined.add(consentKey);
        log().info(`[${index.folder.name}] descriptions with ${chat.name}: not now`);
        return { none: '' };
      }
      await this.consents.update(consentKey, true);
    }
    const usage = newTokenUsage();
    return { describer: streamDescriber(streamingChatModel(chat), usage), usage, name: chat.name };
  }

  private reported(index: WorkspaceIndex, report: LiftReport, model: Exclude<Model, { none: string }>): void {
    // A refusal of a request sent without a key: say which origin needs one, and where it is set.
    const origin = !model.usage && !model.apiKey && report.stopped && /\b40[13]\b/.test(report.stopped) ? endpointOrigin(model.name) : undefined;
    const hint = origin ? ` (${missingKeyText(origin)}: Cartograph: Set API Key for the Completion Endpoint)` : '';
    const cost = model.usage ? `; ${model.name}: ${model.usage.requests} requests, ${model.usage.input.toLocaleString()} input and ${model.usage.output.toLocaleString()} output tokens` : '';
    const areas = report.areas ? `; ${areasNamed(report.areas)}` : '';
    const line = `[${index.folder.name}] descriptions: ${report.described} new, ${report.cached} cached (requests saved), ${report.failed} failed${areas}${cost}${report.stopped ? `; stopped: ${report.stopped}${hint}` : ''}`;
    if (report.stopped && report.described === 0 && report.stopped !== 'cancelled') {
      if (!this.warned.has(index)) log().warn(line);
      this.warned.add(index);
    } else {
      this.warned.delete(index);
      log().info(line);
    }
  }
}

function settings(index: WorkspaceIndex): LiftingSettings {
  const config = vscode.workspace.getConfiguration('cartograph', index.folder.uri);
  return {
    enabled: config.get<boolean>('lifting.enabled', false),
    provider: config.get<string>('lifting.provider', 'endpoint') === 'vscode' ? 'vscode' : 'endpoint',
    endpoint: readRenamed(config, 'completion.endpoint', '').trim().replace(/\/+$/, ''),
    model: readRenamed(config, 'completion.model', '').trim(),
    chatModel: config.get<string>('lifting.chatModel', '').trim(),
  };
}
