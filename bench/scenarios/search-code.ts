/** Keyword search for a SNOMED code (ranking rule 1). */
import { cycle, type Scenario } from '../lib/scenario.js';
import { codesOf, searchRequest } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-code',
  description: 'GET /v1/search/concepts?query=<one of 200 SNOMED codes>',
  prepare: (ctx) => cycle(codesOf(ctx, 'SNOMED').map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
