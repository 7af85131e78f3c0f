/** POST /v1/concepts/batch: 100 random concepts with their synonyms and parents/children. */
import { cycle, type Scenario } from '../lib/scenario.js';

const BATCH_SIZE = 100;

const scenario: Scenario = {
  name: 'concept-batch',
  description: 'POST /v1/concepts/batch, 100 random concept ids, include_relationships + include_synonyms, standard_only false',
  prepare(ctx) {
    const ids = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 20_000).map((r) => r.concept_id);
    const bodies = Array.from({ length: 200 }, (_, b) =>
      JSON.stringify({
        concept_ids: Array.from({ length: BATCH_SIZE }, (_, i) => ids[(b * BATCH_SIZE + i) % ids.length]!),
        include_relationships: true,
        include_synonyms: true,
        standard_only: false,
      }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concepts/batch', body })), ctx.random);
  },
};
export default scenario;
