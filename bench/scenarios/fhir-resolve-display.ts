/**
 * Display-only resolution (spec E7 rule 3): POST /v1/fhir/resolve with `display` and `resource_type`
 * for up to 20,000 different texts, so that no request repeats within a run of the default length
 * (first-time cost, like semantic-search-unseen): half the names of non-standard concepts with a
 * `Maps to` row (source wordings of ICD, Read, …, with the resource type of their target's domain),
 * half the first two or three words of standard concept names (with the resource type of their
 * domain); `on_unmapped: sentinel`, so a text that matches nothing is a 200 too. Target at full
 * scale (issue #13): p50 ≤ 60 ms at concurrency 1.
 */
import { RESOURCE_TYPE_OF_DOMAIN } from '../../src/services/fhir-resolver/cdm-target.js';
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { shuffled } from '../lib/semantic-requests.js';

const POOL = 20_000;
const DOMAINS = Object.keys(RESOURCE_TYPE_OF_DOMAIN)
  .map((d) => `'${d}'`)
  .join(', ');

interface DisplayRow {
  display: string;
  domain_id: string;
}

const scenario: Scenario = {
  name: 'fhir-resolve-display',
  description: `POST /v1/fhir/resolve with display and resource_type only, up to ${POOL.toLocaleString('en')} different texts (source concept names, standard name beginnings)`,
  prepare(ctx) {
    const sourceNames = ctx.sample<DisplayRow>(
      `SELECT c.concept_name AS display, t.domain_id FROM concept c
          JOIN concept_relationship r ON r.concept_id_1 = c.concept_id AND r.relationship_id = 'Maps to'
          JOIN concept t ON t.concept_id = r.concept_id_2
        WHERE c.standard_concept IS NULL AND t.domain_id IN (${DOMAINS}) AND length(c.concept_name) BETWEEN 3 AND 200`,
      POOL / 2,
    );
    const nameBeginnings = ctx
      .sample<DisplayRow>(
        `SELECT concept_name AS display, domain_id FROM concept
          WHERE standard_concept = 'S' AND invalid_reason IS NULL AND domain_id IN (${DOMAINS}) AND length(concept_name) BETWEEN 12 AND 60 AND concept_name GLOB '* *'`,
        POOL / 2,
      )
      .map((r) => ({ ...r, display: r.display.split(' ').slice(0, 2 + Math.floor(ctx.random() * 2)).join(' ') }));
    const seen = new Set<string>();
    const requests: BenchRequest[] = [];
    for (const { display, domain_id } of [...sourceNames, ...nameBeginnings]) {
      const key = `${display.toLowerCase()}|${domain_id}`;
      if (display.trim().length < 3 || seen.has(key)) continue;
      seen.add(key);
      requests.push({ method: 'POST', path: '/v1/fhir/resolve', body: JSON.stringify({ display, resource_type: RESOURCE_TYPE_OF_DOMAIN[domain_id], on_unmapped: 'sentinel' }) });
    }
    return cycle(shuffled(requests, ctx.random), ctx.random);
  },
};
export default scenario;
