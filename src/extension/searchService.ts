// One searcher per folder engine, shared by Find Where Implemented and whatever else searches (the
// explorer, lifting's refreshes), with what the folder has right now: generated descriptions and,
// when loaded, models.
import type { Engine } from '../core/engine';
import type { DescriptionCache } from '../core/lifting/descriptionCache';
import type { SearchModels } from '../core/models/types';
import { createSearcher, type Searcher } from '../core/search';
import type { WorkspaceIndex } from './workspaceIndex';

export class SearchService {
  private readonly searchers = new WeakMap<Engine, Searcher>();
  private readonly descriptions = new WeakMap<WorkspaceIndex, DescriptionCache>();

  constructor(private readonly modelsFor: (index: WorkspaceIndex) => SearchModels | undefined = () => undefined) {}

  /** The folder's searcher (undefined while its engine opens). */
  searcherFor(index: WorkspaceIndex): Searcher | undefined {
    const engine = index.engine;
    if (!engine) return undefined;
    let searcher = this.searchers.get(engine);
    if (!searcher) {
      searcher = createSearcher(engine, {
        models: () => this.modelsFor(index),
        descriptions: { get: (hash) => this.descriptions.get(index)?.get(hash) },
      });
      this.searchers.set(engine, searcher);
    }
    return searcher;
  }

  /** Descriptions arrived for these nodes: searched from the next query on. */
  described(index: WorkspaceIndex, cache: DescriptionCache, ids: Iterable<string>): void {
    this.descriptions.set(index, cache);
    this.searcherFor(index)?.invalidate(ids);
  }

  /** One line for the status document. */
  modelStatus(index: WorkspaceIndex): string {
    return this.modelsFor(index)?.status ?? 'model-free: lexical search over the graph (no embedding model loaded)';
  }
}
