/**
 * POST /v1/concepts/batch: up to BATCH_MAX_CONCEPTS concepts by id, each described as GET /v1/concepts/{id} does,
 * plus optionally its 'Maps to' targets; an id not answered is listed in `failed_concepts` with its reason, never
 * a failure.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { LinkedConcept, ReleaseStore } from '../../store/release-store.js';
import { ATTACHED_LIST_LIMIT, describeConcept, relativesOf, type ConceptDetail } from './concept-lookup.js';
import { briefConcept, type ConceptBrief } from './concept-brief.js';

export const BATCH_MAX_CONCEPTS = 100;
const MAPPING_RELATIONSHIP = 'Maps to';

export interface ConceptBatchRequest {
  conceptIds: readonly number[];
  includeRelationships?: boolean;
  includeSynonyms?: boolean;
  includeMappings?: boolean;
  vocabularyFilter?: readonly string[];
  /** Only standard concepts (standard_concept 'S'); default true. */
  standardOnly?: boolean;
}

export interface MappingTarget extends ConceptBrief {
  relationship_id: string;
}

export interface BatchConcept extends ConceptDetail {
  mappings?: MappingTarget[];
}

export interface ConceptBatchResult {
  concepts: BatchConcept[];
  failed_concepts: Array<{ concept_id: number; reason: string }>;
  summary: { total: number; found: number; failed: number };
}

function toMappingTarget(link: LinkedConcept): MappingTarget {
  return { ...briefConcept(link.concept), relationship_id: link.relationship_id };
}

export function getConceptBatch(view: ReleaseView, request: ConceptBatchRequest): ConceptBatchResult {
  const ids = [...new Set(request.conceptIds)];
  const standardOnly = request.standardOnly ?? true;
  const vocabularyFilter = request.vocabularyFilter?.length ? new Set(request.vocabularyFilter) : undefined;
  const found = new Map(view.store.concepts.byIds(ids).map((c) => [c.concept_id, c]));
  const failed: ConceptBatchResult['failed_concepts'] = [];
  const answered: ConceptRecord[] = [];
  for (const id of ids) {
    const concept = found.get(id);
    const reason = !concept
      ? `not_found: concept ${id} is not in release ${view.store.manifest.label}`
      : !view.canSee(concept.vocabulary_id)
        ? `vocabulary_restricted: ${view.restrictionMessage(concept.vocabulary_id)}`
        : vocabularyFilter && !vocabularyFilter.has(concept.vocabulary_id)
          ? `filtered: its vocabulary ${concept.vocabulary_id} is not in vocabulary_filter`
          : standardOnly && concept.standard_concept !== 'S'
            ? 'filtered: not a standard concept (standard_only is true)'
            : undefined;
    if (reason) failed.push({ concept_id: id, reason });
    else answered.push(concept!);
  }
  const answeredIds = answered.map((c) => c.concept_id);
  const relatives = request.includeRelationships ? relativesOf(view, answeredIds) : undefined;
  const mappings = request.includeMappings ? view.store.relationships.linkedConceptsOf(answeredIds, [MAPPING_RELATIONSHIP], ATTACHED_LIST_LIMIT) : undefined;
  const concepts = answered.map((concept): BatchConcept => {
    const detail: BatchConcept = describeConcept(view, concept, { include_synonyms: request.includeSynonyms });
    if (relatives) detail.relationships = relatives.get(concept.concept_id);
    if (mappings) detail.mappings = view.visible(mappings.get(concept.concept_id)!.map(toMappingTarget));
    return detail;
  });
  return { concepts, failed_concepts: failed, summary: { total: ids.length, found: concepts.length, failed: failed.length } };
}
