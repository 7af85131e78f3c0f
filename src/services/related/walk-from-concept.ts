/**
 * Starts a walk from one concept of a release (for related concepts, traverse, recommendations and the E6 batch):
 * the concept must exist (404) and be visible (403); the walk applies the caller's licence rules.
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
