// What a name, path or import resolves to (resolve.ts), in a module of its own so that the
// language-specific resolvers the Resolver delegates to (rustResolve.ts) can name it without
// importing the Resolver.
import type { SymbolDef } from '../parse/fileGraph';
import type { ExternalFamily, Language } from '../model/schema';

export type Target =
  | { t: 'module'; path: string }
  | { t: 'symbol'; path: string; sym: SymbolDef }
  | { t: 'external'; family: ExternalFamily; name: string }
  /** A package of a package-scoped language (packageScope.ts): no node of its own, a scope for names. */
  | { t: 'package'; language: Language; name: string };
