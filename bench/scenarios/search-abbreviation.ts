/** Keyword search for the whole-query abbreviations (COPD, CHF, MI, T2DM, HTN, CKD). */
import { cycle, type Scenario } from '../lib/scenario.js';
import { ABBREVIATIONS, searchRequest } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-abbreviation',
  description: 'GET /v1/search/concepts?query=<MI | COPD | CHF | T2DM | HTN | CKD>',
  prepare: (ctx) => cycle(ABBREVIATIONS.map((q) => searchRequest(q)), ctx.random),
};
export default scenario;
