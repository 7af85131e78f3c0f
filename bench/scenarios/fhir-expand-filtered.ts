/**
 * GET /fhir/r4/ValueSet/$expand of `https://fhir-terminology.ohdsi.org?fhir_vs=isa/{id}` of the
 * concepts with the most descendants with a text `filter` (keyword search within the set): a word of
 * a descendant's name, first page of 100 (issue 14 target: p50 ≤ 30 ms at full scale).
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { isaUrl, LARGEST_ANCESTORS_SQL } from './fhir-expand-isa.js';

const COUNT = 100;
const WORDS_PER_ROOT = 10;

const scenario: Scenario = {
  name: 'fhir-expand-filtered',
  description: `GET /fhir/r4/ValueSet/$expand?url=…?fhir_vs=isa/{id}&filter={word} of the 10 largest ancestors, a word of a descendant's name, count ${COUNT}`,
  prepare(ctx) {
    const roots = ctx.store.prepare(LARGEST_ANCESTORS_SQL).all() as Array<{ id: number }>;
    const names = ctx.store.prepare(
      `SELECT c.concept_name AS name FROM concept_ancestor a JOIN concept c ON c.concept_id = a.descendant_concept_id
        WHERE a.ancestor_concept_id = ? AND a.min_levels_of_separation BETWEEN 1 AND 3 LIMIT 200`,
    );
    const requests: BenchRequest[] = [];
    for (const { id } of roots) {
      const words = new Set<string>();
      for (const { name } of names.all(id) as Array<{ name: string }>) {
        for (const word of name.toLowerCase().split(/[^a-z]+/)) if (word.length >= 5) words.add(word);
        if (words.size >= WORDS_PER_ROOT) break;
      }
      for (const word of words) requests.push({ path: `/fhir/r4/ValueSet/$expand?url=${isaUrl(id)}&filter=${encodeURIComponent(word)}&count=${COUNT}` });
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
