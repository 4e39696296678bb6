import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesExcludeToGitignore } from '../../src/extension/excludes';

test('files.exclude globs become gitignore patterns (true only, anchored unless **/, braces expanded)', () => {
  assert.deepEqual(
    filesExcludeToGitignore({
      '**/.git': true,
      '**/*.{pyc,pyo}': true,
      'build/generated': true,
      './out': true,
      '**/keep': false,
      '**/*.js': { when: '$(basename).ts' },
    }),
    ['**/.git', '**/*.pyc', '**/*.pyo', '/build/generated', '/out'],
  );
});
