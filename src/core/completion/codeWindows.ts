// Semantic retrieval, lexical flavour: RepoCoder's sliding windows (20 lines, stride 10) over every
// file of the repository, ranked with BM25 by MiniSearch against the lines before the cursor. The
// same index is the "sliding-window BM25" baseline of the context benchmark. It follows the graph:
// files whose hash changed are re-windowed, removed files are discarded.
import MiniSearch from 'minisearch';
import type { RepositoryGraph } from '../graph/repositoryGraph';
import type { SourceFiles } from './sourceFiles';
import { sliceClock } from '../eventLoop';

export const WINDOW_LINES = 20;
export const WINDOW_STRIDE = 10;

export interface CodeWindow {
  path: string;
  /** Zero-based, inclusive. */
  startLine: number;
  endLine: number;
  score: number;
}

interface WindowDoc {
  id: string;
  text: string;
}

/** Whole identifiers, lower-cased: code search matches names, not English stems. */
export function codeTerms(text: string): string[] {
  return (text.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((w) => w.length > 1).map((w) => w.toLowerCase());
}

export class CodeWindows {
  private readonly index = new MiniSearch<WindowDoc>({ fields: ['text'], storeFields: [], tokenize: codeTerms, processTerm: (t) => t });
  /** path → [hash, window ids, distinct terms per window]. */
  private readonly indexed = new Map<string, { hash: string; ids: string[]; terms: string[][] }>();
  /** term → number of windows holding it (document frequency). */
  private readonly frequency = new Map<string, number>();
  private seenVersion = -1;

  constructor(
    private readonly graph: RepositoryGraph,
    private readonly sources: SourceFiles,
  ) {}

  /** True once the whole repository has been windowed (later refreshes are per changed file). */
  get built(): boolean {
    return this.seenVersion >= 0;
  }

  /**
   * Brings the index in line with the graph; cheap when nothing changed. The first build of a large
   * repository takes a second or two: it gives the event loop back every few milliseconds, and
   * concurrent callers share one run.
   */
  refresh(): Promise<void> {
    this.running ??= this.refreshNow().finally(() => (this.running = undefined));
    return this.running;
  }
  private running: Promise<void> | undefined;

  private async refreshNow(): Promise<void> {
    while (this.seenVersion !== this.graph.version) {
      const version = this.graph.version;
      const paths = this.graph.filePaths();
      const live = new Set(paths);
      for (const [path, entry] of this.indexed) {
        if (live.has(path)) continue;
        this.drop(entry);
        this.indexed.delete(path);
      }
      const changed = paths.filter((p) => this.indexed.get(p)?.hash !== this.graph.fileGraph(p)?.hash);
      const checkpoint = sliceClock();
      for (const path of changed) {
        await this.sources.preload([path]);
        this.window(path);
        await checkpoint();
      }
      this.seenVersion = version;
    }
  }

  private window(path: string): void {
    const old = this.indexed.get(path);
    if (old) {
      this.drop(old);
      this.indexed.delete(path);
    }
    const lines = this.sources.lines(path);
    const hash = this.graph.fileGraph(path)?.hash;
    if (!lines || hash === undefined) return;
    const docs: WindowDoc[] = [];
    for (let start = 0; start < lines.length; start += WINDOW_STRIDE) {
      docs.push({ id: `${path}\u0000${start}`, text: lines.slice(start, start + WINDOW_LINES).join('\n') });
      if (start + WINDOW_LINES >= lines.length) break;
    }
    this.index.addAll(docs);
    const terms = docs.map((d) => [...new Set(codeTerms(d.text))]);
    for (const list of terms) for (const t of list) this.frequency.set(t, (this.frequency.get(t) ?? 0) + 1);
    this.indexed.set(path, { hash, ids: docs.map((d) => d.id), terms });
  }

  private drop(entry: { ids: string[]; terms: string[][] }): void {
    for (const id of entry.ids) this.index.discard(id);
    for (const list of entry.terms) for (const t of list) this.frequency.set(t, (this.frequency.get(t) ?? 1) - 1);
  }

  /**
   * The query without terms found in more than `share` of all windows (`self`-like names everywhere):
   * their BM25 weight is near zero, yet they make the search score most of the repository. The
   * rarest `keep` terms stay when everything is common.
   */
  specificTerms(terms: string[], share = 0.02, keep = 3): string[] {
    const limit = share * Math.max(1, this.index.documentCount);
    const df = (t: string) => this.frequency.get(t.toLowerCase()) ?? 0;
    const specific = terms.filter((t) => df(t) <= limit);
    return specific.length > 0 ? specific : [...terms].sort((a, b) => df(a) - df(b)).slice(0, keep);
  }

  get windows(): number {
    return this.index.documentCount;
  }

  /** Best windows for `queryText`, leaving out `excludePath` (the file being written is in the prompt already). */
  search(queryText: string, limit: number, excludePath?: string): CodeWindow[] {
    if (codeTerms(queryText).length === 0) return [];
    const out: CodeWindow[] = [];
    for (const hit of this.index.search(queryText, { combineWith: 'OR' })) {
      const id = String(hit.id);
      const sep = id.lastIndexOf('\u0000');
      const path = id.slice(0, sep);
      if (path === excludePath) continue;
      const startLine = Number(id.slice(sep + 1));
      const lines = this.sources.lines(path);
      out.push({ path, startLine, endLine: Math.min(startLine + WINDOW_LINES, lines?.length ?? startLine + WINDOW_LINES) - 1, score: hit.score });
      if (out.length >= limit) break;
    }
    return out;
  }
}
