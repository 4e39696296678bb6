// The invariant that keeps the index trustworthy: after any sequence of edits, the incrementally
// maintained graph equals a from-scratch build of the final tree (same node ids and attributes,
// same edge ids and attributes). Randomized edit sequences over real code (Flask from Debian,
// TanStack Query's TypeScript sources and a gson subset in Java), replayable by seed.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { CompactGraph, encodeGraph } from '../../src/core/graph/graphCodec';
import { FIXTURES, assertIncrementalMatchesScratch, buildGraph, compareSnapshots, parse, pick, readTree, restoredCopy, snapshot, treeConfig, type TreeOperation } from './helpers';

type Tree = Map<string, string>;
/** The graveyard keeps deleted files' text, so a later edit can bring one back. */
type Operation = TreeOperation<Map<string, string>>;
const isPython = (p: string) => p.endsWith('.py');
const isJava = (p: string) => p.endsWith('.java');
/** A Java file's package as the fixture lays it out (folders from the source root). */
const javaPackage = (p: string) => path.posix.dirname(p).split('/').filter((s) => s !== '.').join('.');
const JAVA_METHOD = /^\s+(?:(?:public|private|protected|static|final|synchronized|abstract|default)\s+)*(?:<[^>]+>\s+)?[\w.<>[\], ?]+\s+([a-z]\w*)\s*\(/gm;
const JAVA_TYPE = /^( {0,2})(?:(?:public|private|protected|static|final|abstract|sealed)\s+)*(?:class|interface|enum|record|@interface)\s+(\w+)/;

function sourceFiles(tree: Tree): string[] {
  return [...tree.keys()].sort();
}

/** Names defined by `def`/`function`/methods in a file. */
function definedNames(p: string, text: string): string[] {
  const re = isJava(p) ? JAVA_METHOD : isPython(p) ? /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/gm : /^\s*(?:export\s+)?(?:async\s+)?function\s+([A-Za-z_]\w*)|^\s+(?:public\s+|private\s+|protected\s+|static\s+)*([a-z_]\w*)\s*\([^)]*\)\s*[:{]/gm;
  const names = new Set<string>();
  for (const m of text.matchAll(re)) {
    const name = m[1] ?? m[2];
    if (name && !['if', 'for', 'while', 'switch', 'catch', 'constructor', 'return', 'function', 'new', 'synchronized'].includes(name)) names.add(name);
  }
  return [...names];
}

function classBlocks(p: string, text: string): Array<[number, number, string]> {
  const lines = text.split('\n');
  const blocks: Array<[number, number, string]> = [];
  if (isJava(p)) {
    // Top-level and member types: from the header to the brace at its own indentation.
    for (let i = 0; i < lines.length; i++) {
      const m = JAVA_TYPE.exec(lines[i]);
      if (!m) continue;
      let j = i;
      while (j < lines.length && !(lines[j].startsWith(`${m[1]}}`) && !lines[j].startsWith(`${m[1]} `))) j++;
      blocks.push([i, j + 1, m[2]]);
    }
    return blocks;
  }
  const start = isPython(p) ? /^class\s+(\w+)/ : /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)/;
  for (let i = 0; i < lines.length; i++) {
    const m = start.exec(lines[i]);
    if (!m) continue;
    let j = i + 1;
    if (isPython(p)) while (j < lines.length && (lines[j].trim() === '' || /^\s/.test(lines[j]))) j++;
    else {
      while (j < lines.length && !/^}/.test(lines[j])) j++;
      j++;
    }
    blocks.push([i, j, m[1]]);
  }
  return blocks;
}

