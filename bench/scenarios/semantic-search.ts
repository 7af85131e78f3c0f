/**
 * Semantic search, warm: GET /v1/search/semantic for a pool of 300 queries (first words of standard
 * concept names and rare words), a quarter with a filter, cycled so the server's caches hold their
 * steady state. Targets at full scale (issue #12): p50 ≤ 50 ms, p99 ≤ 200 ms at concurrency 1.
 */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, rareWords } from '../lib/search-queries.js';
import { semanticSearchRequest, shuffled } from '../lib/semantic-requests.js';

const FILTERS = ['&domain_ids=Condition', '&vocabulary_ids=SNOMED', '&standard_concept=S', '&domain_ids=Drug'];

const scenario: Scenario = {
  name: 'semantic-search',
  description: 'GET /v1/search/semantic with a pool of 300 queries (name beginnings and rare words; a quarter filtered)',
  prepare(ctx) {
    const queries = shuffled([...multiWordQueries(ctx, 200), ...rareWords(ctx, 100)], ctx.random);
    return cycle(
      queries.map((q, i) => semanticSearchRequest(q, i % 4 === 0 ? FILTERS[(i / 4) % FILTERS.length] : '')),
      ctx.random,
    );
  },
};
export default scenario;
