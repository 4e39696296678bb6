// What a repository's service and its clients say to each other (serviceHost.ts, serviceClient.ts):
// kept apart from both so that a client (the CLI's light bundle) never loads the engine to speak it.
import type { EngineStats, IndexReport } from '../engine';
import type { ModelSettings } from '../models/loader';
import type { SearchAnswer } from './answers';
import type { ChatEndpoint } from '../lifting/chatDescriber';
import type { LiftReport } from '../lifting/lifter';

/** Bumped when a request or answer changes shape: a client of another protocol replaces the service. */
export const SERVICE_PROTOCOL = 4;

export interface ServiceHello {
  protocol: number;
  version: string;
  pid: number;
  root: string;
  storeDir: string;
  /** What the service indexes with (EngineOptions.followSymlinks): a client that wants the other is served by another. */
  followSymlinks: boolean;
  /**
   * The editor whose engine worker serves the repository (`VS Code`), or absent for a `cartograph
   * service` process. A hosted service is the editor's: a client never stops or replaces it.
   */
  hostedBy?: string;
  /** False while the graph loads (a client may answer from the snapshot itself meanwhile). */
  ready: boolean;
  startedAt: number;
  /** Connected clients other than the one asking. */
  clients: number;
  requests: number;
  rssBytes: number;
  /** Folders the file watcher has a kernel watch on (absent before it starts; a kernel's limit on watches is per user). */
  watchedFolders?: number;
  /** What plain-English search runs with once the graph is loaded, with the embedding's progress (`embeddings … ; 5200/17845`). */
  search?: string;
}

/** The answer to `stop`: a service hosted by an editor says no, and why. */
export interface StopReply {
  stopped: boolean;
  reason?: string;
}

/** Models that name nothing: search without any (`cartograph query --model-free`). */
export const NO_MODELS: ModelSettings = {};

/** Whether a client asked for no models (`--model-free`): settings that name none. */
export function isModelFree(settings: ModelSettings | undefined): boolean {
  return settings !== undefined && JSON.stringify(settings) === JSON.stringify(NO_MODELS);
}

/** What a `query` request asks for. */
export interface QueryRequest {
  text: string;
  limit: number;
  /** The models to search with (the CLI's model flags, or none for `--model-free`); undefined: the service's default (modelSlot.ts). */
  models?: ModelSettings;
}

/** `models`: what a natural-language question was searched with. */
export type QueryReply = SearchAnswer & { models?: string; index: { source: 'service'; ms: number } };

export interface StatsReply {
  stats: EngineStats;
  storeBytes: number;
}

export interface IndexReply extends StatsReply {
  report: IndexReport;
  /** The service's own check of the folder when it started, in the first reply since (a service started for this `index` did the work there). */
  atStart?: IndexReport;
}

/**
 * `cartograph describe` through the service: it lifts its own graph (its searches find the
 * descriptions at once) and is the one writer of the store's descriptions. The key travels over the
 * user's own socket and is never logged.
 */
export type DescribeRequest = ChatEndpoint & { maxCalls?: number };

export type DescribeReply = LiftReport;

/**
 * `describeByClient`: the same lifting with the client's own model (an agent's, through MCP sampling):
 * while it runs, the service asks the client `SAMPLE` [system, prompt] → the model's answer, once per
 * function or class not described before.
 */
export interface ClientDescribeRequest {
  maxCalls?: number;
  /** Prompts the client's model takes at once (Describer.concurrency): SAMPLE calls in flight together. */
  concurrency?: number;
}

export const SAMPLE = 'sample';
