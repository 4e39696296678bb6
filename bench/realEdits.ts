// Real edits for the update benchmarks (index-bench.ts, apply-bench.ts, features-bench.ts): in each language, by edit
// number n, a statement added to a function body, a function appended, or a function renamed
// throughout its file (what a save most often changes, and what re-resolves other files).

/** The same three edits in Go: a statement in a function body, a new function, a rename. */
export function realGoEdit(text: string, n: number): string {
  const lines = text.split('\n');
  const defs = lines.map((l, i) => [l, i] as const).filter(([l]) => /^func (\([^)]*\) )?\w+.*\{$/.test(l));
  const kind = n % 3;
  if (kind === 0 && defs.length) {
    lines.splice(defs[n % defs.length][1] + 1, 0, `\t_ = ${n}`);
    return lines.join('\n');
  }
  if (kind === 1 || !defs.length) return `${text}\nfunc benchAdded${n}(value any) any {\n\treturn value\n}\n`;
  const name = /^func (?:\([^)]*\) )?(\w+)/.exec(defs[n % defs.length][0])?.[1];
  return name ? text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}B${n}`) : text;
}

/** realEdit for Rust: a statement in a function whose header ends its line, an added function, a renamed one. */
export function realRustEdit(text: string, n: number): string {
  const lines = text.split('\n');
  const defs = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?fn \w+.*\{\s*$/.test(l));
  const kind = n % 3;
  if (kind === 0 && defs.length) {
    const [line, i] = defs[n % defs.length];
    lines.splice(i + 1, 0, `${/^\s*/.exec(line)![0]}    let _bench_${n} = ${n};`);
    return lines.join('\n');
  }
  if (kind === 1 || !defs.length) return `${text}\n\npub fn bench_added_${n}(value: u32) -> u32 {\n    value\n}\n`;
  const name = /fn (\w+)/.exec(defs[n % defs.length][0])![1];
  return text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}_b${n}`);
}

/** Deterministic edits of real functions: change a body, add a function, rename a definition. */
export function realEdit(text: string, isPython: boolean, n: number): string {
  const lines = text.split('\n');
  const defs = lines.map((l, i) => [l, i] as const).filter(([l]) => (isPython ? /^\s*def \w+\(/.test(l) : /^\s*(export )?(async )?function \w+|^\s+\w+\(.*\)\s*[:{]/.test(l)));
  const kind = n % 3;
  if (kind === 0 && defs.length) {
    const [, i] = defs[n % defs.length];
    const indent = isPython ? `${/^\s*/.exec(lines[i])![0]}    ` : '  ';
    lines.splice(i + 1, 0, isPython ? `${indent}_bench_${n} = ${n}` : `${indent}void ${n};`);
    return lines.join('\n');
  }
  if (kind === 1 || !defs.length) {
    return `${text}\n${isPython ? `\ndef bench_added_${n}(value):\n    return value\n` : `\nexport function benchAdded${n}(value: unknown) {\n  return value;\n}\n`}`;
  }
  const [line] = defs[n % defs.length];
  const name = /(?:def|function)\s+(\w+)/.exec(line)?.[1] ?? /^\s+(\w+)\(/.exec(line)?.[1];
  return name ? text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}_b${n}`) : text;
}
