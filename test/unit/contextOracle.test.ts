// bench:context's independent oracle maps what Jedi / the TypeScript language service point at onto
// graph nodes; a wrong mapping would count hits as misses (or the reverse). Checked on real Flask.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { nodeForDefinition, symbolIndex } from '../../bench/context/oracle';
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
