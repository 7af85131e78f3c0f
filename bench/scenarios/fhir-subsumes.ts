/**
 * GET /fhir/r4/CodeSystem/$subsumes in the OMOP system: 5,000 random standard concepts, each paired
 * with one of its ancestors (as codeA or as codeB, alternately) or, for one in four, with another
 * random concept (mostly not-subsumed, the answer that needs both lookups).
 */
import { OMOP_CONCEPT_SYSTEM } from '../../src/services/fhir/code-system-uris.js';
import { cycle, type Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'fhir-subsumes',
  description: 'GET /fhir/r4/CodeSystem/$subsumes, 5,000 random standard concepts against an ancestor (either side) or a random concept',
  prepare(ctx) {
    const concepts = ctx.sample<{ concept_id: number }>("SELECT concept_id FROM concept WHERE standard_concept = 'S'", 5000);
    const ancestors = ctx.store.prepare(
      'SELECT ancestor_concept_id AS id FROM concept_ancestor WHERE descendant_concept_id = ? AND ancestor_concept_id <> descendant_concept_id',
    );
    const system = encodeURIComponent(OMOP_CONCEPT_SYSTEM);
    const requests = concepts.map((c, i) => {
      const above = ancestors.all(c.concept_id) as Array<{ id: number }>;
      const other = i % 4 === 3 || !above.length ? concepts[Math.floor(ctx.random() * concepts.length)]!.concept_id : above[Math.floor(ctx.random() * above.length)]!.id;
      const [a, b] = i % 2 === 0 ? [other, c.concept_id] : [c.concept_id, other];
      return { path: `/fhir/r4/CodeSystem/$subsumes?system=${system}&codeA=${a}&codeB=${b}` };
    });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
