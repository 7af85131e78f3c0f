/** Keyword search for the most frequent words (hundreds of thousands of matches each). */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-common-word',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words> (e.g. tablet, disorder)',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
