/** GET /v1/concepts/{id}/mappings of random non-standard concepts that have 'Maps to' rows. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { mappedNonStandardConcepts } from '../lib/mapping-sources.js';

const scenario: Scenario = {
  name: 'mappings-by-concept',
  description: "GET /v1/concepts/{concept_id}/mappings, 5,000 random non-standard concepts with 'Maps to' rows",
  prepare(ctx) {
    return cycle(
      mappedNonStandardConcepts(ctx, 5000).map((id) => ({ path: `/v1/concepts/${id}/mappings` })),
      ctx.random,
    );
  },
};
export default scenario;
