/**
 * E6 operation `traverse`: the Traversal result of a bounded breadth-first walk from one concept
 * (./concept-traversal.ts), whose stats count exactly what the walk did and name every budget that cut it short.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { TraversalLimit } from './concept-traversal.js';
import { roundScore, scorerFor } from './relationship-scoring.js';
import { walkFromConcept, type WalkOptions } from './walk-from-concept.js';

export const TRAVERSE_DEFAULT_MAX_DEPTH = 3;
export const TRAVERSE_DEFAULT_MIN_SCORE = 0;

export interface TraversalResult {
  starting_concepts: number[];
  discovered_concepts: Array<{
    concept_id: number;
    concept_name: string;
    vocabulary_id: string;
    relationship_id: string;
    relationship_name: string;
    relationship_score: number;
    relationship_distance: number;
  }>;
  relationship_paths: never[];
  traversal_stats: {
    total_concepts_discovered: number;
    max_depth_reached: number;
    total_relationships_explored: number;
    unique_relationship_types: string[];
    limits_reached: TraversalLimit[];
  };
}

export function traverseFromConcept(view: ReleaseView, conceptId: number, options: WalkOptions): TraversalResult {
  const scorer = scorerFor(view.store);
  const outcome = walkFromConcept(view, conceptId, options);
  const discovered = outcome.discovered.map(({ concept: c, relationship_id, score, distance }) => ({
    concept_id: c.concept_id,
    concept_name: c.concept_name,
    vocabulary_id: c.vocabulary_id,
    relationship_id,
    relationship_name: scorer.name(relationship_id),
    relationship_score: roundScore(score),
    relationship_distance: distance,
  }));
  return {
    starting_concepts: [conceptId],
    discovered_concepts: discovered,
    relationship_paths: [],
    traversal_stats: {
      total_concepts_discovered: discovered.length,
      max_depth_reached: outcome.maxDepthReached,
      total_relationships_explored: outcome.relationshipsExplored,
      unique_relationship_types: outcome.relationshipTypes,
      limits_reached: outcome.limitsReached,
    },
  };
}
