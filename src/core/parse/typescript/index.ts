// RANGER stage 1 for TypeScript, TSX and JavaScript (ES modules and CommonJS): definitions, import
// placeholders, export bindings and symbolic references of one file, straight from its syntax tree.
//
// One tree-sitter query per grammar does the walking in WASM. Its DEFS patterns find declarations,
// module statements and scope facts (parameters, type parameters, typed locals); its REFS patterns
// find calls, type references and identifier uses. Captures come in document order (outer nodes
// before inner ones at the same position), so the innermost enclosing definition of any capture is
// the top of a stack of definition ranges: no JS walk over expression nodes.
//
// Decisions worth knowing:
// - `namespace N {}` / `module N {}` / `declare namespace N {}` become a GlobalVariable `N` (a
//   namespace is a value holding its members, and `N.f` resolves like any dotted chain); its
//   declarations are nested under it (`N.f`) and are exported when marked `export` and N is.
//   String-named ambient modules (`declare module 'x' {}`) and `declare global {}` are transparent:
//   their declarations sit at module level.
// - Functions nest: named function declarations and function/arrow/class consts anywhere inside a
//   definition become children of the innermost definition (anonymous callbacks are transparent).
//   Other `const/let/var` become GlobalVariables only at module or namespace level.
// - Overload signatures and getter/setter pairs are separate definitions (`f`, `f@2`).
// - Light type inference rewrites the head of a call chain: a parameter or local typed with a plain
//   (possibly dotted or generic) type name, a local initialised with `new C()`, and `this.f.m()`
//   when class field `f` (or parameter property) is typed `C`.
//
// The extraction is one object built in layers, each a module of its own concern:
//   scopes.ts        state, definition ranges, `define`, export flags, declaration syntax
//   types.ts         light type inference (declared types, callback parameters, call-head rewriting)
//   declarations.ts  pass 1: declarations and scope facts
//   modules.ts       pass 1: imports and exports, ES and CommonJS
//   references.ts    pass 2: references, literals and comments
// with free helpers in query.ts (the query), syntax.ts (text helpers), docs.ts (JSDoc) and globals.ts
// (free names, ambient globals). This file dispatches pass 1 and runs the passes in order.
import type { Node, QueryCapture } from 'web-tree-sitter';
import type { Language } from '../../model/schema';
import type { Extracted } from '../fileGraph';
import { Parents, allCaptures } from '../extractUtil';
import { fileDoc } from './docs';
import { markAmbientGlobals } from './globals';
import { dialectOf, queryFor } from './query';
import { References } from './references';

class TsExtraction extends References {
  /** Pass 1: each definition capture to its handler (every layer's handlers are visible here). */
  defs(captures: QueryCapture[]): void {
    for (const { name, node } of captures) {
      switch (name) {
        case 'class': this.onClass(node, node, null); break;
        case 'function': this.onFunction(node); break;
        case 'fnvar': this.onDeclarator(node, this.frameAt(node.startIndex)); break;
        case 'vars': this.onVariables(node); break;
        case 'method': this.onMethod(node); break;
        case 'field': this.onField(node); break;
        case 'paramprop': this.onParamProp(node); break;
        case 'interface': this.onInterface(node); break;
        case 'member': this.onInterfaceMember(node); break;
        case 'enum': this.onEnum(node); break;
        case 'enummember': this.onEnumMember(node); break;
        case 'typealias': this.onTypeAlias(node); break;
        case 'namespace': this.onNamespace(node); break;
        case 'import': this.onImport(node); break;
        case 'export': this.onExport(node); break;
        case 'call': if (this.src.startsWith('require', node.startIndex)) this.onRequireCall(node); break;
        case 'cjs': this.onCommonJsExport(node); break;
        case 'tparam': this.onTypeParam(node); break;
        case 'param': this.onParam(node); break;
        case 'paramtype': this.onParamType(node); break;
        case 'local': this.onTypedLocal(node); break;
        case 'destructure': this.onDestructure(node); break;
        case 'forof': this.onForOf(node); break;
        case 'narrowing': this.onNarrowing(node); break;
        case 'thistype': this.onThisType(node); break;
      }
    }
  }
}

export function extractTypeScript(root: Node, filePath: string, language: Language): Extracted {
  const tsLanguage = root.tree.language;
  const query = queryFor(tsLanguage, dialectOf(language));
  // Node offsets index the whole source; the root starts after leading whitespace, so pad it back.
  const src = ' '.repeat(root.startIndex) + root.text;
  const x = new TsExtraction(src, new Parents(root));
  const captures = allCaptures(query, root);
  x.defs(captures);
  x.settleExports();
  x.refsPass(captures);
  markAmbientGlobals(root, filePath, x.table.symbols);
  return {
    doc: fileDoc(root, src),
    symbols: x.table.symbols,
    imports: x.imports,
    exports: x.exports,
    refs: x.references(),
    texts: x.texts.result(),
  };
}
