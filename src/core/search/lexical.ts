// Model-free natural-language search: BM25 (MiniSearch) over what the graph knows of each definition —
// the words in its name, its signature and docstring, the class and module around it, the names of
// what it calls and uses (the graph's summary of its body, which survives when docstrings do not) and
// every name its code mentions. Words are stemmed (Porter, `stemmer`): questions say "loads
// configuration values", code says `load_config`.
import MiniSearch, { type Options } from 'minisearch';
import { stemmer } from 'stemmer';
import type { MultiDirectedGraph } from 'graphology';
import { localIdOf, type GraphEdge, type GraphNode } from '../graph/schema';
import type { FileGraph } from '../parse/fileGraph';
import { identifierWords } from './identifiers';
import { nodeFields, SEARCHABLE_KINDS, type NodeFields } from './nodeText';
import type { SearchHit } from './types';
import { forEachSliced } from '../eventLoop';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

/** A node's search fields, and the generated purpose description (semantic lifting) when there is one. */
type Doc = NodeFields & { id: string; description: string; mentions: string };

/** The per-file parse results, whose references keep the names the graph could not resolve. */
export type FileGraphs = (path: string) => FileGraph | undefined;

/** Common English words that carry no signal in a "where is X implemented" question. */
const STOP = new Set(
  'a an and are as at be by for from has have how i if in into is it its of on or that the this to was we what when where which who why will with do does implement implemented implements code function method class return returns given'.split(' '),
);

const tokenize = (text: string): string[] => identifierWords(text).filter((w) => !STOP.has(w) && w.length > 1);

/** Definitions first: a question about behaviour is rarely answered by a field or a whole module. */
const KIND_BOOST: Record<string, number> = { Function: 1, Method: 1, Class: 0.95, Interface: 0.9, Enum: 0.85, TypeAlias: 0.85, GlobalVariable: 0.8, Field: 0.75, Module: 0.7 };

export class LexicalIndex {
  private readonly search: MiniSearch<Doc>;

  /**
   * Indexes every searchable node of the graph in slices of ~8 ms with the event loop free in between:
   * on Django the whole build is 0.5-0.7 s of work, which an editor's thread must not spend at once.
   * `descriptions`: generated descriptions by content hash (semantic lifting), if any.
   */
  static async build(graph: Graph, descriptions?: { get(hash: string): string | undefined }, files?: FileGraphs, sliceMs = 8): Promise<LexicalIndex> {
    const index = new LexicalIndex(graph, descriptions, files);
    await forEachSliced(graph.nodes(), (id) => index.update([id]), sliceMs);
    return index;
  }

  /**
   * An index saved with {@link toJSON} (the query snapshot), for the same graph. Whatever fields the
   * documents had are in the JSON; the options (tokenizer, stemmer, boosts) are this build's.
   */
  static load(graph: Graph, json: string, descriptions?: { get(hash: string): string | undefined }, files?: FileGraphs): LexicalIndex {
    return new LexicalIndex(graph, descriptions, files, json);
  }

  private constructor(
    private readonly graph: Graph,
    private readonly descriptions?: { get(hash: string): string | undefined },
    private readonly files?: FileGraphs,
    saved?: string,
  ) {
    const options: Options<Doc> = {
      fields: ['name', 'signature', 'doc', 'description', 'context', 'body', 'mentions'],
      storeFields: [],
      tokenize,
      processTerm: (term) => this.stem(term),
      searchOptions: { boost: { name: 3, signature: 1.5, doc: 1.5, description: 1.5, context: 0.5, body: 0.7, mentions: 1 }, prefix: (t) => t.length > 4, fuzzy: (t) => (t.length > 6 ? 0.15 : false) },
    };
    this.search = saved === undefined ? new MiniSearch<Doc>(options) : MiniSearch.loadJSON<Doc>(saved, options);
  }

  /** MiniSearch's own serialization: every field of every document, as indexed. */
  toJSON(): string {
    return JSON.stringify(this.search);
  }

  /** Stems by word: on Django 380k words are 6.9k distinct ones (stemming them all: ~200 ms of each build; memoized: ~25 ms). */
  private readonly stems = new Map<string, string>();

  private stem(term: string): string {
    let stem = this.stems.get(term);
    if (stem === undefined) this.stems.set(term, (stem = stemmer(term)));
    return stem;
  }

  /** The indexed text of each node: MiniSearch removes a document exactly (statistics included) only given its fields. */
  private readonly docs = new Map<string, Doc>();

  /** (Re-)reads the given nodes from the graph (a save touched them): cheaper than a rebuild by far. */
  update(ids: Iterable<string>): void {
    for (const id of ids) {
      const old = this.docs.get(id);
      if (old) {
        this.search.remove(old);
        this.docs.delete(id);
      } else if (this.search.has(id)) {
        // Loaded from a snapshot, which keeps no fields: MiniSearch forgets it by id (its statistics catch up lazily).
        this.search.discard(id);
      }
      const node = this.graph.hasNode(id) ? this.graph.getNodeAttributes(id) : undefined;
      if (!node || !SEARCHABLE_KINDS.has(node.kind)) continue;
      const doc = this.doc(id, node);
      this.docs.set(id, doc);
      this.search.add(doc);
    }
  }

  private doc(id: string, node: GraphNode): Doc {
    return { id, ...nodeFields(this.graph, id), description: this.descriptions?.get(node.hash) ?? '', mentions: this.mentions(id, node) };
  }

  /** Per file, from its current parse result: the names each definition's own code mentions. */
  private readonly mentionsByFile = new Map<string, { file: FileGraph; byScope: Map<string, string[]> }>();

  /**
   * Every name chain the definition's own code mentions, resolved or not (`request.headers.get`): the
   * identifiers a BM25 over its source would see, which `body` (resolved targets only) misses.
   */
  private mentions(id: string, node: GraphNode): string {
    const file = node.path ? this.files?.(node.path) : undefined;
    if (!file) return '';
    let cached = this.mentionsByFile.get(node.path);
    if (cached?.file !== file) {
      const byScope = new Map<string, string[]>();
      for (const ref of file.refs) {
        if (ref.from === null) continue;
        const words = byScope.get(ref.from);
        if (words) words.push(...ref.chain);
        else byScope.set(ref.from, [...ref.chain]);
      }
      this.mentionsByFile.set(node.path, (cached = { file, byScope }));
    }
    return cached.byScope.get(localIdOf(id, node.path))?.join(' ') ?? '';
  }

  /** Every matching node, scored in (0, 1] relative to the best match and weighted by kind, best first. */
  scores(text: string): SearchHit[] {
    const results = this.search.search(text, { combineWith: 'OR' });
    const top = results[0]?.score ?? 1;
    return results
      .map((r) => ({ id: String(r.id), score: (r.score / top) * (KIND_BOOST[this.graph.getNodeAttributes(String(r.id)).kind] ?? 0.7), via: 'lexical' as const }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  query(text: string, limit: number): SearchHit[] {
    return this.scores(text).slice(0, limit);
  }
}
