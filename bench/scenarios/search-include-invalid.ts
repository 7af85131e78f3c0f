/** Keyword search for the most frequent words with include_invalid=true. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-include-invalid',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&include_invalid=true',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&include_invalid=true')), ctx.random),
};
export default scenario;