function specifierFor(from: string, to: string): string {
  let rel = path.posix.relative(path.posix.dirname(from), to).replace(/\.(tsx?|jsx?)$/, '');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

const operations: Record<string, Operation> = {
  renameFunction(tree, random) {
    const file = pick(sourceFiles(tree).filter((p) => definedNames(p, tree.get(p)!).length), random);
    if (!file) return null;
    const name = pick(definedNames(file, tree.get(file)!), random)!;
    const renamed = `${name}Renamed${Math.floor(random() * 100)}`;
    tree.set(file, tree.get(file)!.replace(new RegExp(`\\b${name}\\b`, 'g'), renamed));
    return { describe: `rename ${name} → ${renamed} in ${file}`, upsert: [file], remove: [] };
  },
  deleteClass(tree, random) {
    const file = pick(sourceFiles(tree).filter((p) => classBlocks(p, tree.get(p)!).length), random);
    if (!file) return null;
    const [from, to, name] = pick(classBlocks(file, tree.get(file)!), random)!;
    const lines = tree.get(file)!.split('\n');
    lines.splice(from, to - from);
    tree.set(file, lines.join('\n'));
    return { describe: `delete class ${name} from ${file}`, upsert: [file], remove: [] };
  },
  addImport(tree, random) {
    const files = sourceFiles(tree);
    const file = pick(files, random);
    const other = pick(files.filter((p) => p !== file && isPython(p) === isPython(file!) && isJava(p) === isJava(file!)), random);
    if (!file || !other) return null;
    const name = pick(definedNames(other, tree.get(other)!), random) ?? 'missing_name';
    let line: string;
    if (isJava(file)) {
      // A single-type, an on-demand or a static import of what `other` defines.
      const type = [javaPackage(other), path.posix.basename(other, '.java')].filter(Boolean).join('.');
      const roll = random();
      line = roll < 0.4 ? `import ${type};` : roll < 0.7 ? `import ${javaPackage(other) || 'missing'}.*;` : `import static ${type}.${name};`;
      const text = tree.get(file)!;
      const at = text.search(/^import /m);
      tree.set(file, at < 0 ? text.replace(/^(package [^;]*;)/m, `$1\n${line}`) : `${text.slice(0, at)}${line}\n${text.slice(at)}`);
      return { describe: `add "${line}" to ${file}`, upsert: [file], remove: [] };
    }
    if (isPython(file)) {
      const module = ['flask', ...other.replace(/(\/?__init__)?\.py$/, '').split('/')].filter(Boolean).join('.');
      line = random() < 0.7 ? `from ${module} import ${name}` : `import ${module}`;
    } else {
      line = `import { ${name} } from '${specifierFor(file, other)}';`;
    }
    tree.set(file, `${line}\n${tree.get(file)!}`);
    return { describe: `add "${line}" to ${file}`, upsert: [file], remove: [] };
  },
  removeImport(tree, random) {
    const file = pick(sourceFiles(tree), random);
    if (!file) return null;
    const lines = tree.get(file)!.split('\n');
    const statement = isPython(file) ? /^(from|import)\s[^(]*$/ : isJava(file) ? /^import .*;$/ : /^import .* from .*;$/;
    const candidates = lines.map((l, i) => [l, i] as const).filter(([l]) => statement.test(l));
    const chosen = pick(candidates, random);
    if (!chosen) return null;
    lines.splice(chosen[1], 1);
    tree.set(file, lines.join('\n'));
    return { describe: `remove "${chosen[0]}" from ${file}`, upsert: [file], remove: [] };
  },
  breakSyntax(tree, random) {
    const file = pick(sourceFiles(tree), random);
    if (!file) return null;
    const lines = tree.get(file)!.split('\n');
    const at = Math.floor(random() * lines.length);
    lines.splice(at, 0, isPython(file) ? 'def broken(:' : 'function (((broken {');
    tree.set(file, lines.join('\n'));
    return { describe: `break syntax at ${file}:${at + 1}`, upsert: [file], remove: [] };
  },
  appendFunction(tree, random) {
    const file = pick(sourceFiles(tree), random);
    if (!file) return null;
    const callee = pick(definedNames(file, tree.get(file)!), random) ?? 'print';
    const n = Math.floor(random() * 1000);
    if (isJava(file)) {
      // A static method at the end of the file's first type.
      const text = tree.get(file)!;
      const end = text.lastIndexOf('\n}');
      if (end < 0) return null;
      tree.set(file, `${text.slice(0, end)}\n  static Object added_${n}(Object value) {\n    return ${callee}(value);\n  }${text.slice(end)}`);
      return { describe: `append added_${n} calling ${callee} to ${file}`, upsert: [file], remove: [] };
    }
    const code = isPython(file) ? `\n\ndef added_${n}(value):\n    return ${callee}(value)\n` : `\nexport function added_${n}(value: unknown) {\n  return ${callee}(value);\n}\n`;
    tree.set(file, tree.get(file)! + code);
    return { describe: `append added_${n} calling ${callee} to ${file}`, upsert: [file], remove: [] };
  },
  deleteFile(tree, random, graveyard) {
    const file = pick(sourceFiles(tree), random);
    if (!file || tree.size < 3) return null;
    graveyard.set(file, tree.get(file)!);
    tree.delete(file);
    return { describe: `delete ${file}`, upsert: [], remove: [file] };
  },
  recreateFile(tree, random, graveyard) {
    const file = pick([...graveyard.keys()].filter((p) => !tree.has(p)), random);
    if (!file) return null;
    tree.set(file, graveyard.get(file)!);
    graveyard.delete(file);
    return { describe: `re-create ${file}`, upsert: [file], remove: [] };
  },
  moveFile(tree, random) {
    const file = pick(sourceFiles(tree), random);
    if (!file) return null;
    const dirs = [...new Set(sourceFiles(tree).map((p) => path.posix.dirname(p)))];
    const target = pick([...dirs, 'moved'], random)!;
    const dest = path.posix.join(target === '.' ? '' : target, path.posix.basename(file));
    if (tree.has(dest)) return null;
    // A Java file moves to the package of its new folder.
    const text = isJava(file) ? tree.get(file)!.replace(/^package [^;]*;/m, `package ${javaPackage(dest) || 'moved'};`) : tree.get(file)!;
    tree.set(dest, text);
    tree.delete(file);
    return { describe: `move ${file} → ${dest}`, upsert: [dest], remove: [file] };
  },
};

function runSequences(fixture: string, prefix: string, seeds: number[], steps: number, start: 'built' | 'restored' = 'built'): Promise<void> {
  const original = readTree(path.join(FIXTURES, fixture), prefix);
  return assertIncrementalMatchesScratch(original, path.basename(fixture), operations, seeds, steps, () => new Map<string, string>(), start);
}

const seeds = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

test('incremental equals from-scratch on Flask over 110 random edit sequences', async () => {
  await runSequences('real/flask', '', seeds(1, 110), 5);
});

test('incremental equals from-scratch on TanStack Query (TypeScript) over 100 random edit sequences', async () => {
  await runSequences('real/tanstack-query-core', '', seeds(1001, 100), 5);
});

test('incremental equals from-scratch on gson (Java) over 100 random edit sequences', async () => {
  await runSequences('real/gson', '', seeds(2001, 100), 5);
});

// A warm start restores the graph saved with the query snapshot instead of resolving every file: what
// it restores must carry on exactly as the graph it was saved from (who consumes and provides which
// keys, external and folder counts), or the first edits after a restart would leave stale edges.
for (const [fixture, from] of [['real/flask', 5001], ['real/tanstack-query-core', 6001], ['real/gson', 7001]] as const) {
  test(`a graph restored as saved equals the one built, and edits to it equal from-scratch (${path.basename(fixture)}, 40 sequences)`, async () => {
    const tree = readTree(path.join(FIXTURES, fixture));
    const built = await buildGraph(tree, path.basename(fixture));
    const restored = await restoredCopy(built, tree, path.basename(fixture));
    assert.deepEqual(compareSnapshots(snapshot(restored), snapshot(built)), []);
    assert.deepEqual(restored.importStats(), built.importStats());
    assert.equal(restored.unresolvedReferences(), built.unresolvedReferences());
    for (const p of built.filePaths()) assert.deepEqual(restored.nodesInFile(p).map((n) => n.id).sort(), built.nodesInFile(p).map((n) => n.id).sort(), p);
    await runSequences(fixture, '', seeds(from, 40), 5, 'restored');
  });
}

test('a saved graph that does not fit the files is refused and leaves the graph empty', async () => {
  const tree = readTree(path.join(FIXTURES, 'ranger-py'));
  const built = await buildGraph(tree);
  const saved = new CompactGraph(encodeGraph(built.graph)!);
  const files = await Promise.all([...tree.keys()].filter((p) => p.endsWith('.py')).map((p) => parse(p, tree.get(p)!)));
  const states = built.resolutionStates();
  const edited = files.map((f) => (f.path === 'base.py' ? { ...f, hash: 'changed since' } : f));
  const refusals: Array<[string, Promise<void>]> = [
    ['a file missing', new RepositoryGraph('repo').restoreSliced(files.slice(1), treeConfig(tree), saved, states)],
    ['a state missing', new RepositoryGraph('repo').restoreSliced(files, treeConfig(tree), saved, states.slice(1))],
    ['a module changed', new RepositoryGraph('repo').restoreSliced(edited, treeConfig(tree), saved, states)],
  ];
  for (const [what, attempt] of refusals) await assert.rejects(attempt, Error, what);
  const graph = new RepositoryGraph('repo');
  await assert.rejects(graph.restoreSliced(edited, treeConfig(tree), saved, states));
  assert.equal(graph.graph.order, 0);
  assert.deepEqual(graph.filePaths(), []);
  graph.apply({ upsert: files, config: treeConfig(tree) });
  assert.deepEqual(compareSnapshots(snapshot(graph), snapshot(built)), [], 'resolved as usual after the refusal');
});

test('a rename in one file is seen by the files that import it, and only they are re-resolved', async () => {
  const tree = readTree(path.join(FIXTURES, 'ranger-py'));
  const graph: RepositoryGraph = await buildGraph(tree);
  const renamed = tree.get('base.py')!.replace(/\bmultiply\b/g, 'times');
  graph.apply({ upsert: [await parse('base.py', renamed)] });
  assert.equal(graph.lastApply.resolved, 2, 'base.py and its importer extended.py');
  assert.ok(!graph.graph.hasNode('base.py#Calculator.multiply'));
  assert.ok(graph.graph.hasNode('base.py#Calculator.times'));
  // extended.py's divide called self.multiply: that call no longer resolves
  assert.ok(!graph.graph.outNeighbors('extended.py#Scientific.divide').some((n) => n.startsWith('base.py')));
  const body = renamed.replace('return a + b', 'return b + a');
  graph.apply({ upsert: [await parse('base.py', body)] });
  assert.equal(graph.lastApply.resolved, 1, 'a body-only edit re-resolves the edited file alone');
  graph.apply({ upsert: [await parse('base.py', `${body}\n\ndef brand_new():\n    return 1\n`)] });
  assert.equal(graph.lastApply.resolved, 1, 'a new name that no other file looked up re-resolves no other file');
  assert.ok(graph.graph.hasNode('base.py#brand_new'));
});

test('a tuple return annotation changed in one file re-types the names its callers unpack', async () => {
  const loaders = (element: string) =>
    `import typing as t\n\n\nclass BaseLoader:\n    def get_source(self, template):\n        pass\n\n\ndef get_loader(template) -> t.Tuple[${element}, str]:\n    return BaseLoader(), template\n`;
  const environment = 'from .loaders import get_loader\n\n\ndef render(template):\n    loader, name = get_loader(template)\n    return loader.get_source(name)\n';
  const calls = (graph: RepositoryGraph) => graph.graph.outNeighbors('env.py#render').filter((n) => n.startsWith('loaders.py#BaseLoader'));
  const graph: RepositoryGraph = await buildGraph(new Map([['loaders.py', loaders('BaseLoader')], ['env.py', environment]]));
  assert.deepEqual(calls(graph), ['loaders.py#BaseLoader.get_source']);
  graph.apply({ upsert: [await parse('loaders.py', loaders('object'))] });
  assert.deepEqual(calls(graph), [], 'the element is no longer a loader');
  graph.apply({ upsert: [await parse('loaders.py', loaders('BaseLoader'))] });
  assert.deepEqual(calls(graph), ['loaders.py#BaseLoader.get_source']);
});

