// Globals, both ways: the names a file binds nowhere (its free identifiers are uses of globals that a
// declaration file may declare), and the file's own declarations every file sees without importing
// them (script declaration files, `declare global {}`). Separate from scopes: it ignores them.
import type { Node, QueryCapture } from 'web-tree-sitter';
import type { SymbolDef } from '../fileGraph';
import type { Parents } from '../extractUtil';

/** Node types and the field that binds a name there (`null`: every identifier child binds). */
const BINDING_FIELDS: ReadonlyMap<string, string | null> = new Map([
  ['variable_declarator', 'name'], ['required_parameter', 'pattern'], ['optional_parameter', 'pattern'],
  ['arrow_function', 'parameter'], ['catch_clause', 'parameter'], ['for_in_statement', 'left'],
  ['function_declaration', 'name'], ['function_expression', 'name'], ['generator_function_declaration', 'name'],
  ['generator_function', 'name'], ['pair_pattern', 'value'], ['assignment_pattern', 'left'],
  ['index_signature', 'name'], ['array_pattern', null], ['rest_pattern', null], ['formal_parameters', null],
]);

/**
 * Every name some declaration of the file binds (variables, parameters, destructured names, catch
 * and loop variables, definitions at any depth), wherever it stands: what is left of the file's
 * identifiers is free, i.e. a global. Scopes are ignored: a name bound anywhere is never taken for
 * a global (a miss costs one unused global, a false global would cost a wrong edge).
 */
export function boundNames(captures: QueryCapture[], symbols: readonly SymbolDef[], parents: Parents): Set<string> {
  const bound = new Set(['arguments', ...symbols.map((s) => s.name)]);
  for (const { name, node } of captures) {
    if (name === 'bind') {
      bound.add(node.text);
      continue;
    }
    if (name !== 'id' || node.type !== 'identifier') continue;
    const parent = parents.of(node);
    const field = parent ? BINDING_FIELDS.get(parent.type) : undefined;
    if (field === undefined) continue;
    if (field === null || parent!.childForFieldName(field)?.startIndex === node.startIndex) bound.add(node.text);
  }
  return bound;
}

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/**
 * Names every file sees without importing them (SymbolDef.global): the top-level declarations of a
 * declaration file that is a script (no top-level import or export: `declare const __DEV__: boolean`
 * in `global.d.ts`), and what `declare global { … }` declares anywhere. Only the block's own
 * top-level declarations: nesting stays as the block's transparency made it (module level).
 */
export function markAmbientGlobals(root: Node, filePath: string, symbols: SymbolDef[]): void {
  const blocks: Node[] = [];
  let module = false;
  for (const child of root.namedChildren) {
    if (!child) continue;
    if (child.type === 'import_statement' || child.type === 'export_statement' || child.type === 'import_alias') module = true;
    else if (child.type === 'ambient_declaration' && child.children.some((c) => c?.type === 'global')) {
      const body = child.namedChildren.find((c) => c?.type === 'statement_block');
      if (body) blocks.push(body);
    }
  }
  const script = !module && DECLARATION_FILE.test(filePath);
  if (!script && blocks.length === 0) return;
  const inBlock = (line: number) => blocks.some((b) => b.startPosition.row <= line && line <= b.endPosition.row);
  for (const sym of symbols) if (sym.parent === null && (script || inBlock(sym.range.startLine))) sym.global = true;
}
