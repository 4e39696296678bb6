// A package's imports of its own name (`import { z } from 'zod'` in zod's own tests) resolved to its
// own files instead of an External node: package.json `name` and `exports` become path mappings for
// the files under the package's folder, added to the tsconfig mappings those files already use.
// Export targets usually name built files (`./dist/esm/index.js`); the source they were built from
// (`src/index.ts`) is tried too. Mappings that find no file fall through to External, as before.
import * as posix from 'node:path/posix';
import type { TsConfig } from './tsconfig';

interface PackageJson {
  name?: unknown;
  exports?: unknown;
  main?: unknown;
  module?: unknown;
  types?: unknown;
}

/** Every string leaf of an `exports` condition tree. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targets);
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

/** A built target and the source files it is likely built from. */
function withSources(dir: string, target: string): string[] {
  const rel = posix.normalize(target).replace(/^\.\//, '').replace(/\.d\.(ts|mts|cts)$/, '');
  const source = rel.replace(/^(dist|lib|build|out)\/((esm|cjs|mjs|types|src)\/)?/, 'src/');
  return [...new Set([rel, source])].map((p) => posix.join(dir, p));
}

/** The self-reference mappings of one package.json at `dir` ('' for the root), or none without a name. */
export function packageSelfPaths(dir: string, text: string | undefined): TsConfig['paths'] {
  let json: PackageJson;
  try {
    json = JSON.parse(text ?? '') as PackageJson;
  } catch {
    return [];
  }
  if (!json || typeof json.name !== 'string' || json.name === '') return [];
  const name = json.name;
  const exportsMap = json.exports && typeof json.exports === 'object' && !Array.isArray(json.exports) ? (json.exports as Record<string, unknown>) : undefined;
  const subpaths = exportsMap && Object.keys(exportsMap).every((k) => k.startsWith('.')) ? exportsMap : { '.': json.exports ?? [json.module, json.main, json.types] };
  const paths: TsConfig['paths'] = [];
  for (const [subpath, value] of Object.entries(subpaths)) {
    const pattern = subpath === '.' ? name : `${name}/${subpath.replace(/^\.\//, '')}`;
    const subs = targets(value).flatMap((t) => withSources(dir, t));
    if (subpath === '.') subs.push(posix.join(dir, 'src/index'), posix.join(dir, 'index'));
    paths.push({ pattern, substitutions: [...new Set(subs)] });
  }
  // Deep imports without an exports map: the package's folders as they are, and its src/.
  if (!exportsMap) paths.push({ pattern: `${name}/*`, substitutions: [posix.join(dir, '*'), posix.join(dir, 'src/*')] });
  return paths;
}

/**
 * The tsconfigs with each package's self mappings added for the files under it: appended to every
 * config at or below the package's folder, and a config of its own at the folder (a copy of the
 * nearest config above, which it would otherwise hide) when there is none.
 */
export function withPackageSelfPaths(configs: TsConfig[], packages: Array<{ dir: string; paths: TsConfig['paths'] }>): TsConfig[] {
  const within = (dir: string, root: string) => root === '' || dir === root || dir.startsWith(`${root}/`);
  const out = configs.map((c) => ({ ...c, paths: [...c.paths] }));
  // Outer packages first, so an inner package's own folder config copies the outer mappings too.
  for (const pkg of [...packages].sort((a, b) => a.dir.length - b.dir.length)) {
    if (pkg.paths.length === 0) continue;
    if (!out.some((c) => c.dir === pkg.dir)) {
      const above = out.filter((c) => within(pkg.dir, c.dir)).sort((a, b) => b.dir.length - a.dir.length)[0];
      out.push({ dir: pkg.dir, baseUrl: above?.baseUrl ?? null, paths: [...(above?.paths ?? [])] });
    }
    for (const c of out) if (within(c.dir, pkg.dir)) c.paths.push(...pkg.paths.map((p) => ({ ...p, selfReference: true })));
  }
  return out;
}
