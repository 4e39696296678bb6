// Model-free natural-language search: BM25 (MiniSearch) over what the graph knows of each definition —
// the words in its name, its signature and docstring, the class and module around it, the names of
// what it calls and uses (the graph's summary of its body, which survives when docstrings do not) and
// every name its code mentions. Words are stemmed (Porter, `stemmer`): questions say "loads
// configuration values", code says `load_config`. A query searches its key terms (keyTerms.ts), so
// a pasted issue costs about what a one-line question costs.
import type { Options } from 'minisearch';
import type { ReadonlyGraph } from '../graph/describe';
import { localIdOf, type GraphNode } from '../model/schema';
import type { FileGraph } from '../parse/fileGraph';
import { CompoundWords } from './compoundWords';
import { identifierWords } from './identifiers';
import { keyTerms, type KeyTerm } from './keyTerms';
import { memoizedStemmer } from './stems';
import { TermIndex } from './termIndex';
import { nodeFields, SEARCHABLE_KINDS, type NodeFields } from './nodeText';
import type { SearchHit } from './types';
import { forEachSliced } from '../eventLoop';

type Graph = ReadonlyGraph;

/** A node's search fields, and the generated purpose description (semantic lifting) when there is one. */
type Doc = NodeFields & { id: string; description: string; mentions: string; strings: string };

/** The per-file parse results, whose references keep the names the graph could not resolve. */
export type FileGraphs = (path: string) => FileGraph | undefined;

/**
 * Feature phrases by node id: the functional view's short verb–object phrases of a function, method or
 * class ("get debug flag", "represent session"; FeatureHierarchy is one). Searched as part of the node's
 * description: they add the verb a name implies (`is_valid` → check, `__init__` → initialize, a class →
 * represent) and the object a bare verb acts on (`Flask.run` → run flask), words a question says and a
 * name may not.
 */
export interface FeatureText {
  features(id: string): readonly string[];
}

/** Common English words that carry no signal in a "where is X implemented" question. */
const STOP = new Set(
  'a an and are as at be by for from has have how i if in into is it its of on or that the this to was we what when where which who why will with do does implement implemented implements code function method class return returns given'.split(' '),
);

const searchable = (w: string) => !STOP.has(w) && w.length > 1;

/** The words text is indexed and searched by: one-letter and common words carry nothing. */
export const searchableWords = (text: string): string[] => identifierWords(text).filter(searchable);

/** Why a question cannot be searched by its words, or undefined when it has some to search for. */
export function unsearchable(query: string): string | undefined {
  if (searchableWords(query).length > 0) return undefined;
  const words = [...new Set(identifierWords(query))];
  if (words.length === 0) return 'the query has no words to search for';
  return `nothing to search for: one-letter and common words (${words.join(', ')}) are not indexed; ask with a name or more specific words`;
}

/** How much a term found in each field counts (MiniSearch's field boosts). */
const FIELD_BOOST: Record<Exclude<keyof Doc, 'id'>, number> = { name: 3, signature: 1.5, doc: 1.5, description: 1.5, context: 0.5, body: 0.7, mentions: 1, strings: 0.3 };

/**
 * Definitions first: a question about behaviour is rarely answered by a field, a global or a whole
 * module. Fields, globals and modules at 0.6-0.65 (were 0.75-0.8): on the four Python dev sets,
 * NDCG@10 0.552 → 0.562 for function queries and 0.489 → 0.496 for class queries (class docstrings →
 * their class); lowering classes too cost the class queries 0.03, so classes stay.
 */
const KIND_BOOST: Record<string, number> = { Function: 1, Method: 1, Class: 0.95, Interface: 0.9, Enum: 0.85, TypeAlias: 0.85, GlobalVariable: 0.65, Field: 0.6, Module: 0.6 };

export class LexicalIndex {
  private readonly search: TermIndex<Doc>;

  /**
   * Indexes every searchable node of the graph in slices of ~8 ms with the event loop free in between:
   * on Django the whole build is 0.5-0.7 s of work, which an editor's thread must not spend at once.
   * `descriptions`: generated descriptions by content hash (semantic lifting), if any; `features`:
   * feature phrases indexed with them, if any (off by default: see docs/benchmarks.md, "Feature text in
   * search and localization").
   */
  static async build(graph: Graph, descriptions?: { get(hash: string): string | undefined }, files?: FileGraphs, sliceMs = 8, features?: FeatureText): Promise<LexicalIndex> {
    const index = new LexicalIndex(graph, descriptions, files, undefined, features);
    const ids = graph.nodes();
    // Every name first: the splits are asked from the first document on.
    await forEachSliced(ids, (id) => index.learn(id), sliceMs);
    await forEachSliced(ids, (id) => index.update([id]), sliceMs);
    return index;
  }

