// JSDoc: a declaration's `/** … */` comment as text, and the file's own leading doc comment (the one
// that documents no declaration). Kept apart because both passes and the file summary read it.
import type { Node } from 'web-tree-sitter';

export function cleanDoc(comment: string): string {
  return comment
    .replace(/^\/\*\*+/, '')
    .replace(/\*+\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
    .join('\n')
    .trim();
}

const DOCUMENTABLE_STATEMENTS = new Set([
  'class_declaration', 'abstract_class_declaration', 'function_declaration', 'generator_function_declaration',
  'function_signature', 'interface_declaration', 'enum_declaration', 'type_alias_declaration',
  'lexical_declaration', 'variable_declaration', 'ambient_declaration', 'module', 'internal_module',
]);

/** Leading `/** … *\/` comment of the file unless it documents the first declaration. */
export function fileDoc(root: Node, src: string): string {
  let candidate: Node | null = null;
  let last: Node | null = null;
  let first: Node | null = null;
  for (let i = 0; i < root.childCount; i++) {
    const child = root.child(i);
    if (!child) continue;
    if (child.type === 'hash_bang_line') continue;
    if (child.type !== 'comment') {
      first = child;
      break;
    }
    last = child;
    if (!candidate && src.startsWith('/**', child.startIndex)) candidate = child;
  }
  if (!candidate) return '';
  if (candidate === last && first && documents(first)) return '';
  return cleanDoc(src.slice(candidate.startIndex, candidate.endIndex));
}

function documents(statement: Node): boolean {
  if (statement.type === 'export_statement') return statement.childForFieldName('declaration') !== null || statement.childForFieldName('value') !== null;
  if (statement.type === 'expression_statement') {
    const inner = statement.firstNamedChild;
    return inner !== null && (inner.type === 'internal_module' || inner.type === 'module');
  }
  return DOCUMENTABLE_STATEMENTS.has(statement.type);
}
