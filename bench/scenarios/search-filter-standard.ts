/** Keyword search for the most frequent words with standard_concept=S. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-filter-standard',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&standard_concept=S',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&standard_concept=S')), ctx.random),
};
export default scenario;
