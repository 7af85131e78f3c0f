/**
 * GET /fhir/r4/ValueSet/$expand of the implicit ValueSet `https://fhir-terminology.ohdsi.org?fhir_vs=isa/{id}`
 * of the concepts with the most descendants (~310k at full size), a page of 100 at offset 0, in the
 * middle and near the end, with the exact total (issue 14 target: p50 ≤ 20 ms at full scale).
 */
import { OMOP_CONCEPT_SYSTEM } from '../../src/services/fhir/code-system-uris.js';
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../../src/licences/licence-rules.js';
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const COUNT = 100;
/** Licensed vocabularies the bench key may not read. */
export const LICENSED_VOCABULARIES_SQL = [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES].map((v) => `'${v}'`).join(', ');

/** The 10 readable concepts with the most descendants (all levels, valid or not), from the loader's facets. */
export const LARGEST_ANCESTORS_SQL = `SELECT f.ancestor_concept_id AS id, sum(f.descendant_count) AS n FROM hierarchy_descendant_facet f
   JOIN concept c ON c.concept_id = f.ancestor_concept_id WHERE c.vocabulary_id NOT IN (${LICENSED_VOCABULARIES_SQL})
   GROUP BY 1 ORDER BY n DESC LIMIT 10`;

export const isaUrl = (conceptId: number) => encodeURIComponent(`${OMOP_CONCEPT_SYSTEM}?fhir_vs=isa/${conceptId}`);

const scenario: Scenario = {
  name: 'fhir-expand-isa',
  description: `GET /fhir/r4/ValueSet/$expand?url=…?fhir_vs=isa/{id} of the 10 largest ancestors, count ${COUNT} at offset 0, middle and near the end (exact total)`,
  prepare(ctx) {
    const roots = ctx.store.prepare(LARGEST_ANCESTORS_SQL).all() as Array<{ id: number; n: number }>;
    const requests: BenchRequest[] = [];
    for (const { id, n } of roots) {
      for (const offset of [0, Math.floor(n / 2), Math.max(0, n - 2 * COUNT)]) {
        requests.push({ path: `/fhir/r4/ValueSet/$expand?url=${isaUrl(id)}&offset=${offset}&count=${COUNT}` });
      }
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
