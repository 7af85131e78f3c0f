/**
 * The reads concept mappings need: one source concept's rows of one relationship id with the target joined,
 * filtered, counted and paged, the same under a scan budget for batch mapping, and ancestors/descendants in a
 * vocabulary; every read is bounded by the source's own rows and targets missing from CONCEPT never count.
 */
import type { ConceptRecord } from './records.js';

/** Conditions on the target concept of a mapping. */
export interface MappingFilter {
  /** Only targets in these vocabularies (undefined: any vocabulary). */
  targetVocabularyIds?: readonly string[];
  /** Never these vocabularies (licence rules). */
  hiddenVocabularyIds: readonly string[];
  /**
   * Also rows that are no longer valid: a relationship row with an invalid_reason, or a target
   * concept with one. CONCEPT_ANCESTOR rows have no validity of their own, so for hierarchy reads
   * only the concept counts.
   */
  includeInvalid: boolean;
}

/** One CONCEPT_RELATIONSHIP row from the source concept, with its target concept. */
export interface MappingRow {
  source_concept_id: number;
  relationship_id: string;
  target: ConceptRecord;
  /** The relationship row's own validity (YYYY-MM-DD). */
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: 'D' | 'U' | null;
}

/** A concept above or below the source in CONCEPT_ANCESTOR. */
export interface HierarchyMatch {
  source_concept_id: number;
  concept: ConceptRecord;
  min_levels_of_separation: number;
  max_levels_of_separation: number;
}

export interface BoundedResult<T> {
  items: T[];
  /** False when more matches may exist than were returned (the limit or the scan budget was reached). */
  complete: boolean;
}

export interface MappingStore {
  /** Exact number of the source's rows with this relationship id whose target passes the filter. */
  count(sourceId: number, relationshipId: string, filter: MappingFilter): number;
  /** Those rows ordered by target concept_id, `limit` of them from `offset`. */
  page(sourceId: number, relationshipId: string, filter: MappingFilter, offset: number, limit: number): MappingRow[];
  /**
   * The first `limit` rows passing the filter among the source's first `scanLimit` rows with this
   * relationship id (target concept_id order).
   */
  scan(sourceId: number, relationshipId: string, filter: MappingFilter, limit: number, scanLimit: number): BoundedResult<MappingRow>;
  /** Ancestors of the concept (self excluded) passing the filter, nearest first, at most `limit`. */
  ancestors(conceptId: number, filter: MappingFilter, limit: number): BoundedResult<HierarchyMatch>;
  /**
   * Descendants of the concept (self excluded) passing the filter, at most `limit`, nearest first
   * among the first `scanLimit` descendants in concept_id order.
   */
  descendants(conceptId: number, filter: MappingFilter, limit: number, scanLimit: number): BoundedResult<HierarchyMatch>;
}
