// tsconfig `paths` / `baseUrl` and `extends`: non-relative specifiers that point into the repository.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { TsConfigSet, loadTsConfig } from '../../src/core/graph/tsconfig';
import { parse } from './helpers';

const CONFIGS: Record<string, string> = {
  'tsconfig.base.json': '{ "compilerOptions": { "baseUrl": "./src", /* comments are fine */ "paths": { "@lib/*": ["lib/*"], "@config": ["config/index.ts"] } } }',
  'tsconfig.json': '{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true, }, }',
};

test('loadTsConfig follows extends, anchors paths at baseUrl and reads JSONC', () => {
  const config = loadTsConfig('tsconfig.json', (p) => CONFIGS[p])!;
  assert.equal(config.baseUrl, 'src');
  assert.deepEqual(config.paths, [
    { pattern: '@lib/*', substitutions: ['src/lib/*'] },
    { pattern: '@config', substitutions: ['src/config/index.ts'] },
  ]);
  const set = new TsConfigSet([config]);
  assert.deepEqual(set.candidates('src/app.ts', '@lib/strings').map((c) => c.path), ['src/lib/strings', 'src/@lib/strings']);
  assert.deepEqual(set.candidates('src/app.ts', 'react').map((c) => c.path), ['src/react']);
});

test('path-mapped and baseUrl imports resolve to repository files; packages stay external', async () => {
  const files = {
    'src/lib/strings.ts': 'export function camel(s: string): string { return s }\n',
    'src/config/index.ts': 'export const settings = { debug: false }\n',
    'src/util/math.ts': 'export class Vector {}\n',
    'src/app.ts': [
      "import { camel } from '@lib/strings'",
      "import { settings } from '@config'",
      "import { Vector } from 'util/math'",
      "import { useState } from 'react'",
      'export function main() { camel("x"); useState(settings); return new Vector() }',
    ].join('\n'),
  };
  const graph = new RepositoryGraph('repo');
  graph.apply({
    upsert: await Promise.all(Object.entries(files).map(([p, t]) => parse(p, t))),
    config: { tsconfigs: [loadTsConfig('tsconfig.json', (p) => CONFIGS[p])!], manifests: [], compiledModules: [] },
  });
  for (const edge of [
    'IMPORTS|src/app.ts|src/lib/strings.ts#camel',
    'IMPORTS|src/app.ts|src/config/index.ts#settings',
    'IMPORTS|src/app.ts|src/util/math.ts#Vector',
    'CALLS|src/app.ts#main|src/lib/strings.ts#camel',
    'CALLS|src/app.ts#main|src/util/math.ts#Vector',
    'CALLS|src/app.ts#main|ext:js:react.useState',
  ]) {
    assert.ok(graph.graph.hasEdge(edge), `missing ${edge}`);
  }
  assert.deepEqual(graph.importStats().internal, graph.importStats().resolved);
  // Without the config the same imports are external packages.
  const bare = new RepositoryGraph('repo');
  bare.apply({ upsert: await Promise.all(Object.entries(files).map(([p, t]) => parse(p, t))) });
  assert.ok(bare.graph.hasEdge('IMPORTS|src/app.ts|ext:js:@lib/strings.camel'));
});
