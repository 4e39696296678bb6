// The text of the transparency document (Show Last Completion Request), without `vscode`: the
// completion the user accepted (showing whichever request fired last showed the one VS Code started
// right after the acceptance), then the recent requests so a later failure is not hidden.
import type { CompletionRecord } from '../../core/completion/service';
import { describeRecord } from '../../core/completion/transparency';

/** The record shown, then one line per recent request so a failure after it is not hidden. */
export function transparencyText(shown: CompletionRecord, accepted: boolean, recent: readonly CompletionRecord[]): string {
  const lines = [
    accepted ? '> The completion you last accepted. Newer requests are listed at the end.' : '> The last completion request (none accepted yet). Newer ones replace it.',
    '',
    describeRecord(shown),
  ];
  if (recent.length > 1) {
    lines.push('## Recent requests (newest first)', '');
    for (const r of recent) lines.push(`- ${r.at} ${r.path}: ${r.outcome}${r.error ? ` (${r.error})` : ''}${r === shown ? ' — shown above' : ''}`);
    lines.push('');
  }
  return lines.join('\n');
}

