// What a retrieved node looks like in the prompt. Functions show their source when short and their
// signature plus the first docstring sentence when long; classes and modules show a skeleton of
// member signatures, so one snippet answers `self.x` / `module.x` for many members at once. Each
// rendering lists the nodes whose definition header it shows (`covers`), which is what the
// benchmark's recall counts.
import type { MultiDirectedGraph } from 'graphology';
import type { GraphEdge, GraphNode } from '../model/schema';
import type { SourceFiles } from './sourceFiles';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

export interface Rendering {
  code: string;
  covers: string[];
  /**
   * The source line (zero-based, in the candidate's file) each line of `code` stands for, null for
   * lines that stand for none (`… 14 more`); lets packing drop what another snippet already shows.
   */
  lines?: Array<number | null>;
  /**
   * The file a line stands in where that is not the candidate's: a member declared away from its
   * type (a Go method in another file of the package, a Rust `impl` elsewhere in the crate), so the
   * snippet of that method and the type's skeleton know they show one line.
   */
  lineFiles?: Array<string | undefined>;
  /** Outlines: the node each line of `code` is the header (or docstring) of, so a line left out takes its claim in `covers` with it. */
  ids?: Array<string | null>;
  /** True when `code` is an outline (signatures, skeleton, a docstring's first sentence) rather than verbatim source: its lines yield to verbatim ones. */
  outline?: boolean;
  /**
   * A skeleton's `… 14 more` line naming whose members they are (`… 14 more of Field`), which
   * withoutShown puts in its place when another snippet shows the same plain line: two skeletons
   * leaving out as many members repeated one line (1.4–2.0% of a context's lines on marshmallow),
   * while naming every one costs tokens the context needs (2–4 each: −3 definitions at 1,024 on click).
   */
  namedMarker?: string;
}

/** Definitions up to this many lines are shown whole. */
const SHORT_DEFINITION_LINES = 12;
const FULL_MEMBERS = 40;
const COMPACT_MEMBERS = 10;
const MINIMAL_MEMBERS = 5;

/**
 * Renderings from richest to most compact: the packer enters each pick in its most compact form and
 * enriches the most relevant while the budget lasts. `imported`: names the buffer imports already,
 * left out of module skeletons (the buffer shows them; the names not imported yet are the news).
 */
export function renderNode(graph: Graph, sources: SourceFiles, id: string, nearby: ReadonlySet<string>, imported: ReadonlySet<string> = new Set()): Rendering[] {
  const node = graph.getNodeAttributes(id);
  const python = node.language === 'python';
  if (node.kind === 'Class' || node.kind === 'Interface' || node.kind === 'Enum' || node.kind === 'Module' || (node.kind === 'TypeAlias' && hasMembers(graph, id))) {
    const members = membersOf(graph, id, node.kind === 'Module', nearby).filter((m) => node.kind !== 'Module' || !imported.has(m.name));
    // A type alias's header stops where its object type starts: the members follow as lines of their own.
    const header = node.kind === 'Module' ? [] : [node.kind === 'TypeAlias' ? headerLine({ ...node, signature: `${node.signature.split('{')[0].trim()} …` }) : headerLine(node)];
    const skeleton = (limit: number, withDoc = true): Rendering => {
      const shown = members.slice(0, limit).sort((a, b) => (a.range?.startLine ?? 0) - (b.range?.startLine ?? 0));
      const indent = node.kind === 'Module' ? '' : '    ';
      const doc = withDoc ? docLine(node, indent) : [];
      const lines = [...header, ...doc, ...shown.map((m) => indent + headerLine(m))];
      // The class's own header and docstring stand for its first line, each member for its own.
      const sourceLines: Array<number | null> = [...header.map(() => start(node)), ...doc.map(() => start(node)), ...shown.map((m) => start(m))];
      const ids: Array<string | null> = [...header.map(() => id), ...doc.map(() => id), ...shown.map((m) => m.id)];
      const away = shown.some((m) => m.path !== node.path);
      const lineFiles = away ? [...header.map(() => undefined), ...doc.map(() => undefined), ...shown.map((m) => (m.path !== node.path ? m.path : undefined))] : undefined;
      let marker: string | undefined;
      if (members.length > shown.length) {
        const plain = `${indent}${python ? '#' : '//'} … ${members.length - shown.length} more`;
        lines.push(plain);
        sourceLines.push(null);
        ids.push(null);
        lineFiles?.push(undefined);
        marker = `${plain} ${node.kind === 'Module' ? `in ${node.name}` : `of ${node.name}`}`;
      }
      return { code: lines.join('\n'), covers: [id, ...shown.map((m) => m.id)], lines: sourceLines, ids, outline: true, ...(lineFiles ? { lineFiles } : {}), ...(marker ? { namedMarker: marker } : {}) };
    };
    const richer = members.length > COMPACT_MEMBERS ? [skeleton(FULL_MEMBERS)] : [];
    return [...richer, skeleton(COMPACT_MEMBERS), skeleton(MINIMAL_MEMBERS, false)];
  }
  const doc = docLine(node, '    ');
  const documented: Rendering = { code: [headerLine(node), ...doc].join('\n'), covers: [id], lines: [start(node), ...doc.map(() => start(node))], outline: true };
  const signatureOnly: Rendering = { code: headerLine(node), covers: [id], lines: [start(node)], outline: true };
  const compact = documented.code === signatureOnly.code ? [signatureOnly] : [documented, signatureOnly];
  const r = node.range;
  const lines = r ? sources.lines(node.path) : undefined;
  if (!r || !lines || r.endLine - r.startLine + 1 > SHORT_DEFINITION_LINES) return compact;
  const body = dedent(lines.slice(r.startLine, r.endLine + 1));
  return [{ code: body.join('\n'), covers: [id], lines: body.map((_, i) => r.startLine + i) }, ...compact];
}

