/**
 * GET /v1/concepts/{concept_id}/mappings: one concept's mapping rows from CONCEPT_RELATIONSHIP ('Maps to' by
 * default), under the licence rules, each with the E10 confidence the quality aggregates counted for it.
 */
import type { ReleaseView } from '../release-view.js';
import type { MappingFilter, MappingRow } from '../../store/mapping-store.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { requireVisibleConcept } from '../concepts/concept-lookup.js';
import { diceSimilarity, MAPPING_RELATIONSHIP_IDS, mappingConfidence, nameWords } from '../../mapping-model/mapping-confidence.js';

export const MAPS_TO = 'Maps to';
export const DEFAULT_MAPPING_RELATIONSHIPS: readonly string[] = [MAPS_TO];
export const MAPPINGS_DEFAULT_PAGE_SIZE = 100;

/** The target concept's fields as every mapping record carries them. */
export interface MappingTargetFields {
  target_concept_id: number;
  target_concept_name: string;
  target_vocabulary_id: string;
  target_concept_code: string;
  target_domain_id: string;
  target_concept_class_id: string;
  target_standard_concept: 'S' | 'C' | null;
  target_invalid_reason: 'D' | 'U' | null;
}

export interface ConceptMappingRecord extends MappingTargetFields {
  source_concept_id: number;
  source_concept_name: string;
  relationship_id: string;
  /** The relationship row's validity. */
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: 'D' | 'U' | null;
  /** The E10 mapping confidence of the row, 0–1 (see the file header). */
  confidence: number;
}

export interface ConceptMappingsRequest {
  conceptId: number;
  /** Only targets in these vocabularies (undefined: every vocabulary the caller may see). */
  targetVocabularyIds?: readonly string[];
  /** Relationship ids to list (undefined: DEFAULT_MAPPING_RELATIONSHIPS). */
  relationshipIds?: readonly string[];
  includeInvalid: boolean;
  offset: number;
  limit: number;
}

export interface ConceptMappings {
  mappings: ConceptMappingRecord[];
  source_concept: ConceptRecord;
  /** Every mapping of the selection (all pages). */
  total_mappings: number;
}

export function targetFields(target: ConceptRecord): MappingTargetFields {
  return {
    target_concept_id: target.concept_id,
    target_concept_name: target.concept_name,
    target_vocabulary_id: target.vocabulary_id,
    target_concept_code: target.concept_code,
    target_domain_id: target.domain_id,
    target_concept_class_id: target.concept_class_id,
    target_standard_concept: target.standard_concept,
    target_invalid_reason: target.invalid_reason,
  };
}

/** The filter for targets a caller may see, in the vocabularies named (each of which must be visible: 403 otherwise). */
export function visibleTargetFilter(view: ReleaseView, targetVocabularyIds: readonly string[] | undefined, includeInvalid: boolean): MappingFilter {
  for (const vocabularyId of targetVocabularyIds ?? []) view.assertVisible(vocabularyId);
  return { targetVocabularyIds, hiddenVocabularyIds: view.hiddenVocabularyIds(), includeInvalid };
}

/**
 * At most this many mapping rows of one relationship id are read to count a source's fan-out (no
 * Athena concept has near this many 'Maps to' rows; beyond it 1/n would change confidence by < 0.0002).
 */
const FAN_OUT_READ_LIMIT = 1000;

/** The source's valid 'Maps to' and 'Maps to value' rows whose target is in CONCEPT, as E10 counts them. */
function validMappingFanOut(store: ReleaseStore, sourceId: number): number {
  const everyTarget: MappingFilter = { hiddenVocabularyIds: [], includeInvalid: true };
  let n = 0;
  for (const relationshipId of MAPPING_RELATIONSHIP_IDS) {
    for (const row of store.mappings.page(sourceId, relationshipId, everyTarget, 0, FAN_OUT_READ_LIMIT)) if (row.invalid_reason === null) n++;
  }
  return n;
}

/** Computes each row's confidence for one source concept (its name words and fan-out read once). */
function confidenceOf(store: ReleaseStore, source: ConceptRecord): (row: MappingRow) => number {
  let sourceWords: Set<string> | undefined;
  let fanOut: number | undefined;
  return (row) => {
    if (row.invalid_reason !== null) return 0;
    const selfMap = row.target.concept_id === source.concept_id;
    return mappingConfidence({
      similarity: selfMap ? 1 : diceSimilarity((sourceWords ??= nameWords(source.concept_name)), nameWords(row.target.concept_name)),
      relationship_id: row.relationship_id,
      fan_out: (fanOut ??= validMappingFanOut(store, source.concept_id)),
      target_standard: row.target.standard_concept,
      target_invalid: row.target.invalid_reason,
      same_domain: row.target.domain_id === source.domain_id,
    });
  };
}

function toRecord(source: ConceptRecord, row: MappingRow, confidence: number): ConceptMappingRecord {
  return {
    source_concept_id: source.concept_id,
    source_concept_name: source.concept_name,
    ...targetFields(row.target),
    relationship_id: row.relationship_id,
    valid_start_date: row.valid_start_date,
    valid_end_date: row.valid_end_date,
    invalid_reason: row.invalid_reason,
    confidence,
  };
}

/** One page of a concept's mappings with the exact total; the relationship ids' rows follow each other in the order given. */
export function conceptMappings(view: ReleaseView, request: ConceptMappingsRequest): ConceptMappings {
  const source = requireVisibleConcept(view, request.conceptId);
  const filter = visibleTargetFilter(view, request.targetVocabularyIds, request.includeInvalid);
  const relationshipIds = [...new Set(request.relationshipIds ?? DEFAULT_MAPPING_RELATIONSHIPS)];
  const counts = relationshipIds.map((relationshipId) => view.store.mappings.count(source.concept_id, relationshipId, filter));
  const confidence = confidenceOf(view.store, source);
  const mappings: ConceptMappingRecord[] = [];
  let skip = request.offset;
  relationshipIds.forEach((relationshipId, i) => {
    const count = counts[i]!;
    if (skip >= count) {
      skip -= count;
      return;
    }
    const wanted = request.limit - mappings.length;
    if (wanted <= 0) return;
    for (const row of view.store.mappings.page(source.concept_id, relationshipId, filter, skip, wanted)) mappings.push(toRecord(source, row, confidence(row)));
    skip = 0;
  });
  return { mappings, source_concept: source, total_mappings: counts.reduce((sum, n) => sum + n, 0) };
}
