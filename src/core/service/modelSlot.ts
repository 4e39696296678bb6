// The search models of a repository served outside an editor (a `cartograph service` process, or
// `cartograph mcp` serving a folder itself when no service can run). By default they are what the
// editor searches with, Cartograph's shipped model and the learned reranker tuned for it, so the CLI,
// every agent and the editor rank a question alike; a client may name others (the CLI's model flags)
// or none (`--model-free`).
import { loadSearchModels, type LoadedModels, type ModelSettings } from '../models/loader';
import type { LocalRepository } from './localRepository';
import { NO_MODELS } from './serviceProtocol';

/**
 * What search runs with when a client names no models: the shipped model, never downloaded; none when
 * the process was started with CARTOGRAPH_MODEL_FREE=1 (a machine that cannot spare the memory or the
 * embedding's CPU).
 */
export function defaultModels(env: NodeJS.ProcessEnv = process.env): ModelSettings {
  return env.CARTOGRAPH_MODEL_FREE === '1' ? NO_MODELS : { shippedByDefault: true };
}

/**
 * Up to this many nodes without a vector, an answer waits for them to be embedded (about 3 s for the
 * shipped model on this project's 2-core machine); beyond it, the answer uses the vectors made so far
 * and its status says how far the embedding is. A count, not a time: the same repository state is
 * always answered the same way, however loaded the machine.
 */
export const WAIT_FOR_EMBEDDING = 2_000;

export class ModelSlot {
  private key: string | undefined;
  private loaded: LoadedModels | undefined;
  /** The graph version whose nodes have been sent to embedding (-1: none yet). */
  private embeddedAt = -1;
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: Promise<LocalRepository>,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Searches with `settings` (the default when undefined) from the next answer on: loads them when
   * they differ from the current ones, and embeds what changed since the last call.
   */
  use(settings: ModelSettings = defaultModels()): Promise<void> {
    const key = JSON.stringify(settings);
    this.work = this.work
      .catch(() => undefined)
      .then(async () => {
        const repo = await this.repo;
        if (key !== this.key) {
          const previous = this.loaded;
          // In the model thread: the service's other clients are answered while it embeds.
          this.loaded = await loadSearchModels({ ...settings, threads: true });
          this.key = key;
          for (const problem of this.loaded.problems) this.log(`search models: ${problem}`);
          await repo.useModels(this.loaded, this.loaded.status);
          await previous?.close();
          this.embeddedAt = -1;
        }
        const version = repo.engine.graph.version;
        if (version === this.embeddedAt) return;
        this.embeddedAt = version;
        await repo.embedSettled(WAIT_FOR_EMBEDDING).catch((err: unknown) => this.log(`embedding failed: ${err instanceof Error ? err.message : String(err)}`));
      });
    return this.work;
  }

  close(): Promise<void> {
    return this.work.catch(() => undefined).then(() => this.loaded?.close());
  }
}
