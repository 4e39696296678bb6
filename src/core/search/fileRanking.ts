// Issue → file localization: "which files does this bug report concern?". Per-definition ranking
// alone loses to plain BM25 over whole files here: an issue's words are spread over several small
// definitions of the file that needs the fix, and no single definition gathers enough of them. A file
// is ranked by two pieces of evidence, each normalised by its best file:
//   - its definitions: the definition-level lexical scores of the query, summed over the file's best
//     few definitions with decaying weights (evidence spread over a file adds up; a file of a thousand
//     weak matches does not beat one with three strong ones);
//   - its whole text: BM25 (MiniSearch) over what the per-file graph knows of the file — path, names,
//     signatures and docstrings, the names its code mentions, and at a lower weight its string literals
//     and comments (where error messages and dict keys an issue quotes live).
// Then the files the question names (fileMentions.ts) gain, and test support (tests, conftest, testing
// helpers), which a fix rarely touches, loses.
import MiniSearch from 'minisearch';
import type { ReadonlyGraph } from '../graph/describe';
import type { FileGraph } from '../parse/fileGraph';
import { forEachSliced } from '../eventLoop';
import { FileMentions } from './fileMentions';
import { searchableWords } from './lexical';
import { memoizedStemmer } from './stems';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

export { filesQuery } from './filesQuery';

export interface FileHit {
  /** Repository-relative path. */
  path: string;
  score: number;
  /** The definitions whose lexical scores counted for the file, best first. */
  definitions: SearchHit[];
  /** The file's whole-text score relative to the best file's (0 when its text did not match). */
  text: number;
}

export interface FileRanking {
  query: string;
  hits: FileHit[];
  /** Per step; `indexBuild` is the time it waited for the indexes to be built first. */
  timingsMs: Record<string, number>;
}

/** Weights of the file's best definitions: the best counts fully, the next ones less and less. */
const DEFINITION_WEIGHTS = [1, 0.5, 0.25, 0.125];
/** Share of the definition evidence in a file's score; the whole-file text has the rest. */
const DEFINITION_SHARE = 0.5;
/** Bundled or vendored JavaScript repeats the words of everything it bundles: it ranks at a fraction of its score. */
const BUNDLE = /(?:\.min\.js|[.-]bundle\.js)$|(?:^|\/)(?:vendor|vendored|third_party)\//i;
const BUNDLE_FACTOR = 0.3;
/**
 * Tests and test support: no gold file of the 405 SWE-bench Lite/Verified dev instances is one, yet
 * they repeat the words of what they test. `pytester.py`-like helpers outside such folders are not matched.
 */
const TEST_SUPPORT = /(?:^|\/)(?:tests?|testing)\/|(?:^|\/)(?:test_[^/]*|[^/]*_tests?\.[^/.]+|conftest\.py)$/;
const TEST_SUPPORT_FACTOR = 0.3;
/** What a file named by the question (fileMentions.ts) gains, times its mention's weight. */
const MENTION_GAIN = 0.5;
/**
 * A long question (a pasted issue) is searched by its most specific words only: the definition-level
 * lexical search expands every term (prefix, fuzzy), and the file text's BM25 gains nothing from the
 * hundredth common word. 40 at first (a round number); 80 on bench:localize's tuning half:
 * whole-statement Acc@1 0.459 → 0.505, first 1,000 characters 0.482 → 0.486, titles unchanged.
 */
const MAX_QUERY_TERMS = 80;

interface FileDoc {
  id: string;
  path: string;
  names: string;
  docs: string;
  code: string;
  literals: string;
  comments: string;
}

export class FileIndex {
  private readonly search: MiniSearch<FileDoc>;
  private readonly docs = new Map<string, FileDoc>();
  /** Stem → number of files containing it: which words of a long question are specific. */
  private readonly fileCounts = new Map<string, number>();
  private readonly stem = memoizedStemmer();
  /** The files by path and module name; made again when a file comes or goes. */
  private mentions: FileMentions | undefined;

  /** Indexes every file of the graph in slices (the event loop stays free in between). */
  static async build(files: () => Iterable<string>, fileGraph: (path: string) => FileGraph | undefined, sliceMs = 8): Promise<FileIndex> {
    const index = new FileIndex(fileGraph);
    await forEachSliced([...files()], (path) => index.reread(path), sliceMs);
    return index;
  }

  private constructor(private readonly fileGraph: (path: string) => FileGraph | undefined) {
    this.search = new MiniSearch<FileDoc>({
      fields: ['path', 'names', 'docs', 'code', 'literals', 'comments'],
      storeFields: [],
      tokenize: searchableWords,
      processTerm: (term) => this.stem(term),
      searchOptions: { boost: { path: 1, names: 1, docs: 1, code: 1, literals: 0.5, comments: 0.5 } },
    });
  }

  /** Number of files indexed. */
  get size(): number {
    return this.docs.size;
  }

  /** Node ids changed (a save, a removal): re-read the files they belong to. */
  update(ids: Iterable<string>): void {
    const paths = new Set<string>();
    for (const id of ids) if (!id.startsWith('dir:') && !id.startsWith('ext:')) paths.add(id.split('#')[0]);
    for (const path of paths) this.reread(path);
  }

  private reread(path: string): void {
    const old = this.docs.get(path);
    if (!old !== !this.fileGraph(path)) this.mentions = undefined;
    if (old) {
      this.search.remove(old);
      this.count(old, -1);
      this.docs.delete(path);
    }
    const file = this.fileGraph(path);
    if (!file) return;
    const doc = fileDoc(file);
    this.docs.set(path, doc);
    this.search.add(doc);
    this.count(doc, 1);
  }

