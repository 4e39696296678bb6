// `show`, `query` and `stats` answers on the terminal: the same text whether the repository's service
// or this process made the answer (core/service/answers.ts makes the data both print from).
import type { FilesAnswer, SearchAnswer } from '../core/service/answers';
import type { NodeDescription } from '../core/graph/describe';
import type { EngineStats, IndexReport } from '../core/engine';
import { describeIndexOptions, type IndexOptions } from '../core/store/indexOptions';
import type { Flags } from './flags';
import type { FeaturesAnswer } from '../core/features/featuresAnswer';
import type { LiftReport } from '../core/lifting/lifter';
import { areasNamed } from '../core/features/areaNames';

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
    if (h.compiledTo) console.log(`       also compiled to ${h.compiledTo.join(', ')}`);
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

export function printStats(s: EngineStats, storeBytes: number): void {
  const nonZero = (o: Record<string, number | undefined>) => Object.entries(o).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`Repository: ${s.root}`);
  console.log(`Files: ${s.files} (${s.lines} lines${s.syntaxErrorFiles ? `, ${s.syntaxErrorFiles} with syntax errors kept as recovered` : ''}${s.generatedFiles.length ? `, ${s.generatedFiles.length} generated (indexed, flagged)` : ''})`);
  console.log(`Nodes: ${nonZero(s.nodes)}`);
  console.log(`Edges: ${nonZero(s.edges)}`);
  console.log(`Internal imports resolved: ${s.imports.resolved}/${s.imports.internal} (${(s.imports.rate * 100).toFixed(1)}%)`);
  console.log(`Store: ${s.store.dir ?? '(none)'} — ${s.store.status}${s.store.error ? `: ${s.store.error}` : ''}, ${(storeBytes / 1024 / 1024).toFixed(1)} MB`);
  if (s.skipped.length) {
    const byReason = new Map<string, number>();
    for (const k of s.skipped) byReason.set(k.reason, (byReason.get(k.reason) ?? 0) + 1);
    console.log(`Skipped: ${[...byReason].map(([r, n]) => `${r} ${n}`).join(', ')}`);
    for (const k of s.skipped.slice(0, 20)) console.log(`  ${k.path}: ${k.reason}${k.detail ? ` (${k.detail})` : ''}`);
    if (s.skipped.length > 20) console.log(`  … and ${s.skipped.length - 20} more (--json lists all)`);
  }
}

/** What saving the query snapshot came to. */
export interface SnapshotSaved {
  saved: boolean;
  unchanged?: true;
  ms: number;
}

/** What `index` did, as JSON with --json. `optionsGiven`: the folder was read with options given on this command line. */
export function printIndexed(
  flags: Flags,
  indexed: { report: IndexReport; stats: EngineStats; storeBytes: number; snapshot: SnapshotSaved; options: IndexOptions },
  optionsGiven: boolean,
): void {
  const { report, stats, storeBytes, options } = indexed;
  if (flags.json) {
    console.log(JSON.stringify(indexed, null, 2));
    return;
  }
  console.log(
    `Indexed ${report.files} files in ${(report.timings.total! / 1000).toFixed(2)} s ` +
      `(${report.parsed} parsed, ${report.reused} unchanged, ${report.removed} removed, ${report.skipped.length} skipped).`,
  );
  const read = describeIndexOptions(options);
  if (read) console.log(`Read with ${read}${optionsGiven ? '' : ', as recorded with the store'}: later indexes and the repository's service read the folder the same way (--reset-options: the defaults).`);
  printStats(stats, storeBytes);
}

/** `cartograph features`: its lines as the service or this process made them; the exit code. */
export function printFeatures(answer: FeaturesAnswer): number {
  for (const line of answer.stdout) console.log(line);
  for (const line of answer.stderr) console.error(line);
  return answer.code;
}

/** `cartograph describe`'s report; exit 1 when it stopped before describing anything. */
export function printDescribed(report: LiftReport, json: boolean): number {
  if (json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`\nDescribed ${report.described} (${report.cached} already described, ${report.failed} failed)${report.stopped ? `; stopped: ${report.stopped}` : ''}.`);
    if (report.areas) console.log(`The functional view's ${areasNamed(report.areas)}.`);
  }
  return report.described + report.cached > 0 || !report.stopped ? 0 : 1;
}
