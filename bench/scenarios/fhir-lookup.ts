/**
 * GET /fhir/r4/CodeSystem/$lookup of 20,000 random concepts, every property (relationships included):
 * half by concept_id in the OMOP system, half by concept_code in their vocabulary's system.
 */
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import { NEVER_SERVED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { cycle, type BenchContext, type Scenario } from '../lib/scenario.js';

export interface SampledCode {
  system: string;
  code: string;
  display: string;
}

/**
 * `n` random concepts of served vocabularies as codes: even ones by concept_code in their
 * vocabulary's system (when it has a URI), the others by concept_id in the OMOP system.
 */
export function sampleCodes(ctx: BenchContext, n: number): SampledCode[] {
  const rows = ctx.sample<{ concept_id: number; concept_name: string; vocabulary_id: string; concept_code: string }>(
    `SELECT concept_id, concept_name, vocabulary_id, concept_code FROM concept WHERE vocabulary_id NOT IN (${NEVER_SERVED_VOCABULARIES.map(() => '?').join(', ')})`,
    n,
    ...NEVER_SERVED_VOCABULARIES,
  );
  return rows.map((r, i) => {
    const vocabularySystem = systemForVocabulary(r.vocabulary_id);
    return i % 2 === 0 && vocabularySystem
      ? { system: vocabularySystem, code: r.concept_code, display: r.concept_name }
      : { system: OMOP_CONCEPT_SYSTEM, code: String(r.concept_id), display: r.concept_name };
  });
}

const scenario: Scenario = {
  name: 'fhir-lookup',
  description: 'GET /fhir/r4/CodeSystem/$lookup, 20,000 random concepts (half system+concept_id, half vocabulary URI+concept_code), all properties',
  prepare(ctx) {
    const requests = sampleCodes(ctx, 20_000).map((c) => ({
      path: `/fhir/r4/CodeSystem/$lookup?system=${encodeURIComponent(c.system)}&code=${encodeURIComponent(c.code)}`,
    }));
    return cycle(requests, ctx.random);
  },
};
export default scenario;
