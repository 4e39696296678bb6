// A normalised form of a function's code, so that a training function copied from an evaluation
// corpus is caught even after reformatting, comment and docstring edits, or a change of naming case.
//
// Tokens are tree-sitter leaves in order, with: comments dropped; Python docstrings (a string that is
// the first statement of a function/class body) dropped; JSDoc and other comments dropped; quote
// tokens unified to `"`; `;` dropped and a `,` before a closing bracket dropped (formatter choices);
// identifiers lowercased with `_` removed (snake_case vs camelCase copies). Literals and keywords are
// kept as written. Renaming identifiers to different words is NOT caught (a deliberate limit: alpha-
// renaming would make every trivial getter collide with every other).
import { createHash } from 'node:crypto';
import type { Node } from 'web-tree-sitter';

const IDENTIFIERS = new Set([
  'identifier', 'property_identifier', 'type_identifier', 'shorthand_property_identifier',
  'shorthand_property_identifier_pattern', 'private_property_identifier', 'field_identifier', 'statement_identifier',
]);
const QUOTES = new Set(['"', "'", '`', '"""', "'''", 'string_start', 'string_end']);
const CLOSERS = new Set([')', ']', '}']);

function isPythonDocstring(node: Node): boolean {
  if (node.type !== 'expression_statement' || node.namedChildCount !== 1) return false;
  const str = node.firstNamedChild;
  if (!str || (str.type !== 'string' && str.type !== 'concatenated_string')) return false;
  const body = node.parent;
  if (body?.type !== 'block' || !['function_definition', 'class_definition'].includes(body.parent?.type ?? '')) return false;
  const first = body.namedChildren.find((c) => c !== null && c.type !== 'comment');
  return first?.id === node.id;
}

export function normalisedTokens(root: Node): string[] {
  const tokens: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'comment' || isPythonDocstring(node)) return;
    if (node.childCount === 0 || node.type === 'string_content' || node.type === 'string_fragment') {
      const text = node.text;
      if (IDENTIFIERS.has(node.type)) tokens.push(text.toLowerCase().replace(/_/g, '') || '_');
      else if (QUOTES.has(node.type)) tokens.push('"');
      else if (/^[rbuf]*("""|'''|"|')$/i.test(text)) tokens.push('"'); // Python string_start with a prefix
      else if (text !== ';' && text.trim() !== '') tokens.push(text);
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return tokens.filter((t, i) => !(t === ',' && CLOSERS.has(tokens[i + 1] ?? '')));
}

/** sha1 of the normalised token stream (space-joined). */
export function normalisedHash(root: Node): string {
  return createHash('sha1').update(normalisedTokens(root).join(' ')).digest('hex');
}
