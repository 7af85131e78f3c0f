/**
 * POST /fhir/r4/CodeSystem/$find-matches with a relationship property (its concept's inbound rows give
 * the candidates, at most 1,000 per property): 2,000 random concepts of served vocabularies, each
 * asking for the concepts that are `Is a` its parent (exact, with the concept's domain) or that
 * `Maps to` its standard target (inexact, with the concept's class), in the OMOP system.
 */
import { OMOP_CONCEPT_SYSTEM } from '../../src/services/fhir/code-system-uris.js';
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const LICENSED = [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES].map((v) => `'${v}'`).join(', ');
const CONCEPTS = 2000;

const property = (code: string, value: string) => ({ name: 'property', part: [{ name: 'code', valueCode: code }, { name: 'value', valueCode: value }] });

const scenario: Scenario = {
  name: 'fhir-find-matches-relationship',
  description: `POST /fhir/r4/CodeSystem/$find-matches by a relationship: ${CONCEPTS} random concepts, the concepts that are 'Is a' its parent (exact, + domain) or 'Maps to' its target (inexact, + class)`,
  prepare(ctx) {
    const concepts = ctx.sample<{ concept_id: number; domain_id: string; concept_class_id: string }>(
      `SELECT concept_id, domain_id, concept_class_id FROM concept WHERE vocabulary_id NOT IN (${LICENSED})`,
      CONCEPTS,
    );
    const related = ctx.store.prepare(
      `SELECT r.concept_id_2 FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = ? AND r.relationship_id = ? AND r.invalid_reason IS NULL AND c.vocabulary_id NOT IN (${LICENSED}) LIMIT 1`,
    );
    const requests: BenchRequest[] = [];
    for (const c of concepts) {
      const parent = related.pluck().get(c.concept_id, 'Is a') as number | undefined;
      const target = related.pluck().get(c.concept_id, 'Maps to') as number | undefined;
      const asked =
        target !== undefined && target !== c.concept_id && requests.length % 2 === 1
          ? { exact: false, properties: [property('Maps to', String(target)), property('concept-class-id', c.concept_class_id)] }
          : parent !== undefined
            ? { exact: true, properties: [property('Is a', String(parent)), property('domain-id', c.domain_id)] }
            : undefined;
      if (!asked) continue;
      requests.push({
        method: 'POST',
        path: '/fhir/r4/CodeSystem/$find-matches',
        headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify({
          resourceType: 'Parameters',
          parameter: [{ name: 'system', valueUri: OMOP_CONCEPT_SYSTEM }, { name: 'exact', valueBoolean: asked.exact }, ...asked.properties],
        }),
      });
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
