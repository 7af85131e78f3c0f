/**
 * The result records of keyword search: where each concept was placed (Placement), its match_score
 * and match_type, and the orders of the sort_by options other than relevance.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { ConceptSearchRecord, MatchType, SortBy } from './keyword-search.js';
import type { ParsedQuery } from './query-parser.js';
import { IdentifierTier, identifierScore, lengthBucket, nameLength, TextTier, textScore, type RankGroup } from '../../search-model/ranking.js';
import { exactKey } from '../../search-model/text-normalization.js';

/** Where a concept was placed: a rule-1 identifier tier, or a text tier inside a rank group. */
export type Placement =
  | { kind: 'identifier'; tier: IdentifierTier }
  | { kind: 'text'; group: RankGroup; tier: TextTier };

export function toRecord(concept: ConceptRecord, score: number, matchType: MatchType): ConceptSearchRecord {
  return {
    concept_id: concept.concept_id,
    concept_name: concept.concept_name,
    concept_code: concept.concept_code,
    vocabulary_id: concept.vocabulary_id,
    domain_id: concept.domain_id,
    concept_class_id: concept.concept_class_id,
    standard_concept: concept.standard_concept,
    invalid_reason: concept.invalid_reason,
    valid_start_date: concept.valid_start_date,
    valid_end_date: concept.valid_end_date,
    match_score: score,
    match_type: matchType,
  };
}

export function scoreOf(placement: Placement, concept: ConceptRecord): number {
  if (placement.kind === 'identifier') return identifierScore(placement.tier);
  return textScore(placement.group.index, placement.tier, lengthBucket(nameLength(concept.concept_name)));
}

export function matchTypeOf(placement: Placement, concept: ConceptRecord, parsed: ParsedQuery): MatchType {
  if (placement.kind === 'identifier') {
    if (placement.tier !== IdentifierTier.MapsToTarget) return 'exact';
    return parsed.phrasings.some((p) => p.exactKey === exactKey(concept.concept_name)) ? 'exact' : 'partial';
  }
  return placement.tier === TextTier.ExactName || placement.tier === TextTier.ExactSynonym ? 'exact' : 'partial';
}

export function compareForSort(sortBy: SortBy): ((a: ConceptSearchRecord, b: ConceptSearchRecord) => number) | undefined {
  switch (sortBy) {
    case 'name':
    case 'concept_name':
      return (a, b) => a.concept_name.localeCompare(b.concept_name) || a.concept_id - b.concept_id;
    case 'code':
    case 'concept_code':
      return (a, b) => a.concept_code.localeCompare(b.concept_code) || a.concept_id - b.concept_id;
    case 'date':
      return (a, b) => a.valid_start_date.localeCompare(b.valid_start_date) || a.concept_id - b.concept_id;
    case 'vocabulary_id':
      return (a, b) => a.vocabulary_id.localeCompare(b.vocabulary_id) || a.concept_id - b.concept_id;
    case 'concept_id':
      return (a, b) => a.concept_id - b.concept_id;
    default:
      return undefined;
  }
}

