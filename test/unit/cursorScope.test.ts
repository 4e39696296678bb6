// What the cursor is in and what its siblings say, on real code (TanStack Query core, Flask): the
// definition being written when it is a variable whose value spans lines or is not closed yet, and
// the analogues of what the definitions beside it use (analogy.ts). The cursor sits where the
// context benchmark puts it: at the start of a line, the line itself left out.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { analogues, commonSiblingUses } from '../../src/core/completion/analogy';
import { ContextAssembler } from '../../src/core/completion/assemble';
import { buildQueryGraph, extractInProcess } from '../../src/core/completion/queryGraph';
import { structuralCandidates } from '../../src/core/completion/structural';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import type { Language } from '../../src/core/model/schema';
import { FIXTURES, buildGraph, readTree } from './helpers';

const TANSTACK = path.join(FIXTURES, 'real', 'tanstack-query-core', 'src');
const FLASK = path.join(FIXTURES, 'real', 'flask');
const ZOD = path.join(FIXTURES, 'real', 'zod', 'src');

/** A real fixture's graph and assembler, built once for the tests that ask for it. */
function fixture(root: string, name: string): () => Promise<{ graph: RepositoryGraph; assembler: ContextAssembler }> {
  let built: Promise<{ graph: RepositoryGraph; assembler: ContextAssembler }> | undefined;
  return () => (built ??= buildGraph(readTree(root), name).then((graph) => ({ graph, assembler: new ContextAssembler(graph, root) })));
}
const tanstack = fixture(TANSTACK, 'query-core');
const flask = fixture(FLASK, 'flask');
const zod = fixture(ZOD, 'zod');

/** The query graph with the cursor at the start of the first line of `file` that `marks` (that line left out); `fim` keeps the code after it. */
async function cursorAt(graph: RepositoryGraph, root: string, file: string, marks: string, fim: boolean) {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes(marks));
  assert.ok(at >= 0, marks);
  const indent = /^\s*/.exec(lines[at])![0];
  const language: Language = file.endsWith('.py') ? 'python' : 'typescript';
  return buildQueryGraph(extractInProcess(), graph, { path: file, language, prefix: `${lines.slice(0, at).join('\n')}\n${indent}`, suffix: fim ? `\n${lines.slice(at + 1).join('\n')}` : '' });
}

