// The object literal the cursor is writing a key of (TypeScript/JavaScript), read from the buffer's
// text: its other keys and their string values. The next line of `payload.issues.push({ code: "too_big",
// ⟨cursor⟩ input, inst })` is another key of the type the literal is checked against; when the graph
// cannot type the literal (an untyped callback parameter, a push onto an inferred array), the keys
// say which type it is (structural.ts). Text, not a parse: the buffer may be mid-edit, and the query
// graph keeps no syntax tree.

export interface LiteralAtCursor {
  /** Keys the literal has on other lines (shorthand, `key:`, methods), in source order. */
  keys: string[];
  /** `key: "value"` pairs: a literal value often picks one member of a union (`code: "too_big"`). */
  values: Map<string, string>;
}

/** How far back the opening brace is looked for: literals longer than this are rare and the scan is per keystroke. */
const MAX_SCAN_CHARS = 12_000;
const MAX_KEYS = 40;
export const OPENERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };

/** The literal around the cursor, or undefined when the cursor is not directly inside one. */
export function literalAtCursor(prefix: string, suffix: string): LiteralAtCursor | undefined {
  const start = Math.max(0, prefix.lastIndexOf('\n', prefix.length - MAX_SCAN_CHARS));
  const open = innermostOpen(prefix, start);
  if (open < 0 || prefix[open] !== '{' || !opensObject(prefix, open)) return undefined;
  const before = topLevelText(prefix.slice(open + 1), false);
  // Nothing after the cursor closes the literal (writing at the end of a file, or the literal not
  // closed yet): the keys written so far are all it has.
  const after = topLevelText(suffix, true) ?? { text: '' };
  if (before === undefined) return undefined;
  const keys: string[] = [];
  const values = new Map<string, string>();
  for (const segment of `${before.text},${after.text}`.split(',')) {
    const m = /^\s*(?:(?:async|get|set|readonly)\s+)?(?:["']([\w$]+)["']|([A-Za-z_$][\w$]*))\s*(:|\(|$)/.exec(segment);
    if (!m) continue;
    const key = m[1] ?? m[2];
    if (m[3] === '' && m[1] !== undefined) continue; // a string in an array-like position
    if (!keys.includes(key)) keys.push(key);
    const value = m[3] === ':' ? /^\s*["']([^"'\\]+)["']\s*$/.exec(segment.slice(m[0].length)) : null;
    if (value) values.set(key, value[1]);
    if (keys.length === MAX_KEYS) break;
  }
  return keys.length > 0 ? { keys, values } : undefined;
}

/** Position of the innermost bracket still open at the end of `text` (scanned from `from`); -1 if none. */
function innermostOpen(text: string, from: number): number {
  const stack = openBrackets(text, from);
  return stack.length > 0 ? stack[stack.length - 1] : -1;
}

/** Positions of the brackets still open at the end of `text` (scanned from `from`; strings and comments skipped), outermost first. */
export function openBrackets(text: string, from = 0): number[] {
  const stack: number[] = [];
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') i = skipString(text, i);
    else if (c === '/' && text[i + 1] === '/') i = lineEnd(text, i);
    else if (c === '/' && text[i + 1] === '*') i = commentEnd(text, i);
    else if (c in OPENERS) stack.push(i);
    else if (c === '}' || c === ')' || c === ']') stack.pop();
  }
  return stack;
}

/** A `{` after `(`, `,`, `=`, `:`, `[`, `?`, `|`, `&` or `return` opens an object; after `)`, `=>`, `;` or a keyword, a block. */
function opensObject(text: string, brace: number): boolean {
  const head = text.slice(Math.max(0, brace - 40), brace).replace(/\s+$/, '');
  return /[(,=:[?|&!]$/.test(head) || /\b(return|yield|await)$/.test(head);
}

/**
 * `text` with everything nested in brackets, strings and comments blanked, up to the bracket that
 * closes the literal (`closes`: the suffix) or to its end (the prefix); keys sit at this level.
 * Undefined when the suffix never closes the literal within reach.
 */
function topLevelText(text: string, closes: boolean): { text: string } | undefined {
  const limit = Math.min(text.length, MAX_SCAN_CHARS);
  let depth = 0;
  let out = '';
  for (let i = 0; i < limit; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = skipString(text, i);
      if (depth === 0) out += text.slice(i, end + 1);
      i = end;
    } else if (c === '/' && text[i + 1] === '/') i = lineEnd(text, i);
    else if (c === '/' && text[i + 1] === '*') i = commentEnd(text, i);
    else if (c in OPENERS) {
      if (depth === 0) out += c === '(' ? '(' : ' ';
      depth++;
    } else if (c === '}' || c === ')' || c === ']') {
      if (depth === 0) return closes ? { text: out } : undefined;
      depth--;
    } else if (depth === 0) out += c;
  }
  return closes ? undefined : { text: out };
}

function skipString(text: string, i: number): number {
  const q = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === q) return j;
    else if (text[j] === '\n' && q !== '`') return j;
  }
  return text.length;
}

function lineEnd(text: string, i: number): number {
  const end = text.indexOf('\n', i);
  return end < 0 ? text.length : end - 1;
}

function commentEnd(text: string, i: number): number {
  const end = text.indexOf('*/', i + 2);
  return end < 0 ? text.length : end + 1;
}
