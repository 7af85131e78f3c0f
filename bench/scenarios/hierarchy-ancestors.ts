/** GET /v1/concepts/{id}/ancestors of random deep concepts (6+ levels below a large ancestor), default params. */
import { cycle, type Scenario } from '../lib/scenario.js';

/** Deep descendants of the five largest ancestors (read through their ancestor_by_level range). */
export const DEEP_CONCEPTS_SQL = `
  SELECT descendant_concept_id AS concept_id FROM concept_ancestor
   WHERE ancestor_concept_id IN (SELECT ancestor_concept_id FROM hierarchy_descendant_facet GROUP BY 1 ORDER BY sum(descendant_count) DESC LIMIT 5)
     AND min_levels_of_separation >= 6`;

const scenario: Scenario = {
  name: 'hierarchy-ancestors',
  description: 'GET /v1/concepts/{id}/ancestors, 5,000 random concepts 6+ levels deep',
  prepare(ctx) {
    const rows = ctx.sample<{ concept_id: number }>(DEEP_CONCEPTS_SQL, 5000);
    return cycle(
      rows.map((r) => ({ path: `/v1/concepts/${r.concept_id}/ancestors` })),
      ctx.random,
    );
  },
};
export default scenario;
