// Rust paths as reference chains: `a::b::<T>::c` and field chains split into segments, macro paths
// marked `name!`, item headers as one-line signatures, and the names (primitives, prelude variants)
// that are never references. Pure functions of text, shared by the item and the reference passes.
import { oneLine } from '../extractUtil';

export const PRIMITIVES = new Set([
  'bool', 'char', 'str', 'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f32', 'f64',
]);
/** Enum variant constructors of the prelude: building a value, not calling a function. */
export const PRELUDE_VARIANTS = new Set(['Some', 'Ok', 'Err']);
export const SEGMENT = /^(?:r#)?[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `a::b::<T>::c`, `::std::mem::swap`, `Vec::<u8>::new` → segments with generic arguments dropped;
 * null when the text is not a plain path (qualified `<T as Tr>::f`, macros' `$crate`).
 */
export function pathChain(text: string): string[] | null {
  if (text.length > 300) return null;
  let t = text.replace(/\s+/g, '');
  if (t.includes('<')) {
    if (t.startsWith('<')) return null;
    let out = '';
    let depth = 0;
    for (const ch of t) {
      if (ch === '<') depth++;
      else if (ch === '>') depth--;
      else if (depth === 0) out += ch;
    }
    t = out.replace(/::(?=::|$)/g, '');
  }
  if (t.startsWith('::')) t = t.slice(2);
  const parts = t.split('::');
  for (let i = 0; i < parts.length; i++) {
    if (!SEGMENT.test(parts[i])) return null;
    if (parts[i].startsWith('r#')) parts[i] = parts[i].slice(2);
  }
  return parts;
}

/** A macro invocation's path as a reference chain: `!` marks the macro (`vec` → `vec!`). */
export function macroChain(chain: string[]): string[] {
  return [...chain.slice(0, -1), `${chain[chain.length - 1]}!`];
}

/** `a.b.c` of a field expression (identifiers and `self` only), null for anything else. */
export function fieldChain(text: string): string[] | null {
  if (text.length > 200) return null;
  const parts = text.replace(/\s+/g, '').split('.');
  for (const p of parts) if (!SEGMENT.test(p)) return null;
  return parts;
}

/** Collapses a header into one line without its comments. */
export function headerText(src: string, start: number, end: number): string {
  let text = src.slice(start, Math.min(end, start + 1000));
  if (text.includes('/')) text = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  return oneLine(text.replace(/[\s;{,]+$/, ''));
}
