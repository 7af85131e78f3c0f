/** POST /v1/fhir/resolve with a system (or vocabulary_id) and code: 20,000 random codings, half of them non-standard (Maps to). */
import { resolverCodings } from '../lib/mapping-sources.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'fhir-resolve-structured',
  description: 'POST /v1/fhir/resolve, system+code or vocabulary_id+code of 20,000 random concepts (half non-standard with Maps to), include_quality',
  prepare(ctx) {
    const codings = resolverCodings(ctx, 20_000);
    return cycle(
      codings.map((coding) => ({ method: 'POST' as const, path: '/v1/fhir/resolve', body: JSON.stringify({ ...coding, include_quality: true }) })),
      ctx.random,
    );
  },
};
export default scenario;
