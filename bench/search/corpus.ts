// Corpora for the search benchmark: the TypeScript package (fetched with `npm pack`, pinned), the
// ground truth (documented functions and methods -> first docstring sentence) and the stripped copy
// (docstrings and JSDoc removed with tree-sitter, so node ids stay `path#Qualified.name`).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { Engine } from '../../src/core/engine';
import type { GraphNode } from '../../src/core/model/schema';
import { ParserPool } from '../../src/core/parse/parser';
import { languageOf } from '../../src/core/parse/languages';
import { firstSentence, wordCount } from './metrics';

export const CORPORA = path.join(__dirname, '..', '.corpora');

export interface TsPackage {
  name: string;
  version: string;
  /** The TypeScript sources inside the tarball's `package/`. */
  sources: string;
  /** Paths under `sources` left out (tests, generated locales). */
  skip?: RegExp;
}

/** rxjs ships its TypeScript sources (src/) with JSDoc prose written for its API docs. */
export const TS_PACKAGE: TsPackage = { name: 'rxjs', version: '7.8.1', sources: 'src' };

/** zod ships its sources too; v4 (core + classic API) without its tests and locale tables. */
export const ZOD_PACKAGE: TsPackage = { name: 'zod', version: '4.6.7', sources: 'src/v4', skip: /(^|\/)(tests|locales)(\/|$)/ };

/**
 * mobx ships its TypeScript sources too (MIT). Held out from tuning: no completion-context change was
 * developed on it (issue 19's check that the figures hold on code never looked at); bench:context
 * measures it only when `--corpora mobx` names it.
 */
export const MOBX_PACKAGE: TsPackage = { name: 'mobx', version: '7.1.3', sources: 'src' };

/** `bench/.corpora/<name>/src` from `npm pack <name>@<version>` (fetched once; the version is recorded in VERSIONS). */
export function ensureTsPackage(pkg: TsPackage = TS_PACKAGE): string {
  const { name, version } = pkg;
  const dest = path.join(CORPORA, name);
  const marker = path.join(dest, '.version');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === version) return dest;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-search-pack-'));
  try {
    const out = execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = out.trim().split('\n').pop()!;
    execFileSync('tar', ['xzf', path.join(work, tarball), '-C', work]);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    // Only the TypeScript sources (its dist/ would index each module several times).
    const from = path.join(work, 'package', pkg.sources);
    fs.cpSync(from, path.join(dest, 'src'), { recursive: true, filter: (p) => !pkg.skip?.test(path.relative(from, p)) });
    for (const f of ['package.json', 'LICENSE.txt', 'LICENSE']) if (fs.existsSync(path.join(work, 'package', f))) fs.copyFileSync(path.join(work, 'package', f), path.join(dest, f));
    fs.writeFileSync(marker, `${version}\n`);
    const versions = path.join(CORPORA, 'VERSIONS');
    const lines = fs.existsSync(versions) ? fs.readFileSync(versions, 'utf8').split('\n').filter((l) => l && !l.startsWith(`npm:${name} `)) : [];
    fs.writeFileSync(versions, `${[...lines, `npm:${name} ${version}`].sort().join('\n')}\n`);
    return dest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function corpusVersions(): Record<string, string> {
  const file = path.join(CORPORA, 'VERSIONS');
  if (!fs.existsSync(file)) return {};
  return Object.fromEntries(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => [l.split(' ')[0], l.slice(l.indexOf(' ') + 1)]));
}

/** Overloads and redefinitions (`f@2`) are one function for relevance. */
export function keyOf(id: string): string {
  return id.replace(/@\d+$/, '');
}

export interface GroundTruth {
  id: string;
  key: string;
  kind: string;
  name: string;
  qname: string;
  path: string;
  query: string;
}

