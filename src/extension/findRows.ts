// What Find Where Implemented says, as plain functions (no `vscode`, unit-tested): the one-line title,
// each row's description, the line a row lands on, and the messages shown instead of results.
import { localIdOf, type GraphNode } from '../core/model/schema';
import type { Route, Via } from '../core/search/types';

/** One folder's answer, as much of it as the title needs. */
export interface SearchSummary {
  route: Route;
  /** The router's reason: says when a name-like query named nothing. */
  reason: string;
  vias: readonly Via[];
  /** Hits before the limit, where known (structural questions). */
  total?: number;
}

/**
 * A short title that is true to what ran: the kind of question, how it was answered (graph edges,
 * names, words, meaning) and how many rows are shown of how many.
 */
export function searchTitle(query: string, answers: readonly SearchSummary[], shown: number, more: boolean): string {
  const routes = new Set(answers.map((a) => a.route));
  const total = answers.reduce((sum, a) => sum + (a.total ?? 0), 0);
  const count = shown === 0 ? 'nothing found'
    : total > shown ? `first ${shown} of ${total}`
    : more ? `first ${shown}`
    : `${shown} result${shown === 1 ? '' : 's'}`;
  if (answers.some((a) => a.reason.startsWith('files:'))) return `Files ranked by their definitions and text · ${count}`;
  if (routes.has('structural')) return `${capitalised(query.trim().replace(/[?.!]+$/, ''))} (graph edges) · ${count}`;
  if (routes.has('entity')) return `Code named ${query.trim()} · ${count}`;
  const vias = new Set(answers.flatMap((a) => a.vias));
  const how = vias.has('vector') || vias.has('mcts') ? 'by meaning and words' : 'by words';
  const namedNothing = answers.some((a) => /looks like a name/.test(a.reason));
  return `${namedNothing ? `Nothing is named ${query.trim()}; searched` : 'Searched'} ${how} · ${count}`;
}

/**
 * The class (or function) a definition is in, from its id (`path#Outer.inner`): what tells apart the
 * four `load` methods of one file. Undefined for a module's own definitions and for externals.
 */
export function containerOf(node: Pick<GraphNode, 'id' | 'path' | 'kind'>): string | undefined {
  if (!node.path || node.kind === 'External' || !node.id.startsWith(`${node.path}#`)) return undefined;
  const local = localIdOf(node.id, node.path);
  const dot = local.lastIndexOf('.');
  return dot > 0 ? local.slice(0, dot) : undefined;
}

/** `Container · path:line`, or where an external symbol comes from; `compiledTo`: the JavaScript built from the file (folded into this row). */
export function rowDescription(node: Pick<GraphNode, 'id' | 'path' | 'kind' | 'qname'>, line: number | undefined, compiledTo: readonly string[] = []): string {
  if (!node.path) return `outside the workspace (${node.qname})`;
  const where = `${node.path}${line !== undefined ? `:${line + 1}` : ''}`;
  const container = containerOf(node);
  const twins = compiledTo.length > 0 ? ` · also compiled to ${compiledTo.join(', ')}` : '';
  return `${container ? `${container} · ${where}` : where}${twins}`;
}

/** What picking an External row says: it has no file in the workspace to open. */
export function externalMessage(node: Pick<GraphNode, 'name' | 'qname' | 'id'>): string {
  return `${node.qname || node.name} is outside the workspace (${node.id}): Cartograph indexes only the workspace's own files, so there is no definition to open.`;
}

/**
 * Where a definition whose range starts at its decorators really starts: the line and column of its
 * name after any `@decorator` (arguments may span lines), so a pick lands on `def load`, not on
 * `@property`. `lineAt(i)` reads the file; the search gives up `maxLines` below `startLine`.
 */
export function definitionPosition(lineAt: (line: number) => string | undefined, startLine: number, name: string, maxLines = 40): { line: number; col: number } {
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`);
  let open = 0;
  for (let i = startLine; i < startLine + maxLines; i++) {
    const text = lineAt(i);
    if (text === undefined) break;
    if (open > 0) {
      open = Math.max(0, open + balance(text));
      continue;
    }
    const decorators = skipDecorators(text);
    if (decorators.open > 0) {
      open = decorators.open;
      continue;
    }
    const found = word.exec(text.slice(decorators.end));
    if (found) return { line: i, col: decorators.end + found.index };
    // a line without decorators that does not name the definition: the range's own start is all we know
    if (!text.trimStart().startsWith('@')) return { line: i, col: decorators.end };
  }
  return { line: startLine, col: 0 };
}

/** Skips leading `@name(args)` decorators: where the rest of the line starts, or how many parentheses stay open. */
function skipDecorators(line: string): { end: number; open: number } {
  let i = 0;
  for (;;) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (line[i] !== '@') return { end: i, open: 0 };
    i++;
    while (i < line.length && /[\w$.]/.test(line[i])) i++;
    if (line[i] !== '(') continue;
    let depth = 0;
    for (; i < line.length; i++) {
      if (line[i] === '(') depth++;
      else if (line[i] === ')' && --depth === 0) break;
    }
    if (depth > 0) return { end: line.length, open: depth };
    i++;
  }
}

/** Open minus closed parentheses on a line. */
function balance(text: string): number {
  let depth = 0;
  for (const ch of text) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
  return depth;
}

/** The message row shown instead of results. */
export interface MessageRow {
  label: string;
  detail: string;
}

/**
 * The row for an answer with no results. A structural question that was understood and whose subject
 * exists ("callers of render" when nothing calls render) is a correct empty answer, said as one; only a
 * question nothing matched suggests asking another way.
 */
export function emptyMessage(query: string, answers: ReadonlyArray<{ route: string; reason: string }> = []): MessageRow {
  const asked = query.trim();
  const subjects = answers.map((a) => (a.route === 'structural' ? STRUCTURAL_SUBJECT.exec(a.reason) : null));
  const defined = subjects.filter((m): m is RegExpExecArray => m !== null && Number(m[1]) > 0);
  if (defined.length > 0) {
    const count = defined.reduce((n, m) => n + Number(m[1]), 0);
    return {
      label: `$(pass) "${asked}": none in the graph`,
      detail: `${defined[0][2]} is defined (${count} definition${count === 1 ? '' : 's'}) and nothing in the graph is related to it that way. Calls through values of unknown type are not in the graph.`,
    };
  }
  return {
    label: `$(info) Nothing found for "${asked}"`,
    detail: 'Try a name (Calculator.add), a question (callers of add, subclasses of Base) or other words.',
  };
}

/** The structural route's reason ends "(N nodes named SUBJECT)" (src/core/search/index.ts). */
const STRUCTURAL_SUBJECT = /\((\d+) nodes? named (.+)\)$/;

/** Folders still opening or indexing, for the row that replaces results until they are ready. */
export interface FolderProgress {
  name: string;
  state: { kind: 'opening' } | { kind: 'indexing'; done: number; total: number } | { kind: 'ready' } | { kind: 'error'; message: string };
}

/** Undefined when every folder can answer; the row says which cannot yet, and that results will follow. */
export function indexingMessage(folders: readonly FolderProgress[]): MessageRow | undefined {
  const busy = folders.filter((f) => f.state.kind === 'opening' || f.state.kind === 'indexing');
  if (busy.length === 0) return undefined;
  const parts = busy.map((f) => (f.state.kind === 'indexing' && f.state.total > 0 ? `${f.name} ${f.state.done}/${f.state.total} files` : `${f.name} opening`));
  return { label: `$(sync~spin) Indexing… ${parts.join(', ')}`, detail: 'Results appear here as soon as indexing finishes.' };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
