// Lines that repeat a pattern of the buffer, on real httpx 0.23.3 (`_client.py`): the client's
// methods share one parameter list (`params: …[QueryParamTypes]`, `headers: …[HeaderTypes]`,
// `cookies: …[CookieTypes]`, ...) and a 2,000-line file imports some 40 names, so the type the next
// parameter needs was ranked 30th-65th among the structural candidates and left out of 2,048 tokens
// (issue 19, corpora never tuned on). The cursor sits where the benchmark puts it: at the start of a
// line, the line itself gone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { ContextAssembler } from '../../src/core/completion/assemble';
import { buildQueryGraph, extractInProcess } from '../../src/core/completion/queryGraph';
import { inParameterList, structuralCandidates } from '../../src/core/completion/structural';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, readTree } from './helpers';

const HTTPX = path.join(FIXTURES, 'real', 'httpx');

describe('the line a repeated line is followed by elsewhere in the buffer (real httpx)', () => {
  let graph: RepositoryGraph;
  let assembler: ContextAssembler;
  before(async () => {
    graph = await buildGraph(readTree(HTTPX), 'httpx');
    assembler = new ContextAssembler(graph, HTTPX);
  });

  /** Candidates with the cursor at the start of the `nth` line of _client.py holding `marks`, that line left out; `fim`: the code after it kept. */
  const at = async (marks: string, nth: number, fim: boolean) => {
    const lines = fs.readFileSync(path.join(HTTPX, '_client.py'), 'utf8').split('\n');
    const hits = lines.flatMap((l, i) => (l.includes(marks) ? [i] : []));
    const line = hits[nth];
    assert.ok(line !== undefined, `${marks} #${nth}`);
    const indent = /^\s*/.exec(lines[line])![0];
    const q = await buildQueryGraph(extractInProcess(), graph, { path: '_client.py', language: 'python', prefix: `${lines.slice(0, line).join('\n')}\n${indent}`, suffix: fim ? `\n${lines.slice(line + 1).join('\n')}` : '' });
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames);
    return { q, candidates, ids: candidates.map((c) => c.id) };
  };

  for (const fim of [true, false]) {
    it(`the type the next parameter needs ranks among the first, as in the other signatures (${fim ? 'fill-in-the-middle' : 'prefix only'})`, async () => {
      // BaseClient.__init__ is the first signature: only later ones can follow the pattern with nothing after the cursor.
      for (const [marks, nth, type] of [['headers: typing.Optional[HeaderTypes] = None,', fim ? 0 : 2, '_types.py#HeaderTypes'], ['data: typing.Optional[RequestData] = None,', 3, '_types.py#RequestData'], ['extensions: typing.Optional[RequestExtensions] = None,', 6, '_types.py#RequestExtensions']] as const) {
        const { ids } = await at(marks, nth, fim);
        const rank = ids.indexOf(type);
        assert.ok(rank >= 0 && rank < 10, `${type} for \`${marks}\` #${nth}: rank ${rank}`);
      }
    });
  }

  it('a context of 2,048 tokens holds it', async () => {
    const { q } = await at('headers: typing.Optional[HeaderTypes] = None,', 2, true);
    const context = assembler.fuse(q, { budgetTokens: 2048, mmrLambda: 0.7 });
    assert.ok(context.snippets.some((s) => s.covers.includes('_types.py#HeaderTypes')), context.snippets.map((s) => s.title).join(' | '));
  });

  it('in a parameter list, members of classes guessed from words (`Cookies.__init__` for `__init__`) are not candidates', async () => {
    const { candidates } = await at('headers: typing.Optional[HeaderTypes] = None,', 0, true);
    const members = candidates.filter((c) => /\.__\w+__$/.test(c.id) || c.triples.some((t) => t.source === '_client.py#BaseClient' && t.kind === 'USES'));
    assert.deepEqual(members.map((c) => c.id), []);
  });

  it('a parameter list is told from parentheses of the body (a call or a condition continued over lines)', async () => {
    assert.equal(inParameterList((await at('headers: typing.Optional[HeaderTypes] = None,', 0, true)).q), true);
    assert.equal(inParameterList((await at('        follow_redirects=follow_redirects,', 2, true)).q), false, 'the arguments of `self._send_handling_auth(` in Client.send');
    assert.equal(inParameterList((await at('self._timeout = Timeout(timeout)', 0, true)).q), false);
  });

  it('what is typed on the line already picks among the lines that followed (`cookies: ` is not the `headers` line)', async () => {
    const { q } = await at('headers: typing.Optional[HeaderTypes] = None,', 2, false);
    const typed = await buildQueryGraph(extractInProcess(), graph, { ...q.query, prefix: `${q.query.prefix}cookies: typing.Optional[` });
    const ids = structuralCandidates(graph.graph, typed, assembler.definitionNames).map((c) => c.id);
    assert.ok(ids.indexOf('_types.py#HeaderTypes') > ids.indexOf('_types.py#CookieTypes'), `HeaderTypes ${ids.indexOf('_types.py#HeaderTypes')}, CookieTypes ${ids.indexOf('_types.py#CookieTypes')}`);
  });
});
