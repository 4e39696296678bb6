// tsconfig/jsconfig `baseUrl` and `paths`, the non-relative specifiers a TS code base maps to its
// own files (`@/lib/x`, `app/models`). Each source file uses the nearest config above it.
import * as posix from 'node:path/posix';
import { parse as parseJsonc } from 'jsonc-parser';
import { dirOf } from './moduleKeys';

export interface TsConfig {
  /** Repository-relative folder of the config file ('' for the root). */
  dir: string;
  /** Repository-relative baseUrl, or null. */
  baseUrl: string | null;
  /** Patterns → substitutions, substitutions already relative to the repository root. */
  paths: Array<{ pattern: string; substitutions: string[]; /** A package's own name (packageSelf.ts): no file found means External, not missing. */ selfReference?: boolean }>;
}

export interface SpecifierCandidate {
  path: string;
  isPathMapping: boolean;
}

/** Reads a config's compilerOptions, following relative `extends` through `readText` (repo-relative paths). */
export function loadTsConfig(configPath: string, readText: (path: string) => string | undefined, depth = 0): TsConfig | undefined {
  const text = readText(configPath);
  if (text === undefined || depth > 8) return undefined;
  const json = parseJsonc(text, [], { allowTrailingComma: true }) as
    | { extends?: string | string[]; compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } }
    | undefined;
  if (!json || typeof json !== 'object') return undefined;
  const dir = dirOf(configPath);
  let inherited: TsConfig | undefined;
  for (const parent of [json.extends ?? []].flat()) {
    if (typeof parent === 'string' && parent.startsWith('.')) {
      const parentPath = posix.normalize(posix.join(dir, parent.endsWith('.json') ? parent : `${parent}.json`));
      inherited = loadTsConfig(parentPath, readText, depth + 1) ?? inherited;
    }
  }
  const options = json.compilerOptions ?? {};
  const baseUrl = typeof options.baseUrl === 'string' ? clean(posix.join(dir, options.baseUrl)) : inherited?.baseUrl ?? null;
  let paths = inherited?.paths ?? [];
  if (options.paths && typeof options.paths === 'object') {
    // Substitutions are relative to baseUrl when set, else to the config that declares them.
    const anchor = typeof options.baseUrl === 'string' ? baseUrl! : dir;
    paths = Object.entries(options.paths).map(([pattern, subs]) => ({
      pattern,
      substitutions: (Array.isArray(subs) ? subs : []).map((s) => clean(posix.join(anchor, s))),
    }));
  }
  return { dir, baseUrl, paths };
}

function clean(path: string): string {
  const normalized = posix.normalize(path);
  return normalized === '.' ? '' : normalized.replace(/^\.\//, '').replace(/\/$/, '');
}

export class TsConfigSet {
  private readonly configs: TsConfig[];

  constructor(configs: TsConfig[] = []) {
    // Deepest first, so the nearest config is found first.
    this.configs = [...configs].sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : 1));
  }

  get size(): number {
    return this.configs.length;
  }

  private configFor(filePath: string): TsConfig | undefined {
    return this.configs.find((c) => c.dir === '' || filePath.startsWith(`${c.dir}/`));
  }

  /** Repository paths a non-relative specifier may stand for, in the order TypeScript tries them. */
  candidates(filePath: string, specifier: string): SpecifierCandidate[] {
    const config = this.configFor(filePath);
    if (!config) return [];
    const out: SpecifierCandidate[] = [];
    for (const { pattern, substitutions, selfReference } of config.paths) {
      const star = pattern.indexOf('*');
      let matched: string | null = null;
      if (star < 0) matched = pattern === specifier ? '' : null;
      else {
        const prefix = pattern.slice(0, star);
        const suffix = pattern.slice(star + 1);
        if (specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length) {
          matched = specifier.slice(prefix.length, specifier.length - suffix.length);
        }
      }
      if (matched === null) continue;
      for (const sub of substitutions) out.push({ path: clean(sub.replace('*', matched)), isPathMapping: !selfReference });
    }
    if (config.baseUrl !== null) out.push({ path: clean(posix.join(config.baseUrl, specifier)), isPathMapping: false });
    return out;
  }
}
