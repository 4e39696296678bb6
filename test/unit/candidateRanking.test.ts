// How structural candidates are ranked for the cursor, on real Flask: only the first 60 reach the
// packer, and in a large file (app.py: 130 candidates) the definition the next line needs was often
// ranked out (issue 19: "proposed, not packed"). The cursor sits where the benchmark puts it: at the
// start of a line, the line itself gone, the rest of the file after it (fill-in-the-middle).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { ContextAssembler } from '../../src/core/completion/assemble';
import { buildQueryGraph, extractInProcess } from '../../src/core/completion/queryGraph';
import { structuralCandidates } from '../../src/core/completion/structural';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, readTree } from './helpers';

const FLASK = path.join(FIXTURES, 'real', 'flask');

describe('structural candidates ranked for the cursor (real Flask)', () => {
  let graph: RepositoryGraph;
  let assembler: ContextAssembler;
  before(async () => {
    graph = await buildGraph(readTree(FLASK), 'flask');
    assembler = new ContextAssembler(graph, FLASK);
  });

  /** Candidate ids in rank order with the cursor at the start of the first line of `file` that `marks`, that line left out. */
  const ranked = async (file: string, marks: string) => {
    const lines = fs.readFileSync(path.join(FLASK, file), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(marks));
    assert.ok(at >= 0, marks);
    const indent = /^\s*/.exec(lines[at])![0];
    const q = await buildQueryGraph(extractInProcess(), graph, { path: file, language: 'python', prefix: `${lines.slice(0, at).join('\n')}\n${indent}`, suffix: `\n${lines.slice(at + 1).join('\n')}` });
    return { q, ids: structuralCandidates(graph.graph, q, assembler.definitionNames).map((c) => c.id) };
  };

  it('the query graph knows every line a definition is used on, not only the first one per function', async () => {
    const { q } = await ranked('app.py', 'view_func: t.Optional[ft.RouteCallable] = None,');
    const lines = q.useLines.get('scaffold.py#setupmethod') ?? [];
    assert.ok(lines.length > 10, `@setupmethod decorates many methods of Flask: ${lines.length}`);
  });

  it('writing an override, the types the overridden method uses rank with it (`Flask.add_url_rule`: `view_func: t.Optional[ft.RouteCallable]`)', async () => {
    const { ids } = await ranked('app.py', 'view_func: t.Optional[ft.RouteCallable] = None,');
    const base = ids.indexOf('scaffold.py#Scaffold.add_url_rule');
    const type = ids.indexOf('typing.py#RouteCallable');
    assert.ok(base >= 0 && base < 5, `the overridden method: ${base}`);
    assert.ok(type >= 0 && type < 30, `what its signature uses is among the first candidates, not past the 60 that are packed: ${type}`);
  });

  it('of two signals imported alike, the one used on the next line ranks first (`request_finished.send` below the cursor; `got_request_exception` 140 lines up)', async () => {
    const { ids } = await ranked('app.py', 'response = self.process_response(response)');
    const next = ids.indexOf('signals.py#request_finished');
    const far = ids.indexOf('signals.py#got_request_exception');
    assert.ok(next >= 0 && far >= 0, `${next} ${far}`);
    assert.ok(next < far && next < 20, `request_finished at ${next}, got_request_exception at ${far}`);
  });
});
