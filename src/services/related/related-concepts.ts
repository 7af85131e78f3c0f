/**
 * Related concepts (E6 `related`, GET /v1/concepts/{id}/related): the best-scored concepts within RELATED_DEPTH
 * relationships of a concept, from one bounded traversal, so a hub answers as fast as any concept.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { bestFirst, type TraversalBudget } from './concept-traversal.js';
import { roundScore, scorerFor } from './relationship-scoring.js';
import { walkFromConcept } from './walk-from-concept.js';
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';

/** How far related concepts are looked for (direct neighbours and theirs). */
export const RELATED_DEPTH = 2;
export const RELATED_DEFAULT_MIN_SCORE = 0.1;
/** E6 `related`: page_size default. */
export const BATCH_RELATED_DEFAULT_PAGE_SIZE = 50;
/** GET /v1/concepts/{id}/related: page_size default (client contract §1.1). */
export const RELATED_DEFAULT_PAGE_SIZE = 20;
/** Largest page_size of both (GET clamps to it; the batch rejects more). */
export const RELATED_MAX_PAGE_SIZE = 100;

/** Related-concept record (spec record table), with the concept's domain, class and standard flag (client contract §1.1). */
export interface RelatedConceptRecord extends ConceptBrief {
  relationship_id: string;
  relationship_name: string;
  relationship_score: number;
  relationship_distance: number;
}

export interface RelatedConceptsOptions {
  /** Follow only these relationship ids (null: all). */
  relationshipIds: readonly string[] | null;
  minScore: number;
  limit: number;
  /** Budgets of the walk (TRAVERSAL_BUDGET unless given). */
  budget?: TraversalBudget;
}

export function findRelatedConcepts(view: ReleaseView, conceptId: number, options: RelatedConceptsOptions): RelatedConceptRecord[] {
  const scorer = scorerFor(view.store);
  const outcome = walkFromConcept(view, conceptId, {
    relationshipIds: options.relationshipIds,
    maxDepth: RELATED_DEPTH,
    minScore: options.minScore,
    budget: options.budget,
  });
  return outcome.discovered
    .sort(bestFirst)
    .slice(0, options.limit)
    .map(({ concept: c, relationship_id, score, distance }) => ({
      ...briefConcept(c),
      relationship_id,
      relationship_name: scorer.name(relationship_id),
      relationship_score: roundScore(score),
      relationship_distance: distance,
    }));
}
