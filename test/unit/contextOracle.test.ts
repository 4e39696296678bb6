// bench:context's independent oracle maps what Jedi / the TypeScript language service point at onto
// graph nodes; a wrong mapping would count hits as misses (or the reverse). Checked on real Flask.
// The Rust oracle's reading of rustc's save-analysis is checked on spans shaped as rustc writes them.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { answersFromSaveAnalysis, nodeForDefinition, symbolIndex, type SaveAnalysis } from '../../bench/context/oracle';
import { FIXTURES, buildGraph, readTree } from './helpers';

describe('bench:context oracle → graph node mapping (real Flask)', () => {
  it('maps a definition by name and line, a field Jedi places in __init__ to the class member, a constructor to its class', async () => {
    const graph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'flask')));
    const index = symbolIndex(graph);
    const node = (p: string, name: string) => graph.graph.getNodeAttributes(`${p}#${name}`);
    const app = node('ctx.py', 'AppContext');
    // `class AppContext:` itself.
    assert.equal(nodeForDefinition(index, { path: 'ctx.py', line: app.range!.startLine, name: 'AppContext', kind: 'class' }), 'ctx.py#AppContext');
    // Jedi answers `ctx.app` with the assignment `self.app = app` inside __init__ (line 237, 1-based).
    assert.equal(nodeForDefinition(index, { path: 'ctx.py', line: 236, name: 'app', kind: 'statement' }), 'ctx.py#AppContext.app');
    // The TypeScript service names `__constructor` beside the class for `new X()`.
    assert.equal(nodeForDefinition(index, { path: 'ctx.py', line: app.range!.startLine + 8, name: '__constructor', kind: 'constructor' }), 'ctx.py#AppContext');
    // No node with that name where it points: unmapped, counted as a miss.
    assert.equal(nodeForDefinition(index, { path: 'ctx.py', line: 236, name: 'no_such_member', kind: 'statement' }), undefined);
  });
});

describe('bench:context Rust oracle: rustc save-analysis → cross-file definitions per line', () => {
  it('keeps uses and `use` imports of the crate\'s own items in other files; not modules, locals, other crates, the same file, or items rustc did not dump', () => {
    // Spans as rustc 1.63 writes them for tokio 1.24 (1-based lines); krate 0 is the crate itself.
    const span = (file_name: string, line_start: number) => ({ file_name, line_start });
    const def = (index: number, kind: string, name: string, file: string, line: number) => ({ kind, id: { krate: 0, index }, span: span(file, line), name });
    const ref = (file: string, line: number, krate: number, index: number) => ({ span: span(file, line), ref_id: { krate, index } });
    const data: SaveAnalysis = {
      defs: [def(1, 'Function', 'poll_fn', 'src/future/poll_fn.rs', 28), def(2, 'Mod', 'future', 'src/future/mod.rs', 1), def(3, 'Local', 'cx', 'src/fs/read_dir.rs', 81), def(4, 'Struct', 'ReadDir', 'src/fs/read_dir.rs', 35)],
      refs: [
        ref('src/fs/read_dir.rs', 81, 0, 1), // poll_fn(|cx| …)
        ref('src/fs/read_dir.rs', 80, 0, 2), // `future` in `use crate::future::poll_fn;`: a module
        ref('src/fs/read_dir.rs', 81, 0, 3), // a local
        ref('src/fs/read_dir.rs', 90, 0, 4), // ReadDir, in its own file
        ref('src/fs/read_dir.rs', 91, 2, 4), // std's item 4
        ref('src/fs/read_dir.rs', 92, 0, 99), // an item a macro generated: not dumped
        ref('tests/other.rs', 3, 0, 1), // a file not asked about
      ],
      imports: [{ span: span('src/fs/read_dir.rs', 80), ref_id: { krate: 0, index: 1 }, name: 'poll_fn' }, { span: span('src/fs/read_dir.rs', 1), ref_id: null, name: 'io' }],
    };
    const answers = answersFromSaveAnalysis(data, new Set(['src/fs/read_dir.rs', 'src/future/poll_fn.rs', 'src/future/mod.rs']));
    const poll_fn = { path: 'src/future/poll_fn.rs', line: 27, name: 'poll_fn', kind: 'Function' };
    assert.deepEqual([...answers.keys()], ['src/fs/read_dir.rs']);
    assert.deepEqual([...answers.get('src/fs/read_dir.rs')!].sort(([a], [b]) => a - b), [[79, [poll_fn]], [80, [poll_fn]]]);
  });
});
