// Which nodes search answers with (the text each is searched by is built in lexical.ts).

/** Kinds a "where is X implemented" answer can be. */
export const SEARCHABLE_KINDS = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'Module']);
