// `cartograph mcp`: the repository graph as MCP tools over stdio, for agents in the terminal or an
// editor (Claude Code, Cursor, VS Code, Continue). Each root is served by its repository's service
// (core/service/serviceHost.ts), started here when none runs: several agents on one repository share
// one warm graph and one writer of its store, and this process only relays calls. Where no service can
// start, the folder is served in this process as before (ServedFolder, from the engine's bundle, which a
// relay never loads: dist/cliMcp.js starts in a quarter of a second). The service follows the disk
// and applies an edit before answering the call that follows it. Stdout carries only protocol
// messages: every log line goes to stderr.
import * as path from 'node:path';
import { CLIENT_CAPABILITIES_META_KEY, McpServer, type ClientCapabilities } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import type { Describer, LiftReport } from '../core/lifting/lifter';
import type { ServedFolder } from '../core/service/servedFolder';
import { SAMPLE, type ClientDescribeRequest } from '../core/service/serviceProtocol';
import { SamplingRounds } from './mcpRounds';
import { samplingDescriber } from './mcpSampling';
import { areasNamed } from '../core/features/areaNames';
import type { ServiceConnection } from '../core/service/serviceClient';
import type { ToolResult } from '../core/tools/context';
import { SERVER_INSTRUCTIONS, TOOL_DESCRIPTIONS, TOOL_INPUTS, TOOL_NAMES } from '../core/tools/schemas';
import { callTool, type ToolFolder } from '../core/tools/workspaceTools';
import { loadBundle } from './bundles';
import type { Flags, StoreLocation } from './flags';
import { reachService } from './service';
import { version as VERSION } from '../../package.json';

interface McpOptions {
  /** Index and read through symlinks out of the roots too (EngineOptions.followSymlinks). */
  followSymlinks?: boolean;
  /** The root's service, started if need be; undefined when none can run (the folder is then served here). */
  reach: (root: string, storeDir: string) => Promise<ServiceConnection | undefined>;
}

/**
 * A root as the agent's calls reach it: through its service, reconnecting (and restarting it) after
 * the service stops or is replaced by a newer version; or, when no service can start, in this process.
 */
class RelayedFolder implements ToolFolder {
  readonly label: string;
  private connection: Promise<ServiceConnection | undefined> | undefined;
  private local: ServedFolder | undefined;

  constructor(
    readonly root: string,
    private readonly storeDir: string,
    private readonly options: McpOptions,
  ) {
    this.label = path.basename(root);
  }

  /** Connects now, so that the graph loads while the agent starts up. */
  start(): void {
    void this.connected();
  }

  private connected(): Promise<ServiceConnection | undefined> {
    this.connection ??= this.options.reach(this.root, this.storeDir).then((c) => {
      if (!c && !this.local) {
        log(`${this.label}: served in this process (the repository's service is switched off or could not start)`);
        this.local = loadBundle<typeof import('./engineCommands')>('cliEngine.js', './engineCommands').serveHere(this.root, { storeDir: this.storeDir, followSymlinks: this.options.followSymlinks, command: 'cartograph mcp', searchModels: true, log });
        this.local.repo.catch((err) => log(`${this.root}: cannot open: ${err instanceof Error ? err.message : String(err)}`));
        this.local.startWatching();
      }
      return c;
    });
    return this.connection;
  }

  /** The service (or the folder served here) reads the folder's pending changes itself, just before it answers. */
  async run(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    for (let attempt = 0; ; attempt++) {
      const service = await this.connected();
      if (!service) return this.local!.run(name, args);
      try {
        return await service.call<ToolResult>('tool', [name, args]);
      } catch (err) {
        // The service stopped (asked to, or replaced by a newer version): once more with a new one.
        if (service.open || attempt > 0) throw err;
        this.connection = undefined;
      }
    }
  }

  /** Lifting with the agent's model: by the service (asking back through this connection), else here. */
  async describe(describer: Describer, maxCalls: number): Promise<LiftReport> {
    const service = await this.connected();
    if (!service) return (await this.local!.repo).lift(describer, undefined, maxCalls);
    const stop = service.serve(SAMPLE, ([system, prompt], context) => describer.describe(system as string, prompt as string, context.signal));
    try {
      return await service.call<LiftReport>('describeByClient', [{ maxCalls, concurrency: describer.concurrency } satisfies ClientDescribeRequest]);
    } finally {
      stop();
    }
  }

