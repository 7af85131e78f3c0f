/** POST /v1/concept-sets/resolve?ids_only=true of 20 of the largest hierarchies with descendants (hundreds of thousands of ids). */
import { largeHierarchyExpressions } from '../lib/concept-set-inputs.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'concept-set-large-ids',
  description: 'POST /v1/concept-sets/resolve?ids_only=true, 20 items with descendants from the largest hierarchies that 20 fit under the ids_only cap',
  prepare(ctx) {
    const bodies = largeHierarchyExpressions(ctx.store, ctx.random, 50).map((expression) => JSON.stringify({ expression }));
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concept-sets/resolve?ids_only=true', body })), ctx.random);
  },
};
export default scenario;
