/** Bulk keyword search: 50 searches in one call. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, rareWords } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-bulk',
  description: 'POST /v1/search/bulk with 50 searches (rare words and multi-word queries, page_size 10)',
  prepare(ctx) {
    const queries = [...rareWords(ctx, 100), ...multiWordQueries(ctx, 100)];
    const bodies = Array.from({ length: 20 }, (_, b) =>
      JSON.stringify({ searches: Array.from({ length: 50 }, (_, i) => ({ search_id: String(i), query: queries[(b * 50 + i) % queries.length]!, page_size: 10 })) }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/search/bulk', body })), ctx.random);
  },
};
export default scenario;
