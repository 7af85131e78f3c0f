/** POST /v1/concepts/map: 100 mapped non-standard concepts to SNOMED per call (direct). */
import { cycle, type Scenario } from '../lib/scenario.js';
import { mappedNonStandardConcepts } from '../lib/mapping-sources.js';

const BATCH = 100;
const BODIES = 50;

const scenario: Scenario = {
  name: 'mappings-map',
  description: `POST /v1/concepts/map, ${BATCH} random non-standard concepts with 'Maps to' rows → SNOMED (mapping_type direct)`,
  prepare(ctx) {
    const ids = mappedNonStandardConcepts(ctx, BATCH * BODIES);
    const bodies = Array.from({ length: BODIES }, (_, b) =>
      JSON.stringify({ target_vocabulary: 'SNOMED', source_concepts: Array.from({ length: BATCH }, (_, i) => ids[(b * BATCH + i) % ids.length]!) }),
    );
    return cycle(
      bodies.map((body) => ({ method: 'POST' as const, path: '/v1/concepts/map', body })),
      ctx.random,
    );
  },
};
export default scenario;
