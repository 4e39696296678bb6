// `files.exclude` globs as gitignore-style patterns for the engine (no `vscode` import: unit-tested under node).

/**
 * `files.exclude` keys whose value is `true` as gitignore-style patterns. VS Code globs are relative
 * to the folder: a glob starting with a globstar segment matches at any depth (as in gitignore), a bare `build/x` only at the root
 * (anchored with a leading `/`). Brace groups `{a,b}` are expanded; conditional (`{when}`) entries
 * are skipped since they depend on sibling files.
 */
export function filesExcludeToGitignore(filesExclude: Record<string, unknown>): string[] {
  const patterns: string[] = [];
  for (const [glob, value] of Object.entries(filesExclude ?? {})) {
    if (value !== true) continue;
    for (const expanded of expandBraces(glob.trim())) {
      if (!expanded) continue;
      let p = expanded.replace(/\\/g, '/');
      if (p.startsWith('./')) p = p.slice(2);
      if (!p.startsWith('**/') && !p.startsWith('/')) p = `/${p}`;
      patterns.push(p);
    }
  }
  return patterns;
}

function expandBraces(glob: string): string[] {
  const m = glob.match(/\{([^{}]*)\}/);
  if (!m || m.index === undefined) return [glob];
  const head = glob.slice(0, m.index);
  const tail = glob.slice(m.index + m[0].length);
  return m[1].split(',').flatMap((alt) => expandBraces(head + alt + tail));
}
