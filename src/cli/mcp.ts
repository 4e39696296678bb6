// `cartograph mcp`: the repository graph as MCP tools over stdio, for agents in the terminal or an
// editor (Claude Code, Cursor, VS Code, Continue). Each root's graph is opened (or built) like
// `index` does, kept warm, and follows the disk through a file watcher; a call first applies the
// file events seen so far, so an agent that just edited a file sees its edit. Stdout carries only
// protocol messages: every log line goes to stderr.
import * as path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { LocalRepository } from '../core/service/localRepository';
import { describeHolder } from '../core/store/writerLock';
import { openQuerySnapshot } from '../core/search/querySnapshot';
import type { AgentTools } from '../core/tools/agentTools';
import type { CallState, ToolResult } from '../core/tools/context';
import { SERVER_INSTRUCTIONS, TOOL_DESCRIPTIONS, TOOL_INPUTS, TOOL_NAMES, type ToolName } from '../core/tools/schemas';
import { SNAPSHOT_NOTE, SNAPSHOT_TOOLS, snapshotTools } from '../core/tools/snapshotTools';
import { callTool, type ToolFolder } from '../core/tools/workspaceTools';

const STORE_FOLDER = '.cartograph';
/** File events are applied in batches: a checkout that rewrites 500 files is one re-index, not 500. */
const BATCH_MS = 50;
/** How long the graph stays unchanged before the query snapshot is saved again. */
const SNAPSHOT_SAVE_DELAY_MS = 10_000;

export interface McpOptions {
  roots: string[];
  /** A store folder for a single root (default `<root>/.cartograph`). */
  store?: string;
  /** Index and read through symlinks out of the roots too (EngineOptions.followSymlinks). */
  followSymlinks?: boolean;
  version: string;
}

/**
 * A root being served: its graph, the watcher, and the file events not yet applied. Until the engine
 * has loaded the store and checked the folder, search_code and repo_overview answer from the query
 * snapshot (saying so); the snapshot is saved again after changes, for the next server's start.
 */
class ServedFolder implements ToolFolder {
  readonly label: string;
  readonly repo: Promise<LocalRepository>;
  private early: Promise<AgentTools | undefined>;
  private live: LocalRepository | undefined;
  private readonly pending = new Set<string>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private snapshotStale = false;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly root: string,
    private readonly storeDir: string,
    private readonly followSymlinks = false,
  ) {
    this.label = path.basename(root);
    this.early = openQuerySnapshot(storeDir, root).then((opened) => {
      if (opened.ok) return snapshotTools(opened.snapshot, root, { followSymlinks });
      log(`${this.label}: ${opened.reason}; the first answers wait for the graph to load`);
      return undefined;
    });
    this.repo = this.open();
  }

  private async open(): Promise<LocalRepository> {
    // The snapshot first: it answers while the store loads, and both would compete for the one thread.
    const early = await this.early;
    // A damaged store is left for `cartograph index` to repair: an agent's server never deletes it.
    const repo = await LocalRepository.open(this.root, {
      storeDir: this.storeDir,
      followSymlinks: this.followSymlinks,
      onStoreDamage: 'report',
      command: 'cartograph mcp',
      onStoreWait: (holder) => log(`${this.label}: waiting for ${describeHolder(holder)} to finish writing the store`),
      log: (m) => log(`${this.label}: ${m}`),
    });
    const started = performance.now();
    const report = await repo.index();
    log(`${this.root}: ${report.files} files ready in ${((performance.now() - started) / 1000).toFixed(2)} s (${report.parsed} parsed, ${report.reused} unchanged)`);
    this.live = repo;
    this.early = Promise.resolve(undefined);
    if (!early || report.parsed > 0 || report.removed > 0) this.snapshotChanged(0);
    return repo;
  }

  /** Saves the snapshot once the graph has been quiet for `delayMs`: a burst of edits is one save. */
  private snapshotChanged(delayMs = SNAPSHOT_SAVE_DELAY_MS): void {
    this.snapshotStale = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.saveSnapshot(), delayMs);
    this.saveTimer.unref();
  }

  private saveSnapshot(): Promise<void> {
    clearTimeout(this.saveTimer);
    if (!this.snapshotStale || !this.live) return this.flushing;
    const repo = this.live;
    this.snapshotStale = false;
    this.flushing = this.flushing.then(() =>
      repo.saveQuerySnapshot().catch((err: unknown) => log(`${this.label}: query snapshot not saved: ${err instanceof Error ? err.message : String(err)}`)),
    );
    return this.flushing;
  }

  startWatching(): void {
    const store = this.storeDir;
    this.watcher = watch(this.root, {
      ignoreInitial: true,
      // The store's own writes, VCS internals and dependencies never change the graph.
      ignored: (p) => p === store || p.startsWith(`${store}${path.sep}`) || /[\\/](\.git|node_modules|\.cartograph)([\\/]|$)/.test(p),
    });
    const changed = (p: string) => {
      this.pending.add(p);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), BATCH_MS);
    };
    this.watcher.on('add', changed).on('change', changed).on('unlink', changed).on('unlinkDir', changed);
    this.watcher.on('error', (err) => log(`${this.label}: file watcher: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Applies every file event seen so far (and waits for one already being applied). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      try {
        await (await this.repo).syncPaths(batch);
        this.snapshotChanged();
      } catch (err) {
        log(`${this.label}: re-indexing ${batch.length} changed files failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    return this.flushing;
  }

  async state() {
    await this.flush();
    return { pending: [...this.pending].map((p) => path.relative(this.root, p)) };
  }

  async run(name: string, args: Record<string, unknown>, call: CallState): Promise<ToolResult> {
    if (!this.live && SNAPSHOT_TOOLS.has(name as ToolName)) {
      const early = await this.early;
      if (early && !this.live) return early.run(name, args, { ...call, indexing: SNAPSHOT_NOTE });
    }
    const repo = await this.repo;
    const store = await repo.storeInfo();
    const problem = store.status === 'damaged' || store.status === 'unavailable' ? store.error : undefined;
    return repo.runTool(name, args, problem ? { ...call, storeProblem: problem } : call);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
    await this.saveSnapshot();
    await (await this.repo.catch(() => undefined))?.close();
  }
}

