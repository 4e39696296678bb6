// The agent tools' contract (RPG-Encoder's SearchNode / FetchNode / ExploreRPG, plus a repository map,
// completion's edit context and change impact): names, the descriptions a model reads to choose a
// tool, and the input schemas. One source for the MCP server, VS Code's language-model tools
// (package.json's `languageModelTools` is checked against these by a test) and input validation.
import { z } from 'zod';
import { EDGE_KINDS, NODE_KINDS } from '../model/schema';

/** Hard caps: an agent asking for 10^9 rows gets a clear error, not a huge answer. */
export const MAX_LIMIT = 200;
export const MAX_TOKENS = 16_000;
/** explore_graph's deepest walk: depth 3 around a hub already reaches thousands of rows. */
export const MAX_EXPLORE_DEPTH = 3;

const limit = (fallback: number) => z.number().int().min(1).max(MAX_LIMIT).default(fallback);
const maxTokens = (fallback: number) =>
  z.number().int().min(200).max(MAX_TOKENS).default(fallback).describe('The most tokens the answer may take (o200k, notes included); what does not fit is left out and said so.');
/** search_code, fetch_node, explore_graph and impact: their `limit`/`maxLines` defaults fit well inside it. */
const LISTING_TOKENS = 4000;
const offset = z.number().int().min(0).max(1_000_000).default(0).describe('Skip this many rows: the previous answer says which offset comes next.');
const target = {
  id: z.string().min(1).max(2000).optional().describe('A node id from an earlier answer (e.g. "src/app.py#App.run"); explore_graph also takes an area id ("area:2.3").'),
  name: z.string().min(1).max(500).optional().describe('A name, Class.method or qualified name, when no id is at hand.'),
};
const exactlyOne = [(v: { id?: string; name?: string }) => Boolean(v.id) !== Boolean(v.name), { message: 'give exactly one of id or name' }] as const;

export const searchCodeInput = z.object({
  query: z.string().min(1).max(10_000).describe('A name (Flask.run), a structural question ("callers of get_debug_flag", "subclasses of Base") or a plain-English description of behaviour.'),
  limit: limit(10),
  offset,
  kinds: z.array(z.enum(NODE_KINDS as [string, ...string[]])).max(NODE_KINDS.length).optional().describe('Keep only these node kinds, e.g. ["Function","Method"].'),
  path: z.string().max(1000).optional().describe('Keep only hits under this repository-relative folder or file.'),
  maxTokens: maxTokens(LISTING_TOKENS),
});

export const fetchNodeInput = z
  .object({
    ...target,
    source: z.boolean().default(true).describe('Include the current source text.'),
    maxLines: z.number().int().min(1).max(2000).default(200),
    maxTokens: maxTokens(LISTING_TOKENS),
  })
  .refine(...exactlyOne);

export const exploreGraphInput = z
  .object({
    ...target,
    direction: z.enum(['in', 'out', 'both']).default('both').describe('in: who points here (callers, subclasses, importers); out: what this points to (callees, bases, members).'),
  edgeKinds: z.array(z.enum(EDGE_KINDS as [string, ...string[]])).max(EDGE_KINDS.length).optional(),
  depth: z.number().int().min(1).max(MAX_EXPLORE_DEPTH).default(1),
  limit: limit(60),
  offset,
  maxTokens: maxTokens(LISTING_TOKENS),
  })
  .refine(...exactlyOne);

export const repoOverviewInput = z.object({
  path: z.string().max(1000).optional().describe('A repository-relative folder or file to map; the whole repository without it.'),
  byArea: z.boolean().default(false).describe('Answer with the functional areas (groups of related files with their folders and key terms) instead of modules and definitions.'),
  maxTokens: maxTokens(2000),
});

export const editContextInput = z.object({
  path: z.string().min(1).max(1000).describe('Repository-relative (or absolute) path of the file about to be edited.'),
  line: z.number().int().min(1).max(10_000_000).describe('One-based line of the edit.'),
  maxTokens: maxTokens(2048),
});

export const impactInput = z
  .object({
    ids: z.array(z.string().min(1).max(2000)).max(100).optional(),
    names: z.array(z.string().min(1).max(500)).max(100).optional(),
    diff: z.string().max(2_000_000).optional().describe('"git" for the working tree\'s uncommitted changes (git diff HEAD), or unified-diff text.'),
    depth: z.number().int().min(1).max(4).default(2),
    limit: limit(60),
    offset,
    maxTokens: maxTokens(LISTING_TOKENS),
  })
  .refine((v) => Boolean(v.ids?.length || v.names?.length || v.diff), { message: 'give ids, names or diff' });

