/** GET /v1/mappings/coverage: ICD10CM→SNOMED (all domains and Condition only) and other pairs of the release. */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const LICENSED = ['CPT4', 'GPI', 'MedDRA'];

const coverage = (source: string, target: string, domains?: string) =>
  `/v1/mappings/coverage?source_vocabulary=${encodeURIComponent(source)}&target_vocabulary=${encodeURIComponent(target)}` +
  (domains ? `&domain_ids=${encodeURIComponent(domains)}` : '');

const scenario: Scenario = {
  name: 'mapping-coverage',
  description: 'GET /v1/mappings/coverage for ICD10CM→SNOMED (all domains, Condition) and up to 8 other pairs',
  prepare(ctx) {
    const others = ctx.sample<{ source_vocabulary_id: string; target_vocabulary_id: string }>(
      `SELECT DISTINCT source_vocabulary_id, target_vocabulary_id FROM mapping_coverage_target
        WHERE source_vocabulary_id NOT IN (${LICENSED.map(() => '?').join(', ')})
          AND target_vocabulary_id NOT IN (${LICENSED.map(() => '?').join(', ')})`,
      8,
      ...LICENSED,
      ...LICENSED,
    );
    const requests: BenchRequest[] = [{ path: coverage('ICD10CM', 'SNOMED') }, { path: coverage('ICD10CM', 'SNOMED', 'Condition') }];
    for (const p of others) requests.push({ path: coverage(p.source_vocabulary_id, p.target_vocabulary_id) });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
