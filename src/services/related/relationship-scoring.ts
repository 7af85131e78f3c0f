/**
 * How related concepts are scored: `relationship_score` is the product of the weights of the relationship kinds on
 * the shortest path, decayed by DISTANCE_DECAY per step after the first; `relationship_distance` is the path's
 * length.
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
