/**
 * The bulk id reads concept-set resolution needs: a concept's descendant ids from CONCEPT_ANCESTOR page by page, the
 * valid concept ids and the ids of some vocabularies in id order (for in-memory filters), the sources of valid 'Maps to'
 * rows into a set of targets, and the facets a summary counts.
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

/** A position in an ancestor's rows in (min_levels_of_separation, descendant_concept_id) order. */
export interface DescendantCursor {
  level: number;
  id: number;
}

/** One page of an ancestor's descendant ids in (level, id) order; `next` is undefined after the last page. */
export interface DescendantPage {
  ids: Int32Array;
  next: DescendantCursor | undefined;
}

export interface ConceptSetStore {
  /**
   * Up to `limit` descendant ids of `ancestorId` (CONCEPT_ANCESTOR rows other than the self row, whether or not the
   * descendant is in CONCEPT), after `after` in (level, id) order: one covering-index range per call.
   */
  descendantIds(ancestorId: number, after: DescendantCursor | undefined, limit: number): DescendantPage;
  /** Up to `limit` ids of valid concepts (invalid_reason NULL) above `afterId`, ascending (a rowid range). */
  validConceptIds(afterId: number, limit: number): IdPage;
  /** Every concept id of these vocabularies, ascending (an index-only read per vocabulary). */
  vocabularyConceptIds(vocabularyIds: readonly string[]): Int32Array;
  /** The valid 'Maps to' rows whose target is one of `targetIds` (callers pass at most a few thousand at a time). */
  mapsToInto(targetIds: ArrayLike<number>, hiddenVocabularyIds: readonly string[]): MapsToRows;
  /** Vocabulary, domain and standard flag of the concepts among `conceptIds` (a few thousand at a time), any order. */
  facets(conceptIds: ArrayLike<number>): ConceptFacetRows;
}
