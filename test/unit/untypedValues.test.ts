// The class of a value the graph cannot type, read from the members the function uses on it, on
// real requests 2.28.1: `resolve_redirects(self, resp, req, …)` has no annotations, so `resp.close()`
// reached nothing, while Jedi (the benchmark's independent oracle) infers `Response` from the
// callers; 14 of requests' 109 needed definitions were members of such values (issue 19).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { DefinitionNames } from '../../src/core/completion/definitionNames';
import { buildQueryGraph, extractInProcess } from '../../src/core/completion/queryGraph';
import { structuralCandidates } from '../../src/core/completion/structural';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, readTree } from './helpers';

const REQUESTS = path.join(FIXTURES, 'real', 'requests');

describe('classes of untyped values from the members used on them (real requests)', () => {
  let graph: RepositoryGraph;
  let names: DefinitionNames;
  before(async () => {
    graph = await buildGraph(readTree(REQUESTS), 'requests');
    names = new DefinitionNames(graph);
  });

  /** Candidates with the cursor at the start of the first line of sessions.py holding `marks`, that line left out, the code after it kept. */
  const at = async (marks: string) => {
    const lines = fs.readFileSync(path.join(REQUESTS, 'sessions.py'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes(marks));
    assert.ok(line >= 0, marks);
    const indent = /^\s*/.exec(lines[line])![0];
    const q = await buildQueryGraph(extractInProcess(), graph, { path: 'sessions.py', language: 'python', prefix: `${lines.slice(0, line).join('\n')}\n${indent}`, suffix: `\n${lines.slice(line + 1).join('\n')}` });
    return structuralCandidates(graph.graph, q, names);
  };

  it('the Python classes declaring a member are known by its name', () => {
    const owners = names.classesWithMember('is_redirect').map((m) => m.owner);
    assert.deepEqual(owners, ['models.py#Response']);
  });

  it('`resp.history`, `resp.raw`, `resp.url` … around the cursor in resolve_redirects: `Response` is proposed for `resp`', async () => {
    const candidates = await at('resp.close()');
    const response = candidates.find((c) => c.id === 'models.py#Response');
    assert.ok(response, 'Response is a candidate');
    assert.ok(candidates.indexOf(response) < 20, `among the first: ${candidates.indexOf(response)}`);
  });
});
