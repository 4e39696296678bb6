// "What did it send?": the last completion's record as a Markdown document — the triples, the
// snippets and why they were chosen, the exact prompt and stops, the answer before and after
// post-processing, and the time of every stage.
import type { CompletionRecord } from './service';

/** The record as plain text: what the transparency command shows. */
export function describeRecord(r: CompletionRecord): string {
  const ms = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)} ms`);
  const prompt = r.prompt.kind === 'completion' ? r.prompt.prompt : r.prompt.messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
  return [
    `# Last Cartograph completion (${r.at})`,
    '',
    `- file: ${r.path}, line ${r.context.cursor.line + 1}${r.context.cursor.enclosing.length ? ` in ${r.context.cursor.enclosing.join(' < ')}` : ''}; statement being typed: \`${r.context.cursor.partialStatement.trim()}\``,
    `- endpoint: ${r.endpoint} (${r.via ?? 'no answer'}), model: ${r.model || '-'}, prompt format: ${r.family}, shape: ${r.shape}`,
    `- outcome: ${r.outcome}${r.error ? ` (${r.error})` : ''}`,
    `- context: ${r.context.tokens} of ${r.context.budgetTokens} tokens (estimated), ${r.context.snippets.length} snippets, ${r.context.triples.length} triples`,
    '',
    '## Timings',
    '',
    ...Object.entries(r.timingsMs).map(([k, v]) => `- ${k}: ${ms(v)}`),
    '',
    '## Triples (graph facts linking the context to the code being written)',
    '',
    '```',
    ...r.context.triples,
    '```',
    '',
    '## Snippets',
    '',
    ...r.context.snippets.map((s) => `- ${s.title} (${s.origin}, relevance ${s.relevance.toFixed(2)}, ${s.tokens} tokens)`),
    '',
    `## Prompt sent (stop: ${JSON.stringify(r.prompt.stop)}, max tokens ${r.prompt.maxTokens})`,
    '',
    '````',
    prompt,
    '````',
    '',
    '## Answer',
    '',
    '````',
    r.raw ?? '',
    '````',
    '',
    '## Shown (after stop sequences and suffix trimming)',
    '',
    '````',
    r.completion ?? '',
    '````',
    '',
  ].join('\n');
}
