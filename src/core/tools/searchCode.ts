// search_code (RPG-Encoder's SearchNode): the "Find Where Implemented" router for agents.
import { firstSentence, location, type ToolAnswer, type ToolContext } from './context';
import type { ToolInput } from './schemas';

export async function searchCode(ctx: ToolContext, input: ToolInput<'search_code'>): Promise<ToolAnswer> {
  const graph = ctx.graph.graph;
  const want = input.offset + input.limit;
  const filtered = Boolean(input.kinds?.length || input.path);
  // Filters drop hits after ranking: ask for more so a filtered page is still full.
  const result = await ctx.search(input.query, Math.min(filtered ? want * 4 : want + 1, 1000));
  const prefix = input.path?.replace(/^\.\/+/, '').replace(/\/+$/, '');
  const hits = result.hits.filter((h) => {
    const n = graph.getNodeAttributes(h.id);
    if (input.kinds?.length && !input.kinds.includes(n.kind)) return false;
    return !prefix || n.path === prefix || n.path.startsWith(`${prefix}/`);
  });
  const page = hits.slice(input.offset, want);
  const rows = page.map((h) => {
    const n = graph.getNodeAttributes(h.id);
    return {
      id: h.id,
      kind: n.kind,
      qname: n.qname,
      location: location(n),
      signature: n.signature,
      doc: firstSentence(n.doc),
      foundBy: h.via,
      ...(h.edge ? { edge: h.edge } : {}),
      score: Number(h.score.toFixed(4)),
      ...(h.path && h.path.length > 1 ? { graphPath: h.path.map((id) => graph.getNodeAttribute(id, 'qname')) } : {}),
    };
  });
  const more = hits.length > want;
  const lines = [`${result.route}: ${result.reason}`];
  if (rows.length === 0) {
    lines.push(input.offset > 0 ? `No hits past offset ${input.offset}.` : `No matches${filtered ? ' with the given kinds/path filter' : ''} among ${ctx.graph.filePaths().length} indexed files.`);
  }
  rows.forEach((r, i) => {
    lines.push(`${input.offset + i + 1}. ${r.kind} ${r.qname}  ${r.location}  [${r.foundBy}${r.edge ? ` ${r.edge}` : ''} ${r.score}]  id=${r.id}`);
    if (r.signature) lines.push(`   ${r.signature.split('\n')[0]}`);
    if (r.doc) lines.push(`   ${r.doc}`);
    if (r.graphPath) lines.push(`   found along ${r.graphPath.join(' → ')}`);
  });
  if (more) lines.push(`More hits: call again with offset=${want}.`);
  return {
    text: lines.join('\n'),
    structured: { route: result.route, reason: result.reason, hits: rows, ...(more ? { nextOffset: want } : {}) },
  };
}
