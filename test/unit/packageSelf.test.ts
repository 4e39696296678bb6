// A package's imports of its own name (zod's tests import 'zod') resolve to its own files, through
// package.json `name` and `exports`; other packages stay External.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packageSelfPaths, withPackageSelfPaths } from '../../src/core/graph/packageSelf';
import { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { TsConfigSet } from '../../src/core/graph/tsconfig';
import { parse } from './helpers';

const ZOD_LIKE = JSON.stringify({
  name: 'zod',
  exports: { '.': { '@zod/source': './src/index.ts', types: './index.d.cts', import: './index.js' }, './v4/core': { import: './dist/esm/v4/core/index.js' } },
});

test('exports become self mappings, built targets with their likely sources; no name, no mappings', () => {
  const paths = packageSelfPaths('packages/zod', ZOD_LIKE);
  const root = paths.find((p) => p.pattern === 'zod')!;
  assert.ok(root.substitutions.includes('packages/zod/src/index.ts'));
  assert.ok(paths.find((p) => p.pattern === 'zod/v4/core')!.substitutions.includes('packages/zod/src/v4/core/index.js'), 'dist/esm/… → src/…');
  assert.deepEqual(packageSelfPaths('', '{"private": true}'), []);
  assert.deepEqual(packageSelfPaths('', 'not json'), []);
  // Inside the package only; a tsconfig above keeps its own mappings for the package's files.
  const set = new TsConfigSet(withPackageSelfPaths([{ dir: '', baseUrl: null, paths: [{ pattern: '@x/*', substitutions: ['x/*'] }] }], [{ dir: 'packages/zod', paths }]));
  assert.ok(set.candidates('packages/zod/tests/a.test.ts', 'zod').length > 0);
  assert.ok(set.candidates('packages/zod/tests/a.test.ts', '@x/y').length > 0, 'the root config still applies under the package');
  assert.equal(set.candidates('other/a.ts', 'zod').length, 0, 'outside the package, zod is the published package');
});

test("a package's tests that import it by name call into its own files; an unknown package stays External", async () => {
  const files = {
    'packages/zod/src/index.ts': 'export function treeifyError(e: unknown) { return e }\n',
    'packages/zod/tests/errors.test.ts': "import { treeifyError } from 'zod'\nimport { render } from 'react'\nexport function check() { treeifyError(1); render() }\n",
  };
  const graph = new RepositoryGraph('repo');
  graph.apply({
    upsert: await Promise.all(Object.entries(files).map(([p, t]) => parse(p, t))),
    config: { tsconfigs: withPackageSelfPaths([], [{ dir: 'packages/zod', paths: packageSelfPaths('packages/zod', ZOD_LIKE) }]), manifests: [], compiledModules: [] },
  });
  assert.ok(graph.graph.hasEdge('CALLS|packages/zod/tests/errors.test.ts#check|packages/zod/src/index.ts#treeifyError'));
  assert.ok(graph.graph.hasEdge('CALLS|packages/zod/tests/errors.test.ts#check|ext:js:react.render'));
});
