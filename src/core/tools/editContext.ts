// edit_context: the cross-file context graph-fused completion would assemble at a position (GRACE's
// triples and definitions), for an agent about to edit there.
import { languageOf } from '../parse/languages';
import { ToolError, workspacePath, type ToolAnswer, type ToolContext } from './context';
import type { ToolInput } from './schemas';

export async function editContext(ctx: ToolContext, input: ToolInput<'edit_context'>): Promise<ToolAnswer> {
  const rel = workspacePath(ctx.root, input.path);
  const language = languageOf(rel);
  if (!language) throw new ToolError(`${rel}: not a language Cartograph indexes`);
  const read = await ctx.readText(rel);
  if (!read.ok) throw new ToolError(`${rel} cannot be read: ${read.detail}`);
  const text = read.text;
  const lines = text.split('\n');
  if (input.line > lines.length + 1) throw new ToolError(`${rel} has ${lines.length} lines; line ${input.line} is past its end`);
  // The cursor at the start of the line: the line itself is what the agent is about to write.
  const offset = lines.slice(0, input.line - 1).reduce((n, l) => n + l.length + 1, 0);
  const fused = await ctx.assemble({ path: rel, language, prefix: text.slice(0, offset), suffix: text.slice(offset) }, { budgetTokens: input.maxTokens, mmrLambda: 0.7 });
  const head = `Context for ${rel}:${input.line}${fused.cursor.enclosing.length ? ` (inside ${fused.cursor.enclosing.join(' < ')})` : ''}: ${fused.snippets.length} definitions, ${fused.triples.length} relations, ~${fused.tokens} of ${fused.budgetTokens} tokens`;
  const body = fused.text.trim() || '(nothing in other files that this position uses)';
  return {
    text: `${head}\n\n${body}`,
    structured: {
      path: rel,
      line: input.line,
      enclosing: fused.cursor.enclosing,
      triples: fused.triples,
      snippets: fused.snippets.map((s) => ({ title: s.title, path: s.path, origin: s.origin, tokens: s.tokens })),
      tokens: fused.tokens,
      budgetTokens: fused.budgetTokens,
    },
  };
}
