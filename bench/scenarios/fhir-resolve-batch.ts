/** POST /v1/fhir/resolve/batch: 100 structured codings per request. */
import { resolverCodings } from '../lib/mapping-sources.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const BATCH_SIZE = 100;

const scenario: Scenario = {
  name: 'fhir-resolve-batch',
  description: 'POST /v1/fhir/resolve/batch, 100 structured codings (system+code or vocabulary_id+code, half non-standard), include_quality',
  prepare(ctx) {
    const codings = resolverCodings(ctx, 20_000);
    const bodies = Array.from({ length: codings.length / BATCH_SIZE }, (_, b) =>
      JSON.stringify({ codings: codings.slice(b * BATCH_SIZE, (b + 1) * BATCH_SIZE), include_quality: true }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/fhir/resolve/batch', body })), ctx.random);
  },
};
export default scenario;
