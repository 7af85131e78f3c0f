/**
 * POST /fhir/r4/ConceptMap/$closure with 50 codes (spec E11's maximum; issue 14 target p50 ≤ 30 ms
 * at full scale). Each body is built around a concept 6+ levels deep: the concept, up to 24 of its
 * ancestors (so the answer holds real pairs at every distance) and other deep concepts to 50; half
 * of the codings are OMOP concept ids, half their vocabulary's system URI and code.
 */
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { MAX_CLOSURE_CONCEPTS } from '../../src/services/terminology/closure.js';
import { cycle, type Scenario } from '../lib/scenario.js';
import { DEEP_CONCEPTS_SQL } from './hierarchy-ancestors.js';

const BODIES = 200;
const ANCESTORS_PER_BODY = 24;
/** Licensed vocabularies the bench key may not read (a code of one would be a 403). */
const LICENSED = [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES].map((v) => `'${v}'`).join(', ');

interface CodedConcept {
  concept_id: number;
  vocabulary_id: string;
  concept_code: string;
}

const scenario: Scenario = {
  name: 'fhir-closure',
  description: `POST /fhir/r4/ConceptMap/$closure, ${MAX_CLOSURE_CONCEPTS} codes: a deep concept, up to ${ANCESTORS_PER_BODY} of its ancestors, other deep concepts; half OMOP ids, half vocabulary codes`,
  prepare(ctx) {
    const deep = ctx.sample<{ concept_id: number }>(DEEP_CONCEPTS_SQL, BODIES * MAX_CLOSURE_CONCEPTS).map((r) => r.concept_id);
    const concept = ctx.store.prepare(`SELECT concept_id, vocabulary_id, concept_code FROM concept WHERE concept_id = ? AND vocabulary_id NOT IN (${LICENSED})`);
    const ancestors = ctx.store.prepare(
      `SELECT c.concept_id, c.vocabulary_id, c.concept_code FROM concept_ancestor a JOIN concept c ON c.concept_id = a.ancestor_concept_id
        WHERE a.descendant_concept_id = ? AND a.min_levels_of_separation > 0 AND c.vocabulary_id NOT IN (${LICENSED})
        ORDER BY a.min_levels_of_separation LIMIT ${ANCESTORS_PER_BODY}`,
    );
    const coding = (c: CodedConcept, i: number) => {
      const system = i % 2 === 0 ? systemForVocabulary(c.vocabulary_id) : undefined;
      return system ? { system, code: c.concept_code } : { system: OMOP_CONCEPT_SYSTEM, code: String(c.concept_id) };
    };
    const bodies: string[] = [];
    let next = 0;
    for (let b = 0; b < BODIES && next < deep.length; b++) {
      const seed = concept.get(deep[next++]!) as CodedConcept | undefined;
      if (!seed) continue;
      const chosen = new Map<number, CodedConcept>([[seed.concept_id, seed], ...(ancestors.all(seed.concept_id) as CodedConcept[]).map((c): [number, CodedConcept] => [c.concept_id, c])]);
      while (chosen.size < MAX_CLOSURE_CONCEPTS && next < deep.length) {
        const other = concept.get(deep[next++]!) as CodedConcept | undefined;
        if (other) chosen.set(other.concept_id, other);
      }
      const parameter = [{ name: 'name', valueString: `bench-${b}` }, ...[...chosen.values()].map((c, i) => ({ name: 'concept', valueCoding: coding(c, i) }))];
      bodies.push(JSON.stringify({ resourceType: 'Parameters', parameter }));
    }
    return cycle(
      bodies.map((body) => ({ method: 'POST' as const, path: '/fhir/r4/ConceptMap/$closure', body, headers: { 'content-type': 'application/fhir+json' } })),
      ctx.random,
    );
  },
};
export default scenario;
