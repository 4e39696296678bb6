// Validation is held out by package, not by function: functions of one package share names, helpers
// and docstring style, so a per-function split would measure memorisation of the package.
import { createHash } from 'node:crypto';

export interface SplitInput { name: string; language: string }

/**
 * The validation packages: per language, the first round(share·n) packages (at least one when a
 * language has two or more) in an order fixed by sha1(seed:name). The same seed and package list
 * give the same split on every machine.
 */
export function validationPackages(packages: readonly SplitInput[], seed: string, share: number): Set<string> {
  const byLanguage = new Map<string, string[]>();
  for (const p of packages) byLanguage.set(p.language, [...(byLanguage.get(p.language) ?? []), p.name]);
  const out = new Set<string>();
  for (const names of byLanguage.values()) {
    const ordered = [...new Set(names)].sort((a, b) => (rank(seed, a) < rank(seed, b) ? -1 : 1));
    const take = ordered.length < 2 ? 0 : Math.max(1, Math.round(share * ordered.length));
    ordered.slice(0, take).forEach((n) => out.add(n));
  }
  return out;
}

function rank(seed: string, name: string): string {
  return createHash('sha1').update(`${seed}:${name}`).digest('hex');
}