  /**
   * An index saved with {@link toJSON} (the query snapshot), for the same graph. Whatever fields the
   * documents had are in the JSON; the options (tokenizer, stemmer, boosts) are this build's.
   */
  static load(graph: Graph, json: string, descriptions?: { get(hash: string): string | undefined }, files?: FileGraphs): LexicalIndex {
    const index = new LexicalIndex(graph, descriptions, files, json);
    // The vocabulary of the graph the snapshot was made from: the same splits as when it was built.
    graph.forEachNode((id) => index.learn(id));
    return index;
  }

  /**
   * An index saved with {@link toJSON} and its {@link vocabulary}, for the graph it was made from, to
   * search and never update (a one-shot query): no pass over the graph's names.
   */
  static loadFixed(graph: Graph, json: string, vocabulary: string[]): LexicalIndex {
    return new LexicalIndex(graph, undefined, undefined, json, undefined, vocabulary);
  }

  private constructor(
    private readonly graph: Graph,
    private readonly descriptions?: { get(hash: string): string | undefined },
    private readonly files?: FileGraphs,
    saved?: string,
    private readonly features?: FeatureText,
    vocabulary?: string[],
  ) {
    this.compounds = vocabulary ? CompoundWords.ofParts(vocabulary) : new CompoundWords();
    const options: Options<Doc> = {
      fields: Object.keys(FIELD_BOOST),
      storeFields: [],
      tokenize: (text) => this.compounds.expand(identifierWords(text)).filter(searchable),
      processTerm: (term) => this.stem(term),
      searchOptions: { boost: FIELD_BOOST },
    };
    this.search = saved === undefined ? new TermIndex<Doc>(options) : TermIndex.restore<Doc>(saved, options);
  }

  /** MiniSearch's own serialization: every field of every document, as indexed. */
  toJSON(): string {
    return JSON.stringify(this.search);
  }

  /** The words that split compound words here (compoundWords.ts), saved beside {@link toJSON} for {@link loadFixed}. */
  vocabulary(): string[] {
    return this.compounds.parts();
  }

  private readonly stem = memoizedStemmer();

  /** The indexed text of each node: MiniSearch removes a document exactly (statistics included) only given its fields. */
  private readonly docs = new Map<string, Doc>();

  /** Splits compound words (`readall` → read all) by the vocabulary of the graph's names (compoundWords.ts). */
  private readonly compounds: CompoundWords;
  /** The name each node had when the vocabulary learnt it: edits are learnt and unlearnt. */
  private readonly learnt = new Map<string, string>();

  /**
   * An edit changed which words are parts of names: splits, and with them every document's words, may
   * differ from a fresh build's, so the owner rebuilds the index (LazyIndex) rather than update it.
   */
  get stale(): boolean {
    return this.compounds.changed;
  }

  /** The vocabulary follows the node's name (a new, renamed or removed node). */
  private learn(id: string): void {
    const name = this.graph.hasNode(id) ? this.graph.getNodeAttribute(id, 'name') : undefined;
    const before = this.learnt.get(id);
    if (before === name) return;
    if (before !== undefined) this.compounds.unlearn(before);
    if (name === undefined) this.learnt.delete(id);
    else {
      this.compounds.learn(name);
      this.learnt.set(id, name);
    }
  }

  /** (Re-)reads the given nodes from the graph (a save touched them): cheaper than a rebuild by far. */
  update(ids: Iterable<string>): void {
    const list = [...ids];
    // Removed with the words they were added with, before the vocabulary learns the edit.
    for (const id of list) {
      const old = this.docs.get(id);
      if (old) {
        this.search.remove(old);
        this.docs.delete(id);
      } else if (this.search.has(id)) {
        // Loaded from a snapshot, which keeps no fields: MiniSearch forgets it by id (its statistics catch up lazily).
        this.search.discard(id);
      }
    }
    for (const id of list) this.learn(id);
    if (this.stale) return;
    for (const id of list) {
      const node = this.graph.hasNode(id) ? this.graph.getNodeAttributes(id) : undefined;
      if (!node || !SEARCHABLE_KINDS.has(node.kind)) continue;
      const doc = this.doc(id, node);
      this.docs.set(id, doc);
      this.search.add(doc);
    }
  }

