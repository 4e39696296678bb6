// Which licenses a training source may carry, read from Debian's machine-readable copyright files
// (DEP-5) or an npm package.json. Only permissive licenses whose terms a shipped model can honour
// with an attribution list in its card: MIT, BSD, Apache-2.0, PSF, ISC.

export type LicenseFamily = 'MIT' | 'BSD' | 'Apache-2.0' | 'PSF' | 'ISC';

/**
 * One license short name (`Expat`, `BSD-3-clause`, `Apache-2`, `PSF-2`) -> its family, or null when not
 * permissive. Debian names variant texts after their family (`BSD-3-clause-bendersky`, `MIT-style`):
 * those count as the family; anything unknown (`other`, `public-domain`, `CC0`) is refused.
 */
export function licenseFamily(shortName: string): LicenseFamily | null {
  const n = shortName.trim().replace(/\s+with\s+.*$/i, '').replace(/\+$/, '').toLowerCase();
  // A compound written as one name (`Expat-and-Amazon-License`) is as strong as its unknown part.
  if (/(^|[-\s])and([-\s]|$)/.test(n)) return null;
  if (/^(mit|expat|mit-0|x11)(\b|$)/.test(n)) return 'MIT';
  if (/^(0bsd|bsd(-[234]-clause)?(\b|$))/.test(n)) return 'BSD';
  if (/^apache([- ]?(license[- ])?(version[- ])?2(\.0)?)$/.test(n)) return 'Apache-2.0';
  if (/^(psf|psfl|python)(-?v?2(\.0)?)?(\b|$)/.test(n)) return 'PSF';
  if (n === 'isc') return 'ISC';
  return null;
}

export interface LicenseCheck {
  ok: boolean;
  /** The license expressions found, as written (upstream files only). */
  licenses: string[];
  families: LicenseFamily[];
  /** Why a source was refused; empty when ok. */
  reason: string;
}

/**
 * An SPDX-like expression: `A or B` needs one permissive alternative, `A and B` (or `A, B`) needs
 * all; parentheses are not nested in practice in these files, so a flat reading is enough.
 */
export function expressionFamilies(expression: string): LicenseFamily[] | null {
  const alternatives = expression.split(/\s+or\s+|\s*\|\s*/i);
  for (const alt of alternatives) {
    const parts = alt.replace(/[()]/g, ' ').split(/\s+and\s+|\s*,\s*/i).map((p) => p.trim()).filter(Boolean);
    const families = parts.map(licenseFamily);
    if (parts.length && families.every((f) => f !== null)) return families as LicenseFamily[];
  }
  return null;
}

function summarise(licenses: string[]): LicenseCheck {
  if (licenses.length === 0) return { ok: false, licenses, families: [], reason: 'no license found' };
  const families = new Set<LicenseFamily>();
  for (const expression of licenses) {
    const found = expressionFamilies(expression);
    if (!found) return { ok: false, licenses, families: [], reason: `not permissive: ${expression}` };
    found.forEach((f) => families.add(f));
  }
  return { ok: true, licenses, families: [...families].sort(), reason: '' };
}

/** One `Files:` paragraph of a DEP-5 copyright file: its patterns and its license expression. */
export interface CopyrightStanza {
  patterns: string[];
  license: string;
}

/** The `Files:` paragraphs in file order, or null when the file is not machine-readable (DEP-5). */
export function copyrightStanzas(text: string): CopyrightStanza[] | null {
  if (!/^Format:\s*\S/m.test(text) || !/^Files:/m.test(text)) return null;
  const stanzas: CopyrightStanza[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const files = /^Files:\s*((?:.*)(?:\n[ \t]+.*)*)/m.exec(paragraph);
    const license = /^License:\s*(.*)$/m.exec(paragraph);
    if (!files || !license) continue;
    stanzas.push({ patterns: files[1].split(/\s+/).filter(Boolean), license: license[1].trim() });
  }
  return stanzas;
}

/** Stanzas about the packaging only (`debian/*`): never read, so never counted. */
const isPackagingStanza = (s: CopyrightStanza) => s.patterns.every((p) => p.startsWith('debian/'));

const NOT_DEP5 = 'copyright file is not machine-readable (DEP-5)';

/**
 * A Debian copyright file in DEP-5 format: every `Files:` paragraph that covers upstream files (not
 * only `debian/*`, the packaging) must carry a permissive license. A free-form file cannot be
 * checked mechanically and is refused rather than guessed.
 */
