// The agent tools over one repository: validate the input, answer from the graph, and say how fresh
// the answer is. Served by the MCP server (`cartograph mcp`) and VS Code's language-model tools.
import { z } from 'zod';
import { areaOverview, exploreArea, isAreaId } from './areas';
import { clipToBudget, TokenBudget } from './budget';
import { ToolError, type CallState, type ToolAnswer, type ToolContext, type ToolResult } from './context';
import { editContext } from './editContext';
import { exploreGraph } from './exploreGraph';
import { fetchNode } from './fetchNode';
import { impact } from './impact';
import { UnresolvedIndex } from './relations';
import { OverviewIndex, repoOverview } from './repoOverview';
import { TOOL_INPUTS, type ToolInput, type ToolName } from './schemas';
import { searchCode } from './searchCode';

export class AgentTools {
  private readonly unresolved: UnresolvedIndex;
  private readonly overview: OverviewIndex;

  constructor(private readonly ctx: ToolContext) {
    this.unresolved = new UnresolvedIndex(ctx.graph, ctx.savedUnresolved?.bind(ctx));
    this.overview = new OverviewIndex(ctx.graph);
  }

  /** As `call`, with a bad request (ToolError) returned as the error to show the agent. */
  async run(name: string, args: unknown, call?: CallState): Promise<ToolResult> {
    try {
      return { ok: true, ...(await this.call(name, args, call)) };
    } catch (err) {
      if (err instanceof ToolError) return { ok: false, error: err.message };
      throw err;
    }
  }

  /** Throws ToolError for input the schema or the graph rejects; other errors are bugs or I/O failures. */
  async call(name: string, args: unknown, call: CallState = { pending: [] }): Promise<ToolAnswer> {
    if (!(name in TOOL_INPUTS)) throw new ToolError(`unknown tool "${name}"; the tools are ${Object.keys(TOOL_INPUTS).join(', ')}`);
    const tool = name as ToolName;
    const parsed = TOOL_INPUTS[tool].safeParse(args ?? {});
    if (!parsed.success) throw new ToolError(`invalid arguments for ${tool}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    const buffers = call.buffers ?? {};
    const ctx: ToolContext = { ...this.ctx, readText: (rel) => (rel in buffers ? Promise.resolve({ ok: true, text: buffers[rel] }) : this.ctx.readText(rel)) };
    const pending = call.pending;
    const notes = [
      call.indexing && `The folder is still being indexed (${call.indexing}): this answer may miss what is not indexed yet.`,
      call.storeProblem && `The graph store could not be used (${call.storeProblem}): this answer comes from the server's own graph, which is not saved; run \`cartograph index\` on the folder to repair the store.`,
      pending.length && `Not yet re-indexed (the graph shows their previous version): ${pending.slice(0, 10).join(', ')}${pending.length > 10 ? ` (+${pending.length - 10})` : ''}`,
    ].filter(Boolean);
    // A budgeted answer's maxTokens covers the whole text the agent reads, these notes included.
    const budget = new TokenBudget((parsed.data as { maxTokens: number }).maxTokens, notes.length > 0 ? `\n\n${notes.join('\n\n')}` : '');
    const answer = await this.answer(ctx, tool, parsed.data, budget);
    return {
      text: [clipToBudget(answer.text, budget), ...notes].join('\n\n'),
      structured: { ...answer.structured, pendingFiles: pending, ...(call.indexing ? { indexing: call.indexing } : {}), ...(call.storeProblem ? { storeProblem: call.storeProblem } : {}) },
    };
  }

  private answer(ctx: ToolContext, tool: ToolName, input: unknown, budget: TokenBudget): Promise<ToolAnswer> | ToolAnswer {
    switch (tool) {
      case 'search_code':
        return searchCode(ctx, input as ToolInput<'search_code'>, budget);
      case 'fetch_node':
        return fetchNode(ctx, this.unresolved, input as ToolInput<'fetch_node'>, budget);
      case 'explore_graph': {
        const explore = input as ToolInput<'explore_graph'>;
        return isAreaId(explore.id) ? exploreArea(ctx, explore, budget) : exploreGraph(ctx, this.unresolved, explore, budget);
      }
      case 'repo_overview': {
        const overview = input as ToolInput<'repo_overview'>;
        return overview.byArea ? areaOverview(ctx, overview, budget) : repoOverview(ctx, this.overview, overview, budget);
      }
      case 'edit_context':
        return editContext(ctx, input as ToolInput<'edit_context'>, budget);
      case 'impact':
        return impact(ctx, this.unresolved, input as ToolInput<'impact'>, budget);
    }
  }
}
