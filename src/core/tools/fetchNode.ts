// fetch_node (RPG-Encoder's FetchNode): one definition with its current source and its relations.
import { rowsWithin, type TokenBudget } from './budget';
import { location, type ToolAnswer, type ToolContext } from './context';
import { edgeRows, summarize, type UnresolvedIndex } from './relations';
import type { ToolInput } from './schemas';
import { candidatesAnswer, resolveTarget } from './targets';

const CONTAINERS = ['CONTAINS', 'HAS_METHOD', 'HAS_FIELD'];

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function fetchNode(ctx: ToolContext, unresolved: UnresolvedIndex, input: ToolInput<'fetch_node'>, budget: TokenBudget): Promise<ToolAnswer> {
  const target = await resolveTarget(ctx, input);
  if ('candidates' in target) return candidatesAnswer(input.name!, target.candidates);
  const { node, members } = target;
  const graph = ctx.graph.graph;
  const containerId = edgeRows(graph, node.id, 'in', CONTAINERS)[0]?.id;
  const container = containerId ? graph.getNodeAttributes(containerId) : undefined;
  const rows = [...edgeRows(graph, members, 'out'), ...edgeRows(graph, members, 'in').filter((r) => !CONTAINERS.includes(r.kind))];
  const possible = unresolved.possible(node, ['CALLS', 'USES'], members).sources.length;

  const lines = [`${node.kind} ${node.qname}  ${location(node)}  id=${node.id}`];
  if (members.length > 1) lines.push(`${members.length - 1} more declarations (overload signatures or a stub): ${members.filter((m) => m !== node.id).map((m) => location(graph.getNodeAttributes(m))).join(', ')}`);
  if (container) lines.push(`in ${container.kind} ${container.qname}`);
  if (node.signature) lines.push(`signature: ${node.signature.split('\n')[0]}`);
  if (node.doc) lines.push(`doc: ${node.doc.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ')}`);
  lines.push(...summarize(rows));
  if (possible > 0) lines.push(`(+${possible} possible: unresolved references named "${node.name}"; explore_graph direction "in" lists them)`);

  let source: { text: string; startLine: number; endLine: number; truncated: boolean } | undefined;
  if (input.source && node.path && node.range) {
    const read = await ctx.readText(node.path);
    if (!read.ok) {
      lines.push(`source: ${node.path} cannot be read now: ${read.detail}`);
    } else {
      const all = read.text.split('\n');
      const start = node.kind === 'Module' ? 0 : node.range.startLine;
      const end = node.kind === 'Module' ? all.length - 1 : Math.min(node.range.endLine, all.length - 1);
      const wanted = all.slice(start, Math.min(end, start + input.maxLines - 1) + 1);
      // The source is cut at a line, to maxLines and to what the token budget leaves after the relations.
      const cutNote = (last: number) => `… ${end - last} more lines left out for the ${input.maxTokens}-token budget: read ${node.path} from line ${last + 2}, or ask with a larger maxTokens`;
      const frame = ['', `${node.path}:${start + 1}-${start + wanted.length}`, '```', '```', cutNote(start)];
      const fit = rowsWithin(wanted.map((line) => [line]), [...lines, ...frame], budget);
      const last = start + fit - 1;
      source = { text: wanted.slice(0, fit).join('\n'), startLine: start + 1, endLine: last + 1, truncated: last < end };
      lines.push('', `${node.path}:${start + 1}-${last + 1}`, '```', source.text, '```');
      if (fit < wanted.length) lines.push(cutNote(last));
      else if (source.truncated) lines.push(`… ${end - last} more lines (maxLines=${input.maxLines})`);
    }
  }
  return {
    text: lines.join('\n'),
    structured: {
      id: node.id,
      kind: node.kind,
      qname: node.qname,
      location: location(node),
      signature: node.signature,
      doc: node.doc,
      container: container ? { id: container.id, kind: container.kind, qname: container.qname } : null,
      relations: summarize(rows, 10),
      possibleUnresolvedReferences: possible,
      ...(source ? { source } : {}),
    },
  };
}
