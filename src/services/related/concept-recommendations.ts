/**
 * Recommendations (POST /v1/concepts/recommended, "Phoebe") from the vocabulary's own structure: a bounded walk
 * over `Maps to`, `Is a` and `Subsumes` from each source, filtered and ranked by relationship score, each source
 * paged alike.
 */
import type { ReleaseView } from '../release-view.js';
import { ServiceError } from '../errors.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { bestFirst, budgetUntil, REQUEST_WALK_TIME_MS, type TraversalOutcome } from './concept-traversal.js';
import { roundScore, scorerFor } from './relationship-scoring.js';
import { walkFromConcept } from './walk-from-concept.js';

export const RECOMMENDATION_RELATIONSHIPS: readonly string[] = ['Maps to', 'Is a', 'Subsumes'];
export const RECOMMENDATION_DEPTH = 2;
export const RECOMMENDED_MAX_CONCEPT_IDS = 100;
export const RECOMMENDED_MAX_RELATIONSHIP_TYPES = 20;
export const RECOMMENDED_MAX_FILTER_IDS = 50;
export const RECOMMENDED_DEFAULT_PAGE_SIZE = 100;
export const RECOMMENDED_MAX_PAGE_SIZE = 1000;

export interface RecommendationRequest {
  conceptIds: readonly number[];
  relationshipIds: readonly string[] | null;
  vocabularyIds: readonly string[] | null;
  domainIds: readonly string[] | null;
  standardOnly: boolean;
  includeInvalid: boolean;
  offset: number;
  limit: number;
}

export interface RecommendedConcept extends ConceptRecord {
  relationship_id: string;
  relationship_name: string;
  relationship_score: number;
  relationship_distance: number;
}

export interface RecommendationResult {
  /** Keyed by source concept id as a string (client contract §1.1). */
  recommendations: Record<string, RecommendedConcept[]>;
  /** Length of the longest source list before paging (pagination counts it). */
  longestList: number;
  failedConcepts: Array<{ concept_id: number; reason: string }>;
}

export function recommendConcepts(view: ReleaseView, request: RecommendationRequest): RecommendationResult {
  view.assertVisibleAll(request.vocabularyIds ?? undefined);
  const scorer = scorerFor(view.store);
  const recommendations: Record<string, RecommendedConcept[]> = {};
  const failedConcepts: RecommendationResult['failedConcepts'] = [];
  let longestList = 0;
  const deadline = performance.now() + REQUEST_WALK_TIME_MS;
  const keep = (c: ConceptRecord) =>
    (!request.standardOnly || c.standard_concept === 'S') &&
    (request.includeInvalid || c.invalid_reason === null) &&
    (!request.vocabularyIds || request.vocabularyIds.includes(c.vocabulary_id)) &&
    (!request.domainIds || request.domainIds.includes(c.domain_id));
  for (const conceptId of request.conceptIds) {
    const key = String(conceptId);
    if (key in recommendations) continue;
    recommendations[key] = [];
    let outcome: TraversalOutcome;
    try {
      outcome = walkFromConcept(view, conceptId, {
        relationshipIds: request.relationshipIds ?? RECOMMENDATION_RELATIONSHIPS,
        maxDepth: RECOMMENDATION_DEPTH,
        minScore: 0,
        budget: budgetUntil(deadline),
      });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.status >= 500) throw err;
      failedConcepts.push({ concept_id: conceptId, reason: String(err.code) });
      continue;
    }
    const ranked = outcome.discovered
      .filter((found) => keep(found.concept))
      .sort(bestFirst);
    longestList = Math.max(longestList, ranked.length);
    recommendations[key] = ranked.slice(request.offset, request.offset + request.limit).map(({ concept, relationship_id, score, distance }) => ({
      ...concept,
      relationship_id,
      relationship_name: scorer.name(relationship_id),
      relationship_score: roundScore(score),
      relationship_distance: distance,
    }));
  }
  return { recommendations, longestList, failedConcepts };
}
