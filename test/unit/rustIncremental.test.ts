// Incremental equals from-scratch for Rust files (the invariant of incremental.test.ts): random
// edit sequences over the RANGER example crate and the vendored serde_json and tokio files — rename a
// function, delete a struct or an impl, add or remove a `use`, break the syntax, move a file to
// another module folder, add or remove a `mod` with its file, a `#[path]` module or an inline
// `mod inner { mod leaf; }` (the `mod` tree places files), edit a Cargo.toml (rename the
// package, point `[lib] path` elsewhere, delete it, join both crates in a workspace), so stage 2's
// crates, module paths, `use` resolution and impls across files stay exact; replayable by seed.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, assertIncrementalMatchesScratch, pick, readTree, sourcePaths, type TreeOperation } from './helpers';

type Tree = Map<string, string>;
type Operation = TreeOperation<void>;
const files = (tree: Tree) => [...tree.keys()].filter((p) => p.endsWith('.rs')).sort();
const crates = (tree: Tree) => [...tree.keys()].filter((p) => p.endsWith('/Cargo.toml') || p === 'Cargo.toml').sort();

/** `[start, end)` line spans of top-level items that open with `keyword` and close on a column-0 `}`. */
function blocks(text: string, keyword: RegExp): Array<[number, number]> {
  const lines = text.split('\n');
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!keyword.test(lines[i])) continue;
    let j = i;
    while (j < lines.length && !/^}/.test(lines[j]) && !/[;}]\s*$/.test(lines[i])) j++;
    spans.push([i, Math.min(j + 1, lines.length)]);
  }
  return spans;
}

