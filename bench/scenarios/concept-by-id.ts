/** GET /v1/concepts/{id} for random concepts of every vocabulary (valid and invalid alike). */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'concept-by-id',
  description: 'GET /v1/concepts/{concept_id}, 20,000 random concept ids',
  prepare(ctx) {
    const rows = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 20_000);
    return cycle(
      rows.map((r) => ({ path: `/v1/concepts/${r.concept_id}` })),
      ctx.random,
    );
  },
};
export default scenario;
