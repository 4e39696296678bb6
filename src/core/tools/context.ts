// What the agent tools read, wherever the graph lives: in the CLI's MCP server (an Engine in the same
// thread) or in the extension's engine worker. The editor supplies open buffers' text; the MCP server
// supplies the files its watcher has seen change but not yet re-indexed.
import * as nodePath from 'node:path';
import type { AssembleOptions, FusedContext } from '../completion/assemble';
import type { FeatureHierarchy } from '../features/hierarchy';
import type { CursorQuery } from '../completion/queryGraph';
import type { UnresolvedLookup } from '../graph/unresolvedRefs';
import type { ReadonlyGraph } from '../graph/describe';
import type { RepositoryGraph } from '../graph/repositoryGraph';
import type { GraphNode } from '../model/schema';
import type { SearchContext } from '../search';
import type { SearchResult } from '../search/types';
import { readSourceFile, type RootBoundary } from '../workspace/readSource';

/** What the tools read of a repository graph: the engine's live one, or a query snapshot's frozen one. */
export type ToolGraph = Pick<RepositoryGraph, 'version' | 'rootName' | 'filePaths' | 'nodesInFile' | 'fileGraph'> & { graph: ReadonlyGraph };

export interface ToolContext {
  readonly root: string;
  readonly graph: ToolGraph;
  search(query: string, limit: number, context?: SearchContext): Promise<SearchResult>;
  assemble(query: CursorQuery, options: AssembleOptions): Promise<FusedContext>;
  /** A file's current text: the editor's buffer when open, else the disk; or why it cannot be read. */
  readText(relPath: string): Promise<FileText>;
  /** `git diff HEAD` of the working tree (unified, no context lines). */
  gitDiff(): Promise<string>;
  /**
   * The functional view (areas), current with `graph`, or undefined where there is none. `build: false`
   * takes only one already built or saved: search must not wait the seconds a first build takes on a
   * large repository (Django: 1-3 s), which only a question about areas is worth.
   */
  features?(options?: { build?: boolean }): Promise<FeatureHierarchy | undefined>;
  /** The unresolved references as saved, for a graph that keeps no per-file graphs (a query snapshot's). */
  savedUnresolved?(): UnresolvedLookup;
}

/** What the caller knows at the time of a call: what the index has not caught up with, and the editor's buffers. */
export interface CallState {
  /** Files changed on disk (or in unsaved buffers) that the graph does not reflect yet. */
  pending: string[];
  /** The folder's index is still being built: what it has done so far (the answer may be incomplete). */
  indexing?: string;
  /** Unsaved editor buffers by repository-relative path: source is read from them instead of the disk. */
  buffers?: Record<string, string>;
  /** Why the graph store could not be used (damaged, unwritable): answers come from memory and are not kept. */
  storeProblem?: string;
}

/** A file's text, or why not (readSource.ts's words: too large, binary, a symlink out of the folder…). */
export type FileText = { ok: true; text: string } | { ok: false; detail: string };

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

/** A tool's answer, or the error to show the agent for a bad request. */
export type ToolResult = ({ ok: true } & ToolAnswer) | { ok: false; error: string };

/** A bad request (unknown id, path outside the workspace…): reported to the agent, never a crash. */
export class ToolError extends Error {}

export function location(node: GraphNode, line?: number): string {
  if (node.kind === 'Folder') return `${node.path || '.'}/`;
  if (!node.path) return '(external)';
  const at = line ?? (node.range ? node.range.startLine + 1 : undefined);
  return at === undefined ? node.path : `${node.path}:${at}`;
}

export function firstSentence(doc: string): string {
  const text = doc.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ');
  const end = /[.!?](\s|$)/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}…` : sentence;
}

/** ToolContext.readText from the disk, never through a symlink out of `boundary`'s root unless it follows them. */
export function diskText(boundary: RootBoundary, maxFileSize?: number): (relPath: string) => Promise<FileText> {
  return (rel) => readSourceFile(nodePath.join(boundary.root, rel), maxFileSize, undefined, boundary);
}

/** A repository-relative `/` path for `p` (relative to the root, or absolute inside it); outside the root is an error. */
export function workspacePath(root: string, p: string): string {
  const abs = nodePath.resolve(root, p);
  const rel = nodePath.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || nodePath.isAbsolute(rel)) throw new ToolError(`"${p}" is outside the indexed folder ${root}`);
  return rel.split(nodePath.sep).join('/');
}
