// JavaScript that is in a repository but is not its code: minified builds and third-party bundles
// copied into a `vendor/` folder (Django's admin ships jQuery, Select2 and XRegExp that way, each
// twice: readable and `.min.js`). Indexed, they crowd search results with thousands of definitions
// nobody in the project wrote (jQuery alone: ~10k lines) and one-line files of single-letter names.
// The rules are deliberately narrow and only ever apply to .js/.mjs/.cjs files — never TypeScript or
// Python, which are not shipped minified:
//   - the name says so: `*.min.js`, `*.min.mjs`, `*.min.cjs`;
//   - a folder on the path is named `vendor` or `vendors` (the convention GitHub's linguist also
//     treats as vendored code);
//   - the text is minified: at least 1 KiB with lines averaging more than 110 characters (linguist's
//     test for minified files; hand-written code averages 25-45).
// Whoever wants them anyway turns the rules off (`--include-minified`, `cartograph.indexMinified`).
import type { SkipReason } from './readSource';

export interface BundledSkip {
  reason: Extract<SkipReason, 'minified' | 'vendored'>;
  detail: string;
}

const SCRIPT = /\.[cm]?js$/i;
const MINIFIED_NAME = /\.min\.[cm]?js$/i;
const VENDOR_FOLDER = /(?:^|\/)vendors?\//i;
const MIN_MINIFIED_SIZE = 1024;
const MAX_AVERAGE_LINE = 110;

/** Why the file at `relPath` (root-relative, '/' separators) is skipped by name or folder, if it is. */
export function bundledByPath(relPath: string): BundledSkip | undefined {
  if (!SCRIPT.test(relPath)) return undefined;
  if (MINIFIED_NAME.test(relPath)) return { reason: 'minified', detail: 'a .min.js build' };
  const vendor = VENDOR_FOLDER.exec(relPath);
  if (vendor) return { reason: 'vendored', detail: `JavaScript in the ${vendor[0].replace(/^\/|\/$/g, '')}/ folder` };
  return undefined;
}

/**
 * Whether a file indexed before, of `bytes` and `lines`, could be minified by content: a warm start
 * reuses unchanged files unread, so one indexed while the rules were off must be read again. Bytes
 * are never fewer than characters, so this never misses a file `bundledByContent` would skip.
 */
export function mayBeMinified(relPath: string, bytes: number, lines: number): boolean {
  return SCRIPT.test(relPath) && bytes >= MIN_MINIFIED_SIZE && bytes / Math.max(lines, 1) > MAX_AVERAGE_LINE;
}

/** Why `text`, the content of `relPath`, is skipped as minified, if it is. */
export function bundledByContent(relPath: string, text: string): BundledSkip | undefined {
  if (!SCRIPT.test(relPath) || text.length < MIN_MINIFIED_SIZE) return undefined;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  const average = text.length / lines;
  if (average <= MAX_AVERAGE_LINE) return undefined;
  return { reason: 'minified', detail: `${lines} line${lines === 1 ? '' : 's'} averaging ${Math.round(average)} characters` };
}
