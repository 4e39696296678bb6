// The text a node is searched by (RANGER's node description without a model): its signature, its
// docstring, the words inside its name and the names of the class and module it lives in.
import type { GraphNode } from '../graph/schema';
import { identifierWords } from './identifiers';

export function nodeText(node: GraphNode): string {
  const parents = node.qname.split('.').slice(0, -1);
  return [
    identifierWords(node.name).join(' '),
    node.signature,
    node.doc,
    parents.flatMap(identifierWords).join(' '),
  ]
    .filter(Boolean)
    .join('\n');
}

/** Kinds a "where is X implemented" answer can be. */
export const SEARCHABLE_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'Module']);
