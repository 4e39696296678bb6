// The agent tools' core on real code (Flask, in-process): paging, honesty about unresolved
// references, diffs mapped onto definitions, paths kept inside the folder, several folders at once,
// unsaved buffers, package.json's language-model tools in step with the schemas, and an overloaded
// TypeScript function (real zod) as one target.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { countTokens } from '../../src/core/completion/tokens';
import { sourceReader } from '../../src/core/lifting/source';
import { functionOf } from '../../src/core/search/implementations';
import { LocalRepository } from '../../src/core/service/localRepository';
import type { ToolResult } from '../../src/core/service/repository';
import { workspacePath } from '../../src/core/tools/context';
import { changedNodes, parseUnifiedDiff } from '../../src/core/tools/diff';
import { languageModelToolsContribution } from '../../src/core/tools/schemas';
import { callTool, type ToolFolder } from '../../src/core/tools/workspaceTools';
import { FIXTURES } from './helpers';

let flask: LocalRepository;
let ranger: LocalRepository;

before(async () => {
  flask = await LocalRepository.open(path.join(FIXTURES, 'real', 'flask'), { storeDir: null });
  await flask.index();
  ranger = await LocalRepository.open(path.join(FIXTURES, 'ranger-py'), { storeDir: null });
  await ranger.index();
});
after(async () => {
  await flask.close();
  await ranger.close();
});

function ok(result: ToolResult): { text: string; structured: Record<string, unknown> } {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result;
}

test('explore_graph pages its rows: offsets walk the whole list without repeats or gaps', async () => {
  const all = ok(await flask.runTool('explore_graph', { name: 'Flask', direction: 'out', limit: 200 }));
  const total = all.structured.total as number;
  assert.ok(total > 40, `Flask has many members and dependencies (${total})`);
  const seen: string[] = [];
  for (let offset = 0; offset < total; offset += 25) {
    const page = ok(await flask.runTool('explore_graph', { name: 'Flask', direction: 'out', limit: 25, offset }));
    const rows = page.structured.rows as Array<{ id: string; kind: string }>;
    seen.push(...rows.map((r) => `${r.kind} ${r.id}`));
    if (offset + 25 < total) assert.match(page.text, new RegExp(`call again with offset=${offset + 25}`));
  }
  assert.deepEqual(seen, (all.structured.rows as Array<{ id: string; kind: string }>).map((r) => `${r.kind} ${r.id}`));
});

type TreeRow = { depth: number; kind: string; id: string; qname: string; repeat: boolean };
const DEPENDENCY_KINDS = ['CALLS', 'INHERITS', 'USES', 'IMPORTS'];
const flaskGraph = () => (flask as unknown as { engine: { graph: { graph: Parameters<typeof functionOf>[0] } } }).engine.graph.graph;

test('explore_graph walks a node from its shallowest row: a direct caller first met deeper, under an earlier caller, still shows its own callers', async () => {
  // find_package calls _path_is_relative_to directly and through _find_package_path, which sorts first.
  const answer = ok(await flask.runTool('explore_graph', { id: 'scaffold.py#_path_is_relative_to', direction: 'in', edgeKinds: ['CALLS'], depth: 2 }));
  const rows = (answer.structured.rows as TreeRow[]).map((r) => `${r.depth} ${r.qname}${r.repeat ? ' (repeat)' : ''}`);
  assert.deepEqual(rows, [
    '1 flask.scaffold._find_package_path',
    '2 flask.scaffold.find_package (repeat)',
    '1 flask.scaffold.find_package',
    '2 flask.app.Flask.auto_find_instance_path',
  ]);
  assert.match(answer.text, / {4}← CALLS {6}flask\.scaffold\.find_package {2}scaffold\.py:873 {2}\(repeat\)\n {2}← CALLS {6}flask\.scaffold\.find_package {2}scaffold\.py:877\n {4}← CALLS {6}flask\.app\.Flask\.auto_find_instance_path/);
  // impact walks the same: _find_error_handler's direct caller handle_user_exception is also met under handle_http_exception.
  const handler = ok(await flask.runTool('explore_graph', { id: 'app.py#Flask._find_error_handler', direction: 'in', edgeKinds: ['CALLS'], depth: 2 }));
  assert.ok((handler.structured.rows as TreeRow[]).some((r) => r.depth === 2 && r.qname === 'flask.app.Flask.full_dispatch_request' && !r.repeat), handler.text);
  const impact = ok(await flask.runTool('impact', { ids: ['app.py#Flask._find_error_handler'], depth: 2 }));
  const reached = (impact.structured.affected as Array<{ qname: string; distance: number; chain: string[] }>).find((a) => a.qname === 'flask.app.Flask.full_dispatch_request');
  assert.deepEqual(reached && { distance: reached.distance, chain: reached.chain }, {
    distance: 2,
    chain: ['flask.app.Flask._find_error_handler', '← CALLS flask.app.Flask.handle_user_exception', '← CALLS flask.app.Flask.full_dispatch_request'],
  });
});

