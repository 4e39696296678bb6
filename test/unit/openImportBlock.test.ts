// A brace import being written, on real TanStack Query (`queryObserver.ts`): with nothing after the
// cursor the `from '…'` has not been typed, so no import edge says where the next name comes from.
// On mobx (issue 19, a corpus never tuned on) 25 of the 35 needed definitions no context held
// without the code after the cursor were names of such a block.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { ContextAssembler } from '../../src/core/completion/assemble';
import { buildQueryGraph, extractInProcess } from '../../src/core/completion/queryGraph';
import { openImportList, structuralCandidates } from '../../src/core/completion/structural';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, readTree } from './helpers';

const TANSTACK = path.join(FIXTURES, 'real', 'tanstack-query-core', 'src');

describe('an import block not closed yet (real TanStack Query)', () => {
  let graph: RepositoryGraph;
  let assembler: ContextAssembler;
  before(async () => {
    graph = await buildGraph(readTree(TANSTACK), 'tanstack');
    assembler = new ContextAssembler(graph, TANSTACK);
  });

  /** The context with the cursor at the start of the first line of queryObserver.ts reading `marks`, nothing after it. */
  const at = async (marks: string) => {
    const lines = fs.readFileSync(path.join(TANSTACK, 'queryObserver.ts'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.trim() === marks);
    assert.ok(line >= 0, marks);
    const indent = /^\s*/.exec(lines[line])![0];
    const q = await buildQueryGraph(extractInProcess(), graph, { path: 'queryObserver.ts', language: 'typescript', prefix: `${lines.slice(0, line).join('\n')}\n${indent}`, suffix: '' });
    return { q, ids: structuralCandidates(graph.graph, q, assembler.definitionNames).map((c) => c.id) };
  };

  it('the module the names above the cursor are defined in is among the first candidates, and its skeleton holds the next name', async () => {
    const { q, ids } = await at('replaceData,');
    const module = ids.indexOf('utils.ts');
    assert.ok(module >= 0 && module < 10, ids.slice(0, 10).join(', '));
    const context = assembler.fuse(q, { budgetTokens: 2048, mmrLambda: 0.7 });
    assert.ok(context.snippets.some((s) => s.covers.includes('utils.ts#replaceData')), context.snippets.map((s) => s.title).join(' | '));
  });

  it('the block is read up to the cursor, and left to the import edges once the code after the cursor closes it with its module', async () => {
    const { q } = await at('replaceData,');
    assert.deepEqual(openImportList(q), { names: ['isServer', 'isValidTimeout', 'noop'], closedAfter: false });
    const lines = fs.readFileSync(path.join(TANSTACK, 'queryObserver.ts'), 'utf8').split('\n');
    const fim = await buildQueryGraph(extractInProcess(), graph, { ...q.query, suffix: `\n${lines.slice(lines.findIndex((l) => l.trim() === 'replaceData,') + 1).join('\n')}` });
    assert.equal(openImportList(fim)?.closedAfter, true);
    assert.ok(fim.edges.some((e) => e.kind === 'IMPORTS' && e.target.startsWith('utils.ts')), 'the import is parsed');
  });
});
