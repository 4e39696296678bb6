// Workarounds for gaps in tree-sitter-typescript (the grammar VS Code ships). Each rewrites the text
// without moving any character, so every range still matches the file.
//
// It misreads type members written one per line
// without semicolons when the next one is a generic call signature:
//     const dual: {
//       <A>(self: A, n: number): A      ← the grammar continues this line into `A < B > (...)`
//       <B>(n: number): (self: B) => B
//     }
// and then loses the rest of the file to one ERROR node (Effect, fp-ts and friends write every
// `dual` API this way). TypeScript's own parser ends the member at the newline. We give the grammar
// the separator it wants by turning one indentation space before such a `<` into `;`: lines and
// columns stay exactly where they were, so every range still matches the file.
import type { Language } from '../model/schema';

/**
 * The same grammar predates variance and const modifiers on type parameters (`<in out A>`, TS 4.7;
 * `<const T>`, TS 5.0) and fails the whole declaration on them. Blanking the modifier (same length)
 * keeps everything else intact; the modifiers carry nothing the graph records.
 */
const TYPE_PARAMETER_MODIFIER = /([<,]\s*)((?:in\s+out|in|out|const)\s+)(?=[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))/g;

export function blankTypeParameterModifiers(text: string): string {
  if (!/[<,]\s*(in|out|const)\s/.test(text)) return text;
  return text.replace(TYPE_PARAMETER_MODIFIER, (_, before: string, modifier: string) => before + modifier.replace(/\S/g, ' '));
}

/**
 * It also fails on type arguments or an array after an import type (`import("@smithy/core/client").
 * CommandImpl<In, Out>`, `import("./x").Extension[]`): it reads `import(…).X` as an expression, the `<`
 * as a comparison, and loses the declaration. That is how TypeScript's declaration emit writes a type
 * from a module the file does not import (every AWS SDK v3 `*Command.d.ts`, 828 files of a 743k-line
 * corpus). In a declaration file the `import("…")` is written over as one identifier of the same
 * length (`_____…`), which the grammar reads as a qualified type: the type arguments, and what the
 * graph records from them, stay. (Elsewhere `import(…)` may be a dynamic import in code, a dependency
 * the graph keeps.)
 */
const IMPORT_TYPE_BEFORE_SUFFIX = /\bimport\s*\(\s*(["'])[^"'\n]*\1\s*\)(?=(?:\s*\.\s*[A-Za-z_$][\w$]*)+\s*[<[])/g;

export function qualifyImportTypes(text: string): string {
  if (!text.includes('import(')) return text;
  return text.replace(IMPORT_TYPE_BEFORE_SUFFIX, (importType) => '_'.repeat(importType.length));
}

/**
 * Every workaround for the TypeScript grammars, offsets preserved. In TSX a line may open with a JSX
 * tag, so only the modifiers apply there; a declaration file (`.d.ts`) holds no code.
 */
export function prepareTypeScript(text: string, file: { tsx: boolean; declaration: boolean }): string {
  const declared = file.declaration ? qualifyImportTypes(text) : text;
  return blankTypeParameterModifiers(file.tsx ? declared : separateGenericCallSignatures(declared));
}

/** The text tree-sitter is given for `filePath`: TypeScript's with the workarounds, any other language's as it is. */
export function parseableText(text: string, language: Language, filePath: string): string {
  if (language !== 'typescript' && language !== 'tsx') return text;
  return prepareTypeScript(text, { tsx: language === 'tsx', declaration: /\.d\.[cm]?ts$/.test(filePath) });
}

const GENERIC_LINE = /^([ \t]+)<(?:[A-Za-z_$]|\s*$)/;
/** Endings after which a `<` on the next line is the continuation of an expression or type, not a new member. */
const CONTINUES = /(,|\(|\[|\{|;|=|=>|\||&|\?|:|<|\+|-|\*|!|\bextends|\breturn|\bkeyof|\btypeof)\s*$/;

export function separateGenericCallSignatures(text: string): string {
  if (!/\n[ \t]+<(?:[A-Za-z_$]|\s*\n)/.test(text)) return text;
  const lines = text.split('\n');
  let previous = '';
  let inBlockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (inBlockComment) {
      if (trimmed.includes('*/')) inBlockComment = false;
      continue;
    }
    if (trimmed.startsWith('/*')) {
      if (!trimmed.includes('*/')) inBlockComment = true;
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('//')) continue;
    const m = GENERIC_LINE.exec(line);
    if (m && previous !== '' && !CONTINUES.test(previous)) {
      const at = m[1].length - 1;
      lines[i] = `${line.slice(0, at)};${line.slice(at + 1)}`;
    }
    previous = trimmed.replace(/\/\/.*$/, '').trimEnd();
  }
  return lines.join('\n');
}
