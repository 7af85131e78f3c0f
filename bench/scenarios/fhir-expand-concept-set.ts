/**
 * POST /fhir/r4/ValueSet/$expand of typical phenotypes written as ValueSets (the compose POST /v1/concept-sets/to-valueset
 * writes: is-a, maps-to, exclude), sent inline, a page of 100 with the exact total (issue 22 target: p50 ≤ 50 ms).
 */
import { valueSetOfExpression } from '../../src/services/concept-sets/concept-set-value-set.js';
import { phenotypeExpressions } from '../lib/concept-set-inputs.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'fhir-expand-concept-set',
  description: 'POST /fhir/r4/ValueSet/$expand of a concept-set ValueSet (typical phenotype: 20 SNOMED items, hierarchies of 5–250 concepts), count 100 with exact total',
  prepare(ctx) {
    const bodies = phenotypeExpressions(ctx.store, ctx.random, 200).map((expression) => {
      const items = expression.items.map((i) => ({ conceptId: i.concept.CONCEPT_ID, isExcluded: i.isExcluded, includeDescendants: i.includeDescendants, includeMapped: i.includeMapped }));
      const valueSet = valueSetOfExpression({ items }, { codeSystemVersion: 'bench', releaseLabel: 'bench', fhirVersion: 'r4' });
      return JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: valueSet }, { name: 'count', valueInteger: 100 }] });
    });
    return cycle(
      bodies.map((body) => ({ method: 'POST' as const, path: '/fhir/r4/ValueSet/$expand', body, headers: { 'content-type': 'application/fhir+json' } })),
      ctx.random,
    );
  },
};
export default scenario;
