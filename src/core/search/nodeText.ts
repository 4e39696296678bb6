// Which nodes search answers with, and the text each is searched by: the lexical index weighs the
// fields separately, embedders read them joined.
import type { ReadonlyGraph } from '../graph/describe';
import { qnameParts } from '../model/schema';

/** Kinds a "where is X implemented" answer can be. */
export const SEARCHABLE_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'Module']);

export interface NodeFields {
  name: string;
  signature: string;
  doc: string;
  /** The enclosing class and module names. */
  context: string;
  /** Names of what it calls, uses and inherits: the graph's summary of its body, which survives when docstrings do not. */
  body: string;
}

export function nodeFields(graph: ReadonlyGraph, id: string): NodeFields {
  const node = graph.getNodeAttributes(id);
  const body: string[] = [];
  graph.forEachOutEdge(id, (_, edge, _s, target) => {
    if (edge.kind === 'CALLS' || edge.kind === 'USES' || edge.kind === 'INHERITS') body.push(graph.getNodeAttributes(target).name);
  });
  return {
    name: node.name,
    signature: node.signature,
    doc: node.doc,
    context: qnameParts(node.qname).slice(0, -1).slice(-3).join(' '),
    body: body.join(' '),
  };
}

/**
 * About 250 word pieces: MiniLM-style encoders were trained on passages up to 256 tokens, and a batch
 * costs what its longest passage costs (padding, attention quadratic in length).
 */
export const MAX_PASSAGE_CHARS = 1000;

/** One passage for a bi- or cross-encoder: where it lives, what it is, what it says, what it uses. */
export function nodeText(graph: ReadonlyGraph, id: string): string {
  const f = nodeFields(graph, id);
  return [f.context, f.signature || f.name, f.doc, f.body && `uses ${f.body}`].filter((part) => part !== '').join('\n').slice(0, MAX_PASSAGE_CHARS);
}
