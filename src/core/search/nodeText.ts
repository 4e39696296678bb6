// Which nodes search answers with (the text each is searched by is built in lexical.ts).
import type { GraphNode } from '../graph/schema';

/** Kinds a "where is X implemented" answer can be. */
export const SEARCHABLE_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'Module']);

/** What a model reads of a node (embedding, reranking): where it lives, its signature and its documentation. */
export function passageText(node: Pick<GraphNode, 'kind' | 'qname' | 'signature' | 'doc'>): string {
  return [`${node.kind} ${node.qname}`, node.signature, node.doc].filter(Boolean).join('\n');
}
