// Search models in the editor: the `cartograph.embedding.*`, `cartograph.reranker.model`,
// `cartograph.models.localPath` and `cartograph.search.useModels` settings turned into models (in
// worker threads, downloads cached in global storage, one progress notification per download),
// one background embedding job per workspace folder once its structural index is ready, and the
// SearchModels the search command asks for. A model that cannot be had is logged once and search
// runs model-free.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Engine } from '../core/engine';
import { EmbeddingJob } from '../core/models/embeddingJob';
import { loadSearchModels, searchModelsWith, type LoadedModels, type ModelSettings } from '../core/models/loader';
import { isModelOnDisk, type DownloadProgress } from '../core/models/transformersModels';
import type { SearchModels } from '../core/models/types';
import { errorText, guard, log } from './log';
import { askForSecret } from './secrets';
import type { WorkspaceIndex } from './workspaceIndex';

/** SecretStorage key of the embedding endpoint's API key (never in settings). */
export const EMBEDDING_API_KEY = 'cartograph.embedding.apiKey';
/** Changes settle for this long before a folder's new nodes are embedded (saves come in bursts). */
const EMBED_DELAY_MS = 2_000;
const MODEL_SETTINGS = ['cartograph.embedding', 'cartograph.reranker', 'cartograph.models', 'cartograph.search.useModels'];

export interface ModelHost {
  indexes(): readonly WorkspaceIndex[];
  onDidChangeState: vscode.Event<WorkspaceIndex>;
  onDidUpdate: vscode.Event<WorkspaceIndex>;
}

interface FolderJob {
  engine: Engine;
  job: EmbeddingJob;
  cancel: AbortController;
  progress?: { done: number; total: number };
}

let active: SearchModelService | undefined;

/** The search wiring's entry point: what search may use for this folder now (model-free before activation). */
export function searchModelsFor(index: WorkspaceIndex): SearchModels {
  return active?.modelsFor(index) ?? { status: 'model-free: search models are not started' };
}

export class SearchModelService implements vscode.Disposable {
  private loading: Promise<LoadedModels> | undefined;
  private models: LoadedModels | undefined;
  private readonly folders = new Map<WorkspaceIndex, FolderJob>();
  private readonly pendingTimers = new Map<WorkspaceIndex, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];
  private disposed = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: ModelHost,
  ) {
    this.subscriptions = [
      host.onDidChangeState((index) => index.state.kind === 'ready' && this.schedule(index)),
      host.onDidUpdate((index) => this.schedule(index)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (MODEL_SETTINGS.some((s) => e.affectsConfiguration(s))) void this.reload();
      }),
      vscode.commands.registerCommand('cartograph.setEmbeddingApiKey', () => guard('Set Embedding Endpoint API Key', () => this.setApiKey())),
    ];
    for (const index of host.indexes()) if (index.state.kind === 'ready') this.schedule(index);
    active = this;
  }

  /** What search may use for the folder of `index` right now (never waits for a model or a job). */
  modelsFor(index: WorkspaceIndex): SearchModels {
    const models = this.models;
    if (!models) {
      // The first search starts the load; it never waits for it.
      void this.load();
      return { status: 'model-free: search models are loading' };
    }
    const folder = this.folders.get(index);
    const current = folder && folder.engine === index.engine ? folder : undefined;
    return searchModelsWith(models, current?.job.vectors, current?.progress);
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

  private async embed(index: WorkspaceIndex): Promise<void> {
    const models = await this.load();
    const engine = index.engine;
    const open = this.host.indexes();
    for (const [gone, folder] of this.folders) {
      if (!open.includes(gone)) {
        folder.cancel.abort();
        this.folders.delete(gone);
      }
    }
    if (this.disposed || !models.embedder || !engine || !open.includes(index)) return;
    let folder = this.folders.get(index);
    if (!folder || folder.engine !== engine) {
      folder?.cancel.abort();
      const created: FolderJob = {
        engine,
        cancel: new AbortController(),
        job: new EmbeddingJob(engine, models.embedder, {
          log: (m) => log().info(`[${index.folder.name}] ${m}`),
          onProgress: (done, total) => (created.progress = { done, total }),
        }),
      };
      folder = created;
      this.folders.set(index, folder);
    }
    const report = await folder.job.run(folder.cancel.signal);
    if (report.embedded > 0 || report.removed > 0) {
      log().info(
        `[${index.folder.name}] embeddings: ${report.embedded} nodes embedded, ${report.reused} reused, ${report.removed} dropped in ${report.ms} ms${report.persisted ? '' : ' (kept in memory only)'}${report.cancelled ? ', cancelled' : ''}`,
      );
    }
  }

  /** Loads the configured models once (again after a settings change). */
  private load(): Promise<LoadedModels> {
    this.loading ??= this.loadNow()
      .catch((err): LoadedModels => ({ problems: [], status: `model-free: ${errorText(err)}`, close: async () => undefined }))
      .then((models) => {
        this.models = models;
        // Once per load: what search runs with and, when something is missing, why.
        log().info(`search models: ${models.status}`);
        return models;
      });
    return this.loading;
  }

  private async loadNow(): Promise<LoadedModels> {
    const config = vscode.workspace.getConfiguration('cartograph');
    const none = async () => undefined;
    if (!config.get<boolean>('search.useModels', true)) {
      return { problems: [], status: 'model-free: turned off (cartograph.search.useModels)', close: none };
    }
    const endpoint = config.get<string>('embedding.endpoint', '').trim();
    const settings: ModelSettings = {
      embeddingModel: config.get<string>('embedding.model', ''),
      rerankerModel: config.get<string>('reranker.model', ''),
      endpoint: endpoint ? { baseURL: endpoint, apiKey: await this.context.secrets.get(EMBEDDING_API_KEY) } : undefined,
      transformers: {
        cacheDir: path.join(this.context.globalStorageUri.fsPath, 'models'),
        localPath: config.get<string>('models.localPath', '').trim() || undefined,
      },
      threads: true,
    };
    const wanted = [endpoint ? '' : settings.embeddingModel, settings.rerankerModel].map((m) => m?.trim() ?? '').filter((m) => m !== '');
    const downloads = wanted.filter((m) => !isModelOnDisk(m, settings.transformers!));
    if (downloads.length === 0) return loadSearchModels(settings);
    // The one notification of the feature: only when something is actually fetched.
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Cartograph: downloading ${downloads.join(', ')}` },
      (progress) => loadSearchModels({ ...settings, transformers: { ...settings.transformers, onProgress: downloadReporter(progress) } }),
    );
  }

  private async setApiKey(): Promise<void> {
    const outcome = await askForSecret(this.context.secrets, EMBEDDING_API_KEY, 'API key of the embedding endpoint (cartograph.embedding.endpoint)', "Kept in VS Code's secret storage. Leave empty to remove it.");
    if (outcome) await this.reload();
  }

  private async reload(): Promise<void> {
    const previous = this.loading;
    this.loading = undefined;
    this.models = undefined;
    for (const folder of this.folders.values()) folder.cancel.abort();
    this.folders.clear();
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
