// `show` and `query` answers on the terminal: the same text whether the repository's service or this
// process made the answer (core/service/answers.ts makes the data both print from).
import type { FilesAnswer, SearchAnswer } from '../core/service/answers';
import type { NodeDescription } from '../core/graph/describe';

/** Exit code: 1 when nothing has the name. */
export function printShow(query: string, described: NodeDescription[], json: boolean): number {
  if (json) {
    console.log(JSON.stringify(described, null, 2));
  } else if (described.length === 0) {
    console.log(`No node named '${query}'.`);
  } else {
    for (const d of described) {
      const where = d.node.path ? `${d.node.path}${d.node.range ? `:${d.node.range.startLine + 1}` : ''}` : '(outside the repository)';
      console.log(`${d.node.kind} ${d.node.qname}  ${where}`);
      if (d.node.signature) console.log(`  ${d.node.signature}`);
      if (d.node.doc) console.log(`  ${d.node.doc.split('\n')[0]}`);
      for (const e of d.outgoing) console.log(`  → ${e.kind.padEnd(10)} ${e.qname}  ${e.location}`);
      for (const e of d.incoming) console.log(`  ← ${e.kind.padEnd(10)} ${e.qname}  ${e.location}`);
      console.log('');
    }
  }
  return described.length === 0 ? 1 : 0;
}

/** `extra`: what --json adds about how the answer was made (models, where the index came from). */
export function printSearch(answer: SearchAnswer, extra: Record<string, unknown>, json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ ...answer, ...extra, hits: answer.hits }, null, 2));
    return;
  }
  console.log(`${answer.route}: ${answer.reason}`);
  if (answer.hits.length === 0) console.log('No matches.');
  for (const h of answer.hits) {
    const where = h.path ? `${h.path}${h.line ? `:${h.line}` : ''}` : '(outside the repository)';
    console.log(`${h.score.toFixed(3)}  ${h.kind.padEnd(14)} ${h.qname}  ${where}  [${h.via}]`);
    if (h.signature) console.log(`       ${h.signature}`);
    if (h.trail && h.trail.length > 1) console.log(`       found along ${h.trail.join(' → ')}`);
  }
}

export function printFiles(answer: FilesAnswer, extra: Record<string, unknown>, json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ ...answer, ...extra }, null, 2));
    return;
  }
  console.log('files: ranked by their definitions and their whole text');
  if (answer.hits.length === 0) console.log('No matching files.');
  for (const h of answer.hits) {
    console.log(`${h.score.toFixed(3)}  ${h.path}  (text ${h.text.toFixed(2)})`);
    for (const d of h.definitions) console.log(`       ${d.score.toFixed(3)}  ${d.kind.padEnd(14)} ${d.qname}${d.line ? `:${d.line}` : ''}`);
  }
}
