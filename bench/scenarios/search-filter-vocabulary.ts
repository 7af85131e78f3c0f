/** Keyword search for the most frequent words with vocabulary_ids=SNOMED,ICD10CM. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { searchRequest, veryCommonWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-filter-vocabulary',
  description: 'GET /v1/search/concepts?query=<one of the 20 most frequent words>&vocabulary_ids=SNOMED,ICD10CM',
  prepare: (ctx) => cycle(veryCommonWords(ctx).map((q) => searchRequest(q, '&vocabulary_ids=SNOMED,ICD10CM')), ctx.random),
};
export default scenario;
