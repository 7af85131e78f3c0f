/** Keyword search for rare words (2–50 matches). */
import { cycle, type Scenario } from '../lib/scenario.js';
import { rareWords, searchRequest } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-rare-word',
  description: 'GET /v1/search/concepts?query=<one of 200 words found in 2–50 concepts>',
  prepare: (ctx) => cycle(rareWords(ctx).map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