function log(message: string): void {
  process.stderr.write(`cartograph mcp: ${message}\n`);
}

export function serveMcp(options: McpOptions): Promise<number> {
  const folders = options.roots.map((dir) => {
    const root = path.resolve(dir);
    const storeDir = options.store && options.roots.length === 1 ? path.resolve(options.store) : path.join(root, STORE_FOLDER);
    const folder = new ServedFolder(root, storeDir, options.followSymlinks);
    // Logged here; each call that needs the folder then answers with the same error.
    folder.repo.catch((err) => log(`${root}: cannot open: ${err instanceof Error ? err.message : String(err)}`));
    // Watch from the start, so an edit made while the first index runs is applied after it.
    folder.startWatching();
    return folder;
  });

  const server = () => {
    const mcp = new McpServer({ name: 'cartograph', version: options.version }, { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } });
    for (const name of TOOL_NAMES) {
      mcp.registerTool(
        name,
        {
          ...TOOL_DESCRIPTIONS[name],
          inputSchema: TOOL_INPUTS[name],
          outputSchema: OUTPUT,
          annotations: { title: TOOL_DESCRIPTIONS[name].title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
        async (args: unknown) => {
          try {
            const result = await callTool(folders, name, args);
            if (!result.ok) return { content: [{ type: 'text' as const, text: result.error }], isError: true };
            return { content: [{ type: 'text' as const, text: result.text }], structuredContent: result.structured };
          } catch (err) {
            log(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
            return { content: [{ type: 'text' as const, text: `${name} failed: ${err instanceof Error ? err.message : String(err)}` }], isError: true };
          }
        },
      );
    }
    return mcp;
  };

  return new Promise((resolve) => {
    const handle = serveStdio(server, { onerror: (err) => log(`protocol: ${err.message}`) });
    let closing = false;
    const stop = async () => {
      if (closing) return;
      closing = true;
      await handle.close().catch(() => undefined);
      await Promise.all(folders.map((f) => f.close()));
      resolve(0);
    };
    process.stdin.on('end', () => void stop());
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
  });
}

/** Every answer is an object; the tools' own fields are described in their text and README. */
const OUTPUT = z.looseObject({ pendingFiles: z.array(z.string()).optional() });
