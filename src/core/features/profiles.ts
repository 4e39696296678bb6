// What the functional view reads of the repository graph, per file: its entities' features (lifted
// per content hash), the file-level summary that aggregates them (the words of its features, its name
// and its module docstring's phrase, stemmed) and its dependency links to other files. Areas are
// induced from these, and a changed file is re-routed by them.
import type { RepositoryGraph } from '../graph/repositoryGraph';
import { qnameParts, type GraphNode } from '../model/schema';
import { identifierWords } from '../search/identifiers';
import { searchableWords } from '../search/lexical';
import { memoizedStemmer } from '../search/stems';
import { FEATURE_KINDS, liftFeatures } from './phrases';

export type FeatureGraph = Pick<RepositoryGraph, 'graph' | 'filePaths' | 'nodesInFile' | 'fileGraph' | 'rootName'>;

/** An entity's features and the content hash they were lifted from. */
export interface LiftedEntity {
  path: string;
  hash: string;
  features: string[];
  /** The model's description they were lifted with (absent: lifted from the code alone). */
  said?: string;
}

/** What a chat model said code does, by the code's content hash (`cartograph describe`'s descriptions). */
export type Said = (hash: string) => string | undefined;

/** Edges that say one file depends on another: what graph communities are found from. */
const DEPENDENCY_EDGES = new Set(['CALLS', 'USES', 'INHERITS', 'IMPORTS']);

const stem = memoizedStemmer(100_000);

/** The definitions of a file that get features (the module itself does not: its summary is their aggregate). */
export function featureEntities(graph: FeatureGraph, path: string): GraphNode[] {
  return graph.nodesInFile(path).filter((n) => FEATURE_KINDS.has(n.kind) && n.range !== null);
}

/**
 * An entity's features, reused from `previous` when its content hash is the same and no description of
 * it came (or changed) since (no re-lifting).
 */
export function liftEntity(node: GraphNode, previous: LiftedEntity | undefined, said?: Said): { lifted: LiftedEntity; relifted: boolean } {
  const description = said?.(node.hash);
  if (previous && previous.hash === node.hash && previous.path === node.path && previous.said === description) return { lifted: previous, relifted: false };
  const parts = qnameParts(node.qname);
  // The container's own name: a method's class, a function's module (its file name, not its folders).
  const containerWords = identifierWords((parts[parts.length - 2] ?? '').split('/').pop() ?? '');
  const features = liftFeatures({ node, containerWords, said: description });
  return { lifted: { path: node.path, hash: node.hash, features, ...(description ? { said: description } : {}) }, relifted: true };
}

/** Remembers, per stem, which surface word it was met as most (ties: the shorter, then alphabetical). */
export class SurfaceWords {
  private readonly counts = new Map<string, Map<string, number>>();

  add(stemmed: string, word: string): void {
    let forms = this.counts.get(stemmed);
    if (!forms) this.counts.set(stemmed, (forms = new Map()));
    forms.set(word, (forms.get(word) ?? 0) + 1);
  }

  word(stemmed: string): string {
    const forms = this.counts.get(stemmed);
    if (!forms) return stemmed;
    return [...forms].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))[0][0];
  }
}

/**
 * A file's summary: the stemmed words of its entities' features, its file name and its module
 * docstring's phrase, with their counts; `surface` learns each stem's surface word (for area names).
 */
export function summarize(path: string, moduleDoc: string, features: readonly string[][], surface?: SurfaceWords): Map<string, number> {
  const terms = new Map<string, number>();
  const fileName = (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
  const moduleFeatures = liftFeatures({ node: { kind: 'Function', name: '', signature: '', doc: moduleDoc }, containerWords: [] });
  for (const text of [fileName, ...moduleFeatures, ...features.flat()]) {
    for (const word of searchableWords(text)) {
      if (/^\d/.test(word)) continue;
      const s = stem(word);
      terms.set(s, (terms.get(s) ?? 0) + 1);
      surface?.add(s, word);
    }
  }
  return terms;
}

/** How strongly `path` depends on or is depended on by each other file (edges counted both ways). */
export function fileLinks(graph: FeatureGraph, path: string): Map<string, number> {
  const links = new Map<string, number>();
  const g = graph.graph;
  const add = (other: string) => {
    if (other && other !== path) links.set(other, (links.get(other) ?? 0) + 1);
  };
  for (const node of graph.nodesInFile(path)) {
    if (!g.hasNode(node.id)) continue;
    g.forEachOutEdge(node.id, (_e, edge, _s, _t, _sa, targetAttributes) => {
      if (DEPENDENCY_EDGES.has(edge.kind)) add(targetAttributes.path);
    });
    g.forEachInEdge(node.id, (_e, edge, _s, _t, sourceAttributes) => {
      if (DEPENDENCY_EDGES.has(edge.kind)) add(sourceAttributes.path);
    });
  }
  return links;
}
