/**
 * MetadataStore over the release's SQLite file: the small reference tables and concept_summary are read once at
 * open and served from memory; domain concept pages are seeks on domain_concept_order.
 */

import type Database from 'better-sqlite3';
import type { ConceptSummaryRecord, DomainSegment, MetadataStore } from '../release-store.js';
import {
  formatStoredDate,
  type ConceptClassRecord,
  type ConceptRecord,
  type DomainRecord,
  type RelationshipTypeRecord,
  type VocabularyRecord,
} from '../records.js';
import { QUALIFIED_CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './rows/concept-rows.js';

interface StoredVocabularyRow extends Omit<VocabularyRecord, 'earliest_start_date' | 'latest_start_date'> {
  earliest_start_date: number | null;
  latest_start_date: number | null;
}

interface StoredSummaryRow extends Omit<ConceptSummaryRecord, 'is_invalid' | 'earliest_start_date' | 'latest_start_date' | 'latest_end_date'> {
  is_invalid: number;
  earliest_start_date: number;
  latest_start_date: number;
  latest_end_date: number;
}

/**
 * Reference tables and concept_summary are small (hundreds to a few thousand rows), so they are read
 * once when the release is opened and served from memory. Domain concept pages are read per request
 * from domain_concept_order.
 */
export class SqliteMetadataStore implements MetadataStore {
  private readonly vocabularyList: VocabularyRecord[];
  private readonly vocabularyById: Map<string, VocabularyRecord>;
  private readonly domainList: DomainRecord[];
  private readonly classList: ConceptClassRecord[];
  private readonly relationshipList: RelationshipTypeRecord[];
  private readonly summaryRows: ConceptSummaryRecord[];
  private readonly segmentStmt: Database.Statement<[string, string, string, number, number, number], StoredConceptRow>;

  constructor(db: Database.Database) {
    // Vocabularies referenced by concepts but missing from VOCABULARY (partial downloads) are listed
    // too, named by their id, so that every concept's vocabulary can be found in the list.
    const vocabRows = db
      .prepare(
        `SELECT v.vocabulary_id, v.vocabulary_name, v.vocabulary_reference, v.vocabulary_version, v.vocabulary_concept_id,
                COALESCE(s.concept_count, 0) AS concept_count, COALESCE(s.standard_count, 0) AS standard_count,
                COALESCE(s.classification_count, 0) AS classification_count, COALESCE(s.invalid_count, 0) AS invalid_count,
                s.earliest_start_date, s.latest_start_date
           FROM vocabulary v LEFT JOIN vocabulary_summary s ON s.vocabulary_id = v.vocabulary_id
         UNION ALL
         SELECT s.vocabulary_id, s.vocabulary_id, NULL, NULL, 0, s.concept_count, s.standard_count, s.classification_count,
                s.invalid_count, s.earliest_start_date, s.latest_start_date
           FROM vocabulary_summary s WHERE s.vocabulary_id NOT IN (SELECT vocabulary_id FROM vocabulary)
          ORDER BY 1`,
      )
      .all() as StoredVocabularyRow[];
    this.vocabularyList = vocabRows.map((r) => ({
      ...r,
      earliest_start_date: formatStoredDate(r.earliest_start_date),
      latest_start_date: formatStoredDate(r.latest_start_date),
    }));
    this.vocabularyById = new Map(this.vocabularyList.map((v) => [v.vocabulary_id, v]));
    this.domainList = db.prepare('SELECT domain_id, domain_name, domain_concept_id FROM domain ORDER BY domain_id').all() as DomainRecord[];
    this.classList = db
      .prepare('SELECT concept_class_id, concept_class_name, concept_class_concept_id FROM concept_class ORDER BY concept_class_id')
      .all() as ConceptClassRecord[];
    this.relationshipList = db
      .prepare(
        `SELECT relationship_id, relationship_name, is_hierarchical, defines_ancestry, reverse_relationship_id, relationship_concept_id
           FROM relationship ORDER BY relationship_id`,
      )
      .all() as RelationshipTypeRecord[];
    const summary = db
      .prepare(
        `SELECT vocabulary_id, domain_id, concept_class_id, standard_concept, is_invalid, concept_count,
                earliest_start_date, latest_start_date, latest_end_date
           FROM concept_summary ORDER BY vocabulary_id, domain_id, concept_class_id`,
      )
      .all() as StoredSummaryRow[];
    this.summaryRows = summary.map((r) => ({
      ...r,
      is_invalid: r.is_invalid === 1,
      earliest_start_date: formatStoredDate(r.earliest_start_date)!,
      latest_start_date: formatStoredDate(r.latest_start_date)!,
      latest_end_date: formatStoredDate(r.latest_end_date)!,
    }));
    this.segmentStmt = db.prepare(
      `SELECT ${QUALIFIED_CONCEPT_COLUMNS} FROM domain_concept_order o JOIN concept c ON c.concept_id = o.concept_id
        WHERE o.domain_id = ? AND o.vocabulary_id = ? AND o.standard_concept = ? AND o.is_invalid = ? AND o.position >= ?
        ORDER BY o.position LIMIT ?`,
    );
  }

  vocabularies(): VocabularyRecord[] {
    return this.vocabularyList;
  }

  vocabulary(vocabularyId: string): VocabularyRecord | undefined {
    return this.vocabularyById.get(vocabularyId);
  }

  domains(): DomainRecord[] {
    return this.domainList;
  }

  conceptClasses(): ConceptClassRecord[] {
    return this.classList;
  }

  relationshipTypes(): RelationshipTypeRecord[] {
    return this.relationshipList;
  }

  conceptSummary(): readonly ConceptSummaryRecord[] {
    return this.summaryRows;
  }

  domainSegmentConcepts(segment: DomainSegment, position: number, limit: number): ConceptRecord[] {
    return this.segmentStmt
      .all(segment.domainId, segment.vocabularyId, segment.standardConcept ?? '', segment.isInvalid ? 1 : 0, position, limit)
      .map(toConceptRecord);
  }
}
