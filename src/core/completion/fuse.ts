// GRACE phases 3-4: the chosen snippets are fused with the subgraph that links them to the code being
// written, and serialized as a comment block in the buffer's language — explicit triples with file
// paths first (`extended.py: Scientific INHERITS base.py: Calculator`), then each snippet under its
// path — so the model sees why each piece is there instead of a pile of concatenated code.
import type { MultiDirectedGraph } from 'graphology';
import type { GraphEdge, GraphNode, Language } from '../model/schema';
import type { Chosen } from './pack';
import type { Triple } from './structural';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

export function commentPrefix(language: Language): string {
  return language === 'python' ? '# ' : '// ';
}

/** `path: Qualified.name` for a node id; with `signature`, callables get their parameters: `base.py: Calculator.add(self, a, b) -> float`. */
export function nodeLabel(graph: Graph, id: string, signature = false): string {
  const hash = id.indexOf('#');
  if (id.startsWith('ext:') || id.startsWith('dir:')) return id;
  if (hash < 0) return id;
  const path = id.slice(0, hash);
  const qualified = id.slice(hash + 1).replace(/@\d+$/, '');
  let label = `${path}: ${qualified}`;
  if (signature && graph.hasNode(id)) {
    const node = graph.getNodeAttributes(id);
    if (node.kind === 'Function' || node.kind === 'Method') {
      const sig = node.signature;
      const at = sig.indexOf(`${node.name}(`);
      if (at >= 0) label += shorten(sig.slice(at + node.name.length).replace(/:\s*$/, ''), 60);
    }
  }
  return label;
}

/** Long parameter lists cost more budget than they tell the model. */
function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function tripleText(graph: Graph, t: Triple): string {
  // The target's parameters tell the model how to call it; the source's would only repeat the buffer.
  return `${nodeLabel(graph, t.source)} ${t.kind} ${nodeLabel(graph, t.target, true)}`;
}

export function snippetBlock(chosenTitle: string, code: string, language: Language): string {
  const c = commentPrefix(language);
  return [`${c}${chosenTitle}`, ...code.split('\n').map((l) => (l.trim() === '' ? c.trimEnd() : c + l))].join('\n');
}

export interface Serialized {
  text: string;
  triples: string[];
}

/** The context block that precedes the buffer's own code in the prompt; '' when nothing was chosen. */
export function serializeContext(graph: Graph, chosen: readonly Chosen[], currentPath: string, language: Language): Serialized {
  if (chosen.length === 0) return { text: '', triples: [] };
  const c = commentPrefix(language);
  const triples = uniqueTriples(graph, chosen);
  const parts = [`${c}Repository context for ${currentPath} (Cartograph)`];
  if (triples.length > 0) parts.push(`${c}Graph:`, ...triples.map((t) => c + t));
  // Most relevant last: nearest to the code being completed.
  for (const ch of [...chosen].reverse()) parts.push(c.trimEnd(), snippetBlock(ch.candidate.title, ch.rendering.code, language));
  parts.push(c.trimEnd(), `${c}${currentPath}`);
  return { text: `${parts.join('\n')}\n`, triples };
}

function uniqueTriples(graph: Graph, chosen: readonly Chosen[]): string[] {
  const seen = new Set<string>();
  for (const ch of chosen) for (const t of ch.candidate.triples) seen.add(tripleText(graph, t));
  return [...seen];
}