test("explore_graph's dependents are impact's, at every function of Flask and depths 1 to 3", async () => {
  const graph = flaskGraph();
  const functions = graph.filterNodes((_, n) => n.kind === 'Function' || n.kind === 'Method');
  assert.ok(functions.length > 300, `${functions.length}`);
  for (const depth of [1, 2, 3]) {
    for (const id of functions) {
      const own = new Set(functionOf(graph, id).members);
      const explored = ok(await flask.runTool('explore_graph', { id, direction: 'in', edgeKinds: DEPENDENCY_KINDS, depth, limit: 200 }));
      const affected = ok(await flask.runTool('impact', { ids: [id], depth, limit: 200 }));
      assert.ok((explored.structured.total as number) <= 200 && (affected.structured.total as number) <= 200, 'one page holds every row');
      // impact names a function by its body, explore_graph by the definition an edge lands on.
      const walked = new Set((explored.structured.rows as TreeRow[]).map((r) => functionOf(graph, r.id).body).filter((b) => !own.has(b)));
      // impact also walks calls that may dispatch to an override (possible rows); explore_graph lists those apart.
      const reached = new Set((affected.structured.affected as Array<{ id: string; possible?: boolean }>).filter((a) => !a.possible).map((a) => a.id));
      assert.deepEqual([...walked].sort(), [...reached].sort(), `${id} at depth ${depth}:\n${explored.text}\n${affected.text}`);
    }
  }
});

test("explore_graph's count of rows that lead on beyond the depth is what one more level shows", async () => {
  const graph = flaskGraph();
  const functions = graph.filterNodes((_, n) => n.kind === 'Function' || n.kind === 'Method');
  const nodes = (rows: TreeRow[]) => new Set(rows.map((r) => r.id));
  let leadOn = 0;
  for (const depth of [1, 2]) {
    for (const id of functions) {
      const args = { id, direction: 'in', edgeKinds: DEPENDENCY_KINDS, limit: 200 };
      const here = ok(await flask.runTool('explore_graph', { ...args, depth }));
      const deeper = ok(await flask.runTool('explore_graph', { ...args, depth: depth + 1 }));
      assert.equal(here.structured.walkCut, false);
      const shown = new Set([...nodes(here.structured.rows as TreeRow[]), ...functionOf(graph, id).members]);
      // The rows one level deeper that name nodes not shown yet, and the rows of the last level they hang under.
      const rows = deeper.structured.rows as TreeRow[];
      const parents = new Set<string>();
      rows.forEach((r, i) => {
        if (r.depth !== depth + 1 || shown.has(r.id)) return;
        let p = i;
        while (rows[p].depth !== depth) p--;
        parents.add(rows[p].id);
      });
      assert.equal(here.structured.beyondDepth, parents.size, `${id} at depth ${depth}:\n${here.text}\n${deeper.text}`);
      if (parents.size > 0) assert.match(here.text, new RegExp(`\\(${parents.size} rows? at depth ${depth} leads? on to nodes not shown`));
      leadOn += parents.size;
    }
  }
  assert.ok(leadOn > 50, 'many walks stop short of more callers');
});

