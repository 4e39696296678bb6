// Python extractor (RANGER stage 1). One tree-sitter query returns every node of interest in
// document order; a first pass builds definitions, imports and local scopes, a second turns calls,
// attribute chains and identifiers into symbolic references. Only declaration-level nodes are
// visited from JS; expressions are reached through query captures.
import type { Node } from 'web-tree-sitter';
import { elementStep, ITEM_STEP, VALUE_STEP, type Extracted, type ImportBinding, type ReferenceKind, type SymbolDef, type SymbolKind, type UntypedCall } from './fileGraph';
import { MAX_CHAIN_PARTS, ReferenceList, SymbolTable, allCaptures, compiledQuery, oneLine, symbolDef } from './extractUtil';
import { SourceTextCollector } from './sourceText';
import { isArgumentMarker, ParameterArguments, type CallArguments } from './pythonArguments';

// Identifiers are captured only where an expression reads a value (arguments, operands, annotations,
// return values...): definitional positions (parameters, keyword names, def names, import names)
// never match, and the capture count drops by ~5x against `(identifier) @id`.
const VALUE_POSITIONS = [
  '(argument_list (identifier) @id)', '(keyword_argument value: (identifier) @id)', '(assignment right: (identifier) @id)',
  '(type (identifier) @id)', '(generic_type (identifier) @id)', '(return_statement (identifier) @id)',
  '(decorator (identifier) @id)', '(list (identifier) @id)', '(tuple (identifier) @id)', '(set (identifier) @id)',
  '(pair value: (identifier) @id)', '(expression_list (identifier) @id)', '(comparison_operator (identifier) @id)',
  '(boolean_operator (identifier) @id)', '(binary_operator (identifier) @id)', '(not_operator (identifier) @id)',
  '(conditional_expression (identifier) @id)', '(subscript (identifier) @id)', '(raise_statement (identifier) @id)',
  '(except_clause (identifier) @id)', '(parenthesized_expression (identifier) @id)', '(list_splat (identifier) @id)',
  '(yield (identifier) @id)', '(lambda body: (identifier) @id)', '(default_parameter value: (identifier) @id)',
  '(typed_default_parameter value: (identifier) @id)',
];
const QUERY_SOURCE = `
(decorated_definition) @decorated
(class_definition) @class
(function_definition) @function
(import_statement) @import
(import_from_statement) @import
(assignment) @assign
(with_item) @with
(for_statement) @for
(if_statement condition: (call)) @narrowing
(elif_clause condition: (call)) @narrowing
(while_statement condition: (call)) @narrowing
(assert_statement . (call)) @narrowing
(return_statement) @return
(yield) @yield
(call function: (_) @callee)
(attribute) @attr
(string) @string
(module . (expression_statement (string) @docstring))
(block . (expression_statement (string) @docstring))
(comment) @comment
${VALUE_POSITIONS.join('\n')}
`;

const queryFor = compiledQuery(QUERY_SOURCE);

/** A definition under construction: its byte span decides which captures fall inside it. */
interface Scope {
  sym: SymbolDef;
  end: number;
  /** Names bound locally (parameters, assignment targets): references through them are not module names. */
  locals: Set<string>;
  /** Locals whose class is known (`c: Calculator`, `c = Calculator()`): chain head is rewritten to the class. */
  typed: Map<string, string[]>;
  /**
   * Every binding of a local that was typed at least once, in document order, with where it takes
   * effect and what it holds then (null: unknown): `query = sql.UpdateQuery(m); query.update_batch()`
   * and later `query = sql.DeleteQuery(m)` each reach their own class, as Jedi reads them.
   */
  bindings: Map<string, Array<{ from: number; chain: string[] | null }>>;
  /** Locals holding a collection whose item class is known (`loaders: Sequence[BaseLoader]`): what a `for` over them binds. */
  items: Map<string, string[]>;
  /** Locals holding a mapping whose value class is known (`mapping: Mapping[str, BaseLoader]`): what `.values()`, `.items()`, `[k]` give. */
  values: Map<string, string[]>;
  /** Names an import inside this definition binds (`from .debug import x` in a method): references, resolved through the scope's imports. */
  imported: Set<string>;
  /** Name of the first parameter of a method that is not static (`self`, `cls`, jinja2's `__self`), if any. */
  receiver?: string;
  /** The values its `return` statements return (a bare `return` and `return None` aside: an Optional's None). */
  returns: Node[];
  /** The body yields or the def is async: what `return` gives is not what a call gives. */
  notPlainCall?: boolean;
}

/** What a collection (`items`) or a mapping (`values`) a variable holds is known to hold. */
interface Held {
  items: string[] | null;
  values: string[] | null;
}
const NOTHING_HELD: Held = { items: null, values: null };

/** The names of the standard library's calls that give their argument's type (see passedThrough). */
const PASSED_THROUGH = new Set(['copy', 'deepcopy', 'cast']);

/** Longer callees and attributes are no name chain: their text is not read (copying it at every level of a long chain costs its square). */
const MAX_CHAIN_TEXT = 1000;

function shortText(node: Node): string {
  return node.endIndex - node.startIndex <= MAX_CHAIN_TEXT ? node.text : '';
}
const CHAIN = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*$/;
const SUPER_CALL = /^super\s*\([^()]*\)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)$/;

function chainOf(text: string): string[] | null {
  if (!CHAIN.test(text)) return null;
  return text.split('.').map((part) => part.trim());
}

/**
 * A name chain through attributes and calls, a call standing as `()` for its result:
 * `make(x).etag` → ['make', '()', 'etag'], `self.stream().write` → ['self', 'stream', '()', 'write'].
 * Resolution walks a call to the class its callee returns (a class: its instance). Null for anything
 * else on the way (subscripts, literals).
 */
function callChainOf(node: Node): string[] | null {
  // A loop from the end of the chain back to its head, bounded (MAX_CHAIN_PARTS).
  const reversed: string[] = [];
  for (let at: Node | null = node; reversed.length <= MAX_CHAIN_PARTS; ) {
    if (at.type === 'identifier') {
      reversed.push(at.text);
      return reversed.reverse();
    }
    if (at.type === 'attribute') {
      const attribute = at.childForFieldName('attribute');
      at = attribute ? at.childForFieldName('object') : null;
      if (!at || !attribute) return null;
      reversed.push(attribute.text);
    } else if (at.type === 'call') {
      const same = sameTypeArgument(at);
      if (same) {
        at = same;
        continue;
      }
      at = at.childForFieldName('function');
      if (!at) return null;
      reversed.push('()');
    } else return null;
  }
  return null;
}

