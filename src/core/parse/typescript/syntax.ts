// Text helpers over TypeScript/JavaScript source: dotted names and call chains as reference chains,
// comment stripping for signatures, string unquoting, and the node-type sets several passes test.
// Pure functions of text or one node, shared by the definition and the reference passes.
import type { Node } from 'web-tree-sitter';
import { MAX_CHAIN_PARTS } from '../extractUtil';

export const SEGMENT = /^#?[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

const SIMPLE_CHAIN = /^#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*$/;

/** `a.b?.c!` → ['a','b','c']; null for anything that is not a plain dotted name (calls, indexing, comments). */
export function plainChain(text: string): string[] | null {
  if (text.length > 200) return null;
  if (SIMPLE_CHAIN.test(text)) return text.split('.');
  const parts = text.replace(/\s+/g, '').replace(/!(?=\.|$)/g, '').replace(/\?\./g, '.').split('.');
  for (const p of parts) if (!SEGMENT.test(p)) return null;
  return parts;
}

/**
 * A callee chain through calls, a call standing as `()` for its result:
 * `this.#client.getQueryCache().notify` → ['this', '#client', 'getQueryCache', '()', 'notify'].
 * Null unless every step is a name, `this` or a call (the inner calls are captured on their own), or
 * the chain starts from a value `typed` gives the class of (`(u as Fiber).poll` → ['Fiber', 'poll']).
 */
export function callChain(node: Node, typed?: (value: Node) => string[] | null): string[] | null {
  // A loop from the end of the chain back to its head, bounded: generated code chains thousands of calls.
  const reversed: string[] = [];
  for (let at: Node | null = node; at && reversed.length <= MAX_CHAIN_PARTS; ) {
    switch (at.type) {
      case 'identifier':
      case 'this':
        reversed.push(at.text);
        return reversed.reverse();
      case 'non_null_expression':
      case 'parenthesized_expression':
        at = at.firstNamedChild;
        break;
      case 'member_expression': {
        const property = at.childForFieldName('property');
        at = property ? at.childForFieldName('object') : null;
        if (property) reversed.push(property.text);
        break;
      }
      case 'call_expression': {
        const head = typed?.(at);
        if (head) return [...head, ...reversed.reverse()];
        at = at.childForFieldName('arguments')?.type === 'arguments' ? at.childForFieldName('function') : null;
        reversed.push('()');
        break;
      }
      default: {
        const head = typed?.(at);
        return head ? [...head, ...reversed.reverse()] : null;
      }
    }
  }
  return null;
}

/** Comments inside a declaration header (JSDoc on parameters, trailing notes) do not belong in a signature. */
export function stripComments(text: string): string {
  if (!text.includes('/')) return text;
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|\s)\/\/[^\n]*/g, '$1');
  return stripped === text ? text : stripped.replace(/([([{])\s+/g, '$1').replace(/\s+([)\]}])/g, '$1');
}

export function unquote(text: string): string {
  const q = text[0];
  return (q === '"' || q === "'" || q === '`') && text.length >= 2 ? text.slice(1, -1) : text;
}

/** Initialisers that make a declarator an import rather than a variable: `require('m')`, `require('m').x`. */
export const REQUIRE_VALUE = /^require\s*\(\s*(['"])[^'"]*\1\s*\)(?:\s*\.\s*[\p{ID_Start}$_][\p{ID_Continue}$]*)?$/u;

export const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'generator_function', 'function']);
/** What a `return` returns from: the nearest of these above it. */
export const FUNCTION_NODES = new Set([...FUNCTION_VALUES, 'function_declaration', 'generator_function_declaration', 'method_definition']);
