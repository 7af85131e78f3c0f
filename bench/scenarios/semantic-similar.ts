/**
 * Similar concepts with the default (hybrid) algorithm: POST /v1/search/similar by concept_id of a
 * standard concept (half) or by a free-text query (half), similarity_threshold 0.5.
 */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries } from '../lib/search-queries.js';
import { shuffled, similarRequest } from '../lib/semantic-requests.js';

const scenario: Scenario = {
  name: 'semantic-similar',
  description: 'POST /v1/search/similar (hybrid) for 150 standard concepts by id and 150 free-text queries',
  prepare(ctx) {
    const ids = ctx.sample<{ concept_id: number }>(
      "SELECT concept_id FROM concept WHERE standard_concept = 'S' AND invalid_reason IS NULL AND vocabulary_id IN ('SNOMED', 'RxNorm', 'LOINC')",
      150,
    );
    const requests = [
      ...ids.map((r) => similarRequest({ concept_id: r.concept_id, similarity_threshold: 0.5 })),
      ...multiWordQueries(ctx, 150).map((q) => similarRequest({ query: q, similarity_threshold: 0.5 })),
    ];
    return cycle(shuffled(requests, ctx.random), ctx.random);
  },
};
export default scenario;
