/** Keyword search for two or three words taken from standard concept names. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, searchRequest } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-multi-word',
  description: 'GET /v1/search/concepts?query=<first 2–3 words of one of 200 standard concept names>',
  prepare: (ctx) => cycle(multiWordQueries(ctx).map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