export function checkDebianCopyright(text: string): LicenseCheck {
  const stanzas = copyrightStanzas(text);
  if (!stanzas) return { ok: false, licenses: [], families: [], reason: NOT_DEP5 };
  const licenses: string[] = [];
  for (const s of stanzas) if (!isPackagingStanza(s) && s.license && !licenses.includes(s.license)) licenses.push(s.license);
  return summarise(licenses);
}

function globRegExp(glob: string): RegExp {
  // DEP-5: `*` matches any run of characters, `/` included; `?` one character; nothing else is special.
  return new RegExp(`^${glob.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
}

/**
 * Whether a `Files:` pattern (a path in the upstream source tree) covers `rel`, a path as installed
 * under dist-packages. Source trees often put the package below a folder (`lib/matplotlib/x.py` is
 * installed as `matplotlib/x.py`), so the pattern is also tried from each of its literal components
 * that names the installed path's top-level entry; a pattern that never reaches that entry
 * (`doc/*`, `cextern/wcslib/*`) covers files that are not installed.
 */
export function patternCovers(pattern: string, rel: string): boolean {
  if (globRegExp(pattern).test(rel)) return true;
  const parts = pattern.split('/');
  const top = rel.split('/')[0];
  for (let k = 1; k < parts.length; k++) {
    if (/[*?]/.test(parts[k - 1])) return false;
    if (parts[k] === top && globRegExp(parts.slice(k).join('/')).test(rel)) return true;
  }
  return false;
}

/** The permissive license expressions covering one installed file, or null when any stanza covering it (or none) is not permissive. */
export function fileLicenses(stanzas: readonly CopyrightStanza[], rel: string): string[] | null {
  const covering = stanzas.filter((s) => !isPackagingStanza(s) && s.patterns.some((p) => patternCovers(p, rel)));
  if (covering.length === 0) return null;
  // Stricter than DEP-5's "the last matching paragraph wins": every paragraph that names the file must be permissive.
  if (covering.some((s) => !expressionFamilies(s.license))) return null;
  return [...new Set(covering.map((s) => s.license))];
}

/** A per-file reading of a Debian copyright file: which of `rels` may be read, and the licenses they carry. */
export interface FilesLicenseCheck extends LicenseCheck {
  admitted: string[];
  refused: string[];
  /** The non-permissive stanzas' licenses that cover at least one refused file. */
  refusedLicenses: string[];
}

/**
 * The per-file reading, for packages whose manifest entry asks for it (`"licenseScope": "files"`):
 * a file is read only when every stanza covering it is permissive (see fileLicenses); the package's
 * license is then that of the files admitted. Used where one stanza outside the list is for files
 * we never read (pandas' test HTML pages, astropy's C wcslib) or for a few modules we then skip.
 */
export function checkDebianCopyrightFiles(text: string, rels: readonly string[]): FilesLicenseCheck {
  const stanzas = copyrightStanzas(text);
  if (!stanzas) return { ok: false, licenses: [], families: [], reason: NOT_DEP5, admitted: [], refused: [...rels], refusedLicenses: [] };
  const admitted: string[] = [];
  const refused: string[] = [];
  const licenses = new Set<string>();
  const refusedLicenses = new Set<string>();
  for (const rel of rels) {
    const found = fileLicenses(stanzas, rel);
    if (found) {
      admitted.push(rel);
      found.forEach((l) => licenses.add(l));
    } else {
      refused.push(rel);
      for (const s of stanzas) if (!isPackagingStanza(s) && !expressionFamilies(s.license) && s.patterns.some((p) => patternCovers(p, rel))) refusedLicenses.add(s.license);
    }
  }
  const ordered = stanzas.map((s) => s.license).filter((l, i, all) => licenses.has(l) && all.indexOf(l) === i);
  const check = admitted.length ? summarise(ordered) : { ok: false, licenses: [], families: [], reason: 'no file under a permissive license' };
  return { ...check, admitted, refused, refusedLicenses: [...refusedLicenses] };
}

/** package.json's `license` (SPDX string) or the old `licenses: [{type}]` array. */
export function checkNpmLicense(pkg: { license?: unknown; licenses?: unknown }): LicenseCheck {
  const raw = typeof pkg.license === 'string'
    ? [pkg.license]
    : Array.isArray(pkg.licenses) ? pkg.licenses.map((l) => (typeof l === 'object' && l && 'type' in l ? String(l.type) : String(l))) : [];
  return summarise(raw.map((l) => l.trim()).filter(Boolean));
}