export const TOOL_INPUTS = {
  search_code: searchCodeInput,
  fetch_node: fetchNodeInput,
  explore_graph: exploreGraphInput,
  repo_overview: repoOverviewInput,
  edit_context: editContextInput,
  impact: impactInput,
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;
export type ToolInput<N extends ToolName> = z.output<(typeof TOOL_INPUTS)[N]>;
export const TOOL_NAMES = Object.keys(TOOL_INPUTS) as ToolName[];

/** What a model reads to decide when to call each tool: short, and saying when to prefer it. */
export const TOOL_DESCRIPTIONS: Record<ToolName, { title: string; description: string }> = {
  search_code: {
    title: 'Search code',
    description:
      'Find where something is implemented in this repository. Accepts a symbol name (Flask.run), a structural question ("callers of X", "subclasses of X", "what does X call") or a plain-English description of behaviour. Returns ranked definitions with id, kind, qualified name, path:line, signature, first docstring sentence and features (short verb-object phrases), plus the functional areas and definitions whose features match the description. Use it instead of grep to locate code; then fetch_node or explore_graph with the returned id.',
  },
  fetch_node: {
    title: 'Fetch a definition',
    description:
      'Read one definition (function, method, class, module) by id or name: its current source, signature, docstring, container and a one-line summary of its relations (CALLS, INHERITS, IMPORTS, members…). Cheaper than reading whole files. An ambiguous name returns the ranked candidates.',
  },
  explore_graph: {
    title: 'Explore dependencies',
    description:
      'Walk the code graph from a definition: direction "in" gives callers, subclasses, importers and users; "out" gives callees, base classes, imports and members. Returns an indented tree of KIND qualified.name path:line up to depth 3, with counts of what was cut and of unresolved references that might also match, and the functional area the definition is in. From an area id ("area:2") it walks the functional hierarchy: sub-areas, files and their definitions with their features ("out"), parent areas ("in").',
  },
  repo_overview: {
    title: 'Repository map',
    description:
      'A map of the repository or a folder within a token budget: folders, modules and their most central classes and functions (ranked by PageRank over calls, inheritance and imports) with signatures; with byArea, its functional areas instead (groups of related files, with the folders they are grounded in, sizes and key terms). Use it first in an unfamiliar repository.',
  },
  edit_context: {
    title: 'Context for an edit',
    description:
      'The cross-file context Cartograph would give a completion model at path:line: the definitions the code there uses (class skeletons, called functions, base methods) and their relations as triples, within a token budget. Use it before editing a file to see the APIs the edit must fit.',
  },
  impact: {
    title: 'Change impact',
    description:
      'What a change touches: give symbol ids/names, a unified diff, or diff "git" for the uncommitted changes. Returns the changed definitions and everything that depends on them (callers, subclasses, importers, users), nearest first, each with the edge chain that reaches it. Use it before and after editing to find what else to update or test.',
  },
};

/** The server's instructions: agents that are not told when to use these tools do not call them. */
export const SERVER_INSTRUCTIONS =
  "Cartograph keeps a live knowledge graph of this repository (definitions and their CALLS, INHERITS, IMPORTS, USES and member edges). Prefer its tools to grep and to reading whole files: search_code to locate code by name, structural question or description; fetch_node to read one definition; explore_graph for callers/callees/subclasses/importers; repo_overview for a map; edit_context before editing a spot; impact to see what a change affects. Every answer names path:line, says which files are still being re-indexed, and marks counts that may be incomplete (unresolved references).";

/** JSON Schema of a tool's input, as VS Code's `languageModelTools` contribution declares it. */
export function inputJsonSchema(name: ToolName): Record<string, unknown> {
  const schema = z.toJSONSchema(TOOL_INPUTS[name], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** How chat refers to each tool (`#cartographSearch`…). */
const REFERENCE_NAMES: Record<ToolName, string> = {
  search_code: 'cartographSearch',
  fetch_node: 'cartographFetch',
  explore_graph: 'cartographExplore',
  repo_overview: 'cartographMap',
  edit_context: 'cartographEditContext',
  impact: 'cartographImpact',
};

/** package.json's `contributes.languageModelTools`, derived from the schemas above (scripts/sync-lm-tools.ts writes it; a test checks it). */
export function languageModelToolsContribution(): Array<Record<string, unknown>> {
  return TOOL_NAMES.map((name) => ({
    name: `cartograph_${name}`,
    displayName: `Cartograph: ${TOOL_DESCRIPTIONS[name].title}`,
    toolReferenceName: REFERENCE_NAMES[name],
    canBeReferencedInPrompt: true,
    icon: '$(type-hierarchy)',
    tags: ['code-search', 'code-graph', 'cartograph'],
    userDescription: TOOL_DESCRIPTIONS[name].description.split('. ')[0] + '.',
    modelDescription: TOOL_DESCRIPTIONS[name].description,
    inputSchema: inputJsonSchema(name),
  }));
}
