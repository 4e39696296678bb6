// edit_context: the cross-file context graph-fused completion would assemble at a position (GRACE's
// triples and definitions), for an agent about to edit there.
import type { FusedContext } from '../completion/assemble';
import { countTokens } from '../completion/tokens';
import { languageOf } from '../parse/languages';
import { ToolError, workspacePath, type ToolAnswer, type ToolContext } from './context';
import type { ToolInput } from './schemas';
import type { TokenBudget } from './budget';

/**
 * Room kept in the first assembly for what the heading learns only from it (the definitions the line is
 * inside, the counts): enough for `(inside Flask.run < Flask)`; a longer heading costs a second assembly.
 */
const HEADING_ALLOWANCE = 24;

/** `budget`: what the answer may spend of `maxTokens` beside the notes the tools add after it. */
export async function editContext(ctx: ToolContext, input: ToolInput<'edit_context'>, budget: TokenBudget): Promise<ToolAnswer> {
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
  const query = { path: rel, language, prefix: text.slice(0, offset), suffix: text.slice(offset) };

  const heading = (enclosing: readonly string[], definitions: number, relations: number, tokens: number, leftOut: number) =>
    `Context for ${rel}:${input.line}${enclosing.length ? ` (inside ${enclosing.join(' < ')})` : ''}: ${definitions} definitions, ${relations} relations, ${tokens} tokens of context within the answer's ${input.maxTokens}-token budget` +
    (leftOut > 0 ? `; ${leftOut} more candidates did not fit` : '');
  const answer = (fused: FusedContext) =>
    `${heading(fused.cursor.enclosing, fused.snippets.length, fused.triples.length, fused.tokens, fused.leftOut)}\n\n${fused.text.trim() || '(nothing in other files that this position uses)'}`;
  // The assembler keeps the context within its budget in real tokens; the heading and the notes are
  // taken off that budget, and the answer is counted whole: over (a long heading), assembled again with less.
  const limit = budget.exact();
  // Never below 0: notes longer than the budget leave the context empty, not the assembler looping on a negative one.
  let contextBudget = Math.max(0, limit - countTokens(`${heading([], 0, 0, 0, 1)}\n\n`) - HEADING_ALLOWANCE);
  let fused = await ctx.assemble(query, { budgetTokens: contextBudget, mmrLambda: 0.7 });
  let over = countTokens(answer(fused)) - limit;
  while (over > 0 && fused.tokens > 0) {
    contextBudget = Math.max(0, contextBudget - over);
    fused = await ctx.assemble(query, { budgetTokens: contextBudget, mmrLambda: 0.7 });
    over = countTokens(answer(fused)) - limit;
  }
  return {
    text: answer(fused),
    structured: {
      path: rel,
      line: input.line,
      enclosing: fused.cursor.enclosing,
      triples: fused.triples,
      snippets: fused.snippets.map((s) => ({ title: s.title, path: s.path, origin: s.origin, tokens: s.tokens })),
      tokens: fused.tokens,
      budgetTokens: fused.budgetTokens,
      leftOut: fused.leftOut,
    },
  };
}
