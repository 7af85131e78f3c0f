/**
 * POST /fhir/r4/CodeSystem/$find-matches by CONCEPT columns alone (read from the search index's filter
 * tags). The property combinations come from the store's concept_summary groups, so that the pool
 * mixes common combinations (a whole domain) with rare ones (a small class inside a large vocabulary
 * and domain, where the tag read has to skip the most), and every request has matches:
 * - exact: domain + class + standard flag of a group, in the OMOP system or its vocabulary's system;
 * - inexact (exact false): a group's domain and class together with another group's class (two
 *   levels: both properties, then either).
 */
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const LICENSED = [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES].map((v) => `'${v}'`).join(', ');
const GROUPS = 400;

interface Group {
  vocabulary_id: string;
  domain_id: string;
  concept_class_id: string;
  standard_concept: string | null;
}

const property = (code: string, value: string) => ({ name: 'property', part: [{ name: 'code', valueCode: code }, { name: 'value', valueCode: value }] });

const scenario: Scenario = {
  name: 'fhir-find-matches',
  description: `POST /fhir/r4/CodeSystem/$find-matches by columns alone: ${GROUPS} concept_summary groups (domain, class, standard flag), exact in the OMOP or the vocabulary's system, and inexact pairs of classes`,
  prepare(ctx) {
    const groups = ctx.sample<Group>(
      `SELECT DISTINCT vocabulary_id, domain_id, concept_class_id, standard_concept FROM concept_summary WHERE vocabulary_id NOT IN (${LICENSED}) AND is_invalid = 0`,
      GROUPS,
    );
    const requests: BenchRequest[] = groups.map((g, i) => {
      const vocabularySystem = systemForVocabulary(g.vocabulary_id);
      const exact = i % 3 !== 2;
      const system = exact && i % 2 === 0 && vocabularySystem ? vocabularySystem : OMOP_CONCEPT_SYSTEM;
      const properties = exact
        ? [
            property('domain-id', g.domain_id),
            property('concept-class-id', g.concept_class_id),
            property('standard-concept', g.standard_concept ?? 'NS'),
            ...(system === OMOP_CONCEPT_SYSTEM ? [property('vocabulary-id', g.vocabulary_id)] : []),
          ]
        : [property('domain-id', g.domain_id), property('concept-class-id', g.concept_class_id), property('concept-class-id', groups[(i + 1) % groups.length]!.concept_class_id)];
      return {
        method: 'POST',
        path: '/fhir/r4/CodeSystem/$find-matches',
        headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: system }, { name: 'exact', valueBoolean: exact }, ...properties] }),
      };
    });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