  private doc(id: string, node: GraphNode): Doc {
    const description = [this.descriptions?.get(node.hash) ?? '', ...(this.features?.features(id) ?? [])].filter(Boolean).join('\n');
    return { id, ...nodeFields(this.graph, id), description, ...this.ownText(id, node) };
  }

  /** Per file, from its current parse result: the names each definition's own code mentions, and its literals and comments. */
  private readonly textByFile = new Map<string, { file: FileGraph; mentions: Map<string, string[]>; strings: Map<string, string> }>();

  /**
   * `mentions`: every name chain the definition's own code mentions, resolved or not
   * (`request.headers.get`): the identifiers a BM25 over its source would see, which `body` (resolved
   * targets only) misses. `strings`: its string literals and comments (a low-weight field: an error
   * message an issue quotes names the definition that raises it).
   */
  private ownText(id: string, node: GraphNode): { mentions: string; strings: string } {
    const file = node.path ? this.files?.(node.path) : undefined;
    if (!file) return { mentions: '', strings: '' };
    let cached = this.textByFile.get(node.path);
    if (cached?.file !== file) {
      const mentions = new Map<string, string[]>();
      for (const ref of file.refs) {
        if (ref.from === null) continue;
        const words = mentions.get(ref.from);
        if (words) words.push(...ref.chain);
        else mentions.set(ref.from, [...ref.chain]);
      }
      const strings = new Map<string, string>();
      for (const t of file.texts) if (t.from !== null) strings.set(t.from, `${t.literals}\n${t.comments}`);
      this.textByFile.set(node.path, (cached = { file, mentions, strings }));
    }
    const local = localIdOf(id, node.path);
    return { mentions: cached.mentions.get(local)?.join(' ') ?? '', strings: cached.strings.get(local) ?? '' };
  }

  /**
   * Which of these stemmed words the node's own code mentions, and which its literals and comments say,
   * as indexed: read from the index, so an index loaded from a snapshot (no texts, no file graphs) answers the same.
   * A model's description of the node (semantic lifting) counts as a comment of its own: the reranker,
   * trained on code without descriptions, would otherwise see nothing of it beyond the lexical score.
   */
  ownTerms(id: string, words: Iterable<string>): { mentions: Set<string>; strings: Set<string> } {
    const mentions = new Set<string>();
    const strings = new Set<string>();
    for (const w of words) {
      if (this.search.fieldHas(id, 'mentions', w)) mentions.add(w);
      if (this.search.fieldHas(id, 'strings', w) || this.search.fieldHas(id, 'description', w)) strings.add(w);
    }
    return { mentions, strings };
  }

  /** How telling a stemmed word is here: ln(1 + N / (1 + number of nodes that say it)); rare words weigh most. */
  idf(term: string): number {
    return Math.log1p(this.search.documentCount / (1 + this.search.documentFrequency(term)));
  }

  /** The query's key terms (keyTerms.ts): every word of a short question, the most telling ones of a long text. */
  terms(text: string): KeyTerm[] {
    return keyTerms(text, {
      words: (raw) => this.compounds.expand(identifierWords(raw)),
      process: (word) => (STOP.has(word) || word.length < 2 ? undefined : this.stem(word)),
      documentFrequency: (term) => this.search.documentFrequency(term),
      documentCount: this.search.documentCount,
    });
  }

  /** Every matching node, scored in (0, 1] relative to the best match and weighted by kind, best first. */
  scores(text: string): SearchHit[] {
    const terms = this.terms(text);
    if (terms.length === 0) return [];
    // The terms are processed already: searched as they are, each with its own boost and expansion.
    const results = this.search.scoreAll(
      terms.map((t) => ({ term: t.term, boost: t.boost, prefix: t.expand && t.term.length > 4, fuzzy: t.expand && t.term.length > 6 ? 0.15 : false })),
      FIELD_BOOST,
    );
    const top = results.reduce((best, r) => Math.max(best, r.score), 0) || 1;
    return results
      .map((r) => ({ id: r.id, score: (r.score / top) * (KIND_BOOST[this.graph.getNodeAttributes(r.id).kind] ?? 0.7), via: 'lexical' as const }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  query(text: string, limit: number): SearchHit[] {
    return this.scores(text).slice(0, limit);
  }
}
