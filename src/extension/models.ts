// Search models in the editor: the `cartograph.embedding.*`, `cartograph.reranker.model`,
// `cartograph.models.localPath` and `cartograph.search.useModels` settings turned into models (in
// worker threads, downloads cached in global storage, one progress notification per download),
// handed to each folder's repository, whose embedding job runs once its structural index is ready.
// Nothing is downloaded before the user agreed (`cartograph.search.downloadModels`, or the one
// question, answered once per machine); when search ends up without models because something failed,
// the user is told so once per window, with the reason.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BUNDLED_EMBEDDING_MODEL } from '../core/models/bundled';
import { loadSearchModels, type LoadedModels, type ModelSettings } from '../core/models/loader';
import { isModelOnDisk, type DownloadProgress } from '../core/models/transformersModels';
import type { Repository } from '../core/service/repository';
import { endpointProblem } from '../core/llm/endpoint';
import { errorText, guard, log } from './log';
import { downloadDecision, downloadSetting, type DownloadAnswer } from './modelConsent';
import { endpointOrigin, missingKeyText } from './endpointKeys';
import { KEY_USES, type ApiKeys } from './secrets';
import type { WorkspaceIndex } from './workspaceIndex';

/** Changes settle for this long before a folder's new nodes are embedded (saves come in bursts). */
const EMBED_DELAY_MS = 2_000;
const MODEL_SETTINGS = ['cartograph.embedding', 'cartograph.reranker', 'cartograph.models', 'cartograph.search.useModels', 'cartograph.search.downloadModels'];
/** globalState key of the answer to "download the search models?" ('always' or 'never'). */
const DOWNLOAD_ANSWER = 'cartograph.search.downloadAnswer';

export interface ModelHost {
  indexes(): readonly WorkspaceIndex[];
  onDidChangeState: vscode.Event<WorkspaceIndex>;
  onDidUpdate: vscode.Event<WorkspaceIndex>;
}

/** A folder's repository with the models it was given and its running embedding pass. */
interface FolderJob {
  repository: Repository;
  models: LoadedModels | undefined;
  cancel: AbortController;
}

let active: SearchModelService | undefined;

/** Search asks for models: the first search starts loading them (it never waits for them). */
export function requestSearchModels(): void {
  void active?.load();
}

