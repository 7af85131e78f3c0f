/** POST /v1/concept-sets/resolve of typical phenotypes: 20 SNOMED items (most with descendants, some mapped, one exclusion), first page of 100 with the summary. */
import { phenotypeExpressions } from '../lib/concept-set-inputs.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'concept-set-resolve',
  description: 'POST /v1/concept-sets/resolve, typical phenotype: 20 SNOMED Condition items with hierarchies of 5–250 concepts, page_size 100 + summary',
  prepare(ctx) {
    const bodies = phenotypeExpressions(ctx.store, ctx.random, 200).map((expression) => JSON.stringify({ expression, page_size: 100 }));
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concept-sets/resolve', body })), ctx.random);
  },
};
export default scenario;
