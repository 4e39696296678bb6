// The results view's wiring: the structural answers the picker leaves behind, and Show Impact of My
// Changes (the impact tool on the working tree's `git diff HEAD`, per folder, through each
// repository's runTool as agents call it).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { routeQuery } from '../../core/search/router';
import type { CommandHost } from '../commandHost';
import { onDidKeepAnswer, type StructuralAnswer } from '../findCommand';
import { guard } from '../log';
import { ResultsTree, type Answer, type ResultRow } from './resultsTree';

/** Affected definitions listed per change (the view is for reading, not for a 5,000-row walk). */
const IMPACT_ROWS = 200;

export function registerResults(host: CommandHost): { tree: ResultsTree; disposable: vscode.Disposable } {
  const tree = new ResultsTree();
  const disposable = vscode.Disposable.from(
    tree,
    onDidKeepAnswer((answer) => tree.add(fromPicker(host, answer))),
    vscode.commands.registerCommand('cartograph.showImpact', () => guard('Show Impact of My Changes', () => showImpact(host, tree))),
  );
  return { tree, disposable };
}

function fromPicker(host: CommandHost, { query, items }: StructuralAnswer): Answer {
  const routed = routeQuery(query, () => true);
  const relation = routed.route === 'structural' ? routed.relation : undefined;
  const rows = items.filter((i) => i.id).map((i): ResultRow => ({
    label: i.label.replace(/^\$\([\w-]+\)\s*/, ''),
    description: i.description,
    file: i.file,
    line: i.line,
    qname: i.qname,
    repository: host.indexes().find((index) => index.root === i.root)?.repository,
  }));
  return { title: query.trim(), relation, rows, empty: 'none in the graph' };
}

interface ImpactAnswer {
  changed: { qname: string; location: string }[];
  notes: string[];
  affected: { qname: string; kind: string; location: string; distance: number; chain: string[] }[];
  total: number;
}

/** One answer per folder with uncommitted changes: each changed definition, and under it what depends on it. */
async function showImpact(host: CommandHost, tree: ResultsTree): Promise<Answer[]> {
  const answers: Answer[] = [];
  const failed: string[] = [];
  for (const index of host.indexes()) {
    const repository = index.repository;
    if (!repository) continue;
    // A folder that is not a git repository rejects (git diff fails): said below, not an error.
    const result = await repository.runTool('impact', { diff: 'git', depth: 2, limit: IMPACT_ROWS }).catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }));
    if (!result.ok) {
      failed.push(`${index.folder.name}: ${result.error.split('\n')[0].replace(/^git diff failed in \S+: /, '')}`);
      continue;
    }
    const impact = result.structured as unknown as ImpactAnswer;
    if (impact.changed.length === 0) continue;
    const at = (location: string) => {
      const m = /^(.*):(\d+)$/.exec(location);
      return m ? { file: vscode.Uri.file(path.join(index.root, m[1])), line: Number(m[2]) - 1 } : {};
    };
    const rows = impact.changed.map((c): ResultRow => ({
      label: c.qname,
      description: `changed · ${c.location}`,
      ...at(c.location),
      children: impact.affected.filter((a) => a.chain[0] === c.qname).map((a) => ({
        label: a.qname,
        description: `${a.distance === 1 ? 'directly' : `${a.distance} steps`} · ${a.location}`,
        chain: a.chain.join(' '),
        ...at(a.location),
      })),
    }));
    const answer: Answer = { title: `Impact of the changes in ${index.folder.name}: ${impact.total} affected`, rows };
    answers.push(answer);
    tree.add(answer);
  }
  if (answers.length === 0) void vscode.window.showInformationMessage(`Cartograph: no uncommitted changes to indexed code (git diff HEAD) in the open folders${failed.length ? ` (${failed.join('; ')})` : ''}.`);
  return answers;
}
