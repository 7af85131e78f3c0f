/**
 * HOW RELATED CONCEPTS ARE SCORED (`relationship_score`, `relationship_distance`; E6 operations
 * `related` and `traverse`, GET /v1/concepts/{id}/related, POST /v1/concepts/recommended).
 *
 * `relationship_distance` is the number of relationships on the shortest path from the starting
 * concept (1 = a direct neighbour). `relationship_score` is in [0, 1]: the product of the weights of
 * the relationships on the path, times DISTANCE_DECAY for every step after the first:
 *
 *     score = w(r1) × w(r2) × … × w(rd) × DISTANCE_DECAY^(d − 1)
 *
 * with the weight of a relationship given by its kind:
 *
 * | kind             | relationships                                                            | weight |
 * |------------------|--------------------------------------------------------------------------|-------:|
 * | mapping          | `Maps to`, `Mapped from`                                                 |   1.0  |
 * | direct hierarchy | `Is a`, `Subsumes`                                                       |   0.9  |
 * | replacement      | `… replaced by`, `… replaces`, `Concept same_as/alt_to/poss_eq/was_a to/from` | 0.8 |
 * | value mapping    | `Maps to value/unit/…`, `Value/Unit/… mapped from`                       |   0.7  |
 * | other hierarchy  | a relationship whose RELATIONSHIP row, or its reverse's, says is_hierarchical or defines_ancestry = 1 (`RxNorm has ing`, `Has tradename`, `ATC - RxNorm`, …) | 0.7 |
 * | attribute        | every other relationship (`Has finding site`, `Has component`, …)       |   0.5  |
 *
 * DISTANCE_DECAY is 0.8. So a direct `Maps to` target scores 1.0, a parent 0.9, a sibling (`Is a`
 * then `Subsumes`) 0.9 × 0.9 × 0.8 = 0.648, a direct attribute 0.5, an attribute of an attribute
 * 0.5 × 0.5 × 0.8 = 0.2. Every weight is at most 1 and the decay below 1, so a step never raises a
 * score: along a path scores strictly fall. A concept reached by several shortest paths keeps the
 * best of their scores and the relationship of that path's last step.
 */
import type { RelationshipTypeRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { relationshipTypeIndex } from '../concepts/relationship-types.js';

export type RelationshipKind = 'mapping' | 'direct_hierarchy' | 'replacement' | 'value_mapping' | 'other_hierarchy' | 'attribute';

export const RELATIONSHIP_KIND_WEIGHTS: Readonly<Record<RelationshipKind, number>> = {
  mapping: 1.0,
  direct_hierarchy: 0.9,
  replacement: 0.8,
  value_mapping: 0.7,
  other_hierarchy: 0.7,
  attribute: 0.5,
};

/** Factor applied for every step after the first. */
export const DISTANCE_DECAY = 0.8;

/** Scores are rounded to this many decimals in responses (0.9 × 0.9 × 0.8 is 0.648, not 0.6480000000000001). */
const SCORE_DECIMALS = 6;

const MAPPING = new Set(['Maps to', 'Mapped from']);
const DIRECT_HIERARCHY = new Set(['Is a', 'Subsumes']);
const REPLACEMENT = / replaced by$| replaces$|^Concept (same_as|alt_to|poss_eq|was_a) (to|from)$/;
const VALUE_MAPPING = /^Maps to .+| mapped from$/i;

/** One text for the scoring model, used by the OpenAPI descriptions. */
export const SCORING_DESCRIPTION =
  '`relationship_distance` is the number of relationships on the shortest path from the concept asked about. ' +
  '`relationship_score` (0–1) is the product of the weights of the relationships on that path times ' +
  `${DISTANCE_DECAY} for every step after the first. Weights by kind: mapping (Maps to, Mapped from) ${RELATIONSHIP_KIND_WEIGHTS.mapping}; ` +
  `direct hierarchy (Is a, Subsumes) ${RELATIONSHIP_KIND_WEIGHTS.direct_hierarchy}; replacement (… replaced by, … replaces, ` +
  `Concept same_as/alt_to/poss_eq/was_a) ${RELATIONSHIP_KIND_WEIGHTS.replacement}; value mapping (Maps to value/unit/…, … mapped from) ` +
  `${RELATIONSHIP_KIND_WEIGHTS.value_mapping}; other hierarchical relationships (is_hierarchical or defines_ancestry 1 on the ` +
  `relationship or its reverse, e.g. RxNorm has ing) ${RELATIONSHIP_KIND_WEIGHTS.other_hierarchy}; any other attribute ` +
  `relationship ${RELATIONSHIP_KIND_WEIGHTS.attribute}. E.g. a parent scores 0.9, a sibling 0.9 × 0.9 × 0.8 = 0.648. A concept ` +
  'reached by several shortest paths keeps the best score and the relationship of that path\'s last step.';

/** Kinds and names of a release's relationship ids (built once per release store). */
export class RelationshipScorer {
  private readonly kinds = new Map<string, RelationshipKind>();

  /** `types`: the release's RELATIONSHIP rows by relationship_id. */
  constructor(private readonly types: ReadonlyMap<string, RelationshipTypeRecord>) {}

  kind(relationshipId: string): RelationshipKind {
    let kind = this.kinds.get(relationshipId);
    if (!kind) {
      kind = this.classify(relationshipId);
      this.kinds.set(relationshipId, kind);
    }
    return kind;
  }

  weight(relationshipId: string): number {
    return RELATIONSHIP_KIND_WEIGHTS[this.kind(relationshipId)];
  }

  /** Score of a path one step longer than `pathScore`, the new step being `relationshipId`. */
  extend(pathScore: number, relationshipId: string, newDistance: number): number {
    return pathScore * this.weight(relationshipId) * (newDistance > 1 ? DISTANCE_DECAY : 1);
  }

  /** relationship_name from the RELATIONSHIP table (the id itself when the table does not list it). */
  name(relationshipId: string): string {
    return this.types.get(relationshipId)?.relationship_name ?? relationshipId;
  }

  private classify(id: string): RelationshipKind {
    if (MAPPING.has(id)) return 'mapping';
    if (DIRECT_HIERARCHY.has(id)) return 'direct_hierarchy';
    if (REPLACEMENT.test(id)) return 'replacement';
    if (VALUE_MAPPING.test(id)) return 'value_mapping';
    const type = this.types.get(id);
    const reverse = type ? this.types.get(type.reverse_relationship_id) : undefined;
    const hierarchical = (t: RelationshipTypeRecord | undefined) => t !== undefined && (t.is_hierarchical === '1' || t.defines_ancestry === '1');
    if (hierarchical(type) || hierarchical(reverse)) return 'other_hierarchy';
    return 'attribute';
  }
}

/** A score as sent in responses. */
export function roundScore(score: number): number {
  const factor = 10 ** SCORE_DECIMALS;
  return Math.round(score * factor) / factor;
}

const scorers = new WeakMap<ReleaseStore, RelationshipScorer>();

/** The scorer of a release store (its RELATIONSHIP table is in memory; the scorer is built once). */
export function scorerFor(store: ReleaseStore): RelationshipScorer {
  let scorer = scorers.get(store);
  if (!scorer) {
    scorer = new RelationshipScorer(relationshipTypeIndex(store));
    scorers.set(store, scorer);
  }
  return scorer;
}
