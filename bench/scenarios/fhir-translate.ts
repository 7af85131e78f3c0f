/**
 * GET /fhir/{r4,r5}/ConceptMap/$translate: half forward (R4 system+code of a random non-standard concept with a
 * 'Maps to' row, into the OMOP concept system), half reverse (R5 targetCode of a random standard concept, its
 * 'Mapped from' sources in every vocabulary, at most 1,000).
 */
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../src/services/fhir/code-system-uris.js';
import { mappedNonStandardConcepts } from '../lib/mapping-sources.js';
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const translate = (version: string, query: Record<string, string>): BenchRequest => ({ path: `/fhir/${version}/ConceptMap/$translate?${new URLSearchParams(query)}` });

const scenario: Scenario = {
  name: 'fhir-translate',
  description: 'GET ConceptMap/$translate: 5,000 forward (R4 system+code of non-standard concepts → OMOP) and 5,000 reverse (R5 targetCode of standard concepts → Mapped from)',
  prepare(ctx) {
    const lookup = ctx.store.prepare('SELECT vocabulary_id, concept_code FROM concept WHERE concept_id = ?');
    const forward = mappedNonStandardConcepts(ctx, 10_000).flatMap((id) => {
      const row = lookup.get(id) as { vocabulary_id: string; concept_code: string };
      const system = systemForVocabulary(row.vocabulary_id);
      return system ? [translate('r4', { system, code: row.concept_code })] : [];
    });
    const reverse = ctx
      .sample<{ concept_id: number }>("SELECT concept_id FROM concept WHERE standard_concept = 'S' AND invalid_reason IS NULL", 5000)
      .map((r) => translate('r5', { targetCode: String(r.concept_id), targetSystem: OMOP_CONCEPT_SYSTEM }));
    return cycle([...forward.slice(0, 5000), ...reverse], ctx.random);
  },
};
export default scenario;
