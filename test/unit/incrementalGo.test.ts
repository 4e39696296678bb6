// Incremental equals from-scratch for Go: random Go edit sequences over cobra 1.6.1 (Debian) — rename a
// function or method, delete a type, add or remove an import, break the syntax, append a function,
// change a file's or a folder's package clause (what an import without an alias binds), move a file
// to another package folder (a vendored one too), edit, add or delete a go.mod — and after each edit
// the incrementally maintained graph must equal a fresh build of the same tree. Replayable by seed.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, assertIncrementalMatchesScratch, pick, readTree, sourcePaths, type TreeOperation } from './helpers';

type Tree = Map<string, string>;
type GoEdit = TreeOperation<void>;
const files = (tree: Tree) => sourcePaths(tree).sort();

/** Names of functions and methods (`func Name(` / `func (r *T) Name(`). */
function funcNames(text: string): string[] {
  return [...new Set([...text.matchAll(/^func (?:\([^)]*\) )?([A-Za-z_]\w*)/gm)].map((m) => m[1]))];
}

/** `type Name struct|interface|…` blocks: [first line, line after, name]. */
function typeBlocks(text: string): Array<[number, number, string]> {
  const lines = text.split('\n');
  const blocks: Array<[number, number, string]> = [];
  lines.forEach((line, i) => {
    const m = /^type (\w+) /.exec(line);
    if (!m) return;
    let j = i + 1;
    if (line.endsWith('{')) while (j < lines.length && lines[j - 1] !== '}') j++;
    blocks.push([i, j, m[1]]);
  });
  return blocks;
}

const edits: Record<string, GoEdit> = {
  rename(tree, random) {
    const file = pick(files(tree).filter((p) => funcNames(tree.get(p)!).length), random);
    if (!file) return null;
    const name = pick(funcNames(tree.get(file)!), random)!;
    const renamed = `${name}R${Math.floor(random() * 100)}`;
    tree.set(file, tree.get(file)!.replace(new RegExp(`\\b${name}\\b`, 'g'), renamed));
    return { describe: `rename ${name} → ${renamed} in ${file}`, upsert: [file], remove: [] };
  },
  deleteType(tree, random) {
    const file = pick(files(tree).filter((p) => typeBlocks(tree.get(p)!).length), random);
    if (!file) return null;
    const [from, to, name] = pick(typeBlocks(tree.get(file)!), random)!;
    const lines = tree.get(file)!.split('\n');
    lines.splice(from, to - from);
    tree.set(file, lines.join('\n'));
    return { describe: `delete type ${name} from ${file}`, upsert: [file], remove: [] };
  },
  addImport(tree, random) {
    const file = pick(files(tree), random);
    if (!file) return null;
    const spec = pick([
      '"github.com/spf13/cobra"', 'flag "github.com/spf13/pflag"', '"strings"', '_ "embed"', '. "fmt"',
      '"github.com/spf13/cobra/doc"', 'm "github.com/spf13/cobra/moved"', '. "github.com/spf13/cobra"', '"example.com/other/lib"',
    ], random)!;
    tree.set(file, tree.get(file)!.replace(/^package \w+\n/m, (clause) => `${clause}\nimport ${spec}\n`));
    return { describe: `import ${spec} in ${file}`, upsert: [file], remove: [] };
  },
  removeImport(tree, random) {
    const file = pick(files(tree), random);
    if (!file) return null;
    const lines = tree.get(file)!.split('\n');
    const chosen = pick(lines.map((l, i) => [l, i] as const).filter(([l]) => /^\t(\w+ )?"[^"]+"$/.test(l)), random);
    if (!chosen) return null;
    lines.splice(chosen[1], 1);
    tree.set(file, lines.join('\n'));
    return { describe: `remove import ${chosen[0].trim()} from ${file}`, upsert: [file], remove: [] };
  },
  breakSyntax(tree, random) {
    const file = pick(files(tree), random);
    if (!file) return null;
    const lines = tree.get(file)!.split('\n');
    const at = Math.floor(random() * lines.length);
    lines.splice(at, 0, 'func (((broken {');
    tree.set(file, lines.join('\n'));
    return { describe: `break syntax at ${file}:${at + 1}`, upsert: [file], remove: [] };
  },
  appendFunction(tree, random) {
    const file = pick(files(tree), random);
    if (!file) return null;
    const callee = pick(funcNames(tree.get(file)!), random) ?? 'println';
    const n = Math.floor(random() * 1000);
    tree.set(file, `${tree.get(file)!}\nfunc (c *Command) added${n}() { c.${callee}(); ${callee}() }\n`);
    return { describe: `append added${n} calling ${callee} to ${file}`, upsert: [file], remove: [] };
  },
  moveFile(tree, random) {
    const file = pick(files(tree), random);
    if (!file) return null;
    const dest = path.posix.join(pick(['', 'doc', 'moved', 'vendor/github.com/spf13/pflag', 'lib'], random)!, path.posix.basename(file));
    if (tree.has(dest)) return null;
    tree.set(dest, tree.get(file)!);
    tree.delete(file);
    return { describe: `move ${file} → ${dest}`, upsert: [dest], remove: [file] };
  },
  packageClause(tree, random) {
    // What an import without an alias binds: doc/*.go name cobra's root package `cobra.` by its clause.
    // One file, or the whole folder as a package rename does.
    const file = pick(files(tree), random);
    if (!file) return null;
    const clause = pick(['cobra', 'cobra2', 'doc', 'main', 'cobra_test'], random)!;
    const folder = random() < 0.5 ? files(tree).filter((p) => path.posix.dirname(p) === path.posix.dirname(file)) : [file];
    for (const p of folder) tree.set(p, tree.get(p)!.replace(/^package \w+$/m, `package ${clause}`));
    return { describe: `package ${clause} in ${folder.join(', ')}`, upsert: folder, remove: [] };
  },
  goMod(tree, random) {
    // The module path names every package; `replace` and nested modules move imports between folders.
    const [file, text] = pick<[string, string | null]>([
      ['go.mod', 'module github.com/spf13/cobra\n\ngo 1.15\n'],
      ['go.mod', 'module example.com/renamed\n'],
      ['go.mod', 'module github.com/spf13/cobra\n\nrequire example.com/other/lib v1.0.0\n\nreplace example.com/other/lib => ./lib\n'],
      ['go.mod', null],
      ['doc/go.mod', 'module github.com/spf13/cobra/doc\n'],
      ['doc/go.mod', null],
      ['lib/go.mod', 'module example.com/other/lib\n'],
    ], random)!;
    if (text === null) tree.delete(file);
    else tree.set(file, text);
    return { describe: text === null ? `delete ${file}` : `write ${file}: ${text.split('\n')[0]}`, upsert: text === null ? [] : [file], remove: text === null ? [file] : [] };
  },
};

test('incremental equals from-scratch on cobra (Go) over 100 random edit sequences', async () => {
  const original = readTree(path.join(FIXTURES, 'real', 'cobra'));
  assert.equal(sourcePaths(original).length, 6);
  assert.ok(original.has('go.mod'));
  await assertIncrementalMatchesScratch(original, 'cobra', edits, Array.from({ length: 100 }, (_, i) => i + 1), 5);
});

test('edits to a cobra graph restored as saved (a warm start) equal from-scratch over 30 sequences', async () => {
  await assertIncrementalMatchesScratch(readTree(path.join(FIXTURES, 'real', 'cobra')), 'cobra', edits, Array.from({ length: 30 }, (_, i) => 501 + i), 5, undefined, 'restored');
});
