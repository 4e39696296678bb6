// The pieces of retrieval on their own: the window index follows the graph file by file, MMR trades
// relevance for diversity as λ says, and the budget is never exceeded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContextAssembler } from '../../src/core/completion/assemble';
import { CodeWindows } from '../../src/core/completion/codeWindows';
import { packContext, type Candidate } from '../../src/core/completion/pack';
import { SourceFiles } from '../../src/core/completion/sourceFiles';
import { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { RootBoundary } from '../../src/core/workspace/readSource';
import { FIXTURES, buildGraph, parse, readTree } from './helpers';

const candidate = (key: string, relevance: number, code: string): Candidate => ({
  key, path: `${key}.py`, title: key, origin: 'similar', relevance, renderings: [{ code, covers: [key] }], triples: [],
});

describe('completion retrieval pieces', () => {
  it('MMR: λ = 1 takes the near-duplicate of the best pick, a lower λ takes the different snippet', () => {
    const a = candidate('a', 1, 'def load_config(path): return read_yaml(path)');
    const b = candidate('b', 0.95, 'def load_config(path): return read_yaml(path)  # again');
    const c = candidate('c', 0.6, 'class SessionStore: def get(self, key): ...');
    const cost = () => 10;
    assert.deepEqual(packContext([a, b, c], { budgetTokens: 20, lambda: 1, cost }).map((x) => x.candidate.key), ['a', 'b']);
    assert.deepEqual(packContext([a, b, c], { budgetTokens: 20, lambda: 0.5, cost }).map((x) => x.candidate.key), ['a', 'c']);
  });

  it('packing never exceeds the budget and upgrades the most relevant pick when room is left', () => {
    const rich: Candidate = { ...candidate('r', 1, 'x'), renderings: [{ code: 'full body', covers: ['r'] }, { code: 'sig', covers: ['r'] }] };
    const other = candidate('o', 0.5, 'y');
    const cost = (_c: Candidate, r: { code: string }) => (r.code === 'full body' ? 30 : 10);
    const roomy = packContext([rich, other], { budgetTokens: 40, lambda: 0.7, cost });
    assert.equal(roomy.find((x) => x.candidate.key === 'r')!.rendering.code, 'full body');
    const tight = packContext([rich, other], { budgetTokens: 25, lambda: 0.7, cost });
    assert.deepEqual(tight.map((x) => [x.candidate.key, x.rendering.code]), [['r', 'sig'], ['o', 'y']]);
    assert.ok(tight.reduce((n, x) => n + x.tokens, 0) <= 25);
  });

  it('no source line is shown twice: an overlapping window is cut, a skeleton gives up the member shown in full', () => {
    const src = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const window = (key: string, relevance: number, from: number): Candidate => ({
      key, path: 'app.py', title: key, origin: 'similar', relevance, triples: [],
      renderings: [{ code: src.slice(from, from + 20).join('\n'), covers: [], lines: Array.from({ length: 20 }, (_, i) => from + i) }],
    });
    const cost = (_c: Candidate, r: { code: string }) => r.code.split('\n').length;
    const windows = packContext([window('w0', 1, 0), window('w10', 0.9, 10)], { budgetTokens: 100, lambda: 1, cost });
    assert.deepEqual(windows.map((x) => x.rendering.lines![0]), [0, 20], 'the second window keeps only lines 20-29');
    assert.equal(windows[1].rendering.code.split('\n').length, 10);
    assert.equal(windows[1].tokens, 10, 'the budget pays for the cut window only');

    // A class skeleton (outline) picked first, then its method's whole body: the skeleton drops the method's line.
    const skeleton: Candidate = {
      key: 'Cls', path: 'app.py', title: 'Cls', origin: 'graph', relevance: 1, triples: [],
      renderings: [{ code: 'class Cls: ...\n    def run(self): ...\n    def stop(self): ...', covers: ['Cls', 'Cls.run', 'Cls.stop'], lines: [0, 3, 8], outline: true }],
    };
    const body: Candidate = {
      key: 'Cls.run', path: 'app.py', title: 'Cls.run', origin: 'graph', relevance: 0.9, triples: [],
      renderings: [{ code: 'def run(self):\n    return 1', covers: ['Cls.run'], lines: [3, 4] }],
    };
    const packed = packContext([skeleton, body], { budgetTokens: 100, lambda: 1, cost });
    assert.equal(packed[0].rendering.code, 'class Cls: ...\n    def stop(self): ...');
    assert.equal(packed[1].rendering.code, 'def run(self):\n    return 1');
    // The same window twice adds nothing the second time.
    assert.equal(packContext([window('a', 1, 0), { ...window('b', 0.9, 0) }], { budgetTokens: 100, lambda: 1, cost }).length, 1);
  });

  it('a similar-code window that mostly repeats text already shown gives its budget to the next candidate', () => {
    // Two sibling handlers from different files: the same try/except scaffolding around different calls.
    const handler = (call: string) => ['try:', `    result = ${call}`, 'except KeyError as error:', '    log.warning("missing key %s", error)', '    raise', 'finally:', '    release_lock()'];
    const window = (key: string, path: string, relevance: number, code: string[]): Candidate => ({
      key, path, title: key, origin: 'similar', relevance, triples: [],
      renderings: [{ code: code.join('\n'), covers: [], lines: code.map((_, i) => i) }],
    });
    const cost = (_c: Candidate, r: { code: string }) => r.code.split('\n').length;
    const first = window('a', 'a.py', 1, handler('load_config(path)'));
    const sibling = window('b', 'b.py', 0.9, handler('load_plugins(path)'));
    const distinct = window('c', 'c.py', 0.8, ['def load_plugins(path):', '    names = entry_points(group="app.plugins")', '    return [n.load() for n in names]']);
    const packed = packContext([first, sibling, distinct], { budgetTokens: 100, lambda: 1, cost });
    assert.deepEqual(packed.map((x) => x.candidate.key), ['a', 'c'], 'the sibling repeats 6 of its 7 lines; the distinct window is kept');
    // Graph evidence is never left out for repeating text: a definition the cursor needs is not boilerplate.
    const definition: Candidate = { ...sibling, key: 'b#handler', origin: 'graph' };
    assert.deepEqual(packContext([first, definition], { budgetTokens: 100, lambda: 1, cost }).map((x) => x.candidate.key), ['a', 'b#handler']);
  });

  it('the window index follows the graph: an edited file is re-windowed, a removed file disappears', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-windows-'));
    try {
      for (const [rel, text] of readTree(path.join(FIXTURES, 'ranger-py'))) fs.writeFileSync(path.join(dir, rel), text);
      const graph = new RepositoryGraph('repo');
      graph.apply({ upsert: await Promise.all([...readTree(dir)].map(([p, t]) => parse(p, t))) });
      const windows = new CodeWindows(graph, new SourceFiles(new RootBoundary(dir), graph));
      await windows.refresh();
      assert.equal(windows.search('multiply', 5)[0]?.path, 'base.py');
      assert.deepEqual(windows.search('zeppelin_factor', 5), []);

      const edited = `${fs.readFileSync(path.join(dir, 'base.py'), 'utf8')}\n\ndef zeppelin_factor():\n    return 7\n`;
      fs.writeFileSync(path.join(dir, 'base.py'), edited);
      graph.apply({ upsert: [await parse('base.py', edited)] });
      await windows.refresh();
      assert.equal(windows.search('zeppelin_factor', 5)[0]?.path, 'base.py');
      assert.equal(windows.search('zeppelin_factor', 5, 'base.py').length, 0, 'the excluded file (the one being written) is left out');

      graph.apply({ remove: ['base.py'] });
      await windows.refresh();
      assert.deepEqual(windows.search('zeppelin_factor multiply', 5).map((w) => w.path).filter((p) => p === 'base.py'), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an override whose signature a base class skeleton already shows is left out of the subclass skeleton, the class header kept', () => {
    const skeleton = (key: string, relevance: number, code: string[], path: string): Candidate => ({
      key, path, title: key, origin: 'graph', relevance, triples: [],
      renderings: [{ code: code.join('\n'), covers: code.map((_, i) => `${key}#${i}`), ids: code.map((_, i) => `${key}#${i}`), lines: code.map((_, i) => i * 10), outline: true }],
    });
    const base = skeleton('Parameter', 1, ['class Parameter: ...', '    def to_info_dict(self) -> t.Dict[str, t.Any]: ...', '    def get_default(self, ctx): ...'], 'core.py');
    const sub = skeleton('Option', 0.9, ['class Option(Parameter): ...', '    def to_info_dict(self) -> t.Dict[str, t.Any]: ...', '    def prompt_for_value(self, ctx): ...'], 'options.py');
    const chosen = packContext([base, sub], { budgetTokens: 100, lambda: 1, cost: (_c, r) => r.code.split('\n').length });
    assert.deepEqual(chosen[1].rendering.code.split('\n'), ['class Option(Parameter): ...', '    def prompt_for_value(self, ctx): ...']);
    assert.deepEqual(chosen[1].rendering.covers, ['Option#0', 'Option#2'], 'the override left out is not claimed as shown');
  });

  it('the first assembly does not wait for the window index (graph context only); later ones use it', async () => {
    const root = path.join(FIXTURES, 'real', 'flask');
    const assembler = new ContextAssembler(await buildGraph(readTree(root), 'flask'), root);
    const query = { path: 'app.py', language: 'python' as const, prefix: 'from .helpers import get_root_path\n\ndef locate(import_name):\n    path = get_root_path(import_name)\n    ', suffix: '' };
    const first = await assembler.assemble(query);
    assert.ok(first.snippets.length > 0 && first.snippets.every((s) => s.origin === 'graph'));
    await assembler.windows.refresh();
    assert.equal(assembler.windows.built, true);
    const later = await assembler.assemble(query);
    assert.ok(later.snippets.some((s) => s.origin === 'similar'), 'similar code windows join once the index is built');
  });
});
