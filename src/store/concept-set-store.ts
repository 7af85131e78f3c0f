/**
 * The bulk id reads concept-set resolution needs: a concept's valid descendant ids from CONCEPT_ANCESTOR in id order,
 * page by page, and the sources of valid 'Maps to' rows into a set of targets; only ids of concepts present in CONCEPT
 * and outside the hidden vocabularies are returned.
 */

/** One page of ids in ascending order; `next` is the last id of the page when more may follow, else undefined. */
export interface IdPage {
  ids: Int32Array;
  next: number | undefined;
}

/** Valid 'Maps to' rows (source → target) whose source exists in CONCEPT and is visible, as two parallel arrays. */
export interface MapsToRows {
  sources: Int32Array;
  targets: Int32Array;
}

/** Ids in CONCEPT with the attributes a concept-set summary counts, as parallel arrays. */
export interface ConceptFacetRows {
  ids: Int32Array;
  vocabularyIds: string[];
  domainIds: string[];
  standardConcepts: Array<'S' | 'C' | null>;
}

export interface ConceptSetStore {
  /**
   * Up to `limit` descendants of `ancestorId` (CONCEPT_ANCESTOR rows other than the self row) whose concept exists,
   * is valid (invalid_reason NULL) and is not of a hidden vocabulary, with ids above `afterId`, ascending.
   */
  validDescendantIds(ancestorId: number, afterId: number, limit: number, hiddenVocabularyIds: readonly string[]): IdPage;
  /** The valid 'Maps to' rows whose target is one of `targetIds` (callers pass at most a few thousand at a time). */
  mapsToInto(targetIds: ArrayLike<number>, hiddenVocabularyIds: readonly string[]): MapsToRows;
  /** Vocabulary, domain and standard flag of the concepts among `conceptIds` (a few thousand at a time), any order. */
  facets(conceptIds: ArrayLike<number>): ConceptFacetRows;
}
