/** Keyword search for a bare ICD10CM code: the ICD10CM concept first, its Maps to target second. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { codesOf, searchRequest } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-icd10cm-code',
  description: 'GET /v1/search/concepts?query=<one of 200 ICD10CM codes, e.g. E11.9>',
  prepare: (ctx) => cycle(codesOf(ctx, 'ICD10CM').map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
