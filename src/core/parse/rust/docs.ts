// Rustdoc: outer (`///`, `/** */`) and inner (`//!`, `/*! */`) doc comments as text, and the module's
// own doc at the top of the file. Items read their doc from it; the reference pass skips doc comments.
import type { Node } from 'web-tree-sitter';

/** Text of `///` / `/** … *\/` (outer) or `//!` / `/*! … *\/` (inner) doc comments, markers and one space removed. */
export function docText(comment: string): string {
  if (comment.startsWith('/*')) {
    return comment
      .replace(/^\/\*[*!]/, '')
      .replace(/\*\/$/, '')
      .split('\n')
      .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd())
      .join('\n')
      .trim();
  }
  return comment.replace(/^\/\/[/!] ?/, '').replace(/\r?\n$/, '').trimEnd();
}

export function isOuterDoc(text: string): boolean {
  return (text.startsWith('///') && !text.startsWith('////')) || (text.startsWith('/**') && !text.startsWith('/***') && text !== '/**/');
}

export function isInnerDoc(text: string): boolean {
  return text.startsWith('//!') || text.startsWith('/*!');
}

/** `//!` / `/*! … *\/` comments at the top of the file (through inner attributes): the module's doc. */
export function moduleDoc(root: Node, src: string): string {
  const lines: string[] = [];
  for (const child of root.children) {
    if (!child) continue;
    if (child.type === 'inner_attribute_item') continue;
    if (child.type !== 'line_comment' && child.type !== 'block_comment') break;
    const text = src.slice(child.startIndex, child.endIndex);
    if (isInnerDoc(text)) lines.push(docText(text));
  }
  return lines.join('\n').trim();
}
