// Evaluation code never enters training. The rule lives here, not in the manifest's omissions, so a
// source added later is refused by name even if nobody remembers why.

export type SourceKind = 'debian' | 'npm';

export interface SourceRef { kind: SourceKind; name: string }

/** Name patterns (`*` = any suffix) and why each is held out. */
const EVALUATION_RULES: { kind: SourceKind; pattern: string; why: string }[] = [
  // bench:search dev corpora
  ...['python3-flask', 'python3-requests', 'python3-click', 'python3-werkzeug', 'python3-django*'].map((pattern) => ({ kind: 'debian' as const, pattern, why: 'bench:search dev corpus' })),
  { kind: 'npm', pattern: 'rxjs', why: 'bench:search dev corpus' },
  // RxPY ports rxjs with its docstrings: the dev corpus's queries would be in training under another language.
  ...['python3-rx', 'python3-reactivex'].map((pattern) => ({ kind: 'debian' as const, pattern, why: 'port of the bench:search dev corpus rxjs, with its docs' })),
  // reserved for an independent evaluation
  ...['python3-jinja2', 'python3-sqlalchemy*', 'python3-pygments', 'python3-docutils', 'python3-numpy', 'python3-scipy'].map((pattern) => ({ kind: 'debian' as const, pattern, why: 'reserved for independent evaluation' })),
  // other benchmarks measure on these; training on them would flatter those figures too
  ...['zod', 'effect'].map((pattern) => ({ kind: 'npm' as const, pattern, why: 'corpus of another benchmark' })),
  // bench:context's unseen corpora (bench/fetch-corpora.sh UNSEEN=1): the completion may retrieve with this model
  ...['python3-attr', 'python3-httpx', 'python3-marshmallow'].map((pattern) => ({ kind: 'debian' as const, pattern, why: 'unseen corpus of bench:context' })),
  { kind: 'npm', pattern: 'mobx', why: 'corpus of bench:context' },
];

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Why `source` may not be trained on, or null when it may. */
export function evaluationReason(source: SourceRef): string | null {
  const rule = EVALUATION_RULES.find((r) => r.kind === source.kind && matches(r.pattern, source.name));
  return rule ? `${rule.why} (${rule.pattern})` : null;
}

/** Paths inside a package that are not its own library code: tests, vendored copies of other projects, examples. */
export function isLibraryPath(rel: string): boolean {
  const parts = rel.split('/');
  const file = parts[parts.length - 1];
  if (parts.some((p) => /^(tests?|testing|__tests__|test_utils|_vendor|vendor|vendored|_vendored|externals?|extern|examples?|benchmarks?|node_modules)$/.test(p))) return false;
  if (/^(test_.*|.*_test|conftest)\.py$/.test(file) || /\.(test|spec)\.tsx?$/.test(file) || file.endsWith('.d.ts')) return false;
  return true;
}
