// What `show` and `query` answer from, whether the query snapshot or the store served them.
import type { GraphReader } from '../core/graph/describe';
import type { Searcher } from '../core/search';
import type { QueryModels } from './models';

/** What `show` and `query` answer from: the graph and a searcher over it. */
export interface QueryView {
  /** From the snapshot, read in place: a one-shot query never builds graphology's graph. */
  graph: GraphReader;
  /** Built on first use (from the snapshot, that loads the indexes' tables). */
  searcher(): Searcher;
  /** With the store opened (not from the snapshot): loads the models the flags name, embedding what is new. */
  loadModels?: () => Promise<QueryModels>;
  /** Where the graph and indexes came from, and what that took (for --json). */
  source: { source: 'snapshot' | 'store'; ms: number; snapshotSaved?: boolean };
}
