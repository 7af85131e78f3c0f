/** POST /v1/mapping/candidates for standard names reworded as source systems do (mapping-candidates sends real source names). */
import { generatedTerms } from '../lib/mapping-terms.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'mapping-candidates-reworded',
  description: 'POST /v1/mapping/candidates, top 10 for one source term: 2,000 standard names reworded (word dropped or swapped, typing slip, case)',
  prepare(ctx) {
    const terms = generatedTerms(ctx, 2000);
    return cycle(
      terms.map((t) => ({ method: 'POST' as const, path: '/v1/mapping/candidates', body: JSON.stringify({ source_name: t.name, source_code: t.code, k: 10 }) })),
      ctx.random,
    );
  },
};
export default scenario;
