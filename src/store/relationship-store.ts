/**
 * The read side of CONCEPT_RELATIONSHIP that concept navigation needs: one concept's rows in either direction,
 * counted and paged with conditions on the concept at the other end, counts per relationship id, and the
 * parents/children of many concepts at once; every read is bounded by the concept's own rows.
 */
import type { ConceptRecord } from './records.js';
import type { LinkedConcept } from './release-store.js';

/** 'outbound': rows whose concept_id_1 is the concept; 'inbound': rows whose concept_id_2 is. */
export type RelationshipDirection = 'outbound' | 'inbound';

/** Conditions on the concept at the other end of a row (all optional). */
export interface OtherEndFilter {
  vocabularyIds?: readonly string[];
  domainIds?: readonly string[];
  /** Only standard concepts (standard_concept 'S'). */
  standardOnly?: boolean;
  /** Never return these vocabularies (licence rules). */
  hiddenVocabularyIds?: readonly string[];
}

export interface RelationshipSelection {
  conceptId: number;
  direction: RelationshipDirection;
  /** Only these relationship ids (none: all). */
  relationshipIds?: readonly string[];
  /** Also rows with an invalid_reason (default: valid rows only). */
  includeInvalid: boolean;
  otherEnd: OtherEndFilter;
}

/** One CONCEPT_RELATIONSHIP row with the concept at its other end. */
export interface StoredRelationship {
  concept_id_1: number;
  relationship_id: string;
  concept_id_2: number;
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: string | null;
  /** concept_id_2's concept for an outbound row, concept_id_1's for an inbound one. */
  other: ConceptRecord;
}

export interface RelationshipCount {
  relationship_id: string;
  count: number;
}

export interface RelationshipStore {
  /** Exact number of rows of the selection whose other end is a concept of the release. */
  count(selection: RelationshipSelection): number;
  /** Rows of the selection ordered by relationship_id, then the other concept's id; `limit` from `offset`. */
  page(selection: RelationshipSelection, offset: number, limit: number): StoredRelationship[];
  /** Rows of the selection per relationship id (ordered by relationship_id). */
  countByRelationship(selection: RelationshipSelection): RelationshipCount[];
  /**
   * Valid outbound rows of each concept with each of these relationship ids, the other end joined,
   * at most `limitPerRelationship` per concept and relationship id (ordered by the other end's id).
   * Concepts without such rows map to an empty list.
   */
  linkedConceptsOf(conceptIds: readonly number[], relationshipIds: readonly string[], limitPerRelationship: number): Map<number, LinkedConcept[]>;
}
