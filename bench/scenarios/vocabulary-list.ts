/** GET /v1/vocabularies: the vocabulary list with its per-vocabulary counts. */
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'vocabulary-list',
  description: 'GET /v1/vocabularies?page_size=100',
  prepare() {
    return () => ({ path: '/v1/vocabularies?page_size=100' });
  },
};
export default scenario;
