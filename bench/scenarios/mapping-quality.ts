/** GET /v1/mappings/quality/{source}/{target} (E10): ICD10CM→SNOMED with every section, and other pairs of the release. */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const LICENSED = ['CPT4', 'GPI', 'MedDRA'];
const EVERY_SECTION = 'include_outliers=true&include_trends=true&include_recommendations=true';

const scenario: Scenario = {
  name: 'mapping-quality',
  description: 'GET /v1/mappings/quality/ICD10CM/SNOMED with every section (half the requests), and up to 8 other pairs',
  prepare(ctx) {
    const others = ctx.sample<{ source_vocabulary_id: string; target_vocabulary_id: string }>(
      `SELECT source_vocabulary_id, target_vocabulary_id FROM mapping_quality_pair
        WHERE source_vocabulary_id NOT IN (${LICENSED.map(() => '?').join(', ')})
          AND target_vocabulary_id NOT IN (${LICENSED.map(() => '?').join(', ')})`,
      8,
      ...LICENSED,
      ...LICENSED,
    );
    const requests: BenchRequest[] = [];
    for (const p of others) {
      requests.push({ path: '/v1/mappings/quality/ICD10CM/SNOMED?' + EVERY_SECTION });
      requests.push({ path: `/v1/mappings/quality/${encodeURIComponent(p.source_vocabulary_id)}/${encodeURIComponent(p.target_vocabulary_id)}?${EVERY_SECTION}` });
    }
    if (!requests.length) requests.push({ path: '/v1/mappings/quality/ICD10CM/SNOMED?' + EVERY_SECTION });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
