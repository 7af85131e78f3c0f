/** Keyword search for a part of a word ("iabet"): substring matching through the word dictionary. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, wordParts } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-substring',
  description: 'GET /v1/search/concepts?query=<5 letters from inside one of 200 words>',
  prepare: (ctx) => cycle(wordParts(ctx).map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
