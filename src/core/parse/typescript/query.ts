// The tree-sitter query of the TypeScript extractor, compiled once per grammar (TypeScript, TSX,
// JavaScript). The tree is traversed once (the traversal is most of the cost), then two JS loops read
// the capture list: definitions first (they decide which names are module-level), references second.
// Its patterns are the extractor's whole view of the tree, so they sit together here.
import { Query, type Language as TSLanguage } from 'web-tree-sitter';
import type { Language } from '../../model/schema';

type Dialect = 'ts' | 'tsx' | 'js';

// The query (compiled once per grammar). The tree is traversed once (the traversal is most of the
// cost), then two JS loops read the capture list: definitions first (they decide which names are
// module-level), references second.
const DEFS_COMMON = `
(class_declaration) @class
(function_declaration) @function
(generator_function_declaration) @function
(variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function) (class)]) @fnvar
(class_body (method_definition) @method)
(program [(lexical_declaration) (variable_declaration)] @vars)
(program (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars))
(import_statement) @import
(program (export_statement) @export)
(expression_statement (assignment_expression left: (member_expression) @cjs))
(arrow_function parameter: (identifier) @param)
(variable_declarator name: (identifier) value: (new_expression)) @local
(variable_declarator name: (identifier) value: (call_expression)) @local
(variable_declarator name: (identifier) value: (await_expression (call_expression))) @local
(variable_declarator name: (identifier) value: (member_expression)) @local
(binary_expression operator: "instanceof") @narrowing
`;

const DEFS_JS = `
(class_body (field_definition) @field)
(formal_parameters (identifier) @param)
(formal_parameters (assignment_pattern left: (identifier) @param))
`;

const DEFS_TS = `
(abstract_class_declaration) @class
(function_signature) @function
(class_body [(abstract_method_signature) (method_signature)] @method)
(class_body (public_field_definition) @field)
(required_parameter [(accessibility_modifier) (override_modifier) "readonly"]) @paramprop
(optional_parameter [(accessibility_modifier) (override_modifier) "readonly"]) @paramprop
(interface_declaration) @interface
(interface_body [(property_signature) (method_signature)] @member)
(type_alias_declaration value: (object_type [(property_signature) (method_signature)] @member))
(interface_declaration (extends_type_clause (generic_type (type_arguments (object_type [(property_signature) (method_signature)] @member)))))
(enum_declaration) @enum
(enum_body name: (_) @enummember)
(enum_body (enum_assignment) @enummember)
(type_alias_declaration) @typealias
[(internal_module) (module)] @namespace
(program (ambient_declaration [(lexical_declaration) (variable_declaration)] @vars))
(program (export_statement declaration: (ambient_declaration [(lexical_declaration) (variable_declaration)] @vars)))
(internal_module body: (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(internal_module body: (statement_block (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars)))
(module body: (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(module body: (statement_block (export_statement declaration: [(lexical_declaration) (variable_declaration)] @vars)))
(ambient_declaration (statement_block [(lexical_declaration) (variable_declaration)] @vars))
(type_parameter name: (type_identifier) @tparam)
(mapped_type_clause name: (type_identifier) @tparam)
(infer_type (type_identifier) @tparam)
[(required_parameter pattern: (identifier) @param) (optional_parameter pattern: (identifier) @param)]
(required_parameter pattern: (identifier) type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (union_type) (intersection_type) (parenthesized_type) (array_type) (readonly_type) (object_type)] @paramtype))
(optional_parameter pattern: (identifier) type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (union_type) (intersection_type) (parenthesized_type) (array_type) (readonly_type) (object_type)] @paramtype))
(required_parameter pattern: (this) type: (type_annotation) @thistype)
(variable_declarator name: (identifier) type: (type_annotation)) @local
(variable_declarator name: (identifier) value: (as_expression)) @local
(variable_declarator name: (identifier) value: (subscript_expression)) @local
(variable_declarator name: (identifier) value: (array)) @local
(variable_declarator name: (object_pattern) value: [(this) (identifier)]) @destructure
(for_in_statement left: (identifier)) @forof
`;

// `<T>x` is JSX in .tsx: the TSX grammar has no type assertion.
const DEFS_TS_ONLY = `
(variable_declarator name: (identifier) value: (type_assertion)) @local
`;

// A call is captured as the whole call_expression: it precedes (outer first) its callee's @thismember
// and @id captures, so those can see the callee was consumed. Requiring `arguments:` in the pattern
// would keep every call's match pending until its arguments, and the cursor then buffers all
// captures inside long callee chains: 4x slower on compiled JavaScript.
const REFS_COMMON = `
(call_expression) @call
(new_expression constructor: (_) @new)
(string) @string
(template_string) @string
(comment) @comment
`;
const REFS_JSX = `
(jsx_opening_element name: (_) @jsx)
(jsx_self_closing_element name: (_) @jsx)
(jsx_closing_element name: (_) @jsxclose)
`;
const REFS_TS_TYPES = `
(nested_type_identifier) @ntype
(type_identifier) @type
`;
// Object literals and destructuring patterns whose type is declared where they stand: their keys are
// uses of that type's members (contextual typing, as the TypeScript service resolves them).
const REFS_TS_CONTEXT = `
(variable_declarator type: (type_annotation) value: (object)) @typedobject
(public_field_definition type: (type_annotation) value: (object)) @typedobject
(satisfies_expression (object)) @typedobject
(as_expression (object)) @typedobject
(return_statement (object) @returnedobject)
(arrow_function return_type: (type_annotation) body: (parenthesized_expression (object) @returnedobject))
[(required_parameter pattern: (object_pattern) type: (type_annotation)) (optional_parameter pattern: (object_pattern) type: (type_annotation))] @typedpattern
`;
const REFS_TAIL = `
(member_expression object: (this)) @thismember
(identifier) @id
(shorthand_property_identifier) @id
(shorthand_property_identifier_pattern) @bind
`;

const QUERIES = new Map<TSLanguage, Query>();

export function queryFor(language: TSLanguage, dialect: Dialect): Query {
  let q = QUERIES.get(language);
  if (!q) {
    const ts = dialect !== 'js';
    const jsx = dialect !== 'ts';
    q = new Query(language, DEFS_COMMON + (ts ? DEFS_TS : DEFS_JS) + (jsx ? '' : DEFS_TS_ONLY) + REFS_COMMON + (jsx ? REFS_JSX : '') + (ts ? REFS_TS_TYPES + REFS_TS_CONTEXT : '') + REFS_TAIL);
    QUERIES.set(language, q);
  }
  return q;
}

export function dialectOf(language: Language): Dialect {
  return language === 'typescript' ? 'ts' : language === 'tsx' ? 'tsx' : 'js';
}
