// Which tsconfig/jsconfig files apply to the repository's files, read from disk. The engine passes
// them to the graph; the query snapshot reads them again to tell whether its graph still matches.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageSelfPaths, withPackageSelfPaths } from '../graph/packageSelf';
import { loadTsConfig, type TsConfig } from '../graph/tsconfig';
import { languageOf } from '../parse/languages';

export const TSCONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** Every folder that holds, or is above, a TS/JS file of `paths` ('' for the root), sorted. */
export function tsconfigDirs(paths: Iterable<string>): string[] {
  const dirs = new Set<string>();
  for (const p of paths) {
    const language = languageOf(p);
    if (language !== 'typescript' && language !== 'tsx' && language !== 'javascript') continue;
    for (let dir = path.posix.dirname(p); ; dir = path.posix.dirname(dir)) {
      const key = dir === '.' ? '' : dir;
      if (dirs.has(key)) break;
      dirs.add(key);
      if (key === '') break;
    }
  }
  return [...dirs].sort();
}

/**
 * The config of each folder in `dirs` that has one (tsconfig.json before jsconfig.json), with each
 * package.json's own name mapped to its files (a package importing itself by name).
 */
export function readTsConfigs(root: string, dirs: readonly string[]): TsConfig[] {
  const read = (rel: string) => {
    try {
      return fs.readFileSync(path.join(root, rel), 'utf8');
    } catch {
      return undefined;
    }
  };
  const configs: TsConfig[] = [];
  for (const dir of dirs) {
    for (const name of TSCONFIG_NAMES) {
      const config = loadTsConfig(dir ? `${dir}/${name}` : name, read);
      if (config) {
        configs.push(config);
        break;
      }
    }
  }
  const packages = dirs.map((dir) => ({ dir, paths: packageSelfPaths(dir, read(dir ? `${dir}/package.json` : 'package.json')) }));
  return withPackageSelfPaths(configs, packages);
}