describe('the definition the cursor is in, and its siblings (real TanStack Query core)', () => {
  it("a sibling's use in its own words: `refetchQueries` will take `RefetchOptions` as `invalidateQueries` takes `InvalidateOptions`, `cancelQueries` `CancelOptions`", async () => {
    const { graph, assembler } = await tanstack();
    const q = await cursorAt(graph, TANSTACK, 'queryClient.ts', 'options: RefetchOptions = {},', true);
    assert.equal(q.enclosing[0]?.localId, 'QueryClient.refetchQueries');
    const found = analogues(q, (p, key) => assembler.definitionNames.inFile(p, key), (id) => (graph.graph.hasNode(id) ? graph.graph.getNodeAttributes(id).name : undefined));
    const options = found.find((a) => a.id === 'types.ts#RefetchOptions');
    assert.ok(options, found.map((a) => a.id).join(', '));
    assert.ok(options.votes >= 3, `invalidateQueries, cancelQueries and resetQueries each point to it: ${options.votes}`);
    // Only definitions spelled with the enclosing method's own word, each one a definition of the repository.
    for (const a of found) assert.match(graph.graph.getNodeAttributes(a.id).name.toLowerCase(), /refetch/, a.id);
  });

  it("an import line with nothing below it: what the other files importing the same definitions import (`Subscribable`, beside `notifyManager` and `getDefaultState`)", async () => {
    const { graph, assembler } = await tanstack();
    const q = await cursorAt(graph, TANSTACK, 'mutationObserver.ts', "import { Subscribable } from './subscribable'", false);
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames);
    const at = candidates.findIndex((c) => c.id === 'subscribable.ts#Subscribable');
    assert.ok(at >= 0 && at < 10, `among the first candidates: ${at}`);
    // Nothing the buffer imports already is offered this way.
    const imported = new Set(q.edges.filter((e) => e.kind === 'IMPORTS').map((e) => e.target));
    assert.ok(!imported.has('subscribable.ts#Subscribable'));
  });

  it("a barrel re-exporting a folder module by module: below the last module's only export, the next modules of the folder (`./queryObserver` after `./queryClient`)", async () => {
    const { graph, assembler } = await tanstack();
    const q = await cursorAt(graph, TANSTACK, 'index.ts', "export { QueryObserver } from './queryObserver'", false);
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames).map((c) => c.id);
    assert.ok(candidates.includes('queryObserver.ts'), candidates.slice(0, 20).join(', '));
    assert.ok(!candidates.includes('utils.ts'), 'only the next modules, not the whole folder');
    const ctx = assembler.fuse(q, { budgetTokens: 2048, mmrLambda: 0.7 });
    assert.ok(ctx.snippets.some((s) => s.covers.includes('queryObserver.ts#QueryObserver')), ctx.snippets.map((s) => s.title).join('\n'));
  });

  it("an export list whose `from` is not written yet: the module of the names listed so far, and its names that sort after the last one (`partialMatchKey` after `noop`)", async () => {
    const { graph, assembler } = await tanstack();
    const q = await cursorAt(graph, TANSTACK, 'index.ts', '  partialMatchKey,', false);
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames);
    const at = candidates.findIndex((c) => c.id === 'utils.ts#partialMatchKey');
    assert.ok(at >= 0 && at < 10, `among the first candidates: ${at}`);
    // Names listed already are not offered again as next names (the module's skeleton, offered too, lists them among the rest).
    assert.ok(!candidates.some((c) => (c.id === 'utils.ts#noop' || c.id === 'utils.ts#hashKey') && c.triples.some((t) => t.kind === 'IMPORTS' && t.source === 'index.ts')));
    const ctx = assembler.fuse(q, { budgetTokens: 1024, mmrLambda: 0.7 });
    assert.ok(ctx.snippets.some((s) => s.covers.includes('utils.ts#partialMatchKey')), ctx.snippets.map((s) => s.title).join('\n'));
  });

  it('with nothing after the cursor, the open function it is in still encloses it (its braces are closed before parsing)', async () => {
    const { graph, assembler } = await tanstack();
    const q = await cursorAt(graph, TANSTACK, 'queryClient.ts', 'cancelRefetch: options.cancelRefetch ?? true,', false);
    assert.deepEqual(q.enclosing.map((s) => s.localId), ['QueryClient.refetchQueries', 'QueryClient']);
    const ids = structuralCandidates(graph.graph, q, assembler.definitionNames).map((c) => c.id);
    const filters = ids.indexOf('types.ts#RefetchQueryFilters');
    assert.ok(filters >= 0 && filters < 10, `the method's own parameter type ranks among the first: ${filters}`);
  });
});

describe('between top-level definitions (real zod classic schemas)', () => {
  it('after `interface ZodX`, what the definitions that followed earlier interfaces use: `core.$constructor`, first (the other candidates are what the file imports)', async () => {
    const { graph, assembler } = await zod();
    for (const name of ['ZodStringFormat', 'ZodNumber', 'ZodAny']) {
      const q = await cursorAt(graph, ZOD, 'classic/schemas.ts', `export const ${name}: core.$constructor<${name}>`, false);
      assert.equal(q.enclosing.length, 0);
      const [first] = structuralCandidates(graph.graph, q, assembler.definitionNames);
      assert.equal(first?.id, 'core/core.ts#$constructor', name);
      assert.ok(first.score >= 0.9, `${name}: ${first.score}`);
    }
  });
});