  private count(doc: FileDoc, delta: 1 | -1): void {
    const stems = new Set(searchableWords(`${doc.path} ${doc.names} ${doc.docs} ${doc.code} ${doc.literals} ${doc.comments}`).map((w) => this.stem(w)));
    for (const s of stems) {
      const n = (this.fileCounts.get(s) ?? 0) + delta;
      if (n > 0) this.fileCounts.set(s, n);
      else this.fileCounts.delete(s);
    }
  }

  /** Every file whose text matches, scored relative to the best one (1). */
  scores(terms: string): Map<string, number> {
    const results = this.search.search(terms, { combineWith: 'OR' });
    const top = results[0]?.score ?? 1;
    return new Map(results.map((r) => [String(r.id), r.score / top]));
  }

  /** The files the text names, with the weight of each mention. */
  mentioned(text: string): Map<string, number> {
    this.mentions ??= new FileMentions(this.docs.keys());
    return this.mentions.mentioned(text);
  }

  /**
   * The query's most specific words (rarest across files first), at most `max` distinct ones, in query
   * order and each as often as the query says it: a word an issue repeats is what it is about (both
   * searches then count it each time, as a standard BM25 does; on the tuning half of the localization
   * dev set this alone lifted first-1,000-character Acc@1 from 0.356 to 0.477).
   */
  keyTerms(text: string, max = MAX_QUERY_TERMS): string {
    const all = searchableWords(text);
    const words = [...new Set(all)];
    if (words.length <= max) return all.join(' ');
    const total = this.docs.size;
    const rarity = (word: string) => {
      const files = this.fileCounts.get(this.stem(word)) ?? 0;
      return files === 0 ? -1 : Math.log((total + 1) / files);
    };
    const kept = new Set(
      words
        .map((w) => ({ w, r: rarity(w) }))
        .filter((x) => x.r >= 0)
        .sort((a, b) => b.r - a.r || (a.w < b.w ? -1 : 1))
        .slice(0, max)
        .map((x) => x.w),
    );
    return all.filter((w) => kept.has(w)).join(' ');
  }
}

function fileDoc(file: FileGraph): FileDoc {
  const docs = [file.doc];
  for (const s of file.symbols) docs.push(s.signature, s.doc);
  const code: string[] = [];
  for (const ref of file.refs) code.push(...ref.chain);
  for (const imp of file.imports) code.push(imp.module, imp.imported ?? '', imp.local);
  return {
    id: file.path,
    path: file.path,
    names: file.symbols.map((s) => s.name).join(' '),
    docs: docs.join('\n'),
    code: code.join(' '),
    literals: file.texts.map((t) => t.literals).join('\n'),
    comments: file.texts.map((t) => t.comments).join('\n'),
  };
}

/**
 * Ranks files for a question from both kinds of evidence. `definitionScores`: the definition-level
 * lexical search (the searcher's own, so definitions are scored one way everywhere).
 */
export function rankFiles(
  graph: Graph,
  files: FileIndex,
  definitionScores: (text: string) => SearchHit[],
  question: string,
  limit: number,
  /** Filled with the milliseconds of each kind of evidence (`definitions`, `text`). */
  timingsMs: Record<string, number> = {},
  /** @internal Benchmark seam: 1 ranks by definitions alone, 0 by file text alone. */
  definitionShare = DEFINITION_SHARE,
): FileHit[] {
  let t = performance.now();
  const terms = files.keyTerms(question);
  if (!terms) return [];
  const byFile = new Map<string, SearchHit[]>();
  const definitionHits = definitionScores(terms);
  timingsMs.definitions = performance.now() - t;
  for (const hit of definitionHits) {
    const path = graph.hasNode(hit.id) ? graph.getNodeAttributes(hit.id).path : '';
    if (!path) continue;
    const hits = byFile.get(path);
    if (!hits) byFile.set(path, [hit]);
    else if (hits.length < DEFINITION_WEIGHTS.length) hits.push(hit); // the hits come best first
  }
  const evidence = new Map<string, number>();
  let bestEvidence = 0;
  for (const [path, hits] of byFile) {
    const sum = hits.reduce((acc, h, i) => acc + DEFINITION_WEIGHTS[i] * h.score, 0);
    evidence.set(path, sum);
    bestEvidence = Math.max(bestEvidence, sum);
  }
  t = performance.now();
  const text = files.scores(terms);
  timingsMs.text = performance.now() - t;
  const mentioned = files.mentioned(question);
  const ranked: FileHit[] = [];
  for (const path of new Set([...byFile.keys(), ...text.keys(), ...mentioned.keys()])) {
    const fromDefinitions = bestEvidence > 0 ? (evidence.get(path) ?? 0) / bestEvidence : 0;
    const fromText = text.get(path) ?? 0;
    let score = definitionShare * fromDefinitions + (1 - definitionShare) * fromText + MENTION_GAIN * (mentioned.get(path) ?? 0);
    if (BUNDLE.test(path)) score *= BUNDLE_FACTOR;
    if (TEST_SUPPORT.test(path)) score *= TEST_SUPPORT_FACTOR;
    ranked.push({ path, score, definitions: byFile.get(path) ?? [], text: fromText });
  }
  return ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, limit);
}
