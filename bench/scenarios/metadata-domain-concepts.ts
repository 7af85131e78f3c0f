/** GET /v1/domains/{domain_id}/concepts: the first page of every domain, plain and with each filter. */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'metadata-domain-concepts',
  description: 'GET /v1/domains/{domain_id}/concepts page 1 (page_size 50) of every domain, unfiltered, standard_only, include_invalid',
  prepare(ctx) {
    const domains = ctx.store.prepare('SELECT DISTINCT domain_id FROM concept_summary ORDER BY domain_id').pluck().all() as string[];
    const filters = ['', '&standard_only=true', '&include_invalid=true'];
    return cycle(
      domains.flatMap((d) => filters.map((f) => ({ path: `/v1/domains/${encodeURIComponent(d)}/concepts?page_size=50${f}` }))),
      ctx.random,
    );
  },
};
export default scenario;