/**
 * `type(x)`, `copy.copy(x)`, `copy.deepcopy(x)`: what `x` is (its class has the members its instance
 * has), so `type(self)()` is a new instance of self's class and `c = copy.copy(self); c.add()` a call
 * of the class's own add, as Jedi reads them through typeshed. Null for any other call.
 */
function sameTypeArgument(call: Node): Node | null {
  const callee = call.childForFieldName('function')?.text.replace(/\s+/g, '');
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (callee !== 'type' && callee !== 'copy.copy' && callee !== 'copy.deepcopy') return null;
  return args.length === 1 && args[0]?.type === 'identifier' ? args[0] : null;
}

/**
 * The class an annotation names: `Foo`, `m.Foo`, `"Foo"` (a forward reference), `Optional[Foo]`,
 * `t.Optional["Foo"]`, `Foo | None`, `t.Type["Template"]` (the class itself: its members are the same
 * names); null for anything else (generics, unions of several classes).
 */
function annotationChain(text: string): string[] | null {
  return chainOf(peeled(text, true));
}

/** An annotation without quotes, `Optional[…]`, `… | None` and (with `classItself`) `Type[…]` around it. */
function peeled(text: string, classItself: boolean): string {
  let t = text.trim();
  for (;;) {
    const quoted = /^(['"])(.*)\1$/s.exec(t);
    const optional = (classItself ? /^(?:(?:t|typing)\s*\.\s*)?(?:Optional|Type|type)\s*\[(.*)\]$/s : /^(?:(?:t|typing)\s*\.\s*)?Optional\s*\[(.*)\]$/s).exec(t);
    const orNone = t.split('|').map((part) => part.trim()).filter((part) => part !== 'None');
    if (quoted) t = quoted[2].trim();
    else if (optional) t = optional[1].trim();
    else if (orNone.length === 1 && orNone[0] !== t) t = orNone[0];
    else return t;
  }
}

const TUPLE = /^(?:(?:t|typing)\s*\.\s*)?(?:Tuple|tuple)\s*\[(.*)\]$/s;

/**
 * Each element's class of a tuple annotation of fixed length (`t.Tuple[BaseLoader, str]` →
 * [['BaseLoader'], ['str']]; [] for an element that is not a name); null for anything else
 * (`Tuple[Foo, ...]` is a collection: itemAnnotationChain).
 */
function tupleElementChains(text: string): string[][] | null {
  const tuple = TUPLE.exec(peeled(text, false));
  if (!tuple) return null;
  const parts = topLevelParts(tuple[1]);
  if (parts.length < 2 || parts.includes('...')) return null;
  return parts.map((part) => annotationChain(part) ?? []);
}

/** `A, B[C, D], E` → ['A', 'B[C, D]', 'E']: split at the commas outside brackets. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p !== '');
}

const COLLECTION = /^(?:(?:t|typing|abc|collections\s*\.\s*abc)\s*\.\s*)?(List|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|MutableSet|FrozenSet|AbstractSet|Deque|Tuple|list|set|frozenset|tuple)\s*\[(.*)\]$/s;

/**
 * The item class of a collection annotation: `Sequence[BaseLoader]`, `t.List["Node"]`, `list[Foo]`,
 * `Tuple[Foo, ...]`, `Optional[List[Foo]]`; null for anything else (a dict, a tuple of several types).
 */
function itemAnnotationChain(text: string): string[] | null {
  const collection = COLLECTION.exec(peeled(text, false));
  if (!collection) return null;
  const inner = collection[2].trim();
  const tuple = /^tuple$/i.test(collection[1]);
  const item = tuple ? /^(.*),\s*\.\.\.$/s.exec(inner)?.[1] : inner;
  return item && !/[,[]/.test(peeled(item, false)) ? annotationChain(item) : null;
}

const MAPPING = /^(?:(?:t|typing|abc|collections\s*\.\s*abc|collections)\s*\.\s*)?(Dict|Mapping|MutableMapping|DefaultDict|OrderedDict|ChainMap|dict|defaultdict)\s*\[(.*)\]$/s;

/** The value class of a mapping annotation: `t.Dict[str, "Extension"]`, `Mapping[str, BaseLoader]`, `Optional[dict[str, Foo]]`; null for anything else. */
function valueAnnotationChain(text: string): string[] | null {
  const mapping = MAPPING.exec(peeled(text, false));
  const parts = mapping ? topLevelParts(mapping[2]) : [];
  return parts.length === 2 && !/[,[]/.test(peeled(parts[1], false)) ? annotationChain(parts[1]) : null;
}

export function extractPython(root: Node): Extracted {
  const source = root.text;
  const captures = allCaptures(queryFor(root), root);
  const table = new SymbolTable();
  const imports: ImportBinding[] = [];
  const scopes = new Map<string, Scope>();
  const scopeByStart = new Map<number, Scope>();
  const moduleNames = new Set<string>();
  const defNames = new Set<string>();
  /** startIndex of def/class nodes already handled through their decorated_definition. */
  const decoratedDefs = new Set<number>();
  /** startIndex of identifiers that name something being defined. */
  const definingNames = new Set<number>();
  /** Spans whose identifiers are not references (import statements). */
  const importSpans: Array<[number, number]> = [];
  const stack: Scope[] = [];
  /** Untyped parameters, typed at the end from the module's calls of their functions. */
  const parameterArguments = new ParameterArguments();

  const enclosing = (start: number): Scope | undefined => {
    while (stack.length > 0 && start >= stack[stack.length - 1].end) stack.pop();
    return stack[stack.length - 1];
  };

  // Pass 1: definitions, imports, locals.
  for (const { name, node } of captures) {
    switch (name) {
      case 'decorated': {
        const def = node.childForFieldName('definition');
        if (!def) break;
        decoratedDefs.add(def.startIndex);
        defineScope(def, node);
        break;
      }
      case 'class':
      case 'function':
        if (!decoratedDefs.has(node.startIndex)) defineScope(node, node);
        break;
      case 'import':
        importSpans.push([node.startIndex, node.endIndex]);
        collectImports(node, enclosing(node.startIndex));
        break;
      case 'assign':
        collectAssignment(node, enclosing(node.startIndex));
        break;
      case 'with':
        collectWithTarget(node, enclosing(node.startIndex));
        break;
      case 'for':
        collectForTarget(node, enclosing(node.startIndex));
        break;
      case 'narrowing':
        collectNarrowing(node, enclosing(node.startIndex));
        break;
      case 'return': {
        const scope = enclosing(node.startIndex);
        const value = node.firstNamedChild;
        if (scope && scope.sym.kind !== 'Class' && value && value.type !== 'none') scope.returns.push(value);
        break;
      }
      case 'yield': {
        const scope = enclosing(node.startIndex);
        if (scope) scope.notPlainCall = true;
        break;
      }
    }
  }
  // A function without a return annotation returns what its returns say when they all say one thing
  // (`return StateApps(...)`, `return self._cursor()`): as Jedi reads it, so `self.cursor().execute`
  // and `with self.cursor() as c: c.execute` reach CursorWrapper.execute. Read once every name of the
  // module is known (`return Substr(...)` above `class Substr`); resolution keeps repository classes only.
  for (const scope of scopes.values()) {
    if (scope.returns.length === 0 || scope.notPlainCall || scope.sym.type) continue;
    const chains = scope.returns.map((value) => returnedChain(scope, value));
    if (chains[0] && chains.every((c) => c?.join('.') === chains[0]!.join('.'))) scope.sym.type = chains[0];
  }

  function defineScope(def: Node, outer: Node): void {
    const parentScope = enclosing(outer.startIndex);
    const nameNode = def.childForFieldName('name');
    const body = def.childForFieldName('body');
    if (!nameNode || !body) return;
    definingNames.add(nameNode.startIndex);
    const isClass = def.type === 'class_definition';
    const parentKind = parentScope?.sym.kind;
    const kind: SymbolKind = isClass ? 'Class' : parentKind === 'Class' ? 'Method' : 'Function';
    const name = nameNode.text;
    const header = source.slice(def.startIndex, body.startIndex).replace(/:\s*$/, '');
    const sym = table.add(
      symbolDef(kind, name, parentScope?.sym.localId ?? null, outer, header, docstringOf(body), isPublic(name, parentScope)),
    );
    // `def make() -> Foo`: what a call returns, so `make().run` and `x = make(); x.run` reach Foo.run.
    const returns = isClass ? null : def.childForFieldName('return_type');
    const returnChain = returns ? annotationChain(returns.text) : null;
    if (returnChain) sym.type = returnChain;
    const elements = returns && !returnChain ? tupleElementChains(returns.text) : null;
    if (elements) sym.elements = elements;
    // `def iter_extensions(self) -> t.Iterator["Extension"]`: what `for ext in self.iter_extensions()` binds.
    const items = returns && !returnChain && !elements ? itemAnnotationChain(returns.text) : null;
    if (items) sym.items = items;
    const values = returns && !returnChain ? valueAnnotationChain(returns.text) : null;
    if (values) sym.values = values;
    const scope: Scope = { sym, end: outer.endIndex, locals: new Set(), typed: new Map(), bindings: new Map(), items: new Map(), values: new Map(), imported: new Set(), returns: [] };
    if (!isClass && source.startsWith('async', def.startIndex)) scope.notPlainCall = true;
    if (kind === 'Method' && decoratedWith(outer, PROPERTY)) sym.property = true;
    if (!parentScope) moduleNames.add(name);
    defNames.add(name);
    if (!isClass) collectParameters(def, scope, kind === 'Method' && !decoratedWith(outer, STATIC));
    scopes.set(sym.localId, scope);
    scopeByStart.set(outer.startIndex, scope);
    stack.push(scope);
  }

  function collectParameters(def: Node, scope: Scope, isMethod: boolean): void {
    const params = def.childForFieldName('parameters');
    if (!params) return;
    let first = true;
    // Where a call's arguments land: positions count from the first parameter after the receiver; after
    // `*` or `*args` parameters are passed by keyword only.
    let position = 0;
    let keywordOnly = false;
    for (const param of params.namedChildren) {
      if (!param) continue;
      if (param.type === 'keyword_separator' || param.type === 'list_splat_pattern') keywordOnly = true;
      let nameNode: Node | null = null;
      let typeNode: Node | null = null;
      switch (param.type) {
        case 'identifier':
          nameNode = param;
          break;
        case 'typed_parameter':
          nameNode = param.namedChildren.find((c) => c?.type === 'identifier') ?? null;
          typeNode = param.childForFieldName('type');
          break;
        case 'default_parameter':
        case 'typed_default_parameter':
          nameNode = param.childForFieldName('name');
          typeNode = param.childForFieldName('type');
          break;
        case 'list_splat_pattern':
        case 'dictionary_splat_pattern':
          nameNode = param.namedChildren.find((c) => c?.type === 'identifier') ?? null;
          break;
      }
      if (!nameNode) continue;
      const paramName = nameNode.text;
      scope.locals.add(paramName);
      // Whatever its name: `def call(__self, __context, __obj, *args)` keeps `self` free for the arguments.
      const receiver = first && isMethod && param.type === 'identifier';
      if (receiver) scope.receiver = paramName;
      first = false;
      const splat = param.type === 'list_splat_pattern' || param.type === 'dictionary_splat_pattern';
      const at = receiver || splat || keywordOnly ? null : position++;
      const typeChain = typeNode ? annotationChain(typeNode.text) : defaultChain(scope, param);
      if (typeChain) bindLocal(scope, paramName, typeChain, def.startIndex);
      else if (!receiver && !splat) bindLocal(scope, paramName, [parameterArguments.marker(scope.sym.localId, at, paramName)], def.startIndex);
      const itemChain = typeNode ? itemAnnotationChain(typeNode.text) : null;
      if (itemChain) scope.items.set(paramName, itemChain);
      const valueChain = typeNode ? valueAnnotationChain(typeNode.text) : null;
      if (valueChain) scope.values.set(paramName, valueChain);
    }
  }

  /**
   * An unannotated parameter is what its default is, as Jedi reads it: `where=WhereNode` (a class:
   * `where()` makes one, `where.add` is its method), `node=Node()` (an instance). The default is
   * evaluated where the function is defined, so it is read in the enclosing scope.
   */
  function defaultChain(scope: Scope, param: Node): string[] | null {
    const value = param.type === 'default_parameter' ? param.childForFieldName('value') : null;
    return value ? instanceChain(scope.sym.parent ? scopes.get(scope.sym.parent) : undefined, value) : null;
  }

  function collectImports(node: Node, scope: Scope | undefined): void {
    const line = node.startPosition.row;
    const scopeId = scope?.sym.localId ?? null;
    const bind = (local: string, module: string, imported: string | null) => {
      imports.push({ local, module, imported, line, scope: scopeId });
      if (!local) return;
      if (scope) scope.imported.add(local);
      else moduleNames.add(local);
    };
    if (node.type === 'import_statement') {
      for (const item of node.childrenForFieldName('name')) {
        if (!item) continue;
        if (item.type === 'aliased_import') {
          const module = item.childForFieldName('name')?.text ?? '';
          bind(item.childForFieldName('alias')?.text ?? module, module, null);
        } else {
          // `import a.b.c` binds `a`; resolution walks to a.b.c through submodules.
          const module = item.text;
          bind(module.split('.')[0], module, null);
        }
      }
      return;
    }
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode) return;
    const module = moduleNode.text.replace(/\s+/g, '');
    if (module === '__future__') return;
    let named = false;
    for (const item of node.childrenForFieldName('name')) {
      if (!item) continue;
      named = true;
      if (item.type === 'aliased_import') {
        const imported = item.childForFieldName('name')?.text ?? '';
        bind(item.childForFieldName('alias')?.text ?? imported, module, imported);
      } else {
        bind(item.text, module, item.text);
      }
    }
    if (!named && node.namedChildren.some((c) => c?.type === 'wildcard_import')) bind('', module, '*');
  }

  function collectAssignment(node: Node, scope: Scope | undefined): void {
    const left = node.childForFieldName('left');
    if (!left) return;
    const right = node.childForFieldName('right');
    const targets = left.type === 'pattern_list' || left.type === 'tuple_pattern' ? left.namedChildren : [left];
    const statement = node.parent?.type === 'expression_statement' ? node.parent : node;
    const typeNode = node.childForFieldName('type');
    // What the assigned value is an instance of: its annotation, a CapWords constructor call, or a typed local
    // (`self.app = app`); unpacked from a call (`loader, name = self.get_loader(t)`), the element the target takes.
    const called = targets.length > 1 && right?.type === 'call' ? callChainOf(right) : null;
    const valueType = (i: number): string[] | null => {
      if (targets.length !== 1) return called?.at(-1) === '()' ? [...called.slice(0, -1), elementStep(i)] : null;
      if (typeNode) return annotationChain(typeNode.text);
      return right ? instanceChain(scope, right) : null;
    };
    // A collection whose items' class, or a mapping whose values' class is known: annotated, or a parameter
    // that was (`self.loaders = loaders`).
    const held = (): Held => {
      if (targets.length !== 1) return NOTHING_HELD;
      if (typeNode) return { items: itemAnnotationChain(typeNode.text), values: valueAnnotationChain(typeNode.text) };
      const local = right?.type === 'identifier' ? right.text : '';
      return { items: scope?.items.get(local) ?? null, values: scope?.values.get(local) ?? null };
    };
    for (const [i, target] of targets.entries()) {
      if (!target) continue;
      if (target.type === 'identifier') {
        const name = target.text;
        definingNames.add(target.startIndex);
        if (!scope) {
          moduleNames.add(name);
          addVariable('GlobalVariable', name, null, statement, true, valueType(i), held());
        } else if (scope.sym.kind === 'Class') {
          addVariable('Field', name, scope, statement, false, valueType(i), held());
        } else {
          scope.locals.add(name);
          // A local may also alias a typed attribute (`app = self.application`): `app.x` is `self.application.x`.
          const typeChain = valueType(i) ?? (targets.length === 1 && right ? aliasedChain(scope, orDefault(right)) : null);
          bindLocal(scope, name, typeChain, statement.endIndex);
          const { items, values } = held();
          if (items) scope.items.set(name, items);
          if (values) scope.values.set(name, values);
        }
      } else if (target.type === 'attribute' && scope?.receiver) {
        // `self.x = ...` inside a method declares an instance field on the class.
        const object = target.childForFieldName('object');
        const attribute = target.childForFieldName('attribute');
        const classScope = scope.sym.parent ? scopes.get(scope.sym.parent) : undefined;
        if (object?.text === scope.receiver && attribute && classScope?.sym.kind === 'Class') {
          addVariable('Field', attribute.text, classScope, statement, false, valueType(i), held());
        }
      }
    }
  }

  /**
   * `with make() as x:` binds x to what the context manager's `__enter__` returns: x's chain is the
   * call's result's `__enter__()`, so x reaches a class only where the repository's `__enter__`
   * declares its return type (`def __enter__(self) -> "RequestContext"`), never by guess.
   */
  function collectWithTarget(item: Node, scope: Scope | undefined): void {
    const value = item.childForFieldName('value');
    if (value?.type !== 'as_pattern' || !scope || scope.sym.kind === 'Class') return;
    const target = value.childForFieldName('alias')?.firstNamedChild;
    const manager = value.firstNamedChild;
    if (target?.type !== 'identifier' || manager?.type !== 'call') return;
    scope.locals.add(target.text);
    const call = callChainOf(manager);
    const head = call ? aliasedChain(scope, manager) ?? (moduleNames.has(call[0]) || defNames.has(call[0]) ? call : null) : null;
    bindLocal(scope, target.text, head ? [...head, '__enter__', '()'] : null, item.endIndex);
  }

  /**
   * What an assigned value is an instance of, as a name chain: a CapWords constructor call, a typed
   * local (`self.app = app`), the method's receiver, a module's class, what a call returns; `questioner or
   * MigrationQuestioner()` and `a if c else b` when the branches known agree (a None branch aside; Jedi's
   * union holds the known one: `query = self if can_filter else make()`). Null when unknown.
   */
  function instanceChain(scope: Scope | undefined, value: Node): string[] | null {
    if (orDefault(value) !== value) return instanceChain(scope, orDefault(value));
    if (value.type === 'conditional_expression') {
      const [then, , otherwise] = value.namedChildren;
      // A parameter's marker is not known yet (its calls decide it): a branch through one counts as unknown.
      const chains = [then, otherwise].filter((branch): branch is Node => !!branch && branch.type !== 'none').map((branch) => instanceChain(scope, branch)).filter((c): c is string[] => c !== null && !isArgumentMarker(c[0]));
      return chains.length > 0 && chains.every((c) => c.join('.') === chains[0].join('.')) ? chains[0] : null;
    }
    if (value.type === 'identifier' && value.text === scope?.receiver) return ['self'];
    if (value.type === 'identifier') {
      // `environment_class = NativeEnvironment` in a class body: the class a name of the module is.
      if (/^[A-Z]/.test(value.text) && (moduleNames.has(value.text) || defNames.has(value.text)) && !scope?.locals.has(value.text)) return [value.text];
      return scope?.typed.get(value.text) ?? null;
    }
    const through = value.type === 'call' ? passedThrough(scope, value) : undefined;
    if (through !== undefined) return through;
    // `m[k]` and `m.get(k)` of a known mapping: one of its values.
    if (value.type === 'subscript') return mappingValue(scope, value.childForFieldName('value'));
    const method = value.type === 'call' ? value.childForFieldName('function') : null;
    const held = method?.type === 'attribute' && method.childForFieldName('attribute')?.text === 'get' ? mappingValue(scope, method.childForFieldName('object')) : null;
    if (held) return held;
    // `frame = frame.inner()` with `frame: Frame`: Frame.inner's result, not the chain through the name being rebound.
    const aliased = value.type === 'call' && scope ? aliasedChain(scope, value) : null;
    return aliased ?? callResultChain(value);
  }

  /**
   * A value of the mapping `object` is, as a chain, where the module says it is a mapping: a local or
   * parameter annotated so (its value class directly), or a field of the method's class declared so, or
   * holding a call of a module function declared to return one (the field's VALUE_STEP, read by resolution).
   * Null otherwise: `self.cache.get(k)` may be a method of a class of the repository.
   */
  function mappingValue(scope: Scope | undefined, object: Node | null): string[] | null {
    if (!scope || !object) return null;
    if (object.type === 'identifier') return scope.values.get(object.text) ?? null;
    const chain = object.type === 'attribute' ? aliasedChain(scope, object) : null;
    if (chain?.length !== 2 || chain[0] !== 'self' || !scope.sym.parent) return null;
    const field = table.get(`${scope.sym.parent}.${chain[1]}`);
    const called = field?.type?.length === 2 && field.type[1] === '()' && !scope.locals.has(field.type[0]) ? table.get(field.type[0]) : undefined;
    return field?.values || called?.values ? [...chain, VALUE_STEP] : null;
  }

  /**
   * `for loader in self.loaders:` binds a local; when the collection's item class is known (an
   * annotated parameter or local, a field declared `Sequence[BaseLoader]`), the local is typed with
   * it: a parameter's items directly, anything else as its chain's ITEM_STEP, read by resolution.
   * Over a known mapping, `for v in m.values()` and `for k, v in m.items()` bind v to a value.
   */
  function collectForTarget(node: Node, scope: Scope | undefined): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!scope || scope.sym.kind === 'Class' || !left || !right) return;
    const method = right.type === 'call' ? right.childForFieldName('function') : null;
    const over = method?.type === 'attribute' ? method.childForFieldName('attribute')?.text : undefined;
    const pair = left.type === 'pattern_list' || left.type === 'tuple_pattern' ? left.namedChildren : [];
    const value = over === 'values' ? left : over === 'items' && pair.length === 2 ? pair[1] : null;
    const values = value?.type === 'identifier' ? mappingValue(scope, method!.childForFieldName('object')) : null;
    if (values) {
      for (const name of over === 'items' ? pair : [left]) {
        if (name?.type !== 'identifier') continue;
        scope.locals.add(name.text);
        definingNames.add(name.startIndex);
      }
      bindLocal(scope, value!.text, values, right.endIndex);
      return;
    }
    if (left.type !== 'identifier') return;
    scope.locals.add(left.text);
    definingNames.add(left.startIndex);
    const own = right.type === 'identifier' ? scope.items.get(right.text) : undefined;
    const through = right.type === 'identifier' ? scope.typed.get(right.text) : aliasedChain(scope, right);
    const items = own ?? (through ? [...through, ITEM_STEP] : null);
    bindLocal(scope, left.text, items, right.endIndex);
  }

  /** What local `name` of `scope` holds at byte `at`: its last binding before; before any (a closure, a loop), its first. */
  function typedAt(scope: Scope, name: string, at: number): string[] | undefined {
    const list = scope.bindings.get(name);
    if (!list) return undefined;
    let chain = list[0].chain;
    for (const binding of list) if (binding.from <= at) chain = binding.chain;
    return chain ?? undefined;
  }

  /**
   * `if isinstance(x, Foo):` (also `elif`, `while`) makes the local x a Foo in the block, and `assert
   * isinstance(x, Foo)` from there on, as Jedi's flow analysis reads them; a tuple of classes, or a name
   * that is not a local of the function, says nothing here.
   */
  function collectNarrowing(node: Node, scope: Scope | undefined): void {
    const asserted = node.type === 'assert_statement';
    const test = asserted ? node.firstNamedChild : node.childForFieldName('condition');
    const args = test?.type === 'call' && test.childForFieldName('function')?.text === 'isinstance' ? test.childForFieldName('arguments') : null;
    const [value, cls] = args?.type === 'argument_list' ? args.namedChildren : [];
    const name = value?.type === 'identifier' ? value.text : undefined;
    const narrowed = cls ? chainOf(shortText(cls)) : null;
    if (!scope || !name || !narrowed || !scope.locals.has(name) || name === scope.receiver) return;
    const list = scope.bindings.get(name) ?? scope.bindings.set(name, [{ from: 0, chain: null }]).get(name)!;
    if (asserted) {
      list.push({ from: node.endIndex, chain: narrowed });
      return;
    }
    const block = node.childForFieldName(node.type === 'while_statement' ? 'body' : 'consequence');
    if (!block) return;
    const before = typedAt(scope, name, node.startIndex) ?? null;
    list.push({ from: block.startIndex, chain: narrowed }, { from: block.endIndex, chain: before });
  }

  /** `name` holds `chain` (null: something unknown) from byte `from` on; the current binding is what pass 1 reads next. */
  function bindLocal(scope: Scope, name: string, chain: string[] | null, from: number): void {
    if (chain) scope.typed.set(name, chain);
    else scope.typed.delete(name);
    const list = scope.bindings.get(name);
    if (list) list.push({ from, chain });
    else if (chain) scope.bindings.set(name, [{ from, chain }]);
  }

  /**
   * What a call gives when typeshed declares it as its argument's own type: `copy.copy(x)` and
   * `copy.deepcopy(x)` (`(x: _T) -> _T`) are x's class, `typing.cast(T, x)` is a T; undefined for any
   * other call. Read as Jedi reads them (`c = self.copy()` with `return copy.copy(self)` is the class).
   */
  function passedThrough(scope: Scope | undefined, call: Node): string[] | null | undefined {
    const callee = call.childForFieldName('function');
    const chain = callee && callee.endIndex - callee.startIndex <= 32 ? chainOf(callee.text) : null;
    if (!chain || chain.length > 2 || !PASSED_THROUGH.has(chain[chain.length - 1])) return undefined;
    const args = call.childForFieldName('arguments');
    const first = args?.type === 'argument_list' ? args.firstNamedChild : null;
    if (!first) return undefined;
    const fromModule = (module: string, names: string[]) =>
      chain.length === 2
        ? names.includes(chain[1]) && imports.some((b) => b.scope === null && b.local === chain[0] && b.module === module && b.imported === null)
        : imports.some((b) => b.scope === null && b.local === chain[0] && b.module === module && b.imported !== null && names.includes(b.imported));
    if (fromModule('copy', ['copy', 'deepcopy'])) return first.type === 'identifier' && first.text === scope?.receiver ? ['self'] : instanceChain(scope, first);
    if (fromModule('typing', ['cast']) || fromModule('typing_extensions', ['cast'])) return annotationChain(first.text);
    return undefined;
  }

  /** What a returned value is, as a name chain: the receiver, a typed local, or a call of a name the function sees; else null. */
  function returnedChain(scope: Scope, value: Node): string[] | null {
    if (value.type === 'identifier') return value.text === scope.receiver ? ['self'] : scope.typed.get(value.text) ?? null;
    // `return self._query` (a property over a field): what the field holds.
    if (value.type === 'attribute') return aliasedChain(scope, value);
    if (value.type !== 'call') return null;
    const through = passedThrough(scope, value);
    if (through !== undefined) return through;
    const callee = callChainOf(value);
    return aliasedChain(scope, value) ?? (callee && (moduleNames.has(callee[0]) || defNames.has(callee[0]) || scope.imported.has(callee[0])) ? callResultChain(value) : null);
  }

  /** A chain through the method's receiver or a typed local, rewritten as the resolver reads it (`self.app.x`, `Foo.x`); null otherwise. */
  function aliasedChain(scope: Scope, node: Node | null): string[] | null {
    const chain = node ? callChainOf(node) : null;
    if (!chain || chain.length < 2) return null;
    if (chain[0] === scope.receiver) return ['self', ...chain.slice(1)];
    const typed = scope.typed.get(chain[0]);
    return typed ? [...typed, ...chain.slice(1)] : null;
  }

  function addVariable(kind: SymbolKind, name: string, owner: Scope | null, node: Node, topLevel: boolean, type: string[] | null, held: Held): void {
    const parent = owner?.sym.localId ?? null;
    const key = parent ? `${parent}.${name}` : name;
    if (table.has(key)) {
      // A re-assignment of a known variable or field; it may say what the first one did not (`self.x = None`, then
      // `self.x = Foo()`), or more than a parameter's arguments would (`self.by = by`, then `self.by = ExpressionList(*by)`).
      const known = table.get(key);
      if (known && type && (!known.type || (isArgumentMarker(known.type[0]) && !isArgumentMarker(type[0])))) known.type = type;
      if (known && held.items && !known.items) known.items = held.items;
      if (known && held.values && !known.values) known.values = held.values;
      return;
    }
    const sig = oneLine(source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 120)), 100);
    const sym = table.add(symbolDef(kind, name, parent, node, sig, commentAbove(source, node.startIndex), topLevel ? isPublic(name) : !name.startsWith('_')));
    if (type) sym.type = type;
    if (held.items) sym.items = held.items;
    if (held.values) sym.values = held.values;
  }

  // Pass 2: references.
  const refs = new ReferenceList();
  const untypedCalls: UntypedCall[] = [];
  const texts = new SourceTextCollector();
  let coveredEnd = -1;
  let importIndex = 0;
  stack.length = 0;

  const addRef = (scope: Scope | undefined, kind: ReferenceKind, chain: string[], node: Node, relation?: 'extends') =>
    refs.add(scope?.sym.localId ?? null, kind, chain, node.startPosition.row, relation);

  /** The innermost scope around `scope` (itself included) that binds `head`; class bodies do not enclose their methods' names. */
  const binder = (scope: Scope | undefined, head: string): Scope | undefined => {
    for (let s = scope; s; s = s.sym.parent ? scopes.get(s.sym.parent) : undefined) {
      if (s.sym.kind === 'Class' && s !== scope) continue;
      if (s.receiver === head || s.typed.has(head) || s.imported.has(head) || s.locals.has(head)) return s;
    }
    return undefined;
  };

  /**
   * Rewrites the head of a chain through the local scope; null when the head is an untyped local.
   * A receiver seen from a function nested in its method is still the method's class (`def inner(): self.x()`).
   */
  const qualify = (scope: Scope | undefined, chain: string[], at: number): string[] | null => {
    const head = chain[0];
    const s = binder(scope, head);
    if (!s || s.imported.has(head)) return chain;
    if (s.receiver === head) return ['self', ...chain.slice(1)];
    const typed = typedAt(s, head, at);
    // A parameter defined again as a function (`if log is None: def log(x): ...`) is called as that function.
    if (typed && !(isArgumentMarker(typed[0]) && defNames.has(head))) return [...typed, ...chain.slice(1)];
    return defNames.has(head) ? chain : null;
  };

  /** Whether the scope that binds `name` also defines a function of that name in its body. */
  const nestedDef = (scope: Scope | undefined, name: string): boolean => {
    const s = binder(scope, name);
    return Boolean(s && s.sym.kind !== 'Class' && table.get(`${s.sym.localId}.${name}`)?.kind === 'Function');
  };

  /** Imported by a function around `scope` (`from .debug import x` in the method), and not shadowed there. */
  const importedAround = (scope: Scope | undefined, head: string): boolean => Boolean(binder(scope, head)?.imported.has(head));
  /** A name worth a reference: defined or imported in the module, or imported by an enclosing function. */
  const known = (scope: Scope | undefined, head: string): boolean => moduleNames.has(head) || defNames.has(head) || importedAround(scope, head);

  /** Callee nodes already taken as a chain through a call (the same node is also captured as an attribute). */
  const throughCallNodes = new Set<number>();
  /** A chain through a call's result whose head is a module name or a typed local (`make().etag`, `self.build().run`). */
  const throughCall = (scope: Scope | undefined, node: Node): string[] | null => {
    const chain = callChainOf(node);
    if (!chain || !chain.includes('()') || chain[0] === 'super') return null;
    const qualified = qualify(scope, chain, node.startIndex);
    if (!qualified || (qualified === chain && !known(scope, chain[0]))) return null;
    throughCallNodes.add(node.id);
    return qualified;
  };

  /** The class whose method `scope` is (or is nested in), as a chain from the module: what `self` is there. */
  const receiverClass = (scope: Scope | undefined): string[] | null => {
    let s = scope;
    while (s && !s.receiver) s = s.sym.parent ? scopes.get(s.sym.parent) : undefined;
    const cls = s?.sym.parent;
    if (!cls || cls.includes('@')) return null;
    const parts = cls.split('.');
    return parts.every((_, i) => table.get(parts.slice(0, i + 1).join('.'))?.kind === 'Class') ? parts : null;
  };

  /** An argument's chain as the called function's scope can read it: from a module-level name, the caller's class for `self`, or a marker. */
  const argumentChain = (scope: Scope | undefined, value: Node): string[] | null => {
    let chain: string[] | null = null;
    if (value.type === 'identifier') {
      const s = binder(scope, value.text);
      if (!s) chain = moduleNames.has(value.text) ? [value.text] : null;
      else chain = s.receiver === value.text ? ['self'] : (typedAt(s, value.text, value.startIndex) ?? null);
    } else if (value.type === 'attribute') {
      // A class (`models.Foo`), or a field of the caller's class by its type: the field's own path would
      // make the callee a user of the caller's field.
      const raw = chainOf(shortText(value));
      const qualified = raw && qualify(scope, raw, value.startIndex);
      const cls = qualified?.[0] === 'self' && qualified.length === 2 ? receiverClass(scope) : null;
      if (cls) chain = table.get([...cls, qualified![1]].join('.'))?.type ?? null;
      else chain = qualified && /^[A-Z]/.test(qualified[qualified.length - 1]) ? qualified : null;
    } else if (value.type === 'call') chain = instanceChain(scope, value);
    if (!chain) return null;
    if (chain[0] === 'self') {
      const cls = receiverClass(scope);
      return cls && [...cls, ...chain.slice(1)];
    }
    return isArgumentMarker(chain[0]) || moduleNames.has(chain[0]) ? chain : null;
  };

  /** The module's own function a call with callee `chain` runs: a module-level function, a class's `__init__`, a method through `self`. */
  const calledDef = (scope: Scope | undefined, chain: string[]): string | null => {
    const s = binder(scope, chain[0]);
    if (chain.length === 1 && !s) {
      const sym = table.get(chain[0]);
      if (sym?.kind === 'Function') return sym.localId;
      return sym?.kind === 'Class' && table.get(`${sym.localId}.__init__`)?.kind === 'Method' ? `${sym.localId}.__init__` : null;
    }
    if (chain.length !== 2 || !s || s.receiver !== chain[0] || !s.sym.parent) return null;
    return table.get(`${s.sym.parent}.${chain[1]}`)?.kind === 'Method' ? `${s.sym.parent}.${chain[1]}` : null;
  };

  /**
   * Records a call of one of the module's functions with what it passes (see pythonArguments.ts). The
   * callee is matched first: a node's parent is found by a walk down from the root (deepNesting.test).
   */
  const recordCall = (scope: Scope | undefined, chain: string[], callee: Node): void => {
    const def = calledDef(scope, chain);
    const list = def ? callee.parent?.childForFieldName('arguments') : null;
    if (!def || list?.type !== 'argument_list') return;
    const call: CallArguments = { positional: [], keywords: new Map() };
    let spread = false;
    for (const arg of list.namedChildren) {
      if (!arg || arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name')?.text;
        const value = arg.childForFieldName('value');
        if (name && value) call.keywords.set(name, argumentChain(scope, value));
      } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') spread = true;
      else if (!spread) call.positional.push(argumentChain(scope, arg));
    }
    parameterArguments.addCall(def, call);
  };

  /** Strings that open a module or block: docstrings, already a definition's `doc`, or unused. */
  const docstrings = new Set(captures.filter((c) => c.name === 'docstring').map((c) => c.node.id));

  for (const { name, node } of captures) {
    const start = node.startIndex;
    while (importIndex < importSpans.length && importSpans[importIndex][1] <= start) importIndex++;
    if (importIndex < importSpans.length && importSpans[importIndex][0] <= start) continue;
    switch (name) {
      case 'decorated':
      case 'class':
      case 'function': {
        const scope = scopeByStart.get(start);
        if (!scope) break;
        enclosing(start);
        if (scope.sym.kind === 'Class') {
          const def = name === 'decorated' ? node.childForFieldName('definition') : node;
          for (const base of def?.childForFieldName('superclasses')?.namedChildren ?? []) {
            const chain = base && base.type !== 'keyword_argument' ? chainOf(base.text) : null;
            if (chain && base) {
              addRef(scope, 'INHERITS', chain, base, 'extends');
              coveredEnd = Math.max(coveredEnd, base.endIndex);
            }
          }
        }
        stack.push(scope);
        break;
      }
      case 'callee': {
        if (start < coveredEnd) break;
        const scope = enclosing(start);
        const text = shortText(node);
        const superMatch = SUPER_CALL.exec(text);
        let chain = superMatch ? ['super', superMatch[1]] : chainOf(text);
        if (!chain) {
          // `make().run()`: a call on a call's result; the inner calls and their arguments are captured on their own.
          const through = throughCall(scope, node);
          if (through) addRef(scope, 'CALLS', through, node);
          break;
        }
        coveredEnd = node.endIndex;
        if (!superMatch) recordCall(scope, chain, node);
        const qualified = superMatch ? chain : qualify(scope, chain, start);
        if (qualified) addRef(scope, 'CALLS', qualified, node);
        else if (chain.length > 1) untypedCalls.push({ from: scope?.sym.localId ?? null, name: chain[chain.length - 1], line: node.startPosition.row });
        // `func = make_attrgetter(…)` in one branch and `def func(x):` in the other (jinja2's do_sum): a
        // call of the name may run the nested function too, as Jedi answers.
        if (qualified !== chain && chain.length === 1 && nestedDef(scope, chain[0])) addRef(scope, 'CALLS', chain, node);
        break;
      }
      case 'attr': {
        if (start < coveredEnd || throughCallNodes.has(node.id)) break;
        const chain = chainOf(shortText(node));
        if (!chain) {
          const through = throughCall(enclosing(start), node);
          if (through && !(node.parent?.type === 'assignment' && node.parent.childForFieldName('left')?.startIndex === start)) addRef(enclosing(start), 'USES', through, node);
          break;
        }
        coveredEnd = node.endIndex;
        const scope = enclosing(start);
        const qualified = qualify(scope, chain, start);
        if (!qualified || (qualified === chain && !moduleNames.has(chain[0]) && !importedAround(scope, chain[0]))) break;
        if (node.parent?.type === 'assignment' && node.parent.childForFieldName('left')?.startIndex === start) break;
        addRef(scope, 'USES', qualified, node);
        break;
      }
      case 'string':
        if (!docstrings.has(node.id)) texts.add(enclosing(start)?.sym.localId ?? null, 'literals', stringContent(node.text));
        break;
      case 'comment':
        texts.add(enclosing(start)?.sym.localId ?? null, 'comments', node.text.replace(/^#+:?/, ''));
        break;
      case 'id': {
        if (start < coveredEnd || definingNames.has(start)) break;
        const text = node.text;
        const scope = enclosing(start);
        if (!known(scope, text)) break;
        const chain = qualify(scope, [text], start);
        if (chain) addRef(scope, 'USES', chain, node);
        break;
      }
    }
  }

  // Every call seen: each chain through an untyped parameter takes what its calls pass (a reference,
  // each of a few classes), or is what it was before (a call on an unknown value, listed by its name;
  // anything else dropped).
  const typedRefs = refs.refs.flatMap((ref) => {
    if (!isArgumentMarker(ref.chain[0])) return [ref];
    const chain = parameterArguments.rewrite(ref.chain, true);
    if (chain) return [{ ...ref, chain }];
    if (ref.kind === 'CALLS' && ref.chain.length > 1) untypedCalls.push({ from: ref.from, name: ref.chain[ref.chain.length - 1], line: ref.line });
    return [];
  });
  // Fields and returns typed through one (items and tuple elements come from annotations only).
  for (const sym of table.symbols) {
    if (!sym.type || !isArgumentMarker(sym.type[0])) continue;
    const type = parameterArguments.rewrite(sym.type);
    if (type) sym.type = type;
    else delete sym.type;
  }

  return { doc: docstringOf(root), symbols: table.symbols, imports, exports: [], refs: typedRefs, texts: texts.result(), ...(untypedCalls.length ? { untypedCalls } : {}) };
}

/** Read as an attribute: `@property`, `@cached_property`, `@functools.cached_property`. */
const PROPERTY = /^@\s*(?:[\w.]+\.)?(?:cached_)?property\s*$/;
/** A static method's first parameter is no receiver. */
const STATIC = /^@\s*(?:builtins\s*\.\s*)?staticmethod\s*$/;

/** One of the decorators of a definition (`outer`, its decorated_definition if any) is `decorator`. */
function decoratedWith(outer: Node, decorator: RegExp): boolean {
  return outer.type === 'decorated_definition' && outer.namedChildren.some((c) => c?.type === 'decorator' && decorator.test(c.text));
}

function stringContent(literal: string): string {
  return literal.replace(/^[rRuUbBfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
}

/** `questioner or MigrationQuestioner()`: the default, which says the class; any other value itself. */
function orDefault(value: Node): Node {
  const isOr = value.type === 'boolean_operator' && value.childForFieldName('operator')?.text === 'or';
  return (isOr && value.childForFieldName('right')) || value;
}

function isPublic(name: string, parent?: Scope): boolean {
  if (parent && parent.sym.kind !== 'Class') return false; // nested in a function: not reachable from outside
  return !name.startsWith('_') || (name.startsWith('__') && name.endsWith('__'));
}

/**
 * What an assigned call returns: `Foo()` (a CapWords callee) is a Foo; `make()` and `self.open()`
 * are what their callee's return annotation says, left to resolution (`['make', '()']`).
 */
function callResultChain(right: Node | null): string[] | null {
  if (right?.type !== 'call') return null;
  const callee = right.childForFieldName('function');
  const chain = callee ? chainOf(callee.text) : null;
  if (chain && /^[A-Z]/.test(chain[chain.length - 1])) return chain;
  return callee ? callChainOf(right) : null;
}

/** The docstring of a module, class or function body: its first statement when that is a string. */
function docstringOf(body: Node): string {
  const first = body.firstNamedChild;
  if (first?.type !== 'expression_statement') return '';
  const str = first.firstNamedChild;
  if (str?.type !== 'string' && str?.type !== 'concatenated_string') return '';
  return cleanDocstring(str.text);
}

export function cleanDocstring(literal: string): string {
  const body = stringContent(literal);
  const lines = body.split('\n');
  // inspect.cleandoc: the first line is taken as is, the rest lose their common indentation.
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => l.length - l.trimStart().length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(cut).trimEnd())].join('\n').trim();
}

/** `#` comment lines directly above a statement: the conventional place to document a variable. */
function commentAbove(source: string, start: number): string {
  const lines: string[] = [];
  let end = source.lastIndexOf('\n', start - 1);
  while (end > 0) {
    const begin = source.lastIndexOf('\n', end - 1) + 1;
    const line = source.slice(begin, end).trim();
    if (!line.startsWith('#')) break;
    lines.unshift(line.replace(/^#:?\s?/, ''));
    end = begin - 1;
  }
  return lines.join('\n');
}
