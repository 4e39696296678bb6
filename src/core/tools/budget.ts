// The agent's maxTokens for a tool answer, in real tokens (o200k, counted as the completion prompt
// counts them): a listing keeps the rows that fit beside the lines around them, never half a row, and
// says where the next page starts.
import { blockTokens, countTokens, tokenBound } from '../completion/tokens';

/**
 * What a tool's answer may spend: the agent's maxTokens less what the notes after it take. Exact
 * counts need the o200k encoding (2.4 MB, 0.1-0.4 s to load, the whole of a fresh service's first
 * answer); byte bounds do not, and a listing that fits by bounds fits exactly. So every decision is
 * tried on bounds first and counted only where it turns on the count: answers are the same as
 * counted throughout, and a short one never loads the encoding.
 */
export class TokenBudget {
  private counted: number | undefined;

  constructor(
    readonly maxTokens: number,
    /** The notes that follow the answer, as they are joined to it. */
    private readonly notes = '',
  ) {}

  /** No more than the budget: maxTokens less the notes' bound. */
  get floor(): number {
    return this.maxTokens - (this.notes ? tokenBound(this.notes) : 0);
  }

  /** The budget in real tokens. */
  exact(): number {
    this.counted ??= this.maxTokens - (this.notes ? countTokens(this.notes) : 0);
    return this.counted;
  }
}

/** How many of `rows` (each given as its lines) fit in `budget` beside the lines `around` them. */
export function rowsWithin(rows: readonly (readonly string[])[], around: readonly string[], budget: TokenBudget): number {
  let bound = tokenBound(around.join('\n'));
  for (const row of rows) bound += tokenBound(row.join('\n'));
  if (bound <= budget.floor) return rows.length;
  const exact = budget.exact();
  let used = blockTokens(around.join('\n'));
  for (let i = 0; i < rows.length; i++) {
    used += blockTokens(rows[i].join('\n'));
    if (used > exact) return i;
  }
  return rows.length;
}

/** The line that says a listing was cut to the budget, and how to ask for the rest. */
export function budgetNote(left: number, maxTokens: number, nextOffset: number, what = 'rows'): string {
  return `… ${left} more ${what} left out for the ${maxTokens}-token budget: call again with offset=${nextOffset}, or a larger maxTokens`;
}

export interface Page<T> {
  rows: T[];
  /** The rows' lines, then the line that says what comes next, if anything does. */
  lines: string[];
  nextOffset?: number;
}

/**
 * One page of `all` from `offset`: at most `limit` rows, and of those the ones that fit `budget`
 * tokens beside `before` and `after` (the answer's other lines, which stay whole).
 */
export function pageWithin<T>(all: readonly T[], at: { offset: number; limit: number; maxTokens: number }, budget: TokenBudget, render: (row: T) => string[], before: readonly string[], after: readonly string[]): Page<T> {
  const asked = all.slice(at.offset, at.offset + at.limit);
  const rendered = asked.map(render);
  const fit = rowsWithin(rendered, [...before, budgetNote(asked.length, at.maxTokens, at.offset), ...after], budget);
  const lines = rendered.slice(0, fit).flat();
  const nextOffset = fit < asked.length || at.offset + at.limit < all.length ? at.offset + fit : undefined;
  if (fit < asked.length) lines.push(budgetNote(asked.length - fit, at.maxTokens, nextOffset!));
  else if (nextOffset !== undefined) lines.push(`… ${all.length - nextOffset} more rows: call again with offset=${nextOffset}`);
  return { rows: asked.slice(0, fit), lines, nextOffset };
}

/**
 * The whole answer held to `budget` tokens whatever its parts: its first lines that fit, and one line
 * saying the rest was cut. What a tool fits on its own (rows, source lines) never comes here cut; this
 * catches the parts around them (a long signature, many possible callers) at the smallest budgets.
 */
export function clipToBudget(text: string, budget: TokenBudget): string {
  if (tokenBound(text) <= budget.floor || blockTokens(text) <= budget.exact()) return text;
  const lines = text.split('\n');
  const note = (left: number) => `… ${left} more lines of this answer left out for the ${budget.maxTokens}-token budget: ask with a larger maxTokens`;
  const fit = rowsWithin(lines.map((line) => [line]), [note(lines.length)], budget);
  return [...lines.slice(0, fit), note(lines.length - fit)].join('\n');
}
