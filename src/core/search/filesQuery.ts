// `files: <text>` asks for files instead of definitions (CLI `query`, Find Where Implemented): a module
// of its own so that the CLI's light bundle can tell the question apart without loading search.
const FILES_PREFIX = /^\s*files?:\s*/i;

/** The question of a `files:` query, or undefined when the text asks for definitions. */
export function filesQuery(text: string): string | undefined {
  return FILES_PREFIX.test(text) ? text.replace(FILES_PREFIX, '') : undefined;
}
