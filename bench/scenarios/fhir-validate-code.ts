/**
 * GET /fhir/r4/CodeSystem/$validate-code of 20,000 random concepts with their display (half by
 * concept_id in the OMOP system, half by concept_code in their vocabulary's system); one in ten
 * with a wrong display (in both systems), which reads the synonyms too.
 */
import { cycle, type Scenario } from '../lib/scenario.js';
import { sampleCodes } from './fhir-lookup.js';

const scenario: Scenario = {
  name: 'fhir-validate-code',
  description: 'GET /fhir/r4/CodeSystem/$validate-code, 20,000 random concepts with display (1 in 10 wrong), half OMOP system, half vocabulary URI',
  prepare(ctx) {
    const requests = sampleCodes(ctx, 20_000).map((c, i) => {
      const display = Math.floor(i / 2) % 10 === 0 ? `${c.display} (wrong)` : c.display;
      return {
        path: `/fhir/r4/CodeSystem/$validate-code?url=${encodeURIComponent(c.system)}&code=${encodeURIComponent(c.code)}&display=${encodeURIComponent(display)}`,
      };
    });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
