/** GET /v1/concepts/by-code/{vocabulary_id}/{concept_code} for random concepts. */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'concept-by-code',
  description: 'GET /v1/concepts/by-code/{vocabulary_id}/{concept_code}, 20,000 random codes',
  prepare(ctx) {
    // metadata concepts share the code 'OMOP generated'; everything else is unique per vocabulary
    const rows = ctx.sample<{ vocabulary_id: string; concept_code: string }>(
      "SELECT vocabulary_id, concept_code FROM concept WHERE concept_code <> 'OMOP generated'",
      20_000,
    );
    return cycle(
      rows.map((r) => ({ path: `/v1/concepts/by-code/${encodeURIComponent(r.vocabulary_id)}/${encodeURIComponent(r.concept_code)}` })),
      ctx.random,
    );
  },
};
export default scenario;
