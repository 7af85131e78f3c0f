/**
 * A concept's relationships (GET /v1/concepts/{id}/relationships and the E6 batch's `relationships` operation):
 * CONCEPT_RELATIONSHIP rows with full concept records on both ends, filtered on the concept at the other end.
 */
import type { ReleaseView } from '../release-view.js';
import type { RelationshipDirection, RelationshipSelection, StoredRelationship } from '../../store/relationship-store.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { fullConceptRecord, requireVisibleConcept, type FullConceptRecord } from './concept-lookup.js';
import { relationshipTypeIndex } from './relationship-types.js';

export interface ConceptRelationshipOptions {
  relationshipIds?: readonly string[];
  vocabularyIds?: readonly string[];
  domainIds?: readonly string[];
  includeInvalid: boolean;
  standardOnly: boolean;
  includeReverse: boolean;
}

/** Relationship record (spec record table; batch operation `relationships`). */
export interface RelationshipRecord {
  concept_id_1: number;
  concept_id_2: number;
  relationship_id: string;
  relationship_name: string;
  reverse_relationship_id: string;
  concept_1: FullConceptRecord;
  concept_2: FullConceptRecord;
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: string | null;
}

/**
 * One page of a concept's relationships and the exact number of them. An unknown concept is a 404
 * (`not_found`), a licence-hidden one a 403 (`vocabulary_restricted`). A relationship id missing
 * from RELATIONSHIP is named by its id, with an empty reverse. Cost: without vocabulary/domain/
 * standard filters a page reads only its own rows (plus the skipped index entries before it) and
 * the total is an index count; with them, the total and the rows before the page join each of the
 * concept's rows to its other end (linear in the concept's relationships, bounded by them).
 */
export function listConceptRelationships(
  view: ReleaseView,
  conceptId: number,
  options: ConceptRelationshipOptions,
  page: { offset: number; limit: number },
): { relationships: RelationshipRecord[]; total: number } {
  const self = requireVisibleConcept(view, conceptId);
  view.assertVisibleAll(options.vocabularyIds);
  const parts = (options.includeReverse ? (['outbound', 'inbound'] as const) : (['outbound'] as const)).map((direction) =>
    selection(view, conceptId, direction, options),
  );
  const counts = parts.map((part) => view.store.relationships.count(part));
  const total = counts.reduce((a, b) => a + b, 0);
  const rows: Array<{ row: StoredRelationship; direction: RelationshipDirection }> = [];
  let offset = page.offset;
  for (let i = 0; i < parts.length && rows.length < page.limit; i++) {
    const part = parts[i]!;
    if (offset >= counts[i]!) {
      offset -= counts[i]!;
      continue;
    }
    for (const row of view.store.relationships.page(part, offset, page.limit - rows.length)) rows.push({ row, direction: part.direction });
    offset = 0;
  }
  const types = relationshipTypeIndex(view.store);
  const selfRecord = fullConceptRecord(view.store, self);
  const relationships = rows.map(({ row, direction }): RelationshipRecord => {
    const other = fullConceptRecord(view.store, row.other);
    const type = types.get(row.relationship_id);
    return {
      concept_id_1: row.concept_id_1,
      concept_id_2: row.concept_id_2,
      relationship_id: row.relationship_id,
      relationship_name: type?.relationship_name ?? row.relationship_id,
      reverse_relationship_id: type?.reverse_relationship_id ?? '',
      concept_1: direction === 'outbound' ? selfRecord : other,
      concept_2: direction === 'outbound' ? other : selfRecord,
      valid_start_date: row.valid_start_date,
      valid_end_date: row.valid_end_date,
      invalid_reason: row.invalid_reason,
    };
  });
  return { relationships, total };
}

function selection(
  view: ReleaseView,
  conceptId: number,
  direction: RelationshipSelection['direction'],
  options: ConceptRelationshipOptions,
): RelationshipSelection {
  return {
    conceptId,
    direction,
    relationshipIds: options.relationshipIds?.length ? options.relationshipIds : undefined,
    includeInvalid: options.includeInvalid,
    otherEnd: {
      vocabularyIds: options.vocabularyIds?.length ? options.vocabularyIds : undefined,
      domainIds: options.domainIds?.length ? options.domainIds : undefined,
      standardOnly: options.standardOnly,
      hiddenVocabularyIds: view.hiddenVocabularyIds(),
    },
  };
}