/** A code window's text and the definitions whose first line falls in it. */
export function renderWindow(graph: Graph, sources: SourceFiles, path: string, startLine: number, endLine: number): Rendering {
  const lines = sources.lines(path) ?? [];
  const covers = graph.hasNode(path) ? coveredDefinitions(graph, path, startLine, endLine) : [];
  const code = lines.slice(startLine, endLine + 1);
  return { code: code.join('\n'), covers, lines: code.map((_, i) => startLine + i) };
}

/** The line a definition's outline entry stands for; null when the graph has no range for it. */
function start(node: GraphNode): number | null {
  return node.range?.startLine ?? null;
}

/** The key under which an outline line's text is shown (`shown` of withoutShown), whatever file it comes from. */
export function outlineTextKey(line: string): string {
  return `\u0000${line.trim()}`;
}

/**
 * `rendering` without the lines `shown` already holds (keys `path:line`): verbatim source drops
 * lines shown verbatim, an outline drops lines shown in any form. An outline also drops a member
 * line whose text another outline shows (keys from outlineTextKey): an override with its base's
 * signature (`def to_info_dict(self) -> t.Dict[str, t.Any]: ...` in five subclass skeletons) says
 * nothing new. A skeleton's `… 14 more` line that `shown` holds already names its owner (namedMarker).
 * Undefined when nothing of its own is left (only lines that stand for no source, like `… 14 more`).
 */
export function withoutShown(rendering: Rendering, path: string, shown: ReadonlyMap<string, 'code' | 'outline'>): Rendering | undefined {
  const lines = rendering.lines;
  if (!lines) return rendering;
  const code = rendering.code.split('\n');
  const markerAt = rendering.namedMarker === undefined ? -1 : lines.lastIndexOf(null);
  if (markerAt >= 0 && shown.has(outlineTextKey(code[markerAt]))) {
    code[markerAt] = rendering.namedMarker!;
    rendering = { ...rendering, code: code.join('\n') };
  }
  const keep = lines.map((line, i) => {
    if (line === null) return true;
    if (rendering.outline && i > 0 && shown.has(outlineTextKey(code[i]))) return false;
    const seen = shown.get(`${rendering.lineFiles?.[i] ?? path}:${line}`);
    return seen === undefined || (seen === 'outline' && !rendering.outline);
  });
  if (keep.every(Boolean)) return rendering;
  if (!lines.some((line, i) => line !== null && keep[i])) return undefined;
  const trimmed: Rendering = { ...rendering, code: code.filter((_, i) => keep[i]).join('\n'), lines: lines.filter((_, i) => keep[i]) };
  if (rendering.lineFiles) trimmed.lineFiles = rendering.lineFiles.filter((_, i) => keep[i]);
  if (rendering.ids) {
    // A member left out for its text is not shown (its namesake elsewhere is); one left out for its source line is.
    const textDropped = new Set(rendering.ids.filter((id, i) => id !== null && !keep[i] && shown.has(outlineTextKey(code[i]))));
    for (const [i, id] of rendering.ids.entries()) if (keep[i] && id !== null) textDropped.delete(id);
    trimmed.ids = rendering.ids.filter((_, i) => keep[i]);
    trimmed.covers = rendering.covers.filter((id) => !textDropped.has(id));
  }
  return trimmed;
}

