// Semantic lifting in the editor: when `cartograph.lifting.enabled` is on and an endpoint is set,
// each folder's functions and classes are described in the background once it is ready, and again
// (only what changed) a while after saves. Off by default: it sends code to the endpoint.
import * as vscode from 'vscode';
import { chatDescriber } from '../core/lifting/chatDescriber';
import { endpointOrigin, missingKeyText } from './endpointKeys';
import { errorText, log } from './log';
import { readRenamed } from './settingNames';
import type { WorkspaceIndex } from './workspaceIndex';

/** Saves come in bursts: describe what changed once the folder has been quiet this long. */
const AFTER_SAVES_MS = 30_000;

export class Lifting implements vscode.Disposable {
  private readonly timers = new Map<WorkspaceIndex, NodeJS.Timeout>();
  private readonly running = new Map<WorkspaceIndex, AbortController>();
  /** Endpoint problems are logged once per folder until a run succeeds. */
  private readonly warned = new Set<WorkspaceIndex>();

  /** `apiKey`: the key kept for the endpoint's origin, if any. */
  constructor(private readonly apiKey: (endpoint: string) => PromiseLike<string | undefined>) {}

  /** Describe the folder's code after `delayMs` (a later call restarts the wait). */
  schedule(index: WorkspaceIndex, delayMs = AFTER_SAVES_MS): void {
    if (!settings(index).enabled) return;
    clearTimeout(this.timers.get(index));
    this.timers.set(index, setTimeout(() => void this.run(index), delayMs));
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
    const { enabled, endpoint, model } = settings(index);
    const repository = index.repository;
    if (!enabled || !endpoint || !repository || this.running.has(index)) return;
    const controller = new AbortController();
    this.running.set(index, controller);
    try {
      // The key stays in this thread: an engine in a worker asks here for each description.
      const apiKey = await this.apiKey(endpoint);
      const describer = chatDescriber({ baseURL: endpoint, model, apiKey });
      const report = await repository.lift(describer, controller.signal);
      // A refusal of a request sent without a key: say which origin needs one, and where it is set.
      const origin = !apiKey && report.stopped && /\b40[13]\b/.test(report.stopped) ? endpointOrigin(endpoint) : undefined;
      const hint = origin ? ` (${missingKeyText(origin)}: Cartograph: Set API Key for the Completion Endpoint)` : '';
      const line = `[${index.folder.name}] descriptions: ${report.described} new, ${report.cached} cached, ${report.failed} failed${report.stopped ? `; stopped: ${report.stopped}${hint}` : ''}`;
      if (report.stopped && report.described === 0 && report.stopped !== 'cancelled') {
        if (!this.warned.has(index)) log().warn(line);
        this.warned.add(index);
      } else {
        this.warned.delete(index);
        log().info(line);
      }
    } catch (err) {
      log().warn(`[${index.folder.name}] describing code failed: ${errorText(err)}`);
    } finally {
      this.running.delete(index);
    }
  }
}

function settings(index: WorkspaceIndex): { enabled: boolean; endpoint: string; model: string } {
  const config = vscode.workspace.getConfiguration('cartograph', index.folder.uri);
  return {
    enabled: config.get<boolean>('lifting.enabled', false),
    endpoint: readRenamed(config, 'completion.endpoint', '').trim().replace(/\/+$/, ''),
    model: readRenamed(config, 'completion.model', '').trim(),
  };
}
