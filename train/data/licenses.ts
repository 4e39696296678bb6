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

/**
 * A Debian copyright file in DEP-5 format: every `Files:` paragraph that covers upstream files (not
 * only `debian/*`, the packaging) must carry a permissive license. A free-form file cannot be
 * checked mechanically and is refused rather than guessed.
 */
export function checkDebianCopyright(text: string): LicenseCheck {
  if (!/^Format:\s*\S/m.test(text) || !/^Files:/m.test(text)) {
    return { ok: false, licenses: [], families: [], reason: 'copyright file is not machine-readable (DEP-5)' };
  }
  const licenses: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const files = /^Files:\s*((?:.*)(?:\n[ \t]+.*)*)/m.exec(paragraph);
    const license = /^License:\s*(.*)$/m.exec(paragraph);
    if (!files || !license) continue;
    const patterns = files[1].split(/\s+/).filter(Boolean);
    if (patterns.every((p) => p.startsWith('debian/'))) continue;
    const expression = license[1].trim();
    if (expression && !licenses.includes(expression)) licenses.push(expression);
  }
  return summarise(licenses);
}

/** package.json's `license` (SPDX string) or the old `licenses: [{type}]` array. */
export function checkNpmLicense(pkg: { license?: unknown; licenses?: unknown }): LicenseCheck {
  const raw = typeof pkg.license === 'string'
    ? [pkg.license]
    : Array.isArray(pkg.licenses) ? pkg.licenses.map((l) => (typeof l === 'object' && l && 'type' in l ? String(l.type) : String(l))) : [];
  return summarise(raw.map((l) => l.trim()).filter(Boolean));
}