test('callers counted through resolved edges also report same-named references the graph could not resolve', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-tools-'));
  fs.writeFileSync(path.join(root, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  fs.writeFileSync(path.join(root, 'use.py'), 'from calc import add\n\n\ndef known():\n    return add(1, 2)\n\n\nclass Box:\n    def __init__(self, helper):\n        self.helper = helper\n\n    def total(self):\n        return self.helper.add(1, 2)\n');
  const repo = await LocalRepository.open(root, { storeDir: null });
  try {
    await repo.index();
    const answer = ok(await repo.runTool('explore_graph', { name: 'add', direction: 'in', edgeKinds: ['CALLS'] }));
    assert.match(answer.text, /← CALLS\s+use\.known {2}use\.py:5/);
    assert.match(answer.text, /\+1 possible, unresolved[\s\S]*\? use\.Box\.total {2}use\.py:13/);
    const fetched = ok(await repo.runTool('fetch_node', { name: 'add', source: false }));
    assert.equal(fetched.structured.possibleUnresolvedReferences, 1);
    assert.match(fetched.text, /← CALLS 1: use\.known/);
  } finally {
    await repo.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a unified diff maps onto the innermost definitions it touches', () => {
  const diff = [
    'diff --git a/helpers.py b/helpers.py',
    '--- a/helpers.py',
    '+++ b/helpers.py',
    '@@ -50,0 +51,2 @@ def get_debug_flag() -> bool:',
    '+    x = 1',
    '+    y = 2',
    '--- a/gone.py',
    '+++ /dev/null',
    '@@ -1,3 +0,0 @@',
  ].join('\n');
  const files = parseUnifiedDiff(diff);
  assert.deepEqual(files, [
    { path: 'helpers.py', deleted: false, ranges: [[51, 52]] },
    { path: 'gone.py', deleted: true, ranges: [[1, 1]] },
  ]);
  const repo = (flask as unknown as { engine: { graph: Parameters<typeof changedNodes>[0] } }).engine.graph;
  assert.deepEqual(changedNodes(repo, 'helpers.py', [[51, 52]]).map((n) => n.qname), ['flask.helpers.get_debug_flag']);
  assert.deepEqual(changedNodes(repo, 'helpers.py', [[1, 1]]).map((n) => n.kind), ['Module']);
});

test('impact of a diff names the changed definition and its dependents with the edge chain', async () => {
  const diff = '--- a/helpers.py\n+++ b/helpers.py\n@@ -52 +52 @@\n-    x\n+    y\n';
  const answer = ok(await flask.runTool('impact', { diff, depth: 2 }));
  assert.match(answer.text, /\* Function flask\.helpers\.get_debug_flag {2}helpers\.py:47/);
  const affected = answer.structured.affected as Array<{ qname: string; distance: number; chain: string[] }>;
  const run = affected.find((a) => a.qname === 'flask.app.Flask.run');
  assert.deepEqual(run && { distance: run.distance, chain: run.chain }, { distance: 1, chain: ['flask.helpers.get_debug_flag', '← CALLS flask.app.Flask.run'] });
  assert.ok(affected.some((a) => a.distance === 2), 'depth 2 reaches dependents of dependents');
  const bad = await flask.runTool('impact', { diff: 'not a diff' });
  assert.ok(!bad.ok && /no file headers/.test(bad.error));
});

test('budgeted answers keep within maxTokens in real o200k tokens, notes included, and say what the budget left out', async () => {
  const pending = { pending: ['app.py', 'helpers.py', 'json/provider.py'] };
  for (const maxTokens of [200, 800, 2000]) {
    for (const call of [{ pending: [] }, pending]) {
      const map = ok(await flask.runTool('repo_overview', { maxTokens }, call));
      const tokens = countTokens(map.text);
      assert.ok(tokens <= maxTokens && tokens > 0.8 * maxTokens, `repo_overview at ${maxTokens}: ${tokens} tokens\n${map.text}`);
      assert.match(map.text, new RegExp(`\\(\\d+ modules and \\d+ definitions left out for the ${maxTokens}-token budget`));
      assert.equal(/Not yet re-indexed/.test(map.text), call.pending.length > 0);
      for (const [file, line] of [['app.py', 1100], ['helpers.py', 60]] as const) {
        const context = ok(await flask.runTool('edit_context', { path: file, line, maxTokens }, call));
        const used = countTokens(context.text);
        assert.ok(used <= maxTokens && used > 0.5 * maxTokens, `edit_context ${file}:${line} at ${maxTokens}: ${used} tokens\n${context.text}`);
      }
    }
    const json = ok(await flask.runTool('repo_overview', { path: 'json', maxTokens }));
    assert.ok(countTokens(json.text) <= maxTokens, json.text);
  }
  const small = ok(await flask.runTool('edit_context', { path: 'app.py', line: 1100, maxTokens: 200 }));
  assert.match(small.text, /within the answer's 200-token budget; \d+ more candidates did not fit/);
  assert.ok((small.structured.leftOut as number) > 0);
});

test('search_code, fetch_node, explore_graph and impact keep within maxTokens too: whole rows, and the next page starts where the budget cut', async () => {
  const pending = { pending: ['app.py', 'helpers.py', 'json/provider.py'] };
  const listings: Array<[string, Record<string, unknown>, string]> = [
    ['search_code', { query: 'register a url rule for a view function', limit: 50 }, 'hits'],
    ['explore_graph', { name: 'Flask', direction: 'out', limit: 200 }, 'rows'],
    ['impact', { names: ['_split_blueprint_path'], depth: 3, limit: 200 }, 'affected'],
  ];
  for (const [tool, args, rowsKey] of listings) {
    const whole = ok(await flask.runTool(tool, { ...args, maxTokens: 16000 }));
    const wholeRows = (whole.structured[rowsKey] as Array<{ id: string }>).map((r) => r.id);
    for (const call of [{ pending: [] }, pending]) {
      const cut = ok(await flask.runTool(tool, { ...args, maxTokens: 300 }, call));
      const used = countTokens(cut.text);
      assert.ok(used <= 300, `${tool} at 300: ${used} tokens\n${cut.text}`);
      assert.match(cut.text, /more \w+ left out for the 300-token budget: call again with offset=\d+/, cut.text);
      const shown = (cut.structured[rowsKey] as Array<{ id: string }>).map((r) => r.id);
      assert.ok(shown.length > 0 && shown.length < wholeRows.length, `${tool}: ${shown.length} of ${wholeRows.length} rows`);
      assert.deepEqual(shown, wholeRows.slice(0, shown.length));
      assert.equal(cut.structured.nextOffset, shown.length);
      // the next page, asked as the note says, goes on from the first row left out
      const next = ok(await flask.runTool(tool, { ...args, offset: shown.length, maxTokens: 300 }, call));
      assert.equal((next.structured[rowsKey] as Array<{ id: string }>)[0].id, wholeRows[shown.length]);
    }
  }
  const source = ok(await flask.runTool('fetch_node', { name: 'Flask.__init__', maxTokens: 300 }));
  assert.ok(countTokens(source.text) <= 300, source.text);
  const sourceRange = source.structured.source as { startLine: number; endLine: number; truncated: boolean };
  assert.ok(sourceRange.truncated && sourceRange.endLine > sourceRange.startLine, JSON.stringify(sourceRange));
  assert.match(source.text, new RegExp(`more lines left out for the 300-token budget: read app\\.py from line ${sourceRange.endLine + 1}`));
  // at the smallest budget even what surrounds the rows (a long signature, the relations) is held to it
  for (const [tool, args] of [['fetch_node', { name: 'Flask' }], ['explore_graph', { name: 'Scaffold.route', direction: 'both', depth: 3 }], ['search_code', { query: 'handle an exception raised by a view', limit: 50 }]] as const) {
    const smallest = ok(await flask.runTool(tool, { ...args, maxTokens: 200 }, pending));
    assert.ok(countTokens(smallest.text) <= 200, `${tool} at 200: ${countTokens(smallest.text)} tokens\n${smallest.text}`);
    assert.match(smallest.text, /left out for the 200-token budget/);
  }
});

test('paths outside the folder are refused before anything is read', async () => {
  const root = path.join(FIXTURES, 'real', 'flask');
  assert.equal(workspacePath(root, 'app.py'), 'app.py');
  assert.equal(workspacePath(root, path.join(root, 'json', 'tag.py')), 'json/tag.py');
  for (const p of ['../ranger-py/base.py', '/etc/passwd', '.']) assert.throws(() => workspacePath(root, p), /outside the indexed folder/);
  const result = await flask.runTool('edit_context', { path: '/etc/passwd', line: 1 });
  assert.ok(!result.ok && /outside/.test(result.error));
});

test('a file that became a symlink out of the folder is read by no tool, nor by completion or the describer, unless followSymlinks', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-tools-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-outside-'));
  fs.writeFileSync(path.join(root, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  fs.writeFileSync(path.join(root, 'use.py'), 'from calc import add\n\n\ndef known():\n    return add(1, 2)\n');
  fs.writeFileSync(path.join(outside, 'calc.py'), 'def add(a, b):\n    return "SECRET"\n');
  const repo = await LocalRepository.open(root, { storeDir: null });
  const following = await LocalRepository.open(root, { storeDir: null, followSymlinks: true });
  try {
    await repo.index();
    // Swapped after indexing, with no watcher to tell the graph: every reader must check for itself.
    fs.rmSync(path.join(root, 'calc.py'));
    fs.symlinkSync(path.join(outside, 'calc.py'), path.join(root, 'calc.py'));
    const fetched = ok(await repo.runTool('fetch_node', { id: 'calc.py#add' }));
    assert.match(fetched.text, /source: calc\.py cannot be read now: a symlink to .*calc\.py, outside /);
    assert.doesNotMatch(fetched.text, /SECRET/);
    const refused = await repo.runTool('edit_context', { path: 'calc.py', line: 2 });
    assert.ok(!refused.ok && /^calc\.py cannot be read: a symlink to .*, outside /.test(refused.error), refused.ok ? refused.text : refused.error);
    const context = ok(await repo.runTool('edit_context', { path: 'use.py', line: 5 }));
    assert.match(context.text, /Context for use\.py:5/);
    assert.doesNotMatch(context.text, /SECRET/);
    const node = repo.engine.graph.graph.getNodeAttributes('calc.py#add');
    assert.equal(await sourceReader(repo.engine.boundary)(node), undefined, 'the describer is not shown it');

    await following.index();
    const followed = ok(await following.runTool('fetch_node', { id: 'calc.py#add' }));
    assert.match(followed.text, /return "SECRET"/);
  } finally {
    await repo.close();
    await following.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('fetch_node reads an unsaved buffer instead of the disk and says the graph has not caught up', async () => {
  const disk = fs.readFileSync(path.join(FIXTURES, 'real', 'flask', 'helpers.py'), 'utf8').split('\n');
  disk[47] = '    """EDITED IN THE BUFFER."""';
  const answer = ok(await flask.runTool('fetch_node', { name: 'get_debug_flag' }, { pending: ['helpers.py'], buffers: { 'helpers.py': disk.join('\n') } }));
  assert.match(answer.text, /EDITED IN THE BUFFER/);
  assert.match(answer.text, /Not yet re-indexed .*: helpers\.py/);
  assert.deepEqual(answer.structured.pendingFiles, ['helpers.py']);
  const early = ok(await flask.runTool('fetch_node', { name: 'get_debug_flag', source: false }, { pending: [], indexing: 'parse 3/22' }));
  assert.match(early.text, /still being indexed \(parse 3\/22\)/);
  assert.equal(early.structured.indexing, 'parse 3/22');
});

test('several folders: paths and ids go to the folder that has them, searches go to all', async () => {
  const folder = (label: string, repo: LocalRepository): ToolFolder => ({ label, root: repo.root, run: (n, a) => repo.runTool(n, a, { pending: [] }) });
  const folders = [folder('flask', flask), folder('ranger-py', ranger)];
  const search = ok(await callTool(folders, 'search_code', { query: 'Calculator' }));
  assert.match(search.text, /## flask/);
  assert.match(search.text, /## ranger-py[\s\S]*base\.Calculator {2}base\.py:\d+/);
  const byId = ok(await callTool(folders, 'fetch_node', { id: 'base.py#Calculator', source: false }));
  assert.match(byId.text, /Class base\.Calculator/);
  const byPath = ok(await callTool(folders, 'repo_overview', { path: 'ranger-py/' }));
  assert.match(byPath.text, /base\.py/);
  assert.doesNotMatch(byPath.text, /app\.py/);
  const outside = await callTool(folders, 'edit_context', { path: 'elsewhere/x.py', line: 1 });
  assert.ok(!outside.ok && /none of the indexed folders/.test(outside.error));
});

test("package.json's language-model tools are the schemas' (run scripts/sync-lm-tools.ts after changing a tool)", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.deepEqual(pkg.contributes.languageModelTools, languageModelToolsContribution());
});

test("an overloaded TypeScript function is one target: its callers (their calls land on the first signature) show from its body, and editing the body reaches them", async () => {
  // Real zod: tuple() has three overload signatures and an implementation; _function() calls it.
  const zod = await LocalRepository.open(path.join(FIXTURES, 'real', 'zod', 'src'), { storeDir: null });
  try {
    await zod.index();
    const BODY = 'classic/schemas.ts#tuple@4';
    const CALLER = 'classic/schemas.ts#_function@7';
    const fetched = ok(await zod.runTool('fetch_node', { name: 'tuple', source: false }));
    assert.equal(fetched.structured.id, BODY, 'the name is one function, answered at its body');
    assert.match(fetched.text, /3 more declarations \(overload signatures or a stub\): classic\/schemas\.ts:1923, classic\/schemas\.ts:1927, classic\/schemas\.ts:1932/);
    assert.match(fetched.text, /← CALLS 1: classic\/schemas\._function/);
    // `new ZodTuple(…)`: ZodTuple, and the construct signature of the type of the const of that name, `$constructor`.
    assert.match(fetched.text, /→ CALLS 2: classic\/schemas\.ZodTuple, core\/core\.\$constructor/);
    // Asked by a signature's id (as a caller's rows name it), the same function.
    assert.equal(ok(await zod.runTool('fetch_node', { id: 'classic/schemas.ts#tuple', source: false })).structured.id, BODY);
    const callers = ok(await zod.runTool('explore_graph', { id: BODY, direction: 'in', edgeKinds: ['CALLS'] }));
    assert.deepEqual((callers.structured.rows as Array<{ id: string }>).map((r) => r.id), [CALLER]);
    // A change inside the implementation's body (line 1938) affects the caller.
    const diff = '--- a/classic/schemas.ts\n+++ b/classic/schemas.ts\n@@ -1938,1 +1938,1 @@\n-  const hasRest = _paramsOrRest instanceof core.$ZodType;\n+  const hasRest = _paramsOrRest instanceof core.$ZodType && true;\n';
    const impact = ok(await zod.runTool('impact', { diff }));
    assert.deepEqual((impact.structured.changed as Array<{ id: string }>).map((c) => c.id), [BODY]);
    // A hunk in the first signature (line 1924) and one in the body: one function changed, listed once.
    const both = ok(await zod.runTool('impact', { diff: diff.replace('@@ -1938,1 +1938,1 @@\n', '@@ -1924,1 +1924,1 @@\n-  items: T,\n+  items: T ,\n@@ -1938,1 +1938,1 @@\n') }));
    assert.deepEqual((both.structured.changed as Array<{ id: string }>).map((c) => c.id), [BODY], both.text);
    assert.ok((impact.structured.affected as Array<{ id: string; distance: number }>).some((a) => a.id === CALLER && a.distance === 1), impact.text);
  } finally {
    await zod.close();
  }
});

test('a name shared by a module and the one definition it is named after is that definition; other shared names stay ambiguous', async () => {
  // Real gson: JsonParser.java holds the class JsonParser.
  const gson = await LocalRepository.open(path.join(FIXTURES, 'real', 'gson'), { storeDir: null });
  try {
    await gson.index();
    const fetched = ok(await gson.runTool('fetch_node', { name: 'JsonParser', source: false }));
    assert.equal(fetched.structured.kind, 'Class', fetched.text);
    assert.match(fetched.structured.id as string, /JsonParser\.java#JsonParser$/);
    // parseReader has two overloads of its own in Java (separate bodies): still a choice.
    const ambiguous = ok(await gson.runTool('fetch_node', { name: 'parseReader', source: false }));
    assert.equal(ambiguous.structured.ambiguous, true, ambiguous.text);
  } finally {
    await gson.close();
  }
});
