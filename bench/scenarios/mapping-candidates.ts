/**
 * One source term's candidates (issue #24, the review page's call): POST /v1/mapping/candidates with the name and code
 * of non-standard concepts that `Maps to` a standard one (source wordings of ICD, Read, …), up to 20,000 different
 * terms so that none repeats within a run of the default length. Target at full scale: p50 ≤ 30 ms at concurrency 1.
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { shuffled } from '../lib/semantic-requests.js';

const POOL = 20_000;

const scenario: Scenario = {
  name: 'mapping-candidates',
  description: `POST /v1/mapping/candidates (k 10) for up to ${POOL.toLocaleString('en')} different source names and codes`,
  prepare(ctx) {
    const rows = ctx.sample<{ name: string; code: string }>(
      `SELECT c.concept_name AS name, c.concept_code AS code FROM concept c
          JOIN concept_relationship r ON r.concept_id_1 = c.concept_id AND r.relationship_id = 'Maps to'
        WHERE c.standard_concept IS NULL AND length(c.concept_name) BETWEEN 3 AND 200`,
      POOL,
    );
    const seen = new Set<string>();
    const requests: BenchRequest[] = [];
    for (const { name, code } of rows) {
      const key = `${name.toLowerCase()}|${code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      requests.push({ method: 'POST', path: '/v1/mapping/candidates', body: JSON.stringify({ source_name: name, source_code: code, k: 10 }) });
    }
    return cycle(shuffled(requests, ctx.random), ctx.random);
  },
};
export default scenario;
