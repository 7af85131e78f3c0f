/** Source concepts for the mapping scenarios (a helper module: no default export, so not a scenario itself). */
import type { BenchContext } from './scenario.js';

/** Up to `n` random non-standard concepts with at least one 'Maps to' row (one pass over CONCEPT, a primary-key probe each). */
export function mappedNonStandardConcepts(ctx: BenchContext, n: number): number[] {
  return ctx
    .sample<{ concept_id: number }>(
      `SELECT c.concept_id FROM concept c WHERE c.standard_concept IS NULL
          AND EXISTS (SELECT 1 FROM concept_relationship r WHERE r.concept_id_1 = c.concept_id AND r.relationship_id = 'Maps to')`,
      n,
    )
    .map((r) => r.concept_id);
}