/** Every Function/Method whose docstring's first sentence has at least 3 words, one query per function. */
export function groundTruth(engine: Engine): GroundTruth[] {
  const out = new Map<string, GroundTruth>();
  engine.graph.graph.forEachNode((id: string, a: GraphNode) => {
    if (a.kind !== 'Function' && a.kind !== 'Method') return;
    const query = a.language === 'go' ? withoutGoDocName(firstSentence(a.doc), a.name) : firstSentence(a.doc);
    if (wordCount(query) < 3) return;
    const key = keyOf(id);
    if (!out.has(key)) out.set(key, { id, key, kind: a.kind, name: a.name, qname: a.qname, path: a.path, query });
  });
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/**
 * GoDoc sentences start with the name they document ("Execute uses the args…"): a query that spells
 * out the answer measures nothing, so the name (and a leading article) goes.
 */
export function withoutGoDocName(sentence: string, name: string): string {
  const m = new RegExp(`^(?:(?:A|An|The)\\s+)?${name.replace(/[$]/g, '\\$')}\\b\\s*`).exec(sentence);
  return m ? sentence.slice(m[0].length) : sentence;
}

function isStandaloneLine(text: string, start: number, end: number): { from: number; to: number } | null {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', end);
  if (lineEnd < 0) lineEnd = text.length;
  if (text.slice(lineStart, start).trim() !== '' || text.slice(end, lineEnd).trim() !== '') return null;
  return { from: lineStart, to: Math.min(text.length, lineEnd + 1) };
}

export interface Edit { from: number; to: number; insert: string }

/** Python function/class docstrings under `root` (inclusive) as edits on `text`. */
export function pythonEdits(root: Node, text: string): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    if (node.type === 'function_definition' || node.type === 'class_definition') {
      const body = node.childForFieldName('body');
      const statements = body ? body.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment') : [];
      const first = statements[0];
      const str = first?.type === 'expression_statement' ? first.firstNamedChild : null;
      if (first && str && (str.type === 'string' || str.type === 'concatenated_string') && first.namedChildCount === 1) {
        // Byte offsets from tree-sitter are UTF-8; the edit works on the JS string, so use code-unit indices.
        const [s, e] = [codeUnitIndex(text, first.startIndex), codeUnitIndex(text, first.endIndex)];
        const line = isStandaloneLine(text, s, e);
        if (statements.length === 1) edits.push({ from: s, to: e, insert: 'pass' });
        else if (line) edits.push({ ...line, insert: '' });
        else edits.push({ from: s, to: e, insert: 'pass' });
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return edits;
}

/** Every JSDoc comment under `root` as edits on `text`. */
export function tsEdits(root: Node, text: string): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    if (node.type === 'comment' || node.type === 'block_comment') { // Java's Javadoc is a block_comment
      const [s, e] = [codeUnitIndex(text, node.startIndex), codeUnitIndex(text, node.endIndex)];
      if (text.startsWith('/**', s)) edits.push({ ...(isStandaloneLine(text, s, e) ?? { from: s, to: e }), insert: '' });
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return edits;
}

/** Declarations a GoDoc comment documents (go/doc): top level, struct fields and interface methods. */
const GO_DOCUMENTED = new Set([
  'function_declaration', 'method_declaration', 'type_declaration', 'var_declaration', 'const_declaration',
  'type_spec', 'type_alias', 'var_spec', 'const_spec', 'field_declaration', 'method_elem',
]);

/** Every GoDoc comment group (the comments right above a declaration, no blank line between) as edits on `text`. */
export function goEdits(root: Node, text: string): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    const children = node.children.filter((c): c is Node => c !== null);
    children.forEach((child, i) => {
      if (child.type !== 'comment') return visit(child);
      // The group this comment starts or continues must reach a declaration on the next line.
      let j = i;
      while (children[j + 1]?.type === 'comment' && children[j + 1].startPosition.row === children[j].endPosition.row + 1) j++;
      const next = children[j + 1];
      if (!next || !GO_DOCUMENTED.has(next.type) || next.startPosition.row !== children[j].endPosition.row + 1) return;
      const [s, e] = [codeUnitIndex(text, child.startIndex), codeUnitIndex(text, child.endIndex)];
      const line = isStandaloneLine(text, s, e);
      if (line) edits.push({ ...line, insert: '' });
    });
  };
  visit(root);
  return edits;
}

/** Every rustdoc comment under `root` (line `///` and `//!`, block `/**` and `/*!`) as edits on `text`. */
export function rustEdits(root: Node, text: string): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    if (node.type === 'line_comment' || node.type === 'block_comment') {
      const [s, e] = [codeUnitIndex(text, node.startIndex), codeUnitIndex(text, node.endIndex)];
      const doc = /^(\/\/[/!](?!\/)|\/\*[*!](?![*/]))/.test(text.slice(s, s + 4));
      if (doc) edits.push({ ...(isStandaloneLine(text, s, e) ?? { from: s, to: e }), insert: '' });
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return edits;
}

// web-tree-sitter reports indices in UTF-16 code units for JS strings already (it parses the string
// as UTF-16), so this is the identity; kept as one place to change if that ever differs.
function codeUnitIndex(_text: string, index: number): number {
  return index;
}

export function applyEdits(text: string, edits: Edit[]): string {
  edits.sort((a, b) => b.from - a.from);
  let out = text;
  let limit = Infinity;
  for (const e of edits) {
    if (e.to > limit) continue; // overlapping (nested) edit: the outer one already went
    out = out.slice(0, e.from) + e.insert + out.slice(e.to);
    limit = e.from;
  }
  return out;
}

function walk(dir: string, base = dir, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(abs, base, out);
    else out.push(path.relative(base, abs));
  }
  return out;
}

export interface StripReport { dir: string; files: number; strippedFiles: number; removed: number }

/** A copy of `src` in a temp folder with function/class docstrings (Python), all JSDoc/Javadoc/rustdoc (TS/JS/Java/Rust) and GoDoc removed. */
export async function stripCopy(src: string, pool: ParserPool): Promise<StripReport> {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-stripped-')), path.basename(src));
  let strippedFiles = 0;
  let removed = 0;
  const files = walk(src);
  for (const rel of files) {
    const from = path.join(src, rel);
    const to = path.join(dir, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const language = languageOf(rel);
    if (!fs.existsSync(from)) continue; // dangling symlink (Debian links shared assets to other packages)
    if (!language || rel.endsWith('.d.ts')) {
      fs.copyFileSync(from, to);
      continue;
    }
    const text = fs.readFileSync(from, 'utf8');
    const parser = await pool.parser(language);
    const tree = parser.parse(text);
    if (!tree) throw new Error(`cannot parse ${rel}`);
    const edits = language === 'python' ? pythonEdits(tree.rootNode, text) : language === 'go' ? goEdits(tree.rootNode, text) : language === 'rust' ? rustEdits(tree.rootNode, text) : tsEdits(tree.rootNode, text);
    tree.delete();
    if (edits.length) {
      strippedFiles++;
      removed += edits.length;
    }
    fs.writeFileSync(to, applyEdits(text, edits));
  }
  return { dir, files: files.length, strippedFiles, removed };
}
