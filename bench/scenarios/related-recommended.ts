/** POST /v1/concepts/recommended with 10 random standard or source concepts per call (defaults). */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'related-recommended',
  description: 'POST /v1/concepts/recommended, 10 random concepts per call (page_size 100)',
  prepare(ctx) {
    const ids = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 2000).map((r) => r.concept_id);
    const bodies = Array.from({ length: 200 }, (_, b) => JSON.stringify({ concept_ids: ids.slice((b * 10) % ids.length, (b * 10) % ids.length + 10) }));
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concepts/recommended', body })), ctx.random);
  },
};
export default scenario;
