/** E6 batch: 100 queries mixing relationships, related and traverse (defaults), random concepts of every vocabulary. */
import { cycle, type Scenario } from '../lib/scenario.js';

const OPERATIONS = ['relationships', 'related', 'traverse'] as const;

const scenario: Scenario = {
  name: 'relationship-batch',
  description: 'POST /v1/concepts/relationships/batch, 100 queries (relationships, related, traverse in turn) on random concepts',
  prepare(ctx) {
    const ids = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 4000).map((r) => r.concept_id);
    const bodies = Array.from({ length: 40 }, (_, b) =>
      JSON.stringify({
        queries: Array.from({ length: 100 }, (_, i) => ({
          query_id: `q${i}`,
          concept_id: ids[(b * 100 + i) % ids.length]!,
          operation: OPERATIONS[i % OPERATIONS.length],
        })),
      }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concepts/relationships/batch', body })), ctx.random);
  },
};
export default scenario;
