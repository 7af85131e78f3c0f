/** Keyword search for the most frequent words with page=50&page_size=20. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-deep-page',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&page=50&page_size=20',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&page=50&page_size=20')), ctx.random),
};
export default scenario;