export class SearchModelService implements vscode.Disposable {
  private loading: Promise<LoadedModels> | undefined;
  private readonly folders = new Map<WorkspaceIndex, FolderJob>();
  private readonly pendingTimers = new Map<WorkspaceIndex, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];
  private disposed = false;
  /** "Not now" holds for this window; the question is asked at most once at a time. */
  private notNow = false;
  private asking = false;
  /** Search without models because something failed: said once per window. */
  private toldModelFree = false;
  /** The embedding endpoint's origin when the last load sent it no key (none is kept for it). */
  private keylessOrigin: string | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly keys: ApiKeys,
    private readonly host: ModelHost,
  ) {
    this.subscriptions = [
      host.onDidChangeState((index) => index.state.kind === 'ready' && this.schedule(index)),
      host.onDidUpdate((index) => this.schedule(index)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (MODEL_SETTINGS.some((s) => e.affectsConfiguration(s))) void this.reload();
      }),
      vscode.commands.registerCommand(KEY_USES.embedding.command, () => guard('Set Embedding Endpoint API Key', () => this.setApiKey())),
    ];
    for (const index of host.indexes()) if (index.state.kind === 'ready') this.schedule(index);
    active = this;
  }

  private schedule(index: WorkspaceIndex): void {
    if (this.disposed) return;
    clearTimeout(this.pendingTimers.get(index));
    const timer = setTimeout(() => {
      this.pendingTimers.delete(index);
      void this.embed(index).catch((err) => log().error(`[${index.folder.name}] embedding failed: ${errorText(err)}`));
    }, EMBED_DELAY_MS);
    this.pendingTimers.set(index, timer);
  }

  /** Gives the folder's repository the loaded models (once per repository and load), then embeds what is new. */
  private async embed(index: WorkspaceIndex): Promise<void> {
    const models = await this.load();
    const repository = index.repository;
    const open = this.host.indexes();
    for (const [gone, folder] of this.folders) {
      if (!open.includes(gone)) {
        folder.cancel.abort();
        this.folders.delete(gone);
      }
    }
    if (this.disposed || !repository || !open.includes(index)) return;
    let folder = this.folders.get(index);
    if (!folder || folder.repository !== repository || folder.models !== models) {
      folder?.cancel.abort();
      folder = { repository, models, cancel: new AbortController() };
      this.folders.set(index, folder);
      await repository.useModels(models, models.status);
    }
    const report = await repository.embed(folder.cancel.signal);
    if (report && (report.embedded > 0 || report.removed > 0)) {
      log().info(
        `[${index.folder.name}] embeddings: ${report.embedded} nodes embedded, ${report.reused} reused, ${report.removed} dropped in ${report.ms} ms${report.persisted ? '' : ' (kept in memory only)'}${report.cancelled ? ', cancelled' : ''}`,
      );
    }
  }

  /** Loads the configured models once (again after a settings change). */
  load(): Promise<LoadedModels> {
    if (this.loading) return this.loading;
    const loading: Promise<LoadedModels> = (this.loading = this.loadNow()
      .catch((err): LoadedModels => {
        const problem = err instanceof Error ? err.message : String(err);
        return { problems: [problem], status: `model-free: ${problem}`, close: async () => undefined };
      })
      .then((models) => {
        // Once per load: what search runs with and, when something is missing, why.
        log().info(`search models: ${models.status}`);
        this.tellIfFailed(models);
        // Folders get them now, not only after their next change (embed does it again for a new repository).
        if (this.loading === loading) for (const index of this.host.indexes()) if (index.state.kind === 'ready') this.schedule(index);
        return models;
      }));
    return loading;
  }

  private async loadNow(): Promise<LoadedModels> {
    const config = vscode.workspace.getConfiguration('cartograph');
    const none = async () => undefined;
    if (!config.get<boolean>('search.useModels', true)) {
      return { problems: [], status: 'model-free: turned off (cartograph.search.useModels)', close: none };
    }
    const endpoint = config.get<string>('embedding.endpoint', '').trim();
    const invalid = endpointProblem(endpoint);
    if (invalid) throw new Error(`cartograph.embedding.endpoint: ${invalid}`);
    const apiKey = endpoint ? await this.keys.get('embedding', endpoint) : undefined;
    this.keylessOrigin = apiKey ? undefined : endpointOrigin(endpoint);
    const settings: ModelSettings = {
      embeddingModel: config.get<string>('embedding.model', ''),
      rerankerModel: config.get<string>('reranker.model', ''),
      endpoint: endpoint ? { baseURL: endpoint, apiKey } : undefined,
      transformers: {
        cacheDir: path.join(this.context.globalStorageUri.fsPath, 'models'),
        localPath: config.get<string>('models.localPath', '').trim() || undefined,
      },
      threads: true,
      shippedByDefault: true,
    };
    // The shipped embedding model is never downloaded: it is in the extension's own models/ folder.
    const wanted = [endpoint ? '' : settings.embeddingModel, settings.rerankerModel].map((m) => m?.trim() ?? '').filter((m) => m !== '' && m !== BUNDLED_EMBEDDING_MODEL);
    const downloads = wanted.filter((m) => !isModelOnDisk(m, settings.transformers!));
    if (downloads.length === 0) return loadSearchModels(settings);
    const answer: DownloadAnswer | undefined = this.notNow ? 'not-now' : this.context.globalState.get<DownloadAnswer>(DOWNLOAD_ANSWER);
    const decision = downloadDecision(downloadSetting(config.get('search.downloadModels')), answer);
    if (decision.kind !== 'download') {
      if (decision.kind === 'ask') void this.ask(downloads);
      // What is already on disk (or behind an endpoint) still loads; only the downloads wait.
      const why = decision.kind === 'ask' ? 'waiting for your answer to "download the search models?"' : decision.why;
      const local = await loadSearchModels({
        ...settings,
        embeddingModel: downloads.includes(settings.embeddingModel ?? '') ? '' : settings.embeddingModel,
        rerankerModel: downloads.includes(settings.rerankerModel ?? '') ? '' : settings.rerankerModel,
      });
      return { ...local, status: local.embedder || local.reranker ? `${local.status} (${downloads.join(', ')} not downloaded: ${why})` : `model-free: ${why}` };
    }
    // The one notification of the feature while it works: only when something is actually fetched.
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Cartograph: downloading ${downloads.join(', ')}` },
      (progress) => loadSearchModels({ ...settings, transformers: { ...settings.transformers, onProgress: downloadReporter(progress) } }),
    );
  }

  /** The one question, asked once per machine (and again only in a new window after "Not now"). */
  private async ask(downloads: string[]): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      const choice = await vscode.window.showInformationMessage(
        `Cartograph can search by meaning better with ${downloads.length === 1 ? 'a small model' : 'small models'} (${downloads.join(', ')}), downloaded once from huggingface.co and kept on this machine. Without ${downloads.length === 1 ? 'it' : 'them'}, search uses its shipped model (unless turned off), names, the code graph and keywords. Download ${downloads.length === 1 ? 'it' : 'them'}?`,
        'Download',
        'Not now',
        'Never',
      );
      if (choice === 'Download') await this.context.globalState.update(DOWNLOAD_ANSWER, 'always');
      else if (choice === 'Never') await this.context.globalState.update(DOWNLOAD_ANSWER, 'never');
      else this.notNow = true;
      log().info(`search models: download ${choice === 'Download' ? 'accepted' : choice === 'Never' ? 'declined for good' : 'postponed'}`);
      if (choice === 'Download' || choice === 'Never') await this.reload();
      else if (this.loading) void this.reload();
    } finally {
      this.asking = false;
    }
  }

  /** Search runs without a model the user wanted because loading it failed (offline, bad endpoint): say so once per window. */
  private tellIfFailed(models: LoadedModels): void {
    if (this.toldModelFree || models.problems.length === 0) return;
    this.toldModelFree = true;
    const missing = models.embedder || models.reranker ? 'part of its models' : 'its models';
    // The endpoint refused a request that went without a key: name the origin that needs one and offer to set it.
    const keyless = this.keylessOrigin && models.problems.some((p) => /\bHTTP 40[13]\b/.test(p)) ? this.keylessOrigin : undefined;
    const problems = [...models.problems, ...(keyless ? [missingKeyText(keyless)] : [])];
    const actions = keyless ? ['Set API Key', 'Show Log', 'Open Settings'] : ['Show Log', 'Open Settings'];
    void vscode.window
      .showWarningMessage(`Cartograph: search runs without ${missing}: ${problems.join('; ')}. Names, the code graph and keywords still work.`, ...actions)
      .then((choice) => {
        if (choice === 'Set API Key') void vscode.commands.executeCommand(KEY_USES.embedding.command);
        else if (choice === 'Show Log') log().show(true);
        else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'cartograph.search');
      });
  }

  private async setApiKey(): Promise<void> {
    const outcome = await this.keys.ask('embedding', vscode.workspace.getConfiguration('cartograph').get<string>('embedding.endpoint', '').trim());
    if (outcome) await this.reload();
  }

  private async reload(): Promise<void> {
    const previous = this.loading;
    this.loading = undefined;
    for (const folder of this.folders.values()) folder.cancel.abort();
    this.folders.clear();
    // Nothing may call the old models once they are closed.
    await Promise.all(this.host.indexes().map((i) => i.repository?.useModels(undefined, 'model-free: search models are loading').catch(() => undefined)));
    await previous?.then((m) => m.close()).catch(() => undefined);
    for (const index of this.host.indexes()) if (index.state.kind === 'ready') this.schedule(index);
  }

  dispose(): void {
    this.disposed = true;
    if (active === this) active = undefined;
    for (const timer of this.pendingTimers.values()) clearTimeout(timer);
    for (const folder of this.folders.values()) folder.cancel.abort();
    for (const s of this.subscriptions) s.dispose();
    void this.loading?.then((m) => m.close()).catch(() => undefined);
  }
}

/** Progress of the largest file (the weights) in whole percent, one message per change. */
function downloadReporter(progress: vscode.Progress<{ message?: string; increment?: number }>): (p: DownloadProgress) => void {
  let shown = '';
  return (p) => {
    if (p.status !== 'progress' || !p.total || p.total < 1_000_000) return;
    const message = `${p.model}: ${Math.floor(((p.loaded ?? 0) / p.total) * 100)}% of ${(p.total / 1e6).toFixed(0)} MB`;
    if (message === shown) return;
    shown = message;
    progress.report({ message });
  };
}
