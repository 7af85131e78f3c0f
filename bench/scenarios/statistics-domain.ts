/** GET /v1/domains/{domain_id}/statistics (E2) for every domain that has concepts, and one without. */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'statistics-domain',
  description: 'GET /v1/domains/{domain_id}/statistics for every domain of the release',
  prepare(ctx) {
    const domains = ctx.sample<{ domain_id: string }>('SELECT DISTINCT domain_id FROM concept_summary', 1000);
    return cycle(
      [...domains.map((d) => d.domain_id), 'Specimen'].map((id) => ({ path: `/v1/domains/${encodeURIComponent(id)}/statistics` })),
      ctx.random,
    );
  },
};
export default scenario;
