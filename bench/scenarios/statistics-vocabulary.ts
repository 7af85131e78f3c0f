/** GET /v1/vocabularies/{id}/statistics (E5) with every section, for the largest vocabularies (SNOMED first). */
import { cycle, type Scenario } from '../lib/scenario.js';

const ALL_SECTIONS = 'include_hierarchy_stats=true&include_domain_breakdown=true&include_mapping_stats=true&include_trend_data=true';

const scenario: Scenario = {
  name: 'statistics-vocabulary',
  description: 'GET /v1/vocabularies/{id}/statistics with every flag, for the 10 largest vocabularies incl. SNOMED',
  prepare(ctx) {
    const vocabularies = ctx
      .sample<{ vocabulary_id: string; n: number }>(
        "SELECT vocabulary_id, sum(concept_count) AS n FROM concept_summary WHERE vocabulary_id NOT IN ('GPI', 'MedDRA') GROUP BY vocabulary_id",
        1000,
      )
      .sort((a, b) => b.n - a.n)
      .slice(0, 10);
    return cycle(
      vocabularies.map((v) => ({ path: `/v1/vocabularies/${encodeURIComponent(v.vocabulary_id)}/statistics?${ALL_SECTIONS}` })),
      ctx.random,
    );
  },
};
export default scenario;
