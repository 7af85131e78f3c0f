/** GET /v1/concepts/{id}/related for random concepts, and for the concepts with the most relationships among them (hubs). */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'related-concepts',
  description: 'GET /v1/concepts/{concept_id}/related (defaults), 2,000 random concepts and the 20 with the most relationships among 5,000',
  prepare(ctx) {
    const ids = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 5000).map((r) => r.concept_id);
    const count = ctx.store.prepare('SELECT count(*) FROM concept_relationship WHERE concept_id_1 = ?').pluck();
    const hubs = ids
      .map((id) => [id, count.get(id) as number] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([id]) => id);
    return cycle(
      [...ids.slice(0, 2000), ...hubs].map((id) => ({ path: `/v1/concepts/${id}/related` })),
      ctx.random,
    );
  },
};
export default scenario;
