/**
 * A walk from one concept of a release, as related concepts, traverse, recommendations and the E6
 * batch start it: the concept must exist in the release (404 not_found) and be visible to the
 * caller (403 vocabulary_restricted); the walk (./concept-traversal.ts) reads the release's
 * relationships and concept records and applies the caller's licence rules.
 */
import type { ReleaseView } from '../release-view.js';
import { requireVisibleConcept } from '../concepts/concept-lookup.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { traverseGraph, type TraversalBudget, type TraversalOutcome } from './concept-traversal.js';
import { scorerFor } from './relationship-scoring.js';

export interface WalkOptions {
  /** Follow only these relationship ids (null: all). */
  relationshipIds: readonly string[] | null;
  maxDepth: number;
  minScore: number;
  /** Budgets of the walk (TRAVERSAL_BUDGET unless given). */
  budget?: TraversalBudget;
}

export function walkFromConcept(view: ReleaseView, conceptId: number, options: WalkOptions): TraversalOutcome {
  requireVisibleConcept(view, conceptId);
  return traverseGraph(view.store.graph, scorerFor(view.store), {
    startConceptId: conceptId,
    relationshipIds: options.relationshipIds,
    maxDepth: options.maxDepth,
    minScore: options.minScore,
    conceptOf: (id) => view.store.concepts.byId(id),
    canSee: (vocabularyId) => view.canSee(vocabularyId),
    budget: options.budget,
  });
}