/** Definitions of `path` whose first line is in [startLine, endLine] (nested ones included). */
function coveredDefinitions(graph: Graph, path: string, startLine: number, endLine: number): string[] {
  const covered: string[] = [];
  const stack = [path];
  while (stack.length > 0) {
    graph.forEachOutEdge(stack.pop()!, (_e, edge) => {
      if (edge.kind !== 'CONTAINS' && edge.kind !== 'HAS_METHOD' && edge.kind !== 'HAS_FIELD') return;
      const child = graph.getNodeAttributes(edge.target);
      if (child.path !== path || !child.range || child.range.startLine > endLine || child.range.endLine < startLine) return;
      if (child.range.startLine >= startLine) covered.push(edge.target);
      stack.push(edge.target);
    });
  }
  return covered;
}

/** The line a definition is known by: its one-line signature (`def add(self, a, b) -> float`). */
function headerLine(node: GraphNode): string {
  const full = node.signature || node.name;
  // Parameter lists past this length are mostly defaults and comments: the model needs the names.
  const sig = full.length > 120 ? `${full.slice(0, 119)}…` : full;
  if (node.language !== 'python') return sig.endsWith(';') || sig.endsWith('}') ? sig : `${sig};`;
  if (node.kind === 'Function' || node.kind === 'Method' || node.kind === 'Class') return `${sig}: ...`;
  return sig;
}

function docLine(node: GraphNode, indent: string): string[] {
  const first = node.doc.split(/\n\s*\n/)[0].replace(/\s+/g, ' ').trim();
  if (!first) return [];
  const sentence = first.length > 160 ? `${first.slice(0, 157)}...` : first;
  return [node.language === 'python' ? `${indent}"""${sentence}"""` : `${indent}/** ${sentence} */`];
}

/** A type alias of an object type has members (`type T = { a: X }`) and is shown like an interface. */
function hasMembers(graph: Graph, id: string): boolean {
  return graph.someOutEdge(id, (_e, edge) => edge.kind === 'HAS_FIELD' || edge.kind === 'HAS_METHOD');
}

function membersOf(graph: Graph, id: string, isModule: boolean, nearby: ReadonlySet<string>): GraphNode[] {
  const members: GraphNode[] = [];
  graph.forEachOutEdge(id, (_e, edge) => {
    const wanted = isModule ? edge.kind === 'CONTAINS' : edge.kind === 'HAS_METHOD' || edge.kind === 'HAS_FIELD';
    if (!wanted) return;
    const m = graph.getNodeAttributes(edge.target);
    if (isModule && m.kind === 'Module') return;
    members.push(m);
  });
  // Names just typed first, then public methods, public fields, private members; source order within.
  // A Rust struct is its fields (its methods live in impl blocks, often in other files): fields first.
  const fieldRank = graph.getNodeAttributes(id).language === 'rust' ? 1 : 2;
  const rank = (m: GraphNode) => (nearby.has(m.name) ? 0 : m.name.startsWith('_') && !m.name.startsWith('__') ? 3 : m.kind === 'Field' ? fieldRank : 1);
  return members.sort((a, b) => rank(a) - rank(b) || (a.range?.startLine ?? 0) - (b.range?.startLine ?? 0));
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(cut, l.length - l.trimStart().length)));
}
