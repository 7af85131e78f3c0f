/**
 * Bulk keyword search with queries the server has not seen before: 800 different bodies of 50
 * different searches, so that (unlike search-bulk, which cycles 20 bodies) no per-query cache
 * inside the server has the answer. This is the first-time cost of a bulk request.
 */
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, rareWords } from '../lib/search-queries.js';

const BODIES = 800;

const scenario: Scenario = {
  name: 'search-unseen-bulk',
  description: `POST /v1/search/bulk with 50 searches never seen before (${BODIES} different bodies; rare words and multi-word queries, page_size 10)`,
  prepare(ctx) {
    const rare = rareWords(ctx, (BODIES * 50) / 2);
    const multi = [...new Set(multiWordQueries(ctx, BODIES * 50))];
    const queries = [...new Set(rare.flatMap((w, i) => [w, multi[i] ?? w]))];
    const bodies = Array.from({ length: Math.floor(queries.length / 50) }, (_, b) =>
      JSON.stringify({ searches: queries.slice(b * 50, b * 50 + 50).map((query, i) => ({ search_id: String(i), query, page_size: 10 })) }),
    );
    return cycle(bodies.map((body) => ({ method: 'POST' as const, path: '/v1/search/bulk', body })), () => 0);
  },
};
export default scenario;
