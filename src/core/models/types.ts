// The model contracts search depends on. Implementations (transformers.js, an OpenAI-compatible
// /v1/embeddings endpoint, random-weight test fixtures) live next to this file; search only sees these
// interfaces, so every feature also works with none of them (model-free scoring).

/** A bi-encoder: texts to L2-normalised vectors of a fixed length. */
export interface Embedder {
  /** Model id as configured (e.g. `Xenova/all-MiniLM-L6-v2`); part of the cache key of stored vectors. */
  readonly id: string;
  readonly dim: number;
  /** Batched; one vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** A cross-encoder: relevance of each passage to the query (any real range; higher is better). */
export interface Reranker {
  readonly id: string;
  score(query: string, passages: string[]): Promise<number[]>;
}

/** Embeddings of graph nodes, as computed in the background and kept in the store. */
export interface NodeVectors {
  /** The vector of a node, or undefined when it has not been embedded (yet). */
  get(id: string): Float32Array | undefined;
  /** The k nodes nearest to a query vector by cosine similarity, best first. */
  nearest(query: Float32Array, k: number): Promise<{ id: string; score: number }[]>;
  readonly size: number;
}

/** What search may use right now; every field is optional and search degrades without it. */
export interface SearchModels {
  embedder?: Embedder;
  reranker?: Reranker;
  vectors?: NodeVectors;
  /** One line for status displays, e.g. "model-free: no embedding model (download failed: …)". */
  status: string;
}
