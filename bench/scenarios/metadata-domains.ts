/** The metadata lists with their counts (from the load-time concept summary): domains and concept classes. */
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'metadata-domains',
  description: 'GET /v1/domains?include_stats=true and GET /v1/concept-classes?include_stats=true, alternately',
  prepare(ctx) {
    return cycle([{ path: '/v1/domains?include_stats=true' }, { path: '/v1/concept-classes?include_stats=true' }], ctx.random);
  },
};
export default scenario;
