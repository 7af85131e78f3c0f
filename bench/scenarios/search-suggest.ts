/** Autocomplete on word beginnings. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { wordBeginnings } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-suggest',
  description: 'GET /v1/search/suggest?query=<first 4 letters of one of 200 frequent words>',
  prepare: (ctx) => cycle(wordBeginnings(ctx).map((q) => ({ path: `/v1/search/suggest?query=${encodeURIComponent(q)}` })), ctx.random),
};
export default scenario;
