/** Keyword search for the most frequent words with domain_ids=Condition. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-filter-domain',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&domain_ids=Condition',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&domain_ids=Condition')), ctx.random),
};
export default scenario;