describe('the cursor in real Flask', () => {
  it("a line of `Flask.default_config = ImmutableDict({ … })` is in that attribute and its class", async () => {
    const { graph } = await flask();
    const q = await cursorAt(graph, FLASK, 'app.py', '"PERMANENT_SESSION_LIFETIME": timedelta(days=31),', true);
    assert.deepEqual(q.enclosing.slice(0, 2).map((s) => s.localId), ['Flask.default_config', 'Flask']);
  });

  it('a package importing one module name by name: no other module is offered while the module above still has names to import', async () => {
    const { graph, assembler } = await flask();
    const q = await cursorAt(graph, FLASK, '__init__.py', 'from .config import Config as Config', false);
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames).map((c) => c.id);
    assert.ok(candidates.includes('blueprints.py'), 'the module imported above');
    assert.ok(!candidates.includes('cli.py') && !candidates.includes('config.py'), candidates.slice(0, 20).join(', '));
  });

  it("what every sibling uses as is: at the top of `flask.json.load`'s body, `current_app` (its siblings `dumps`, `dump`, `loads` all read it), the first candidate", async () => {
    const { graph, assembler } = await flask();
    const lines = fs.readFileSync(path.join(FLASK, 'json/__init__.py'), 'utf8').split('\n');
    const at = lines.findIndex((l, i) => l.includes('if app is not None:') && lines.slice(0, i).some((b) => b.startsWith('def load(')));
    const q = await buildQueryGraph(extractInProcess(), graph, { path: 'json/__init__.py', language: 'python', prefix: `${lines.slice(0, at).join('\n')}\n    `, suffix: '' });
    assert.equal(q.enclosing[0]?.localId, 'load');
    const common = commonSiblingUses(q);
    assert.deepEqual(common[0] && [common[0].id, common[0].share], ['globals.py#current_app', 1]);
    const rank = structuralCandidates(graph.graph, q, assembler.definitionNames).findIndex((c) => c.id === 'globals.py#current_app');
    assert.equal(rank, 0, "the first candidate");
  });

  it("nothing after the cursor in `Flask._find_error_handler`: the base `Scaffold`'s `error_handler_spec` (used nowhere above in app.py) is in the context, by the method's words", async () => {
    const { graph, assembler } = await flask();
    const q = await cursorAt(graph, FLASK, 'app.py', 'handler_map = self.error_handler_spec[name][c]', false);
    assert.equal(q.enclosing[0]?.localId, 'Flask._find_error_handler');
    const candidates = structuralCandidates(graph.graph, q, assembler.definitionNames);
    const spec = candidates.find((c) => c.id === 'scaffold.py#Scaffold.error_handler_spec');
    assert.ok(spec, 'offered');
    assert.deepEqual(spec.triples[0], { source: 'app.py#Flask', kind: 'INHERITS', target: 'scaffold.py#Scaffold' });
    // Only the members made of the cursor's words: not every member of the 60 the base has.
    assert.ok(!candidates.some((c) => c.id === 'scaffold.py#Scaffold.send_static_file'), 'a member of other words');
    const ctx = assembler.fuse(q, { budgetTokens: 2048, mmrLambda: 0.7 });
    assert.ok(ctx.snippets.some((s) => s.covers.includes('scaffold.py#Scaffold.error_handler_spec')), ctx.snippets.map((s) => s.title).join('\n'));
  });

  it('nothing after the cursor in `RequestContext.pop`: `self.app.` reaches the members of `Flask`, which the class already uses (`do_teardown_request`)', async () => {
    const { graph, assembler } = await flask();
    const q = await cursorAt(graph, FLASK, 'ctx.py', 'self.app.do_teardown_request(exc)', false);
    const teardown = structuralCandidates(graph.graph, q, assembler.definitionNames).find((c) => c.id === 'app.py#Flask.do_teardown_request');
    assert.ok(teardown, 'offered');
    assert.deepEqual(teardown.triples[0], { source: 'ctx.py#RequestContext', kind: 'USES', target: 'app.py#Flask' });
  });
});
