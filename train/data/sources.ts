// Fetching sources through the registries' own clients (apt-get download + dpkg-deb -x, npm pack),
// cached under the data folder so a rerun downloads nothing; and the files of each that are its own code.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Language } from '../../src/core/model/schema';
import type { SourceKind } from './exclusions';
import { isLibraryPath } from './exclusions';
import { checkDebianCopyright, checkDebianCopyrightFiles, checkNpmLicense, type LicenseCheck } from './licenses';

export interface Source {
  kind: SourceKind;
  name: string;
  version: string;
  /**
   * Debian only. `package` (the default): every upstream stanza must be permissive. `files`: the
   * per-file reading (licenses.ts checkDebianCopyrightFiles), chosen in the manifest after review.
   */
  licenseScope?: 'package' | 'files';
}

export interface Unpacked {
  /** Folder whose files are the package's code. */
  root: string;
  license: LicenseCheck;
  files: { rel: string; language: Language }[];
  /** Per-file reading only: library files left out because a stanza covering them is not permissive. */
  refusedByLicense?: { files: string[]; licenses: string[] };
}

const PYTHON_DIST = 'usr/lib/python3/dist-packages';

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(err.stderr || err.message).trim().split('\n').slice(-3).join(' ')}`);
  }
}

/** The pinned version downloaded and unpacked once into `cache`; the version must still be in the archive/registry. */
export function unpack(source: Source, cache: string, { allFiles = false } = {}): Unpacked {
  const keep = allFiles ? () => true : isLibraryPath;
  return source.kind === 'debian' ? unpackDeb(source, cache, keep) : unpackNpm(source, cache, keep);
}

type PathFilter = (rel: string) => boolean;

function unpackDeb({ name, version, licenseScope }: Source, cache: string, keep: PathFilter): Unpacked {
  const debs = path.join(cache, 'deb');
  const dest = path.join(cache, 'src', `${name}_${version}`);
  fs.mkdirSync(debs, { recursive: true });
  if (!fs.existsSync(path.join(dest, '.done'))) {
    const fileVersion = version.replace(/:/g, '%3a');
    const find = () => fs.readdirSync(debs).find((f) => f.startsWith(`${name}_${fileVersion}_`) && f.endsWith('.deb'));
    if (!find()) {
      try {
        run('apt-get', ['download', `${name}=${version}`], debs);
      } catch (e) {
        // A fresh machine's package lists may predate the pinned point release (bookworm-security, -updates).
        throw new Error(`${(e as Error).message} (if the version is newer than this machine's package lists, run apt-get update first)`);
      }
    }
    const deb = find();
    if (!deb) throw new Error(`apt-get download ${name}=${version} left no .deb in ${debs}`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    run('dpkg-deb', ['-x', path.join(debs, deb), dest], debs);
    fs.writeFileSync(path.join(dest, '.done'), '');
  }
  const root = path.join(dest, PYTHON_DIST);
  const files = libraryFiles(root, (rel) => (rel.endsWith('.py') ? 'python' : undefined), keep);
  const copyright = path.join(dest, 'usr/share/doc', name, 'copyright');
  if (!fs.existsSync(copyright)) {
    return { root, files, license: { ok: false, licenses: [], families: [], reason: `no usr/share/doc/${name}/copyright in the package` } };
  }
  const text = fs.readFileSync(copyright, 'utf8');
  if (licenseScope !== 'files') return { root, files, license: checkDebianCopyright(text) };
  const { admitted, refused, refusedLicenses, ...license } = checkDebianCopyrightFiles(text, files.map((f) => f.rel));
  const keepFile = new Set(admitted);
  return { root, license, files: files.filter((f) => keepFile.has(f.rel)), refusedByLicense: { files: refused, licenses: refusedLicenses } };
}

function unpackNpm({ name, version }: Source, cache: string, keep: PathFilter): Unpacked {
  const tarballs = path.join(cache, 'npm');
  const dest = path.join(cache, 'src', `${name.replace('/', '__')}_${version}`);
  fs.mkdirSync(tarballs, { recursive: true });
  if (!fs.existsSync(path.join(dest, '.done'))) {
    const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
    if (!fs.existsSync(path.join(tarballs, tarball))) run('npm', ['pack', `${name}@${version}`, '--silent'], tarballs);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    run('tar', ['xzf', path.join(tarballs, tarball), '-C', dest], tarballs);
    fs.writeFileSync(path.join(dest, '.done'), '');
  }
  const root = path.join(dest, 'package');
  const license = checkNpmLicense(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')));
  const languageOf = (rel: string): Language | undefined => (rel.endsWith('.tsx') ? 'tsx' : rel.endsWith('.ts') ? 'typescript' : undefined);
  return { root, license, files: libraryFiles(root, languageOf, keep) };
}

function libraryFiles(root: string, languageOf: (rel: string) => Language | undefined, keep: PathFilter): { rel: string; language: Language }[] {
  const out: { rel: string; language: Language }[] = [];
  if (!fs.existsSync(root)) return out;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = path.join(dir, entry.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (keep(`${rel}/x`)) walk(abs);
        continue;
      }
      const language = entry.isFile() ? languageOf(rel) : undefined;
      if (language && keep(rel)) out.push({ rel, language });
    }
  };
  walk(root);
  return out;
}
