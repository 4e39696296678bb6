// TypeScript's ambient globals: names a declaration file gives every file of the program without
// an import (`declare const __DEV__: boolean` in a script `global.d.ts`, or anything inside
// `declare global {}`). The extractor marks them (SymbolDef.global); here they become lookup keys,
// like a package's top-level names (packageScope.ts): `global:js#<Name>` is provided by the file
// declaring Name, so adding or removing such a declaration re-resolves exactly the files that
// looked the name up.
import type { FileGraph } from '../parse/fileGraph';

const PREFIX = 'global:js#';

export function ambientGlobalKey(name: string): string {
  return `${PREFIX}${name}`;
}

/** Keys a file provides for the ambient globals it declares (none for most files). */
export function ambientGlobalKeys(file: FileGraph): string[] {
  const keys: string[] = [];
  for (const sym of file.symbols) if (sym.global && sym.parent === null) keys.push(ambientGlobalKey(sym.name));
  return keys;
}

export function isAmbientGlobalKey(key: string): boolean {
  return key.startsWith(PREFIX);
}
