/**
 * The read side of one release's stored vectors: an approximate nearest-neighbour index over the valid standard
 * and classification concepts (one vector per concept, the normalised mean of the vectors of its name and
 * synonyms) plus the texts behind each, immutable and read synchronously like the rest of a release store.
 */

export interface SemanticIndexMeta {
  /** EmbeddingProvider.id of the provider that built the vectors. */
  provider: string;
  dimension: number;
  /** Number of indexed texts (names + synonyms). */
  entryCount: number;
  /** Number of concepts, i.e. of vectors (one per concept). */
  conceptCount: number;
  /** ISO timestamp of the embedding run. */
  builtAt: string;
  /** Id of the embedding run (a new one each time a release is embedded again). */
  embeddingId: string;
}

/** One indexed text: a concept's name or one of its synonyms. */
export interface SemanticEntry {
  key: number;
  concept_id: number;
  text: string;
  is_synonym: boolean;
}

export interface SemanticNeighbour {
  conceptId: number;
  /** 1 − cosine distance to the concept's mean vector, clamped to 0..1. */
  similarity: number;
}

/** The nearest vectors of one stored vector file (a release's `vectors.ivf`, or `vectors.usearch` before format 4), best first. */
export interface VectorMatches {
  keys: ArrayLike<number>;
  /** Cosine distances, one per key. */
  distances: ArrayLike<number>;
}

/** Search over one stored vector file, opened read-only: in this thread, or in a thread shared by the process's. */
export interface VectorFileSearch {
  /** Vectors in the file. */
  readonly size: number;
  /** The k nearest vectors to a query (int8 for format 3 files, whose vectors are quantised; float for format 2), best first. */
  search(query: Int8Array | Float32Array, k: number): VectorMatches;
  close(): void;
}

/** Opens a stored vector file of vectors of this dimension; throws a plain explanation when it is unusable. */
export type VectorFileOpener = (vectorsPath: string, dimension: number) => VectorFileSearch;

export interface SemanticIndex {
  readonly meta: SemanticIndexMeta;
  /** State the provider stored with the vectors (the default provider's release lexicon), or null. */
  providerState(): Uint8Array | null;
  /** The k nearest concepts to a unit vector, best first. */
  nearest(vector: Float32Array, k: number): SemanticNeighbour[];
  /** Every entry (name and synonyms) of these concepts. */
  entriesOfConcepts(conceptIds: readonly number[]): SemanticEntry[];
  close(): void;
}
