// Real-code fixtures: an npm package fetched once with `npm pack`, unpacked under test/.cache/
// (gitignored) and reused by later runs. Tests skip when npm or the registry is unavailable.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CACHE_DIR = path.join(__dirname, '..', '.cache');

/**
 * The unpacked `package/` folder of `spec` (e.g. `rxjs@7.8.1`), or a reason string when it cannot
 * be fetched. Synchronous: the first call runs `npm pack` (seconds), later calls only stat the cache.
 */
export function packedPackage(spec: string): { dir: string } | { skip: string } {
  const dest = path.join(CACHE_DIR, spec.replace(/[^\w.@-]+/g, '_'));
  const marker = path.join(dest, '.complete');
  const dir = path.join(dest, 'package');
  if (fs.existsSync(marker)) return { dir };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-pack-'));
  try {
    const out = execFileSync('npm', ['pack', spec, '--silent'], { cwd: work, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = out.trim().split('\n').pop() ?? '';
    if (!tarball || !fs.existsSync(path.join(work, tarball))) return { skip: `npm pack ${spec} produced no tarball` };
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    execFileSync('tar', ['xzf', path.join(work, tarball), '-C', dest], { timeout: 60_000, stdio: 'ignore' });
    fs.writeFileSync(marker, `${spec}\n`);
    return { dir };
  } catch (err) {
    return { skip: `npm pack ${spec} unavailable: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Every file under `dir` whose name matches `pattern`, sorted, as absolute paths. */
export function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.join(abs, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (pattern.test(entry.name)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}
