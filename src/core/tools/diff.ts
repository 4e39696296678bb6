// Changed line ranges from a unified diff (git's or any other), mapped onto the graph's definitions
// the way RPG-Encoder's diff-based evolution locates modified nodes.
import { execFile } from 'node:child_process';
import type { GraphNode } from '../model/schema';
import type { ToolGraph } from './context';

export interface FileChange {
  /** Path as the diff names it (new side, `a/` `b/` stripped). */
  path: string;
  deleted: boolean;
  /** One-based line ranges of the new file that changed (a pure deletion marks the line after it). */
  ranges: Array<[number, number]>;
}

export function parseUnifiedDiff(diff: string): FileChange[] {
  const files: FileChange[] = [];
  let current: FileChange | undefined;
  let oldPath = '';
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ')) {
      oldPath = stripPrefix(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      const newPath = stripPrefix(line.slice(4));
      const deleted = newPath === '/dev/null';
      current = { path: deleted ? oldPath : newPath, deleted, ranges: [] };
      files.push(current);
    } else if (current && line.startsWith('@@')) {
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) continue;
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      current.ranges.push(count === 0 ? [Math.max(start, 1), Math.max(start, 1)] : [start, start + count - 1]);
    }
  }
  return files;
}

function stripPrefix(p: string): string {
  const path = p.split('\t')[0].trim();
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

/** The working tree's uncommitted changes under `root`, paths relative to it. */
export function gitDiff(root: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['diff', 'HEAD', '--no-color', '--no-ext-diff', '-U0', '--relative'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git diff failed in ${root}: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** The innermost definitions whose ranges overlap the changed lines (the module for top-level code). */
export function changedNodes(repo: ToolGraph, path: string, ranges: Array<[number, number]>): GraphNode[] {
  const nodes = repo.nodesInFile(path);
  const found = new Map<string, GraphNode>();
  for (const [from, to] of ranges) {
    const hits = nodes.filter((n) => n.kind !== 'Module' && n.range && n.range.startLine + 1 <= to && n.range.endLine + 1 >= from);
    // Innermost: drop a definition when one inside it is also hit.
    const inner = hits.filter((n) => !hits.some((m) => m !== n && contains(n, m)));
    if (inner.length === 0) {
      const module = nodes.find((n) => n.kind === 'Module');
      if (module) found.set(module.id, module);
    }
    for (const n of inner) found.set(n.id, n);
  }
  return [...found.values()];
}

function contains(outer: GraphNode, inner: GraphNode): boolean {
  const a = outer.range!;
  const b = inner.range!;
  return (a.startLine < b.startLine || (a.startLine === b.startLine && a.startCol <= b.startCol)) && (a.endLine > b.endLine || (a.endLine === b.endLine && a.endCol >= b.endCol));
}
