/** Bulk semantic search: 25 searches in one call (the most the endpoint takes), page_size 10. */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, rareWords } from '../lib/search-queries.js';

const SEARCHES = 25;

const scenario: Scenario = {
  name: 'semantic-bulk',
  description: `POST /v1/search/semantic-bulk with ${SEARCHES} searches (name beginnings and rare words, page_size 10)`,
  prepare(ctx) {
    const queries = [...multiWordQueries(ctx, 100), ...rareWords(ctx, 100)];
    const bodies = Array.from({ length: 20 }, (_, b) =>
      JSON.stringify({ searches: Array.from({ length: SEARCHES }, (_, i) => ({ search_id: String(i), query: queries[(b * SEARCHES + i) % queries.length]!, page_size: 10 })) }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/search/semantic-bulk', body })), ctx.random);
  },
};
export default scenario;