  async close(): Promise<void> {
    (await this.connection)?.close();
    await this.local?.close();
  }
}

function log(message: string): void {
  process.stderr.write(`cartograph mcp: ${message}\n`);
}

/**
 * `cartograph mcp`: the agent tools over stdio for `folders` (mcpFolders.ts). `started`: the roots whose
 * service the front door started already (this process joins it rather than starting another).
 */
export function mcp(folders: StoreLocation[], flags: Flags, started: ReadonlySet<string>): Promise<number> {
  const early = new Set(started);
  return serveMcp(folders, {
    followSymlinks: flags['follow-symlinks'],
    // After the first connection (a service that stopped, or was replaced): started again if need be.
    reach: (root, storeDir) => reachService({ root, storeDir }, flags, early.delete(root) ? 'join' : 'wait'),
  });
}

function serveMcp(locations: StoreLocation[], options: McpOptions): Promise<number> {
  const folders = locations.map(({ root, storeDir }) => {
    const folder = new RelayedFolder(root, storeDir, options);
    folder.start();
    return folder;
  });

  const server = () => {
    const mcp = new McpServer({ name: 'cartograph', version: VERSION }, { instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {} } });
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
    registerDescribeCode(mcp, folders);
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

/**
 * `describe_code`: RPG-Encoder's semantic lifting with the agent's own model, through MCP sampling (the
 * client may ask its user to approve each request): pushed to the client on the 2025-era protocol, in
 * rounds of `input_required` results on 2026-07-28 (mcpRounds.ts). Only for clients that offer
 * sampling; the others are told how to describe with an endpoint instead.
 */
function registerDescribeCode(mcp: McpServer, folders: RelayedFolder[]): void {
  const rounds = new SamplingRounds();
  mcp.registerTool(
    'describe_code',
    {
      title: 'Describe code with your model',
      description:
        "Describe this repository's functions and classes in one plain sentence each with your own model (MCP sampling: one request per function or class, which your client may ask you to approve). search_code and the functional view (explore_graph from an area, repo_overview by area) use the descriptions from then on; code described before is never sent again. maxCalls caps the requests of this call (default 50). Needs a client that supports sampling.",
      inputSchema: z.object({ maxCalls: z.number().int().min(1).max(1000).optional() }),
      annotations: { title: 'Describe code with your model', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ maxCalls = 50 }, ctx) => {
      const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError: true } : {}) });
      // 2026-07-28 requests carry the client's capabilities themselves; a 2025-era client declared them once
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const modern = envelope !== undefined;
      const capabilities = modern ? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) : mcp.server.getClientCapabilities();
      if (!capabilities?.sampling) {
        return text('Your MCP client does not offer sampling, so Cartograph cannot ask your model. Describe with an OpenAI-compatible endpoint instead: `cartograph describe --endpoint URL --model NAME`.', true);
      }
      if (!modern) return text(await describeFolders(folders, samplingDescriber((params, signal) => ctx.mcpReq.requestSampling(params, { signal })), maxCalls));
      const state = ctx.mcpReq.requestState<unknown>();
      const round = await rounds.round(typeof state === 'string' ? state : undefined, ctx.mcpReq.inputResponses, (describer) => describeFolders(folders, describer, maxCalls));
      return round.done !== undefined ? text(round.done) : round.input;
    },
  );
}

/** Lifts each folder in turn with `describer` within `maxCalls`; a line per folder, as describe_code answers. */
async function describeFolders(folders: RelayedFolder[], describer: Describer, maxCalls: number): Promise<string> {
  const lines: string[] = [];
  let left = maxCalls;
  for (const folder of folders) {
    const report = await folder.describe(describer, left);
    left -= report.described + report.failed;
    lines.push(`${folder.label}: ${report.described} described, ${report.cached} described before (not sent again)${report.failed ? `, ${report.failed} failed` : ''}${report.stopped ? `; stopped: ${report.stopped}` : ''}${report.areas ? `; ${areasNamed(report.areas)}` : ''}`);
    if (left <= 0) break;
  }
  return `${lines.join('\n')}\nsearch_code and the functional view use the descriptions now.`;
}

/** Every answer is an object; the tools' own fields are described in their text and README. */
const OUTPUT = z.looseObject({ pendingFiles: z.array(z.string()).optional() });
