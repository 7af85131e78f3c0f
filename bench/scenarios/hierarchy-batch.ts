/**
 * POST /v1/concepts/hierarchy/batch, 100 queries each: ancestors, descendants and hierarchy (flat)
 * in turn, default params (page_size / max_results 100), on random concepts of the hierarchy (valid
 * standard and classification concepts, the ones CONCEPT_ANCESTOR holds: most have few descendants,
 * some thousands).
 */
import { cycle, type Scenario } from '../lib/scenario.js';

const OPERATIONS = ['ancestors', 'descendants', 'hierarchy'] as const;

const scenario: Scenario = {
  name: 'hierarchy-batch',
  description: 'POST /v1/concepts/hierarchy/batch, 100 queries (ancestors, descendants, hierarchy in turn) on random standard/classification concepts',
  prepare(ctx) {
    const ids = ctx
      .sample<{ concept_id: number }>("SELECT concept_id FROM concept WHERE standard_concept IN ('S', 'C') AND invalid_reason IS NULL", 4000)
      .map((r) => r.concept_id);
    const bodies = Array.from({ length: 40 }, (_, b) =>
      JSON.stringify({
        queries: Array.from({ length: 100 }, (_, i) => ({
          query_id: `q${i}`,
          concept_id: ids[(b * 100 + i) % ids.length]!,
          operation: OPERATIONS[(b + i) % OPERATIONS.length],
        })),
      }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concepts/hierarchy/batch', body })), ctx.random);
  },
};
export default scenario;
