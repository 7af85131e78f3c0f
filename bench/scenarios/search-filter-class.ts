/** Keyword search for the most frequent words with concept_class_ids=Clinical%20Finding. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-filter-class',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&concept_class_ids=Clinical%20Finding',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&concept_class_ids=Clinical%20Finding')), ctx.random),
};
export default scenario;