const operations: Record<string, Operation> = {
  renameFunction(tree, random) {
    const file = pick(files(tree), random)!;
    const names = [...tree.get(file)!.matchAll(/\bfn\s+([a-z_]\w*)/g)].map((m) => m[1]);
    const name = pick(names, random);
    if (!name) return null;
    tree.set(file, tree.get(file)!.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}_r${Math.floor(random() * 100)}`));
    return { describe: `rename ${name} in ${file}`, upsert: [file], remove: [] };
  },
  deleteItem(tree, random) {
    const file = pick(files(tree), random)!;
    const span = pick(blocks(tree.get(file)!, /^(pub )?(struct|enum|trait|impl)\b/), random);
    if (!span) return null;
    const lines = tree.get(file)!.split('\n');
    const removed = lines.splice(span[0], span[1] - span[0]);
    tree.set(file, lines.join('\n'));
    return { describe: `delete "${removed[0]}" from ${file}`, upsert: [file], remove: [] };
  },
  addUse(tree, random) {
    const file = pick(files(tree), random)!;
    const line = pick([
      'use crate::base::Calculator;', 'use super::Value;', 'pub use crate::map::Map;', 'use std::fmt::{self, Display as D};', 'mod extra;',
      // the other crate, by its library's name (renamed or removed by editManifest)
      'use serde_json::Value;', 'pub use ranger_example::base::*;', 'impl crate::base::Calculator { fn twice(&self) {} }',
    ], random)!;
    tree.set(file, `${line}\n${tree.get(file)!}`);
    return { describe: `add "${line}" to ${file}`, upsert: [file], remove: [] };
  },
  removeUse(tree, random) {
    const file = pick(files(tree), random)!;
    const lines = tree.get(file)!.split('\n');
    const uses = lines.map((l, i) => [l, i] as const).filter(([l]) => /^(pub )?(use|mod) [^{]*;$/.test(l));
    const chosen = pick(uses, random);
    if (!chosen) return null;
    lines.splice(chosen[1], 1);
    tree.set(file, lines.join('\n'));
    return { describe: `remove "${chosen[0]}" from ${file}`, upsert: [file], remove: [] };
  },
  breakSyntax(tree, random) {
    const file = pick(files(tree), random)!;
    const lines = tree.get(file)!.split('\n');
    const at = Math.floor(random() * lines.length);
    lines.splice(at, 0, 'impl { fn (');
    tree.set(file, lines.join('\n'));
    return { describe: `break syntax at ${file}:${at + 1}`, upsert: [file], remove: [] };
  },
  moveFile(tree, random) {
    // To another module of the same crate, or of the other crate.
    const file = pick(files(tree), random)!;
    const crate = pick(['ranger', 'serde_json'], random)!;
    const dest = `${crate}/src/${pick(['', 'moved/', 'value/'], random)}${path.posix.basename(file)}`;
    if (tree.has(dest)) return null;
    tree.set(dest, tree.get(file)!);
    tree.delete(file);
    return { describe: `move ${file} → ${dest}`, upsert: [dest], remove: [file] };
  },
  addModule(tree, random) {
    // `pub mod extra;` and its file, which re-exports and uses items of its parent.
    const file = pick(files(tree), random)!;
    const dir = path.posix.dirname(file);
    const stem = path.posix.basename(file, '.rs');
    const child = stem === 'mod' || stem === 'lib' ? `${dir}/extra.rs` : `${dir}/${stem}/extra.rs`;
    if (tree.has(child)) return null;
    tree.set(file, `pub mod extra;\n${tree.get(file)!}`);
    tree.set(child, 'use super::*;\npub use crate::base::Calculator as Calc;\n/// Extra.\npub struct Extra;\nimpl Extra { pub fn go(&self) -> Calc { Calc } }\n');
    return { describe: `add mod extra to ${file} (${child})`, upsert: [file, child], remove: [] };
  },
  pathModule(tree, random) {
    // `#[path = "…"] mod m;` naming another file of the crate: that file moves to where this says.
    const file = pick(files(tree), random)!;
    const target = pick(files(tree).filter((p) => p !== file && p.split('/')[0] === file.split('/')[0]), random);
    if (!target) return null;
    const rel = path.posix.relative(path.posix.dirname(file), target);
    const name = `via_${Math.floor(random() * 100)}`;
    tree.set(file, `#[path = "${rel}"]\npub mod ${name};\n${tree.get(file)!}`);
    return { describe: `#[path = "${rel}"] mod ${name} in ${file}`, upsert: [file], remove: [] };
  },
  inlineModule(tree, random) {
    // `mod inner { mod leaf; }`: the leaf's file is in the folder the inline module stands for.
    const file = pick(files(tree), random)!;
    const dir = path.posix.dirname(file);
    const stem = path.posix.basename(file, '.rs');
    const child = `${stem === 'mod' || stem === 'lib' ? dir : `${dir}/${stem}`}/inner/leaf.rs`;
    const withFile = !tree.has(child) && random() < 0.7;
    tree.set(file, `pub mod inner {\n    pub mod leaf;\n    pub use super::*;\n    pub struct Inner;\n}\n${tree.get(file)!}`);
    if (withFile) tree.set(child, 'pub use crate::base::Calculator;\npub fn leaf() -> super::Inner { super::Inner }\n');
    return { describe: `add mod inner { mod leaf; } to ${file}${withFile ? ` (${child})` : ''}`, upsert: withFile ? [file, child] : [file], remove: [] };
  },
  removeInlineModule(tree, random) {
    const file = pick(files(tree), random)!;
    const span = pick(blocks(tree.get(file)!, /^(pub )?mod \w+ \{/), random);
    if (!span) return null;
    const lines = tree.get(file)!.split('\n');
    const removed = lines.splice(span[0], span[1] - span[0]);
    tree.set(file, lines.join('\n'));
    return { describe: `delete "${removed[0]}" from ${file}`, upsert: [file], remove: [] };
  },
  removeFile(tree, random) {
    const file = pick(files(tree), random)!;
    tree.delete(file);
    return { describe: `remove ${file}`, upsert: [], remove: [file] };
  },
  editManifest(tree, random) {
    const manifest = pick(crates(tree), random);
    if (!manifest) {
      tree.set('ranger/Cargo.toml', '[package]\nname = "ranger-example"\n');
      return { describe: 'restore ranger/Cargo.toml', upsert: ['ranger/Cargo.toml'], remove: [] };
    }
    const edits: Array<[string, (text: string) => string | null]> = [
      ['rename the package', (t) => t.replace(/^name = "([^"]*)"/m, (_, n: string) => `name = "${n}_x"`)],
      ['[lib] path = "src/base.rs"', (t) => `${t}\n[lib]\npath = "src/base.rs"\n`],
      ['delete it', () => null],
      ['break its syntax', (t) => `${t}\n[package\n`],
    ];
    const [what, edit] = pick(edits, random)!;
    const text = edit(tree.get(manifest)!);
    if (text === null) tree.delete(manifest);
    else tree.set(manifest, text);
    return { describe: `${what}: ${manifest}`, upsert: text === null ? [] : [manifest], remove: text === null ? [manifest] : [] };
  },
  workspace(tree) {
    if (tree.has('Cargo.toml')) {
      tree.delete('Cargo.toml');
      return { describe: 'remove the workspace', upsert: [], remove: ['Cargo.toml'] };
    }
    tree.set('Cargo.toml', '[workspace]\nmembers = ["ranger", "serde_json"]\n');
    return { describe: 'add a workspace of both crates', upsert: ['Cargo.toml'], remove: [] };
  },
};

test('incremental equals from-scratch on Rust (RANGER crate + serde_json and tokio files, with their Cargo.toml) over 100 random edit sequences', async () => {
  const tree = new Map([
    ...readTree(path.join(FIXTURES, 'ranger-rs'), 'ranger/'),
    ...readTree(path.join(FIXTURES, 'real', 'serde_json'), 'serde_json/'),
    // tokio's `mod poll_fn; pub use poll_fn::poll_fn;`: a name both a module and a value.
    ...readTree(path.join(FIXTURES, 'real', 'tokio'), 'tokio/'),
  ]);
  assert.equal(sourcePaths(tree).length, 19);
  await assertIncrementalMatchesScratch(tree, 'crate', operations, Array.from({ length: 100 }, (_, i) => 3001 + i), 5);
  // The same crates' graph restored as a warm start takes it (mod tree, Cargo manifests): edits carry on alike.
  await assertIncrementalMatchesScratch(tree, 'crate', operations, Array.from({ length: 30 }, (_, i) => 3501 + i), 5, undefined, 'restored');
});
